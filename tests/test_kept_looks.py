"""The kept looks of the screen's regions: showing a look again is one blit, and keeping a
new one reuses a surface made once instead of new memory (whose first touch cost the frame
that kept the paytable four full-screen blits)."""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest
from support import books
from test_screen import Clock, kiosk

from oasis_kiosk import shuffled_deck
from oasis_kiosk.config import Config
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import cards, render
from oasis_kiosk.ui.app import App
from oasis_kiosk.ui.kept import KeptLooks
from oasis_kiosk.ui.view import cash_for
from oasis_kiosk.ui.widgets import jackpot, panel

FLUSH = "As Ks 9s 7s 4s / Kd Kc 4h 5h 9c"
ROYAL = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"  # the jackpot, over the handpay limit


def painted(screen: pygame.Surface, colour: tuple[int, int, int]) -> pygame.Surface:
    screen.fill(colour)
    pygame.draw.circle(screen, (250, 250, 250), (30, 20), 12)
    return screen


def test_a_kept_look_shows_what_was_painted_and_the_oldest_gives_its_surface_to_the_next() -> None:
    screen = pygame.Surface((100, 60))
    area = pygame.Rect(10, 5, 50, 40)
    kept = KeptLooks({"paytable": 2})
    surfaces = []
    for look, colour in enumerate([(200, 0, 0), (0, 200, 0), (0, 0, 200)]):
        kept.keep("paytable", look, painted(screen, colour), area)
        surface = kept.get("paytable", look)
        assert surface is not None
        assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(screen.subsurface(area), "RGB")
        surfaces.append(surface)
    assert kept.get("paytable", 0) is None, "two looks kept: the oldest went"
    assert kept.get("paytable", 1) is surfaces[1]
    assert surfaces[2] is surfaces[0], "the third look is painted into the first one's surface"
    assert "paytable" in kept
    assert "meters" not in kept


def test_a_region_of_a_new_size_keeps_its_looks_in_surfaces_of_that_size() -> None:
    screen = painted(pygame.Surface((100, 60)), (9, 9, 9))
    kept = KeptLooks({"message": 3})
    kept.keep("message", "a", screen, pygame.Rect(0, 0, 40, 10))
    kept.keep("message", "a", screen, pygame.Rect(0, 0, 60, 12))
    surface = kept.get("message", "a")
    assert surface is not None
    assert surface.get_size() == (60, 12)
    kept.clear()
    assert kept.get("message", "a") is None


def test_the_game_keeps_its_looks_in_the_same_surfaces_through_rounds(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1280, 720), deck=FLUSH)
    app.key("f8")

    def surfaces() -> set[int]:
        return {id(surface) for region in app.game._kept._kept.values() for surface in region.values()} | {
            id(surface) for spare in app.game._kept._spare.values() for surface in spare
        }

    app.advance(1 / 60)
    made = surfaces()
    assert made, "the first frame kept the regions' looks"
    for _ in range(3):
        app.key("return")
        app.key("p")
        for _ in range(400):
            clock.now += 1 / 60
            app.advance(1 / 60)
    assert surfaces() == made, "no new surface for a new look"


def test_the_deck_and_the_chips_are_drawn_ahead_in_quiet_frames_and_a_deal_draws_neither(
    tmp_path: Path,
) -> None:
    app, clock = kiosk(tmp_path, (1111, 777))  # a size of its own: no other test drew its cards
    app.key("f8")
    for _ in range(150):  # 2.5 seconds with nothing to paint: a step a frame, cards then chips
        clock.now += 1 / 60
        app.draw()
    drawn = cards.card_piece.cache_info().misses
    lay = app.game.layout
    diameter = lay.spots(lay.boxes[0])[0].w
    fonts = render.font.cache_info().misses
    for size in render.fitting_sizes(max(diameter // 4, lay.floor), lay.floor):  # a chip label's
        render.font(size, True)
    assert render.font.cache_info().misses == fonts, "every font a chip's label may take is made"
    app.key("return")
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        app.draw()
    assert app.game.view is not None
    assert app.game.view.boxes[0].cards, "cards were dealt"
    assert cards.card_piece.cache_info().misses == drawn, "every card dealt was drawn ahead"


def test_the_deck_drawn_ahead_is_encoded_for_the_screen_before_a_deal_blits_it(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1115, 781))
    app.key("f8")
    for _ in range(150):  # every piece drawn ahead
        clock.now += 1 / 60
        app.draw()
    lay = app.game.layout
    faces = [None, *shuffled_deck(bytes(32))]
    deck = [cards.card_piece(name, lay.card_w, lay.card_h, False) for name in faces]
    assert all(piece.get_flags() & pygame.RLEACCEL for piece in deck), "a deal's first blit only copies"


def test_a_handpays_panel_and_the_jackpots_banner_are_written_while_the_dealers_cards_turn(
    tmp_path: Path,
) -> None:
    app, clock = kiosk(tmp_path, (1113, 779), deck=ROYAL)  # a size of its own: nothing written yet
    app.key("f8")
    app.key("n")
    app.key("return")
    app.key("p")
    table = app.game
    assert table.revealing(clock.now)
    while table.revealing(clock.now + 1 / 60):
        clock.now += 1 / 60
        app.draw()
    view = table.view
    assert view is not None
    shown = panel.overlay_panel(view)
    assert shown is not None, "the jackpot is over the handpay limit: a handpay panel"
    assert view.jackpot_won
    written = render.text.cache_info().misses
    panel.all_words(table.layout, shown)
    for colour in jackpot.BANNER_COLOURS:
        jackpot.banner_words(table.layout, cash_for(table.terminal)(view.jackpot_won), colour)
    assert render.text.cache_info().misses == written, "every word was written ahead"


def before_the_last_card_turns(tmp_path: Path, size: tuple[int, int]) -> tuple[App, Clock]:
    """A flush played, drawn frame by frame until the dealer's last card is about to turn."""
    app, clock = kiosk(tmp_path, size, deck=FLUSH)
    app.key("f8")
    app.key("return")
    app.key("p")
    while app.game.revealing(clock.now + 1 / 60):
        clock.now += 1 / 60
        app.draw()
    return app, clock


def test_the_dealers_verdict_and_the_boxes_captions_are_written_while_the_dealers_cards_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, clock = before_the_last_card_turns(tmp_path, (1119, 787))  # a size of its own: nothing written yet
    table = app.game
    text = render.text
    written: list[str] = []

    def writing(content: str, *how: Any) -> pygame.Surface:
        misses = text.cache_info().misses
        words = text(content, *how)
        if text.cache_info().misses > misses:
            written.append(content)
        return words

    monkeypatch.setattr(render, "text", writing)
    clock.now += 1 / 60
    app.draw()  # the last card turned: the verdict, the captions, the win counting
    view = table.showing(clock.now)
    assert view.dealer_verdict, "the outcome shows"
    outcome = {f"DEALER   {view.dealer_verdict}", *(box.caption for box in view.boxes)}
    assert not outcome & set(written), written


def test_the_chips_an_outcome_moves_are_drawn_while_the_dealers_cards_turn(tmp_path: Path) -> None:
    app, clock = before_the_last_card_turns(tmp_path, (1117, 783))  # a size of its own: no chip drawn yet
    table = app.game
    drawn = render.chip.cache_info().misses
    while table.busy(clock.now):  # the dealer's pay slides in, the chips go back with it
        clock.now += 1 / 60
        app.draw()
    assert render.chip.cache_info().misses == drawn, "every chip was drawn ahead"


def test_forgetting_the_looks_keeps_their_surfaces_for_the_next(tmp_path: Path) -> None:
    screen = painted(pygame.Surface((100, 60)), (9, 9, 9))
    area = pygame.Rect(0, 0, 40, 10)
    kept = KeptLooks({"message": 2})
    kept.keep("message", "a", screen, area)
    kept.keep("message", "b", screen, area)
    surfaces = [kept.get("message", "a"), kept.get("message", "b")]
    kept.clear()  # a LANGUAGE press: every look drawn again, into the same surfaces
    kept.keep("message", "c", screen, area)
    assert kept.get("message", "a") is None
    assert any(kept.get("message", "c") is surface for surface in surfaces)


def test_an_attract_demos_table_and_its_kept_surfaces_go_when_the_demo_ends(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    app = App(Terminal(replace(Config(database=database), attract_after=1), books(database)), size=(800, 480))
    for _ in range(90):
        app.update(1 / 60)
    assert app.attract is not None
    app.draw()
    demo_table = weakref.ref(app.attract.game)
    gc.disable()  # freed as it is let go, not by a later collection of cycles
    try:
        app.key("b")
        assert app.attract is None
        assert demo_table() is None
    finally:
        gc.enable()
