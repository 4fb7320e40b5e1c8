"""The screen is drawn by parts: only the regions whose content changed, only the damage of
the pieces in motion (under a panel too), a winning hand's glow by itself, and a region left
to a later frame when a frame has painted a third of the screen already (the dealer's side of
a table under a new panel, the paytable and meters beside a repainted table). Whatever the parts, the picture
is the one a full repaint draws, MOST_FRAMES_WAITED frames later at most."""

from __future__ import annotations

import random
from dataclasses import astuple
from pathlib import Path
from typing import Any

import pygame
import pytest
from test_screen import ENDS, Clock, _texts_are_known, drawn, kiosk, settle

from oasis_kiosk._core import SHIPPED_PROFILES
from oasis_kiosk.ui import render
from oasis_kiosk.ui.app import App
from oasis_kiosk.ui.kept import KeptLooks
from oasis_kiosk.ui.layout import Layout
from oasis_kiosk.ui.scenes.game.repaint import COLUMN, NEAR, Background, clusters, in_columns
from oasis_kiosk.ui.scenes.game.scene import KEPT_LOOKS, MOST_FRAMES_WAITED, GameScene
from oasis_kiosk.ui.view import cash_for
from oasis_kiosk.ui.widgets import hand, jackpot, meters, panel, paytable
from oasis_kiosk.ui.widgets.hand import Hand

__all__ = ["_texts_are_known"]  # every text drawn is checked to lie inside its region

FLUSH = "As Ks 9s 7s 4s / Kd Kc 4h 5h 9c"  # every bet won: chips move, the win counts and glows
ROYAL = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"  # the jackpot over the handpay limit: a panel over moving chips
QUADS = "As Ad Ac Ah 2h / Ks Kh 4c 5c 9d"  # a win counted for three seconds, the chips long settled


def pictures_agree(app: App, clock: Clock) -> None:
    """The screen as the frames left it, once frames at the same moment have painted what
    waited, against the screen drawn afresh. The jackpot meter rolls a step each frame: the
    repaint's frame rolls the same step."""
    for _ in range(MOST_FRAMES_WAITED + 1):
        rolled_from = app.game.jackpot_shown
        app.draw()
    painted = pygame.image.tobytes(app.screen, "RGB")
    app.game.jackpot_shown = rolled_from
    kept, app.game._kept = app.game._kept, KeptLooks(KEPT_LOOKS)  # a stale look would stay kept
    app.repaint()
    app.game._kept = kept
    assert painted == pygame.image.tobytes(app.screen, "RGB"), f"at {clock.now:.3f} s"


def played(
    tmp_path: Path, size: tuple[int, int], deck: str, *, bonus: bool = False, first_frame: bool = False
) -> tuple[App, Clock]:
    """A kiosk of ``deck`` whose player bet (F8, and the bonus with N if ``bonus``), dealt and
    played (RETURN, P) a round; ``first_frame``: the first frame, which paints and lays out
    everything, drawn before the presses."""
    app, clock = kiosk(tmp_path, size, deck=deck)
    if first_frame:
        app.draw()
    app.key("f8")
    if bonus:
        app.key("n")
    app.key("return")
    app.key("p")
    return app, clock


def table_paints(table: GameScene, monkeypatch: pytest.MonkeyPatch) -> list[pygame.Rect]:
    """The areas of the table the scene's frames paint afresh, as they paint them."""
    painted: list[pygame.Rect] = []
    paint_table = table._paint_table

    def table_painted(lay: Layout, now: float, background: Background, area: pygame.Rect, only: Any) -> None:
        painted.append(area)
        paint_table(lay, now, background, area, only)

    monkeypatch.setattr(table, "_paint_table", table_painted)
    return painted


@pytest.mark.parametrize("size", ENDS)
@pytest.mark.parametrize("deck", [FLUSH, ROYAL])
def test_a_round_drawn_by_parts_is_the_picture_a_full_repaint_draws(
    tmp_path: Path, size: tuple[int, int], deck: str
) -> None:
    app, clock = kiosk(tmp_path, size, deck=deck)
    app.key("f8")
    app.key("n")
    app.key("return")
    frames = 0
    compared = set()
    while frames < 60 * 30:
        clock.now += 1 / 60
        app.draw()
        frames += 1
        if frames == 90:
            app.key("p")
        table = app.game
        moment = (
            "count" if table.counting(clock.now) else "reveal" if table.revealing(clock.now) else "moving"
        )
        if frames % 7 == 0 and table.busy(clock.now):
            pictures_agree(app, clock)
            compared.add(moment)
        if frames > 90 and not table.busy(clock.now):
            break
    settle(app, clock, 1)
    pictures_agree(app, clock)
    assert {"reveal", "moving"} <= compared
    if deck == FLUSH:
        assert "count" in compared, "the glow turned on and off while the win counted"
    else:
        assert app.game.showing(clock.now).overlay[0] == "handpay"


PLAYERS_KEYS = "bvtnxr" + "\r" * 6 + "pfesickg" + "12345" * 3 + "h"
"""The game's keys, a deal and the card keys more often than the rest ("\r" is DEAL)."""


@pytest.mark.parametrize("profile", SHIPPED_PROFILES)
def test_every_press_of_a_player_drawn_by_parts_is_the_picture_a_full_repaint_draws(
    tmp_path: Path, profile: str
) -> None:
    """Presses at random, legal or not, in each profile's actions (cards selected and
    exchanged, boxes folded, insured, a card or the game bought, more boxes, HELP), each
    followed by a few frames: whichever pieces a press changes, the frames paint the
    picture a full repaint draws."""
    app, clock = kiosk(tmp_path, (1280, 720), profile=profile)
    presses = random.Random(profile)
    for press in range(160):
        if press % 40 == 0:
            app.key("f8")
        key = presses.choice(PLAYERS_KEYS)
        app.key("return" if key == "\r" else key)
        for _ in range(presses.randrange(1, 25)):
            clock.now += 1 / 60
            app.draw()
        pictures_agree(app, clock)


def test_a_lit_rows_new_look_repaints_its_rows_and_a_look_seen_again_is_their_blit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, clock = played(tmp_path, (1280, 720), FLUSH, first_frame=True)
    column = pygame.Rect(*astuple(app.game.layout.paytable))
    painted = []  # the rows painted afresh (not shown from a kept look) in a frame
    column_line = paytable.column_line

    def painting(*line: Any) -> None:
        painted.append(line)
        column_line(*line)

    monkeypatch.setattr(paytable, "column_line", painting)
    frames: list[tuple[list[pygame.Rect], int]] = []  # each frame's repaints in the column, rows painted
    for _ in range(60 * 20):
        if frames and not app.game.busy(clock.now):
            break
        clock.now += 1 / 60
        painted.clear()
        in_column = [area for area in app.game.draw(clock.now) if column.contains(area)]
        if in_column:
            frames.append((in_column, len(painted)))
    assert len(frames) > 4, "the hand's row lit, then its glow turning on and off"
    assert all(area.h < column.h // 8 for areas, _painted in frames for area in areas), "only the rows"
    first_looks = frames[:2]  # the hand's row lit, then its glow: each a look not seen yet
    assert all(rows for _areas, rows in first_looks)
    assert not any(rows for _areas, rows in frames[2:]), "the glow turned back to looks kept: their blits"


def test_helps_history_page_shows_the_rounds_played_since_it_was_last_kept(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1280, 720), deck=FLUSH)
    app.key("f8")
    settle(app, clock, 1)

    def a_round_then_the_history_page() -> None:
        app.key("return")
        app.key("p")
        settle(app, clock, 15)
        app.key("b")  # the next bets staged: no round on the table, as before the first
        app.key("v")
        settle(app, clock, 1)
        app.key("h")
        drawn(app)
        app.key("h")  # HELP's second page: the last rounds
        drawn(app)
        assert app.game.showing_help
        assert app.game.help_page == 1

    a_round_then_the_history_page()
    app.key("x")  # more boxes and back round to one: new backgrounds, whole frames, the page kept
    drawn(app)
    while app.game.terminal.boxes != 1:
        app.key("x")
        drawn(app)
    while app.game.showing_help:
        app.key("h")
        drawn(app)
    a_round_then_the_history_page()
    pictures_agree(app, clock)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_helps_opening_and_closing_seen_before_are_a_blit_of_the_table(
    tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, clock = played(tmp_path, size, FLUSH)
    settle(app, clock, 15)  # the round settled, its win counted: nothing moves
    table = app.game
    assert len(table.help_pages(table.layout)) <= KEPT_LOOKS["table"], "every page's look kept"
    painted = table_paints(table, monkeypatch)  # what the frames drew afresh on the table
    for _ in range(2):  # the first opening and closing paint, and keep what they showed
        while True:
            app.key("h")
            drawn(app)
            if not table.showing_help:
                break
    painted.clear()
    pages = 0
    for _ in range(3):
        while True:
            app.key("h")
            drawn(app)
            pages += 1
            if not table.showing_help:
                break
    assert pages > 3
    assert not painted, "each page of HELP and the game's table under it shown from its kept look"
    pictures_agree(app, clock)


def test_a_winning_hands_glow_turned_to_a_look_seen_again_is_one_blit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, clock = played(tmp_path, (1280, 720), QUADS)
    table = app.game
    glow = hand.glow(table.layout, table.layout.boxes[0], 5)
    painted = table_paints(table, monkeypatch)  # what the frame drew afresh on the table
    glowing = table.glowing(clock.now)
    seen = set()  # the glow's looks shown by a turn while nothing else moved
    again = []  # for each later turn to a look seen: whether the frame drew the hand afresh
    while table.busy(clock.now):
        clock.now += 1 / 60
        painted.clear()
        dirty = table.draw(clock.now)
        if table.glowing(clock.now) == glowing:
            continue
        glowing = not glowing
        assert any(area.contains(glow) for area in dirty), "the glow's turn is on the screen"
        if not (table.chips.busy(clock.now) or table.motions.busy(clock.now)):
            if glowing in seen:
                again.append(glow.collidelist(painted) >= 0)
            seen.add(glowing)
    assert len(again) >= 4, "the glow turned on and off again and again while the win counted"
    assert not any(again), "each turn to a look seen shows it kept: the hand in one blit"


def test_the_jackpot_banners_flash_to_a_colour_seen_again_is_one_blit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, clock = played(tmp_path, (1280, 720), ROYAL, bonus=True)
    table = app.game
    flashes = []  # for each colour the banner turned to: whether the frame drew it afresh
    drawn = []
    monkeypatch.setattr(jackpot, "banner", lambda *shown: drawn.append(shown))
    colour = None
    while table.busy(clock.now):
        clock.now += 1 / 60
        drawn.clear()
        table.draw(clock.now)
        if table.celebrating(clock.now) and jackpot.banner_colour(clock.now) != colour:
            colour = jackpot.banner_colour(clock.now)
            flashes.append(bool(drawn))
    assert len(flashes) > 6, "the banner flashed for seconds"
    assert flashes.count(True) == 2, "each colour drawn once: every other flash shows a look kept"


def test_a_new_deal_and_its_outcome_repaint_their_pieces_not_the_felt_across_the_table(
    tmp_path: Path,
) -> None:
    """From the second deal on, a deal's cards, the labels, captions and bet spots that
    change, the verdict and the glow are repainted where they lie: no frame repaints a strip
    of felt as wide as the table."""
    app, clock = played(tmp_path, (1280, 720), FLUSH)
    settle(app, clock)
    table = pygame.Rect(*astuple(app.game.layout.table))
    widest = 0
    for key in ("return", "p"):
        app.key(key)
        for _ in range(60 * 12):
            clock.now += 1 / 60
            in_table = [area for area in app.game.draw(clock.now) if table.contains(area)]
            widest = max([widest, *(area.w for area in in_table)])
    assert widest < table.w


@pytest.mark.parametrize("size", ENDS)
def test_the_background_put_back_by_fills_and_pieces_of_its_line_is_the_background(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app, _clock = kiosk(tmp_path, size)
    app.draw()
    assert app.game._background is not None
    background = app.game._background[1]
    scratch = pygame.Surface(size)
    places = random.Random(size[0])
    for number in range(400):
        x, y = places.randrange(size[0]), places.randrange(size[1])
        area = pygame.Rect(x, y, places.randrange(1, size[0] - x + 1), places.randrange(1, size[1] - y + 1))
        if number % 2:  # in whole columns: filled where plain
            columns = max(area.w // COLUMN, 1) * COLUMN
            area = pygame.Rect(x // COLUMN * COLUMN, y, columns, area.h).clip(scratch.get_rect())
        scratch.fill((255, 0, 255))
        background.paint(scratch, area)
        shown = pygame.image.tobytes(scratch.subsurface(area), "RGB")
        assert shown == pygame.image.tobytes(background.surface.subsurface(area), "RGB"), area


def test_a_new_deal_repaints_whole_columns_and_copies_of_the_background_only_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Clearing the last round's cards puts the felt back by fills (a copy also reads the
    background, rarely in the cache then), in rectangles of whole columns (filled and copied
    several times faster than others)."""
    app, clock = played(tmp_path, (1920, 1080), FLUSH)
    settle(app, clock)
    copied = []  # the areas copied from the background (the only surface of the screen's size)
    screen_blit = type(app.screen).blit

    def blit(screen: pygame.Surface, source: pygame.Surface, *where: Any) -> pygame.Rect:
        if source.get_size() == screen.get_size():
            copied.append(pygame.Rect(where[1]).clip(screen.get_clip()))
        return screen_blit(screen, source, *where)

    monkeypatch.setattr(type(app.screen), "blit", blit)
    table = pygame.Rect(*astuple(app.game.layout.table))
    repainted = []
    app.key("return")
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        repainted += [area for area in app.game.draw(clock.now) if table.contains(area)]
    assert repainted
    assert all(area.x % COLUMN == 0 and area.w % COLUMN == 0 for area in repainted), repainted
    copies, repaints = (sum(area.w * area.h for area in areas) for areas in (copied, repainted))
    assert copies < repaints / 20


def test_a_win_counted_up_repaints_the_meters_digits_that_change_not_the_bet(tmp_path: Path) -> None:
    app, clock = played(tmp_path, (1920, 1080), QUADS)
    meters = pygame.Rect(*astuple(app.game.layout.meters))
    bet = pygame.Rect(*astuple(app.game.layout.meters.split(3)[1]))
    repaints = []
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        dirty = app.game.draw(clock.now)
        if app.game.counting(clock.now):
            repaints += [area for area in dirty if meters.colliderect(area)]
    assert len(repaints) > 100, "CREDIT and WIN counted up frame after frame"
    assert not any(area.colliderect(bet) for area in repaints)
    widths = sorted(area.w for area in repaints)
    assert widths[len(widths) // 2] < bet.w // 2, "most frames repaint a meter's last digits"


def test_a_counting_frame_lays_out_the_paytable_once_and_each_meters_new_amount_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The glow turns the paytable's rows and the count changes CREDIT and WIN each frame:
    the column's lines stay laid out, and a meter's amount is measured when it is new, not
    again when the next frame compares it."""
    app, clock = played(tmp_path, (1920, 1080), QUADS, first_frame=True)
    laid_out = []
    column_lines = paytable.column_lines

    def laying_out(*how: Any) -> list[paytable.ColumnLine]:
        laid_out.append(how)
        return column_lines(*how)

    monkeypatch.setattr(paytable, "column_lines", laying_out)
    measured = []  # amounts measured by each counting frame
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        misses = render.amount.cache_info().misses
        app.game.draw(clock.now)
        if app.game.counting(clock.now):
            measured.append(render.amount.cache_info().misses - misses)
    assert len(measured) > 100
    assert max(measured) <= 2, "CREDIT's and WIN's new amounts"
    assert not laid_out


def test_a_winning_hands_glow_turns_in_whole_columns(tmp_path: Path) -> None:
    app, clock = played(tmp_path, (1920, 1080), QUADS)
    table = app.game
    glow = hand.glow(table.layout, table.layout.boxes[0], 5)
    turns = []  # the repaints over the hand in each frame its glow turned
    glowing = False
    while table.busy(clock.now):
        clock.now += 1 / 60
        dirty = table.draw(clock.now)
        if table.glowing(clock.now) != glowing:
            glowing = not glowing
            turns += [area for area in dirty if area.contains(glow)]
    assert len(turns) > 4
    assert all(area.x % COLUMN == 0 and area.w % COLUMN == 0 for area in turns), turns


def test_a_panels_frames_paint_the_table_only_where_its_body_leaves_it_in_sight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The felt and the pieces on it are painted round a handpay's panel, not under
    its body, which is filled over them (the frames that show it painted the table twice)."""
    app, clock = played(tmp_path, (1920, 1080), ROYAL, bonus=True)
    table = app.game
    painted: list[pygame.Rect] = []  # the background put back in the frame
    paint = Background.paint

    def painting(background: Background, screen: pygame.Surface, area: pygame.Rect) -> None:
        painted.append(area.copy())
        paint(background, screen, area)

    monkeypatch.setattr(Background, "paint", painting)
    under_body = on_table = 0
    while table.busy(clock.now) and not table.showing(clock.now + 1 / 60).overlay:
        clock.now += 1 / 60
        table.draw(clock.now)
    view = table.showing(clock.now + 1 / 60)
    shown = panel.overlay_panel(view)
    assert shown is not None
    body = panel.area(table.layout, shown).inflate(-2 * COLUMN, -2 * panel.CORNER)
    whole = pygame.Rect(*astuple(table.layout.table))
    for _ in range(MOST_FRAMES_WAITED + 1):  # the panel's frames, the dealer's side left to the next
        painted.clear()
        clock.now += 1 / 60
        table.draw(clock.now)
        under_body += sum(area.clip(body).w * area.clip(body).h for area in painted)
        on_table += sum(area.clip(whole).w * area.clip(whole).h for area in painted)
    assert on_table > 0, "the panel's frames painted the table round it"
    assert under_body == 0


def test_a_winning_hands_glow_is_drawn_only_where_a_frame_repaints_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outcome's frame repaints the verdict, the captions and the hand apart: the glow's
    rounded frames are drawn into the hand's repaint only, not clipped away in the others."""
    app, clock = played(tmp_path, (1920, 1080), QUADS)
    table = app.game
    glow = hand.glow(table.layout, table.layout.boxes[0], 5)
    clipped_away = []
    draw_glow = hand.draw_glow

    def drawing(surface: pygame.Surface, *where: Any) -> None:
        clipped_away.append(not surface.get_clip().colliderect(glow))
        draw_glow(surface, *where)

    monkeypatch.setattr(hand, "draw_glow", drawing)
    while table.busy(clock.now):
        clock.now += 1 / 60
        table.draw(clock.now)
    assert len(clipped_away) > 4, "the glow was drawn as it turned"
    assert not any(clipped_away)


def test_a_meter_redrawn_in_part_blits_only_the_glyphs_that_reach_into_the_part(tmp_path: Path) -> None:
    """A counting frame repaints a meter's last digits: the name and the glyphs left of them
    would be clipped away whole, and each blit of them costs as much as one that draws."""
    app, _clock = kiosk(tmp_path, (1920, 1080))
    lay = app.game.layout
    cash, most = cash_for(app.terminal), app.terminal.config.credit_limit
    before = (("CREDIT", 123_456), ("BET", 500), ("WIN", 1_000))
    now = (("CREDIT", 123_457), ("BET", 500), ("WIN", 1_001))
    blits: list[pygame.Rect] = []

    class Counting(pygame.Surface):
        def blit(
            self, source: pygame.Surface, dest: Any = (0, 0), area: Any = None, special_flags: int = 0
        ) -> pygame.Rect:
            blits.append(source.get_rect(topleft=dest[:2]))
            return super().blit(source, dest, area, special_flags)

    for area, _cell in meters.changed(lay, before, now, cash, most):
        screen, full = (Counting(app.screen.get_size()) for _ in range(2))
        blits.clear()
        with render.clipped(screen, area):
            meters.draw(screen, lay, now, cash, most, only=area)
        assert blits, "the changed digits are drawn"
        assert all(blit.colliderect(area) for blit in blits), (area, blits)
        meters.draw(full, lay, now, cash, most)
        shown, whole = (pygame.image.tobytes(surface.subsurface(area), "RGB") for surface in (screen, full))
        assert shown == whole


def clusters_one_by_one(damage: list[pygame.Rect], within: pygame.Rect) -> list[pygame.Rect]:
    """``clusters`` as it was first written: each area against each cluster in turn."""
    found: list[pygame.Rect] = []
    for area in damage:
        area = in_columns(area, within)
        merged = True
        while merged:
            merged = False
            for index, cluster in enumerate(found):
                if cluster.inflate(NEAR, NEAR).colliderect(area):
                    area.union_ip(found.pop(index))
                    merged = True
                    break
        found.append(area)
    return found


def test_clusters_are_those_found_one_by_one() -> None:
    """``clusters`` asks for the first cluster near an area in one call: the same clusters,
    in the same order. An area with nothing of it within is left out: there is nothing of it
    to paint (taken in, it stretched a cluster to its place, beyond the table)."""
    rng = random.Random(7)
    within = pygame.Rect(0, 86, 1280, 799)
    for _ in range(300):
        damage = [
            pygame.Rect(
                rng.randrange(-50, 1300), rng.randrange(50, 900), rng.randrange(1, 300), rng.randrange(1, 250)
            )
            for _ in range(rng.randrange(1, 30))
        ]
        seen = [area for area in damage if in_columns(area, within).w and in_columns(area, within).h]
        expected = clusters_one_by_one(seen, within)
        assert clusters(damage, within) == expected


def test_a_deals_first_frame_works_out_the_tables_hands_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new deal repaints several areas of the table (the last round's cards gone, the first
    card on its way, a label, a caption): each asks for the hands, the bet spots and where the
    labels lie, worked out once for the frame, not once an area."""
    app, clock = kiosk(tmp_path, (1920, 1080), deck=FLUSH)
    app.key("f8")
    app.key("return")
    app.key("f")
    settle(app, clock, 2)
    scene = app.game
    asked = []
    hands = GameScene._hands

    def counted(self: GameScene, lay: Layout) -> list[Hand]:
        asked.append(lay)
        return hands(self, lay)

    monkeypatch.setattr(GameScene, "_hands", counted)
    app.key("return")
    clock.now += 1 / 60
    dirty = scene.draw(clock.now)
    table = pygame.Rect(*astuple(scene.layout.table))
    assert len([area for area in dirty if table.contains(area)]) >= 3, dirty
    assert len(asked) <= 2, "the cards' poses, then the parts of the table"
    pictures_agree(app, clock)


def test_what_a_deals_first_frame_left_is_painted_a_region_a_frame(tmp_path: Path) -> None:
    """A new deal's first frame is the table's news; the message, the meters, the buttons (and
    a paytable row lit by the last round, going dark) wait. The frames after it paint one of them each (the
    cards go on flying meanwhile), those overdue at once, and the picture is a full repaint's."""
    app, clock = played(tmp_path, (1920, 1080), FLUSH)
    settle(app, clock)
    lay = app.game.layout
    regions = {
        name: pygame.Rect(*astuple(box))
        for name, box in (
            ("paytable", lay.paytable),
            ("message", lay.message),
            ("meters", lay.meters),
            ("buttons", lay.buttons),
        )
    }
    app.key("return")
    painted = []
    for _ in range(MOST_FRAMES_WAITED + 1):
        clock.now += 1 / 60
        dirty = app.game.draw(clock.now)
        painted.append({name for name, region in regions.items() if region.collidelist(dirty) >= 0})
    assert not painted[0], "the table's news takes the first frame"
    assert all(len(shown) == 1 for shown in painted[1:MOST_FRAMES_WAITED]), painted
    assert {"message", "meters", "buttons"} <= set().union(*painted), painted
    pictures_agree(app, clock)


def first_renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each text as ``render.text`` is first asked for it (until ``render.forget``): a
    render, not a kept surface's blit."""
    text, forget = render.text, render.forget
    seen: set[tuple[Any, ...]] = set()
    firsts: list[str] = []

    def noted(content: str, size: int, colour: render.Colour, bold: bool = False) -> pygame.Surface:
        # A card's index (in its ink) is part of the card's picture, made as the card turns.
        if colour not in (render.INK, render.RED) and (content, size, colour, bold) not in seen:
            seen.add((content, size, colour, bold))
            firsts.append(content)
        return text(content, size, colour, bold)

    def forgotten() -> None:
        seen.clear()
        forget()

    noted.cache_clear = text.cache_clear  # type: ignore[attr-defined]
    monkeypatch.setattr(render, "text", noted)
    monkeypatch.setattr(render, "forget", forgotten)
    return firsts


def deal_to_its_buttons(app: App, clock: Clock) -> None:
    """A deal, and its frames until the buttons of play show (they wait for its cards to
    land, then for a frame that has room for them)."""
    app.key("return")
    while app.game.motions.landing(clock.now):
        clock.now += 1 / 60
        app.draw()
    for _ in range(MOST_FRAMES_WAITED + 1):
        clock.now += 1 / 60
        app.draw()
    view = app.game.view
    assert view is not None
    assert {name for name, _label, _live in view.buttons} >= {"fold", "play"}
    assert app.game._keys["buttons"] == (view.buttons,), "the deal's buttons are on the screen"


def labels_and_glyphs(rendered: list[str], app: App) -> list[str]:
    """Those of ``rendered`` that are a line of a button of the moment, or a glyph."""
    assert app.game.view is not None
    words = {word for _name, label, _live in app.game.view.buttons for word in label.split(" ")}
    return [text for text in rendered if len(text) == 1 or set(text.split(" ")) <= words]


@pytest.mark.parametrize("language", [None, "cs"])
def test_the_first_frames_of_a_deal_render_no_button_label_nor_meter_glyph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str | None
) -> None:
    """Every bar's labels and the meters' glyphs are rendered ahead, again after the
    language changes: the frames that first show FOLD, PLAY, EXCHANGE and the bet on the
    meters blit them."""
    rendered = first_renders(monkeypatch)
    app, clock = kiosk(tmp_path, (1920, 1080), deck=FLUSH)
    app.key("f8")
    settle(app, clock, 4)
    if language is not None:
        assert app.terminal.handle("language").ok
        settle(app, clock, 4)
    before = len(rendered)
    deal_to_its_buttons(app, clock)
    assert not labels_and_glyphs(rendered[before:], app), rendered[before:]


def test_words_forgotten_are_rendered_ahead_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Words rendered ahead live in ``render``'s caches only: once they are forgotten (and
    the screen drawn afresh), they are rendered again, before a deal shows them."""
    rendered = first_renders(monkeypatch)
    app, clock = kiosk(tmp_path, (1920, 1080), deck=FLUSH)
    app.key("f8")
    settle(app, clock, 4)
    render.forget()
    app.game.invalidate()
    settle(app, clock, 4)
    before = len(rendered)
    deal_to_its_buttons(app, clock)
    assert not labels_and_glyphs(rendered[before:], app), rendered[before:]
