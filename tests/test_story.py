"""The round tells its story in order: the dealer's cards turn one by one, then the verdict
and each box's outcome, then the win counted up. WIN shows what the round won, never the
stakes that merely came back; folded boxes are greyed; a profile shows only the meters and
spots it has; the prompt and the buttons offer only what can be done."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pygame
import pytest
from support import REDRAW_DECK, books, golden_oasis_two_boxes, three_boxes_played
from test_screen import SIZES, Clock, _texts_are_known, kiosk, settle, shot

from oasis_kiosk import i18n
from oasis_kiosk.config import SPEEDS, Config, JackpotConfig
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import render
from oasis_kiosk.ui.app import App
from oasis_kiosk.ui.motion import HURRIED_GAP
from oasis_kiosk.ui.rules_text import hand_name
from oasis_kiosk.ui.scenes.game import table as game_table
from oasis_kiosk.ui.sound import TUNES, win_tune
from oasis_kiosk.ui.view import View, before_reveal, cash_for, last_settlement, snapshot
from oasis_kiosk.ui.widgets import chips, hand, jackpot, panel

TRIPS = "As Ad Ac Kd 2h / Ks Kh 4c 5c 9d"  # three aces against a pair of kings: won, +7 antes
FLUSH = "As Ks 9s 7s 4s / Kd Kc 4h 5h 9c"  # a dealt flush: won, and the bonus pays 60:1
NO_QUALIFY = "As Ad Ac Kd 2h / 2s 3h 4c 7c 9d"  # the dealer does not qualify: the ante wins 1:1
__all__ = ["_texts_are_known"]  # every text drawn is checked to lie inside its region

PUSH = "Ks Kh 9c 7d 4s / Kd Kc 9h 7s 4c"  # the same hand both sides: a stand-off


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """A kiosk set to another language leaves the next test in English."""
    yield
    i18n.use("en")


def dealer_faces(app: App, now: float) -> list[str | None]:
    """What each of the dealer's cards shows at ``now`` (None: its back, or mid-turn)."""
    faces = []
    for position in range(5):
        pose = app.game.motions.pose(("dealer", 0, position), now)
        faces.append(None if pose is None or pose.width < 1 else pose.face)
    return faces


def shown_while_the_dealer_turns(app: App, clock: Clock) -> list[View]:
    """The screen's view at each frame some of the dealer's cards are still to turn, drawn
    until the story is told; no jackpot banner meanwhile."""
    shown = []
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        app.draw()
        if None in dealer_faces(app, clock.now):
            shown.append(app.game.showing(clock.now))
            assert not app.game.celebrating(clock.now), "no jackpot banner"
    return shown


def played(app: App) -> list[str]:
    sounds: list[str] = []
    app.game.play_sound = sounds.append
    return sounds


def dealt(
    tmp_path: Path,
    deck: str,
    *,
    bonus: bool = False,
    size: tuple[int, int] = (1920, 1080),
    language: str = "en",
    **settings: Any,
) -> tuple[App, Clock]:
    app, clock = kiosk(tmp_path, size, deck=deck, language=language, **settings)
    app.key("f8")
    if bonus:
        app.key("n")
    app.key("return")
    assert app.terminal.round is not None
    settle(app, clock, 2)
    return app, clock


def test_the_outcome_shows_only_after_the_last_dealer_card_has_turned(tmp_path: Path) -> None:
    app, clock = dealt(tmp_path, TRIPS)
    sounds = played(app)
    app.key("p")
    assert app.terminal.round is None, "the round settled on the books at once"
    settlement = last_settlement(app.terminal)
    assert settlement is not None
    credits_before_the_outcome = app.terminal.credits - settlement["paid"]
    frames = []
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        app.draw()
        frames.append(
            (
                dealer_faces(app, clock.now),
                app.game.showing(clock.now),
                app.game.meters(clock.now),
                len(sounds),
            )
        )
    hidden = [(shown, meters, heard) for faces, shown, meters, heard in frames if None in faces]
    assert len(hidden) > 60, "the hole cards turn one after another, visibly"
    for shown, (credit, _bet, win), heard in hidden:
        assert shown.dealer_verdict == ""
        assert all("won" not in box.caption and "+" not in box.caption for box in shown.boxes)
        assert [box.caption for box in shown.boxes] == ["Three of a kind"], "the hand, not yet its outcome"
        assert win == 0
        assert credit == credits_before_the_outcome, "no money moves on screen before the outcome"
        assert heard == 0, "no sound gives the outcome away"
    revealed = [shown for faces, shown, _meters, _heard in frames if None not in faces]
    assert revealed[0].dealer_verdict == "One pair: the dealer qualifies"
    assert revealed[0].boxes[0].caption == "Three of a kind: won, +€70.00"
    assert sounds == ["win"]


ROYAL = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"  # the jackpot, over the handpay limit


@pytest.mark.parametrize(("deck", "bonus"), [(TRIPS, False), (NO_QUALIFY, False), (ROYAL, True)])
def test_nothing_on_the_screen_tells_the_outcome_while_the_dealers_cards_turn(
    tmp_path: Path, deck: str, bonus: bool
) -> None:
    """Not the verdict only: no handpay panel, no prompt and no button of the settled round
    (a lit ATTENDANT says "handpay" as plainly as the amount); a press only hurries then."""
    app, clock = dealt(tmp_path, deck, bonus=bonus)
    app.key("p")
    hidden = shown_while_the_dealer_turns(app, clock)
    assert hidden, "the hole cards turn after the PLAY"
    for shown in hidden:
        assert shown.overlay == ()
        assert shown.prompt == ""
        assert shown.buttons == ()
    settled = app.game.showing(clock.now)
    assert settled.prompt, "the settled round's prompt follows the reveal"
    assert settled.buttons, "and so do its buttons"
    if deck == ROYAL:
        assert settled.overlay[0] == "handpay"


@pytest.mark.parametrize(("deck", "bonus"), [(TRIPS, False), (PUSH, False), (ROYAL, True)])
def test_credit_never_shows_more_than_the_books_hold_nor_less_than_they_held_before_the_play(
    tmp_path: Path, deck: str, bonus: bool
) -> None:
    """CREDIT holds back what the round put on the credits until the outcome shows, then
    rises with the WIN counted. A win paid by hand never went on the credits: nothing is
    held back then, so CREDIT never dips below the credit left after the stakes (it once
    showed a royal flush's handpay taken off, below zero)."""
    app, clock = dealt(tmp_path, deck, bonus=bonus)
    app.key("p")
    terminal = app.terminal
    before_the_outcome = terminal.credits - (0 if terminal.handpay is not None else paid_back_now(app))
    shown = []
    while app.game.busy(clock.now):
        app.draw()
        shown.append(app.game.meters(clock.now)[0])
        clock.now += 1 / 30
    app.draw()
    shown.append(app.game.meters(clock.now)[0])
    assert min(shown) == before_the_outcome >= 0
    assert max(shown) == shown[-1] == terminal.credits
    if deck == ROYAL:
        assert terminal.handpay is not None, "the royal flush is paid by hand"
        assert set(shown) == {terminal.credits}, "the handpay never moves CREDIT"


def paid_back_now(app: App) -> int:
    """What the last round put back on the credits, from the books' ledger."""
    settlement = last_settlement(app.terminal)
    assert settlement is not None
    return int(settlement["paid"]) + int(settlement["jackpot_awards"])


def test_a_dealer_who_does_not_qualify_is_said_only_once_his_cards_have_turned(tmp_path: Path) -> None:
    """czech-exchange offers to buy a card against a dealer who does not qualify: the offer
    is the verdict, and waits for the hole cards as the outcome does."""
    app, clock = kiosk(tmp_path, (1280, 720), profile="czech-exchange", deck=NO_QUALIFY)
    app.key("f8")
    app.key("f8")
    app.key("return")
    settle(app, clock, 2)
    app.key("p")
    assert app.terminal.round is not None, "the round waits for BUY CARD or DECLINE"
    hidden = []
    while app.game.motions.busy(clock.now):
        clock.now += 1 / 60
        app.draw()
        if None in dealer_faces(app, clock.now):
            hidden.append(app.game.showing(clock.now))
    assert hidden, "the hole cards turn after the PLAY"
    assert all((shown.prompt, shown.buttons) == ("", ()) for shown in hidden)
    offer = app.game.showing(clock.now)
    assert "does not qualify" in offer.prompt
    assert "decline" in {name for name, _label, live in offer.buttons if live}


def test_the_cabinets_lamps_are_dark_while_the_dealers_cards_turn(tmp_path: Path) -> None:
    """A lamp is a button's light: with the whole credit staked, DEAL's lamp lighting at the
    PLAY (the win paid back) with the hole cards still down would tell the outcome as
    plainly as the screen's buttons."""
    app, clock = kiosk(tmp_path, (800, 480), deck=TRIPS)
    terminal = app.terminal
    app.key("f6")
    app.key("f7")  # €30: the ante and the play bet
    app.key("return")
    settle(app, clock, 2)
    assert terminal.credits == 2000, "the play bet is all that is left"
    assert app.cabinet is not None
    lamps, wiring = app.cabinet.lamp_factory, app.cabinet.wiring

    def lit() -> set[str]:
        return {name for name, pin in wiring.lamps.items() if lamps.pin(pin).state}

    assert "play" in lit()
    app.key("p")
    hidden = 0
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        app.advance(1 / 60)
        if None in dealer_faces(app, clock.now):
            hidden += 1
            assert lit() == set(), f"{hidden} frames into the reveal"
    assert hidden > 30
    assert "deal" in lit(), "the won credit deals again once the cards have turned"


def test_the_lamps_lit_as_the_dealers_last_card_turns_are_the_answer_the_terminal_gave_at_the_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing was taken since the PLAY: the frame that turns the last card, already the
    busiest, lights the lamps without reading the books again."""
    app, clock = kiosk(tmp_path, (800, 480), deck=TRIPS)
    app.key("f6")
    app.key("f7")  # the ante and the play bet
    app.key("return")
    settle(app, clock, 2)
    app.key("p")
    clock.now += 1 / 60
    app.advance(1 / 60)
    asked: list[float] = []
    live = app.terminal.live

    def asking() -> set[Intent]:
        asked.append(clock.now)
        return live()

    monkeypatch.setattr(app.terminal, "live", asking)
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        app.advance(1 / 60)
    assert app.cabinet is not None
    lamps, wiring = app.cabinet.lamp_factory, app.cabinet.wiring
    assert any(lamps.pin(pin).state for pin in wiring.lamps.values()), "lit once the cards have turned"
    assert asked == []


def test_a_play_pressed_under_help_shows_the_reveal_not_the_history(tmp_path: Path) -> None:
    """HELP ends with the last rounds' results: left open over a PLAY, it would give the
    settled round's outcome while the dealer's cards are still to turn."""
    app, clock = dealt(tmp_path, TRIPS)
    app.key("h")
    assert app.game.showing_help
    app.key("p")
    assert app.terminal.round is None
    assert not app.game.showing_help, "the reveal is what the screen shows"
    assert None in dealer_faces(app, clock.now + 1 / 60)


def test_a_press_hurries_the_reveal_but_keeps_its_order(tmp_path: Path) -> None:
    app, clock = dealt(tmp_path, TRIPS)
    app.key("p")
    unhurried_end = app.game.motions.settled_at()
    clock.now += 0.35  # the first hole card has turned, three are still down
    app.draw()
    assert dealer_faces(app, clock.now)[:4] == ["Ks", None, None, None]
    app.key("b")  # any press
    assert dealer_faces(app, clock.now)[:4] == ["Ks", None, None, None], "nothing skipped"
    assert app.game.showing(clock.now).dealer_verdict == ""
    turns = sorted(
        (motion.start, slot[2]) for slot, motion in app.game.motions.moving.items() if motion.end > clock.now
    )
    assert [position for _start, position in turns] == [1, 2, 3], "still one after another"
    gaps = [round(b[0] - a[0], 6) for a, b in itertools.pairwise(turns)]
    assert gaps == [HURRIED_GAP, HURRIED_GAP]
    assert app.game.motions.settled_at() < unhurried_end
    settle(app, clock, 3)
    assert app.game.showing(clock.now).dealer_verdict == "One pair: the dealer qualifies"


@pytest.mark.parametrize(
    ("deck", "bonus", "keys", "outcome", "net"),
    [
        (TRIPS, False, "f", "folded", "-€10.00"),
        (PUSH, False, "p", "push", "€0.00"),
        (PUSH, True, "p", "push", "-€2.00"),  # the stakes come back but the bonus is lost
    ],
)
def test_a_round_that_wins_nothing_counts_up_nothing_and_plays_no_win(
    tmp_path: Path, deck: str, bonus: bool, keys: str, outcome: str, net: str
) -> None:
    app, clock = dealt(tmp_path, deck, bonus=bonus)
    sounds = played(app)
    credits_during_round = app.terminal.credits
    app.key(keys)
    settlement = last_settlement(app.terminal)
    assert settlement is not None
    assert settlement["boxes"][0]["outcome"] == outcome
    wins = set()
    for _ in range(300):
        clock.now += 1 / 60
        app.draw()
        wins.add(app.game.meters(clock.now)[2])
    assert wins == {0}
    assert "win" not in sounds
    assert "big_win" not in sounds
    assert app.game.meters(clock.now)[0] == app.terminal.credits >= credits_during_round
    assert app.game.showing(clock.now).boxes[0].caption.endswith(net)


@pytest.mark.parametrize(
    ("deck", "bonus", "gain", "tune"),
    [(NO_QUALIFY, False, 1000, "win"), (TRIPS, False, 7000, "win"), (FLUSH, True, 23000, "big_win")],
)
def test_a_winning_round_counts_up_its_net_gain_in_a_time_and_a_tune_of_its_size(
    tmp_path: Path, deck: str, bonus: bool, gain: int, tune: str
) -> None:
    app, clock = dealt(tmp_path, deck, bonus=bonus)
    sounds = played(app)
    app.key("p")
    settlement = last_settlement(app.terminal)
    assert settlement is not None
    assert settlement["paid"] - settlement["collected"] == gain
    assert app.game.view is not None
    assert app.game.view.win == gain
    assert app.game.count is not None
    assert app.game.count.amount == gain
    settle(app, clock, 6)
    credit, _bet, win = app.game.meters(clock.now)
    assert win == gain
    assert credit == app.terminal.credits
    assert sounds == [tune]
    caption = app.game.showing(clock.now).boxes[0].caption
    assert caption.endswith("+" + i18n.money(settlement["boxes"][0]["net"], "EUR", 100))


def test_bigger_wins_play_bigger_tunes() -> None:
    tunes = [win_tune(antes * 1000, 1000, jackpot=False) for antes in (1, 9, 10, 100)]
    assert tunes == ["win", "win", "big_win", "big_win"]
    assert win_tune(1000, 1000, jackpot=True) == "jackpot"
    assert win_tune(0, 1000, jackpot=False) is None
    length = {
        name: sum(seconds for _frequency, seconds in TUNES[name]) for name in ("win", "big_win", "jackpot")
    }
    assert length["win"] < length["big_win"] < length["jackpot"]


def test_the_bonus_win_lights_its_row_in_the_bonus_table(tmp_path: Path) -> None:
    app, clock = dealt(tmp_path, FLUSH, bonus=True)
    app.key("p")
    settlement = last_settlement(app.terminal)
    assert settlement is not None
    assert settlement["boxes"][0]["bonus"]["returned"] > settlement["boxes"][0]["bonus"]["stake"]
    assert app.game.showing(clock.now).bonus_category is None, "not before the reveal"
    settle(app, clock, 6)
    assert app.game.showing(clock.now).bonus_category == "Flush"


def test_a_round_that_loses_the_bonus_lights_no_bonus_row(tmp_path: Path) -> None:
    app, clock = dealt(tmp_path, TRIPS, bonus=True)
    app.key("p")
    settle(app, clock, 6)
    assert app.game.showing(clock.now).bonus_category is None


def test_a_hand_whose_play_bet_lost_lights_no_paytable_row_though_its_bonus_won(tmp_path: Path) -> None:
    """The paytable pays the play bet: a straight that loses to the dealer's flush, its bonus
    paid 40:1, had lit "Straight 4:1" beside a caption saying it lost to the dealer."""
    app, clock = dealt(tmp_path, "2s 3s 4d 5h 6c / 7h 8h Th Jh 2h", bonus=True)
    app.key("p")
    settle(app, clock, 6)
    (settled,) = last_settlement(app.terminal)["boxes"]  # type: ignore[index]
    assert settled["play"]["returned"] == 0
    assert settled["bonus"]["returned"] > settled["bonus"]["stake"]
    shown = app.game.showing(clock.now)
    assert shown.bonus_category == "Straight", "the bonus table lights the bonus win"
    assert shown.lit_category is None
    net = settled["net"]
    assert net > 0
    assert (
        shown.boxes[0].caption
        == f"Straight: loses to the dealer, the bonus pays, +{cash_for(app.terminal)(net)}"
    ), "a gain beside a loss says where it came from"


def card_colour(app: App, box: int, position: int = 0) -> tuple[int, int, int]:
    """The colour of a card's face near its top right corner, clear of rank and suit."""
    lay = app.game.layout
    place = lay.cards(lay.boxes[box], 5)[position]
    colour = app.screen.get_at((place.x + place.w * 4 // 5, place.y + place.h // 10))
    return (colour.r, colour.g, colour.b)


def test_folded_boxes_are_greyed(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1920, 1080))
    for _ in range(3):
        app.key("f8")
    app.key("x")
    assert app.terminal.boxes == 2
    app.key("return")
    settle(app, clock, 3)
    app.key("f")  # the first box folds, the second is in play
    assert app.terminal.round is not None
    settle(app, clock, 1)
    view = app.game.view
    assert view is not None
    assert [box.folded for box in view.boxes] == [True, False]
    assert card_colour(app, 1) == render.CARD_FACE
    grey = card_colour(app, 0)
    assert grey != render.CARD_FACE
    assert max(grey) - min(grey) < 12, "grey, not tinted"
    app.key("p")
    settle(app, clock, 6)
    view = app.game.view
    assert view is not None
    assert [box.folded for box in view.boxes] == [True, False]
    assert card_colour(app, 0) == grey
    assert card_colour(app, 1) == render.CARD_FACE
    size = hand.caption_size(app.game.layout, view.boxes)
    (folded_words, _), *_ = hand.caption(app.game.layout, app.game.layout.boxes[0], view.boxes[0], size)
    (played_words, _), *_ = hand.caption(app.game.layout, app.game.layout.boxes[1], view.boxes[1], size)
    assert brightest(folded_words) == render.FOLDED_WORDS, "its caption grey with its cards"
    assert brightest(played_words) in {render.WHITE, render.GOLD}
    shot(app, "folded-box")


def brightest(words: pygame.Surface) -> tuple[int, int, int]:
    """The colour of the brightest pixel of rendered words (the words' own colour)."""
    colours = {
        tuple(words.get_at((x, y)))[:3] for x in range(words.get_width()) for y in range(words.get_height())
    }
    return max(colours, key=sum)  # type: ignore[return-value]


def spots_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of the empty bet spots drawn from now on (a small ring is drawn without its
    name)."""
    spots: list[str] = []
    original = chips.spot_name

    def remembered(kind: str, diameter: int, floor: int) -> str:
        spots.append(kind)
        return original(kind, diameter, floor)

    monkeypatch.setattr(game_table, "spot_name", remembered)
    return spots


def region_colours(app: App, area: pygame.Rect) -> set[tuple[int, int, int]]:
    return {
        tuple(app.screen.get_at((x, y)))[:3]  # type: ignore[misc]
        for x in range(area.x, area.right, 3)
        for y in range(area.y, area.bottom, 3)
    }


@pytest.mark.parametrize("size", SIZES)
def test_a_profile_without_a_jackpot_shows_no_meter_and_without_a_bonus_no_bonus_spot(
    tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    spots = spots_drawn(monkeypatch)
    app, clock = kiosk(tmp_path, size, profile="stand-a")
    assert not app.terminal.rules.get("bonus")
    for _ in range(8):  # a deal needs the ante and the play bet: 300 roubles at the least ante
        app.key("f8")
    app.key("return")
    assert app.terminal.round is not None
    settle(app, clock, 2)
    app.game.invalidate()
    app.draw()
    band = render.rect(app.game.layout.jackpot)
    assert render.GOLD in region_colours(app, band), "the game's name, in gold"
    assert render.PANEL not in region_colours(app, band), "no meter's cells"
    assert "play" in spots
    assert "bonus" not in spots
    shot(app, "no-jackpot-no-bonus")


@pytest.mark.parametrize("size", SIZES)
def test_a_profile_with_a_jackpot_and_a_bonus_shows_both(
    tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    spots = spots_drawn(monkeypatch)
    app, _clock = dealt(tmp_path, TRIPS, size=size)
    app.game.invalidate()
    app.draw()
    jackpot = app.game.layout.jackpot
    assert len(region_colours(app, pygame.Rect(jackpot.x, jackpot.y, jackpot.w, jackpot.h))) > 3
    assert "bonus" in spots


def test_no_more_cards_can_be_selected_than_the_profile_exchanges(tmp_path: Path) -> None:
    app, _clock = dealt(tmp_path, TRIPS)
    terminal = app.terminal
    assert terminal.round is not None
    assert terminal.round.legal_actions()["exchange"] == {1: 1000}
    before = app.game.view
    assert before is not None
    assert ("exchange", "EXCHANGE", False) in before.buttons, "nothing selected: nothing to exchange"
    app.key("5")
    assert terminal.selected == {4}
    view = app.game.view
    assert view is not None
    assert ("exchange", "EXCHANGE €10.00", True) in view.buttons
    assert "EXCHANGE 1 card for €10.00" in view.prompt
    response = terminal.handle("card", 2)
    assert not response.ok
    assert response.message == "cards to exchange: at most 1"
    assert terminal.selected == {4}, "the refused card is not selected"
    app.key("5")
    assert terminal.selected == set()
    assert terminal.handle("card", 2).ok, "another single card may be chosen instead"


def test_exchange_is_lit_only_for_a_count_that_may_be_exchanged(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1280, 720), profile="golden-oasis", deck="As Kd 9c 7h 2h / 2c 2d 4h 5h 9c")
    terminal = app.terminal
    for _ in range(4):
        app.key("f8")
    app.key("return")
    assert terminal.round is not None
    prices = terminal.round.legal_actions()["exchange"]
    assert set(prices) == {1, 2, 3, 5}
    lit = {}
    for number in range(1, 6):
        app.key(str(number))
        assert terminal.selected == set(range(number))
        view = app.game.view
        assert view is not None
        (label, live) = next((label, live) for name, label, live in view.buttons if name == "exchange")
        lit[number] = live
        if live:
            assert label == "EXCHANGE " + i18n.money(prices[number], "EUR", 100)
            assert f"EXCHANGE {number} card{'' if number == 1 else 's'} for" in view.prompt
        else:
            assert label == "EXCHANGE"
            assert "EXCHANGE 4 cards" not in view.prompt
    assert lit == {1: True, 2: True, 3: True, 4: False, 5: True}
    settle(app, clock, 1)


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
@pytest.mark.parametrize("size", SIZES)
def test_the_reveal_is_drawn_mid_way_and_after_in_every_language(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    app, clock = dealt(tmp_path, FLUSH, bonus=True, size=size, language=language)
    app.key("p")
    clock.now += 0.8  # two hole cards have turned, two are still down
    app.draw()
    assert None in dealer_faces(app, clock.now)
    shot(app, f"reveal-mid-{language}")
    assert app.game.showing(clock.now).dealer_verdict == ""
    settle(app, clock, 1.5)
    shot(app, f"reveal-counting-{language}")
    settle(app, clock, 6)
    assert app.game.showing(clock.now).dealer_verdict
    shot(app, f"reveal-after-{language}")


def test_the_exchange_lamp_follows_the_selection_as_the_button_does(tmp_path: Path) -> None:
    app, _clock = kiosk(tmp_path, (1280, 720), profile="golden-oasis", deck="As Kd 9c 7h 2h / 2c 2d 4h 5h 9c")
    terminal = app.terminal
    for _ in range(4):
        app.key("f8")
    app.key("return")
    lamps = {}
    for number in range(1, 6):
        app.key(str(number))
        lamps[number] = "exchange" in terminal.live()
    assert lamps == {1: True, 2: True, 3: True, 4: False, 5: True}, (
        "the cabinet's lamp is what the screen lights"
    )
    app.key("5")  # four selected: the lamp goes out and the press says why
    assert "exchange" not in terminal.live()
    refused = terminal.handle("exchange")
    assert not refused.ok
    assert terminal.round is not None
    assert terminal.round.phase != "settled", "nothing changed"


def test_selecting_cards_says_the_bonus_bet_is_lost_by_exchanging_before_it_is_confirmed(
    tmp_path: Path,
) -> None:
    terminal = dealt_terminal(tmp_path, TRIPS, bonus=True)  # standard: exchanging forfeits the bonus
    warning = "The bonus bet is lost by exchanging."
    assert warning not in snapshot(terminal).prompt, "said only once a selection may be exchanged"
    terminal.handle("card", 5)
    assert warning in snapshot(terminal).prompt
    assert terminal.round is not None
    before = terminal.round.stakes(0)
    assert before is not None
    assert before["bonus"] > 0, "nothing is lost until EXCHANGE is pressed"
    terminal.handle("exchange")
    after = terminal.round.stakes(0)
    assert after is not None
    assert after["bonus"] == 0
    assert warning not in snapshot(terminal).prompt


@pytest.mark.parametrize(("profile", "bonus"), [("standard", False), ("golden-oasis", True)])
def test_no_bonus_warning_where_no_bonus_was_bet_or_the_exchange_keeps_it(
    tmp_path: Path, profile: str, bonus: bool
) -> None:
    terminal = dealt_terminal(tmp_path, TRIPS, bonus=bonus, profile=profile)
    terminal.handle("card", 5)
    assert "EXCHANGE 1 card for" in snapshot(terminal).prompt
    assert "bonus" not in snapshot(terminal).prompt.lower()


def dealt_terminal(tmp_path: Path, deck: str, *, bonus: bool, profile: str = "standard") -> Terminal:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(
        Config(database=database, profile=profile), books(database, profile), deck_for_round=lambda n: deck
    )
    terminal.handle("bill", 5000)
    terminal.handle("bill", 5000)
    if bonus:
        terminal.handle("bonus")
    assert terminal.handle("deal").ok
    return terminal


def test_a_jackpot_is_in_its_boxs_result_and_the_meter_holds_until_the_reveal(tmp_path: Path) -> None:
    terminal = dealt_terminal(tmp_path, "As Ks Qs Js Ts / 2c 2d 4h 5h 7c", bonus=True)
    meter_before = terminal.jackpot.value
    terminal.handle("play")
    settlement = last_settlement(terminal)
    assert settlement is not None
    award = settlement["jackpot_awards"]
    assert award > 0
    assert terminal.jackpot.value < meter_before, "the meter was reset on the books"
    view = snapshot(terminal)
    (box,) = view.boxes
    cash = cash_for(terminal)
    assert box.caption.endswith("+" + cash(settlement["boxes"][0]["net"] + award)), box.caption
    assert before_reveal(view, None).jackpot == meter_before, "no meter drop tells the outcome first"
    assert view.jackpot == terminal.jackpot.value


def test_a_handpaid_wins_panel_says_how_its_amount_is_the_win_and_the_bets(tmp_path: Path) -> None:
    """WIN shows what the round won; the handpay is that with the bets the round took (a lost
    bet's loss is in the win), and the panel says so in the same amounts."""
    terminal = dealt_terminal(tmp_path, "As Ks Qs Js Ts / 2c 2d 4h 5h 7c", bonus=True)
    terminal.handle("play")
    settlement = last_settlement(terminal)
    assert settlement is not None
    assert terminal.handpay is not None, "a royal flush with the jackpot reaches the default limit"
    view = snapshot(terminal)
    cash = cash_for(terminal)
    stakes = int(settlement["collected"])
    assert view.win + stakes == terminal.handpay
    kind, title, amount, *said = view.overlay
    assert (kind, amount) == ("handpay", cash(terminal.handpay))
    assert any(cash(view.win) in line and cash(stakes) in line for line in said), said
    assert title == "JACKPOT: HANDPAY", "the lock-up of a jackpot says so"
    jackpot = cash(settlement["jackpot_awards"])
    assert any(f"the jackpot's {jackpot} included" in line for line in said), said


def test_a_handpay_of_cashed_out_credits_names_no_win(tmp_path: Path) -> None:
    terminal = dealt_terminal(tmp_path, "Ks Kh 9c 7d 4s / Kd Kc 9h 7s 4c", bonus=False)
    terminal.handle("play")
    credits = terminal.credits
    assert terminal.handle("cashout").ok
    assert terminal.handpay == credits, "with no hopper, the attendant pays the credits"
    _kind, _title, _amount, *said = snapshot(terminal).overlay
    assert not any("win" in line.lower() for line in said), said


@pytest.mark.parametrize("profile", ["standard", "russian-three-box"])
def test_bet_shows_what_the_deal_takes_and_the_prompt_the_play_bet_kept_for_play(
    tmp_path: Path, profile: str
) -> None:
    """The play bet is kept in reserve, not staked (RULES.md §2.7): BET before the deal is
    what DEAL takes, and does not drop when the cards come; the prompt names the rest the
    credit must hold for PLAY."""
    database = tmp_path / "kiosk.db"
    currency = "RUB" if profile == "russian-three-box" else "EUR"
    terminal = Terminal(
        Config(database=database, profile=profile, bills=(5000, 50000)), books(database, profile)
    )
    assert terminal.handle("bill", 50000).ok
    terminal.handle("bonus")
    while terminal.boxes < terminal.betting.most_boxes:
        assert terminal.handle("boxes").ok
    i18n.use("en")
    cash = cash_for(terminal)
    before, needs, credits = snapshot(terminal), terminal.upfront(), terminal.credits
    assert terminal.handle("deal").ok, currency
    assert credits - terminal.credits == before.bet, "BET showed more than the deal took"
    assert snapshot(terminal).bet == before.bet
    assert f"Press DEAL to bet {cash(before.bet)}" in before.prompt, before.prompt
    assert f"{cash(needs - before.bet)} more for PLAY" in before.prompt, before.prompt


def test_after_a_bought_redraw_the_dealer_line_shows_the_hand_each_box_settled_against(
    tmp_path: Path,
) -> None:
    """Box 2 buys the game, box 1 declines and takes the ante win against the hand the
    dealer revealed (RULES.md §3.4); the redrawn hand qualifies. The dealer's line names
    both hands, so that box 1's "dealer does not qualify" agrees with it."""
    terminal = golden_oasis_two_boxes(tmp_path / "kiosk.db", REDRAW_DECK)
    for intent in ["play", "play", "buy_game", "decline"]:
        assert terminal.handle(intent).ok, intent
    settlement = last_settlement(terminal)
    assert settlement is not None
    revealed = settlement["dealer_revealed"]
    assert revealed is not None
    assert settlement["dealer_qualifies"], "the redraw qualifies"
    i18n.use("en")
    view = snapshot(terminal)
    first, bought = view.boxes
    assert "dealer does not qualify" in first.caption
    assert "lost" in bought.caption
    verdict = view.dealer_verdict
    assert hand_name(revealed["category"]) in verdict, verdict
    assert hand_name(settlement["dealer_hand"]["category"]) in verdict, verdict
    assert verdict.index(hand_name(revealed["category"])) < verdict.index("redraw"), verdict


def test_bet_shows_the_settled_rounds_stakes_until_a_new_bet_is_placed(tmp_path: Path) -> None:
    """From the last PLAY through the reveal and the outcome, BET is what the round took:
    the chips on the felt, CREDIT plus BET the money in play (it fell back to the next
    deal's amount while the dealer's cards turned)."""
    app, clock = dealt(tmp_path, TRIPS, bonus=True)
    terminal = app.terminal
    app.key("p")
    settlement = last_settlement(terminal)
    assert settlement is not None
    staked = settlement["collected"]
    assert staked > terminal.placed_at_deal(), "the play bet was staked too"
    shown = []
    while app.game.busy(clock.now):
        clock.now += 1 / 30
        app.draw()
        shown.append(app.game.showing(clock.now).bet)
    assert set(shown) == {staked}, set(shown)
    assert app.game.view is not None
    assert app.game.view.bet == staked, "and after the outcome"
    app.key("b")  # a new bet: the last round's chips leave, BET is what DEAL will take
    assert app.game.view.bet == terminal.placed_at_deal()


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_a_card_pressed_when_it_does_nothing_is_named_in_the_players_language(
    tmp_path: Path, language: str
) -> None:
    """A card's button between rounds is refused: the reason names the card as the player
    knows it ("card is not live now" showed the program's word in Czech and Russian)."""
    app, _clock = kiosk(tmp_path, (1280, 720), language=language)
    app.key("f8")
    app.key("1")
    assert app.game.view is not None
    prompt = app.game.view.prompt
    i18n.use(language)
    card = i18n._("CARD")
    assert card != "CARD", "the catalogue names the card"
    assert card in prompt, prompt
    assert "card" not in prompt.lower().replace(card.lower(), ""), prompt


def test_a_blind_box_names_no_hand_while_the_reveal_turns_its_cards(tmp_path: Path) -> None:
    """A blind box's cards are turned by the reveal: its caption must not name the hand
    before (it read "Two pair" with three of its cards still backs)."""
    deck = "Ks Kh 4c 5c 9d / Qs Qh 4d 5d 9c / 7s 7h 2c 2d 9h / Ad As Ac 3d 2h"
    terminal = three_boxes_played(tmp_path / "kiosk.db", deck)
    settlement = last_settlement(terminal)
    assert settlement is not None
    i18n.use("en")
    view = snapshot(terminal)
    assert "blind" in view.boxes[2].label
    assert view.boxes[2].caption.startswith("Two pair"), "once revealed, its hand and result"
    turning = before_reveal(view, None)
    assert [box.caption for box in turning.boxes] == [view.boxes[0].hand, view.boxes[1].hand, ""]
    assert turning.boxes[0].caption == "One pair", "a box looked at keeps its hand's name"


def test_the_paytable_lights_the_best_winning_hand_of_several_boxes(tmp_path: Path) -> None:
    # Box 1 three kings, box 2 a pair of queens, blind box 3 two pair, against the dealer's
    # pair of aces: boxes 1 and 3 win, box 1 the better hand.
    deck = "Ks Kh Kc 5c 9d / Qs Qh 4d 5d 9c / 7s 7h 2c 2d 9h / Ad As 8c 3d 2h"
    terminal = three_boxes_played(tmp_path / "kiosk.db", deck)
    settlement = last_settlement(terminal)
    assert settlement is not None
    nets = [box["net"] for box in settlement["boxes"]]
    assert nets[0] > 0
    assert nets[2] > 0, nets
    assert snapshot(terminal).lit_category == "ThreeOfAKind", "box 3's two pair came last, not best"


def test_the_prompt_says_an_exchange_binds_the_box_to_play_before_it_is_made(tmp_path: Path) -> None:
    """stand-a: after an exchange FOLD is gone; the player is told while choosing the cards."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(
        Config(database=database, profile="stand-a", bills=(50000,)),
        books(database, "stand-a"),
        deck_for_round=lambda n: "As Kd 9c 6h 3d / Ks Qh 4c 5c 9d",
    )
    assert terminal.handle("bill", 50000).ok
    assert terminal.handle("deal").ok
    i18n.use("en")
    assert "After an exchange the play bet is compulsory." not in snapshot(terminal).prompt
    assert terminal.handle("card", 5).ok
    assert "After an exchange the play bet is compulsory." in snapshot(terminal).prompt
    assert terminal.handle("exchange").ok
    assert "fold" not in terminal.live()


def test_the_offer_of_the_dealers_redraw_names_the_box_that_decides(tmp_path: Path) -> None:
    terminal = golden_oasis_two_boxes(tmp_path / "kiosk.db", REDRAW_DECK)
    assert terminal.handle("play").ok
    assert terminal.handle("play").ok
    i18n.use("en")
    assert snapshot(terminal).prompt.startswith("Box 2: the dealer does not qualify: BUY GAME"), (
        "the last box first"
    )
    assert terminal.handle("buy_game").ok
    assert snapshot(terminal).prompt.startswith("Box 1: the dealer does not qualify: BUY GAME")


def test_the_fast_speed_setting_deals_twice_as_fast(tmp_path: Path) -> None:
    took = {}
    for speed in SPEEDS:
        app, clock = kiosk(tmp_path / speed, (1280, 720), deck=TRIPS)
        app.terminal.config = replace(app.terminal.config, speed=speed)
        app.key("f8")
        dealt_at = clock.now
        app.key("return")
        app.draw()
        took[speed] = app.game.motions.settled_at() - dealt_at
    assert took["fast"] == pytest.approx(took["normal"] / 2)


@pytest.mark.parametrize("key", ["return", "b", "n", "x"])
def test_a_press_during_the_reveal_only_hurries_it(tmp_path: Path, key: str) -> None:
    app, clock = dealt(tmp_path, TRIPS)
    app.key("f8")
    app.key("p")
    settled = app.terminal.store.rounds(last=1)[-1]["id"]
    clock.now += 0.35
    app.draw()
    bets = app.terminal.bets
    app.key(key)  # DEAL, BET, BONUS or BOXES while three hole cards are still down
    assert app.terminal.round is None, "no new round dealt over the reveal"
    assert app.terminal.bets == bets, "no bet changed under it"
    assert dealer_faces(app, clock.now)[:4] == ["Ks", None, None, None]
    settle(app, clock, 3)
    assert app.game.showing(clock.now).dealer_verdict == "One pair: the dealer qualifies"
    assert app.terminal.store.rounds(last=1)[-1]["id"] == settled
    app.key(key)
    assert app.terminal.round is not None or app.terminal.bets != bets, "after the reveal it acts"


def meter_shown(app: App) -> int:
    """The jackpot meter as the screen shows it (the cabinet's own: always a value)."""
    shown = app.game.jackpot_shown
    assert shown is not None
    return shown


def test_a_jackpot_keeps_the_winning_hand_in_view_and_the_meter_resets_after_it(tmp_path: Path) -> None:
    # A meter fed a tenth of the stake, so that its fall to the reset value is seen rolling.
    fed = JackpotConfig(rate=Fraction(1, 10))
    app, clock = dealt(tmp_path, "As Ks Qs Js Ts / 2c 2d 4h 5h 7c", bonus=True, jackpot=fed)
    terminal = app.terminal
    meter_before = terminal.jackpot.value
    app.key("p")
    settlement = last_settlement(terminal)
    assert settlement is not None
    assert settlement["jackpot_awards"] > 0
    held: list[int] = []
    while app.game.revealing(clock.now) or app.game.celebrating(clock.now):
        app.draw()
        held.append(meter_shown(app))
        clock.now += 0.1
        if app.game.celebrating(clock.now):
            banner = jackpot.banner_area(app.game.layout)
            cards = [
                area
                for slot, (area, _shown) in app.game._card_poses(app.game.layout, clock.now).items()
                if slot[0] == "box"
            ]
            assert cards
            assert not any(banner.colliderect(card) for card in cards), "the banner covers the hand"
            # A jackpot at the handpay limit: the lock-up's panel waits for the celebration.
            shown = app.game.showing(clock.now)
            assert "handpay" in shown.prompt.lower(), "the prompt says the attendant pays it"
            assert panel.overlay_panel(shown) is None, "the handpay panel covers the hand"
    assert set(held) == {meter_before}, "the meter stands until the celebration is over"
    assert app.game.showing(clock.now).overlay[0] == "handpay", "then the lock-up, its amount large"
    after = []
    for _ in range(120):
        app.draw()
        after.append(meter_shown(app))
        clock.now += 1 / 30
    assert after[-1] == terminal.jackpot.value < meter_before
    assert len(set(after)) > 3, "the meter rolls down to its reset value, not in one jump"
    assert after == sorted(after, reverse=True)


def test_a_box_whose_net_belies_its_verdict_says_the_hands_verdict_not_won_or_lost(tmp_path: Path) -> None:
    """A flush that loses to the dealer's full house while its bonus pays gains money: its
    caption says the hand lost to the dealer beside the gain, not "lost, +€…"."""
    terminal = dealt_terminal(tmp_path, "As Ks 9s 7s 4s / 4h 4d 4c Kd Kc", bonus=True)
    terminal.handle("play")
    settlement = last_settlement(terminal)
    assert settlement is not None
    (settled,) = settlement["boxes"]
    assert settled["outcome"] == "lost"
    assert settled["net"] > 0
    (box,) = snapshot(terminal).boxes
    assert box.caption == f"Flush: loses to the dealer, the bonus pays, +{cash_for(terminal)(settled['net'])}"


def test_the_prompt_says_fold_gives_up_a_bonus_the_hand_wins(tmp_path: Path) -> None:
    """A dealt royal flush with the bonus bet on: PASS was offered with no word that folding
    gives up the bonus and its jackpot."""
    terminal = dealt_terminal(tmp_path, "As Ks Qs Js Ts / 2c 2d 4h 5h 7c", bonus=True)
    assert "Royal flush wins the bonus: FOLD gives it up." in snapshot(terminal).prompt
    (tmp_path / "other").mkdir()
    high_card = dealt_terminal(tmp_path / "other", "2s 5d 8c Th Kd / Ks Kh 4c 5c 9d", bonus=True)
    assert "FOLD gives it up" not in snapshot(high_card).prompt


@pytest.mark.parametrize(
    ("deck", "said"),
    [
        ("As Ks 9s 7s 4s / Kd Kc 4h 5h 9c 9d", "Flush wins the bonus: FOLD gives it up."),
        ("2s 5s 8s Ts Kd / Ks Kh 4c 5c 9d 3s", None),
    ],
)
def test_fold_gives_up_the_bonus_of_the_hand_dealt_where_the_bonus_is_judged_on_it(
    tmp_path: Path, deck: str, said: str | None
) -> None:
    """On a profile judging the bonus on the cards dealt, whose exchange keeps the bonus: a
    dealt flush broken by an exchange still wins the bonus (and FOLD gives it up), while a
    flush the exchange made does not: the screen had named the hand after the exchange."""
    database = tmp_path / "kiosk.db"
    config = Config(
        database=database, profile="standard", profile_overrides={"exchange": {"forfeits_bonus": False}}
    )
    terminal = Terminal(config, books(database), deck_for_round=lambda n: deck)
    terminal.handle("bill", 5000)
    terminal.handle("bill", 5000)
    terminal.handle("bonus")
    assert terminal.handle("deal").ok
    assert terminal.handle("card", 5).ok
    assert terminal.handle("exchange").ok
    assert terminal.round is not None
    hand = terminal.round.hand(0)
    assert hand is not None
    assert (hand.category == "Flush") == (said is None), "the exchange changed the hand"
    prompt = snapshot(terminal).prompt
    if said is None:
        assert "wins the bonus" not in prompt, prompt
    else:
        assert said in prompt, prompt
    assert terminal.handle("play").ok
    assert snapshot(terminal).bonus_category == ("Flush" if said else None), "the bonus table lights the same"


def test_a_later_boxs_bonus_is_named_by_the_hand_it_was_dealt(tmp_path: Path) -> None:
    """Two boxes, the bonus judged on the cards dealt: the second box's dealt flush, broken by
    its exchange, won the bonus (60:1), but the bonus table lit the pair it ended with, the
    second box's dealt hand not being in sight before the first box's decision."""
    database = tmp_path / "kiosk.db"
    config = Config(
        database=database, profile="standard", profile_overrides={"exchange": {"forfeits_bonus": False}}
    )
    deck = "2c 3d 4s 8c Jd 2h 5h 9h Jh Kh As Kd 9c 7d 3s Ks"  # box 1, box 2 (a flush), the dealer, one
    terminal = Terminal(config, books(database), deck_for_round=lambda n: deck)
    for _ in range(4):
        terminal.handle("bill", 5000)
    terminal.handle("boxes")
    terminal.handle("bonus")
    assert terminal.handle("deal").ok
    assert terminal.handle("fold").ok  # box 1
    assert terminal.handle("card", 1).ok  # box 2 breaks its flush for a king
    assert terminal.handle("exchange").ok
    assert terminal.handle("play").ok
    shown = snapshot(terminal)
    settled = last_settlement(terminal)
    assert settled is not None
    second = settled["boxes"][1]
    assert second["hand"]["category"] == "OnePair"
    assert second["bonus"]["returned"] > second["bonus"]["stake"], "the dealt flush won the bonus"
    assert shown.bonus_category == "Flush", "the bonus table lights the hand the bonus was judged on"


@pytest.mark.parametrize(
    ("deck", "press"),
    [
        (TRIPS, "play"),
        (FLUSH, "play"),
        (PUSH, "play"),
        (NO_QUALIFY, "play"),
        (TRIPS, "fold"),
        (ROYAL, "play"),
    ],
)
def test_the_win_meter_shows_a_win_where_the_books_count_a_game_won(
    tmp_path: Path, deck: str, press: str
) -> None:
    """The WIN meter and the games-won meter count one win: what the round put back on the
    credits beyond what it took (a returned stake is none), or paid by hand."""
    terminal = dealt_terminal(tmp_path, deck, bonus=True)
    won_before = terminal.store.meters().get("games_won", 0)
    assert terminal.handle(press).ok
    settlement = last_settlement(terminal)
    assert settlement is not None
    win = snapshot(terminal).win
    booked = sum(row.amount for row in terminal.store.ledger() if row.round_id == settlement["round"])
    if terminal.handpay is None:
        assert win == max(booked, 0), "the credits gained what WIN says"
    else:
        assert win + int(settlement["collected"]) == terminal.handpay, "the attendant pays what WIN says"
    assert terminal.store.meters().get("games_won", 0) - won_before == (win > 0)


def box_faces(app: App, now: float, box: int = 0) -> list[str | None]:
    """What each card of a box shows at ``now`` (None: not there yet, its back, or mid-turn)."""
    faces = []
    for position in range(5):
        pose = app.game.motions.pose(("box", box, position), now)
        faces.append(None if pose is None or pose.width < 1 else pose.face)
    return faces


@pytest.mark.parametrize("exchange", [False, True])
def test_no_hand_is_named_lit_or_offered_before_its_cards_have_landed(tmp_path: Path, exchange: bool) -> None:
    """The box said "Three of a kind" and lit its paytable row, with PLAY and FOLD live, in
    the first frame of the deal, while every card place was still empty; an exchange named
    the new hand before its cards came. Each shows once the box's cards lie face up."""
    app, clock = kiosk(tmp_path, (1920, 1080), deck=TRIPS + " Qc Jh")
    app.key("f8")
    app.key("return")
    if exchange:
        settle(app, clock, 3)
        app.key("3")
        app.key("e")
    frames = []
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        app.draw()
        frames.append((box_faces(app, clock.now), app.game.showing(clock.now)))
    landing = [shown for faces, shown in frames if None in faces]
    assert len(landing) > 10, "the cards come one after another, visibly"
    for shown in landing:
        assert [box.caption for box in shown.boxes] == [""], "no hand named"
        assert shown.lit_category is None, "no paytable row lit"
        assert shown.buttons == ()
        assert shown.prompt == ""
    landed = app.game.showing(clock.now)
    assert landed.boxes[0].caption == ("One pair" if exchange else "Three of a kind")
    assert landed.lit_category is not None
    assert landed.buttons


def two_boxes_the_first_folded(tmp_path: Path) -> tuple[App, Clock]:
    """Two boxes dealt, high card and trips against the dealer's kings; the first folded at
    once: the second's cards turn face up next."""
    app, clock = kiosk(tmp_path, (1920, 1080), deck="2s 3d 7c 9h Jd / As Ad Ac Kd 2h / Ks Kh 4c 5c 9d")
    for _ in range(3):
        app.key("f8")
    app.key("x")
    app.key("return")
    settle(app, clock, 3)
    app.key("f")
    return app, clock


def test_a_folded_box_says_folded_while_the_dealers_cards_turn(tmp_path: Path) -> None:
    """Its caption read "High card: folded" until the PLAY of the next box, then only "High
    card" through the whole reveal: the fold is said in words, not by the grey alone."""
    app, clock = two_boxes_the_first_folded(tmp_path)
    settle(app, clock, 1)
    app.key("p")
    turning = shown_while_the_dealer_turns(app, clock)
    assert turning
    for shown in turning:
        assert shown.boxes[0].caption == "High card: folded"
        assert shown.boxes[1].caption == "Three of a kind"


def test_a_press_while_the_cards_land_only_hurries_them_and_the_lamps_are_dark(tmp_path: Path) -> None:
    """The box's name and buttons were hidden while its cards came, but PLAY still played it,
    on cards the player had not seen, and the cabinet's lamps stayed lit. A press then only
    lands the cards; the next one plays."""
    app, clock = kiosk(tmp_path, (800, 480), deck=TRIPS, patient=False)
    app.key("f8")
    app.key("return")
    for _ in range(3):
        clock.now += 1 / 60
        app.draw()
        app.update(1 / 60)
    assert None in box_faces(app, clock.now), "the cards are still coming"
    assert app.devices.revealing, "the cabinet's lamps are dark as the screen's buttons are hidden"
    app.key("p")
    assert app.terminal.round is not None, "the press only landed the cards"
    clock.now += 1 / 60
    app.draw()
    app.update(1 / 60)
    assert None not in box_faces(app, clock.now)
    assert not app.devices.revealing
    app.key("p")
    assert app.terminal.round is None, "the next press plays"


def test_money_put_in_during_the_reveal_leaves_it_to_run(tmp_path: Path) -> None:
    """A coin is not a press: it is credited, and the dealer's cards go on turning at their
    pace."""
    app, clock = dealt(tmp_path, TRIPS)
    app.key("p")
    clock.now += 1 / 60
    app.draw()
    revealed_at = app.game.revealed_at
    credits = app.terminal.credits
    app.key("f3")
    assert app.terminal.credits > credits
    assert app.game.revealed_at == revealed_at


def test_a_decided_box_keeps_its_caption_while_the_next_boxs_cards_turn(tmp_path: Path) -> None:
    app, clock = two_boxes_the_first_folded(tmp_path)
    turning = []
    while app.game.motions.landing(clock.now):
        turning.append(app.game.showing(clock.now))
        clock.now += 1 / 60
        app.draw()
    assert turning, "box 2's cards turn after box 1's fold"
    assert all(shown.boxes[0].caption == "High card: folded" for shown in turning)
    assert all(shown.boxes[1].caption == "" for shown in turning)
