"""Chips that move on the table: a bet placed slides from the credit meter to its spot; a
settled round's chips lie still until the dealer's last card has turned, then the won ones go
to the player and the lost ones to the dealer; only the areas they cross are repainted."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from support import settled
from test_screen import ENDS, Clock, _texts_are_known, drawn, kiosk, settle

from oasis_kiosk.ui import render
from oasis_kiosk.ui.app import App
from oasis_kiosk.ui.motion import CHIP_SLIDE, DEALER, PLAYER

__all__ = ["_texts_are_known"]  # every text drawn is checked to lie inside its region

FLUSH = "As Ks 9s 7s 4s / Kd Kc 4h 5h 9c"  # a flush against a pair of kings: every bet won
LOST = "Ks Kh 4c 5c 9d / As Ad Ac Kd 2h"  # a pair of kings against three aces: every bet lost
EARLY = 0.2
"""A fraction of a chip's slide at which, eased, it is about half way."""


def chip_pixels(app: App, kind: str) -> list[tuple[int, int]]:
    """Where the felt shows the colour of a ``kind`` chip."""
    felt = render.rect(app.game.layout.table)
    colour = render.CHIP_COLOURS[kind]
    return [
        (x, y)
        for x in range(felt.x, felt.right, 2)
        for y in range(felt.y, felt.bottom, 2)
        if tuple(app.screen.get_at((x, y)))[:3] == colour
    ]


def centre_of(points: list[tuple[int, int]]) -> tuple[float, float]:
    return (sum(x for x, _y in points) / len(points), sum(y for _x, y in points) / len(points))


def between(point: tuple[float, float], start: tuple[float, float], end: tuple[float, float]) -> float:
    """How far along the way from ``start`` to ``end`` ``point`` lies (0 to 1), after checking
    it lies on that way, give or take a chip's radius."""
    way = pygame.math.Vector2(end) - pygame.math.Vector2(start)
    along = (pygame.math.Vector2(point) - pygame.math.Vector2(start)).dot(way) / way.length_squared()
    nearest = pygame.math.Vector2(start) + way * along
    assert nearest.distance_to(point) < 12, f"{point} is off the way from {start} to {end}"
    return along


def spot(app: App, kind: str) -> pygame.Rect:
    places = app.game._spot_places(app.game.layout)
    return render.rect(places[(0, kind)])


def credit_end(app: App) -> tuple[int, int]:
    lay = app.game.layout
    credit = lay.meters.split(3)[0]
    return (credit.x + credit.w // 2, lay.table.bottom + spot(app, "ante").h)


def dealer_end(app: App) -> tuple[int, int]:
    lay = app.game.layout
    return (lay.dealer.x + lay.dealer.w // 2, lay.table.y - spot(app, "ante").h)


@pytest.mark.parametrize("size", ENDS)
def test_a_bet_placed_slides_its_chip_from_the_credit_meter_to_its_spot(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app, clock = kiosk(tmp_path, size)
    app.key("f8")
    settle(app, clock, 1)
    assert not chip_pixels(app, "bonus")
    app.key("n")  # a bonus stake: its chip comes
    assert app.game.chips.pose((0, "bonus"), clock.now).end == PLAYER  # type: ignore[union-attr]
    clock.now += CHIP_SLIDE * EARLY
    drawn(app)
    bonus = spot(app, "bonus")
    on_its_way = chip_pixels(app, "bonus")
    assert on_its_way, "the chip is on the felt on its way"
    along = between(centre_of(on_its_way), credit_end(app), bonus.center)
    assert 0.2 < along < 0.9, f"{along} of the way"
    assert not bonus.collidepoint(centre_of(on_its_way)), "not on its spot yet"
    settle(app, clock, 1)
    arrived = chip_pixels(app, "bonus")
    assert arrived
    assert bonus.collidepoint(centre_of(arrived)), "then it lies on its spot"


@pytest.mark.parametrize(("deck", "towards"), [(FLUSH, PLAYER), (LOST, DEALER)])
def test_a_settled_rounds_chips_leave_only_after_the_reveal_won_to_the_player_lost_to_the_dealer(
    tmp_path: Path, deck: str, towards: str
) -> None:
    app, clock = played(tmp_path, (1920, 1080), deck)
    revealed_at = app.game.revealed_at
    assert revealed_at > clock.now, "the dealer's cards are still to turn"
    pressed = clock.now
    while clock.now < revealed_at - 1 / 60:
        for kind in ("ante", "play", "bonus"):
            pose = app.game.chips.pose((0, kind), clock.now)
            assert pose is not None
            if kind == "play" and clock.now < pressed + CHIP_SLIDE:
                assert pose.end == PLAYER, "the play bet comes first"
            else:
                assert pose.end is None, f"the {kind} chip moved before the dealer's last card had turned"
        clock.now += 1 / 60
        app.draw()
    for kind in ("ante", "play", "bonus"):
        leaves_at = app.game.chips.leaving[(0, kind)].start
        assert leaves_at >= revealed_at
        pose = app.game.chips.pose((0, kind), leaves_at + CHIP_SLIDE / 2)
        assert pose is not None
        assert pose.end == towards, kind
    clock.now = app.game.chips.leaving[(0, "ante")].start + CHIP_SLIDE * EARLY
    drawn(app)
    ante = spot(app, "ante")
    end = credit_end(app) if towards == PLAYER else dealer_end(app)
    going = chip_pixels(app, "ante")
    assert going, "the ante's chip is on the felt on its way"
    along = between(centre_of(going), ante.center, end)
    assert 0.2 < along < 0.9, f"{along} of the way"
    settle(app, clock, 3)
    assert not app.game.chips.busy(clock.now)
    assert all(app.game.chips.pose((0, kind), clock.now) is None for kind in ("ante", "play", "bonus"))
    assert not chip_pixels(app, "ante"), "the spots are empty: the chips have gone"


@pytest.mark.parametrize("size", ENDS)
def test_the_dealer_pays_each_won_bet_with_a_chip_from_his_end_before_they_go_to_the_player(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app, clock = played(tmp_path, size, FLUSH)
    chips = app.game.chips
    settlement = settled(app.terminal.store.rounds(1)[0])["boxes"][0]
    won = {
        kind: settlement[kind]["returned"] - settlement[kind]["stake"] for kind in ("ante", "play", "bonus")
    }
    assert all(amount > 0 for amount in won.values()), won
    assert {spot[1]: move.amount for spot, move in chips.paying.items()} == won
    pay = chips.paying[(0, "play")]
    assert pay.start >= app.game.revealed_at, "nothing is paid before the dealer's last card has turned"
    clock.now = pay.start + CHIP_SLIDE * EARLY
    drawn(app)
    play = spot(app, "play")
    coming = [point for point in chip_pixels(app, "play") if not play.collidepoint(point)]
    assert coming, "the pay is on the felt on its way"
    along = between(centre_of(coming), dealer_end(app), play.center)
    assert 0.2 < along < 0.9, f"{along} of the way"
    stake = settlement["play"]["stake"]
    assert chips.pose((0, "play"), clock.now).amount == stake  # type: ignore[union-attr]
    clock.now = pay.end
    assert chips.pose((0, "play"), clock.now).amount == stake + won["play"]  # type: ignore[union-attr]
    assert all(move.start >= pay.end for move in chips.leaving.values()), "the chips go once all is paid"


def test_a_lost_round_is_paid_nothing(tmp_path: Path) -> None:
    app, _clock = played(tmp_path, (1280, 720), LOST)
    assert app.game.chips.paying == {}


def played(tmp_path: Path, size: tuple[int, int], deck: str) -> tuple[App, Clock]:
    """A round with a bonus, dealt from ``deck`` and played: its outcome still to show."""
    app, clock = kiosk(tmp_path, size, deck=deck)
    app.key("f8")
    app.key("n")
    app.key("return")
    settle(app, clock, 2)
    app.key("p")
    assert app.terminal.round is None
    return app, clock


@pytest.mark.parametrize("size", ENDS)
def test_repainting_only_around_moving_chips_gives_the_same_picture_as_a_full_repaint(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app, clock = played(tmp_path, size, FLUSH)
    felt = render.rect(app.game.layout.table)
    frames = compared = 0
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        app.draw()
        frames += 1
        if app.game.chips.moving(clock.now) and frames % 3 == 0:
            drawn(app)
            painted = pygame.image.tobytes(app.screen.subsurface(felt), "RGB")
            app.game.invalidate()
            app.draw()
            assert painted == pygame.image.tobytes(app.screen.subsurface(felt), "RGB"), (
                f"frame {frames}: the partial repaint differs from a full one"
            )
            compared += 1
    assert compared > 3
