"""The game screen on SDL's dummy video driver: the keyboard and the mouse play through the
cabinet's mock pins, and the screen draws what the terminal holds.

Every screen of ``make screenshots`` (``ui/screenshots.py``), at each size and in each
language, and the key screens of the tests below (saved into ``test-artifacts/screens``, or
the folder ``OASIS_ARTIFACTS`` names) are checked for what a player would see: text no
smaller than the floor, none cut off by the edge of its region or painted over in part, no
two texts on top of each other, each button's label inside its button clear of its border,
and one label size along a row of buttons."""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pygame
import pytest
from pygame.typing import Point, RectLike
from support import books

from oasis_kiosk import i18n, profile_names
from oasis_kiosk.config import Config
from oasis_kiosk.hardware.cabinet import Taken
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.money_kinds import BILL, COIN
from oasis_kiosk.machine.operator import hash_pin
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.store.db import Store
from oasis_kiosk.ui import cards, render, rules_text, screenshots, view
from oasis_kiosk.ui.app import App
from oasis_kiosk.ui.layout import SIZES as SIZES  # the other screen tests take it from here
from oasis_kiosk.ui.layout import layout, text_floor, window_size
from oasis_kiosk.ui.scenes.game.scene import MOST_FRAMES_WAITED
from oasis_kiosk.ui.screenshots import Clock as Clock  # and this
from oasis_kiosk.ui.view import cash_for, last_settlement
from oasis_kiosk.ui.widgets import hand, legend, panel, rulebook

ARTIFACTS = (
    Path(os.environ.get("OASIS_ARTIFACTS") or Path(__file__).parent.parent / "test-artifacts") / "screens"
)
BUTTON_CLEARANCE = 4
"""Pixels of a button, from its edge in, that its label leaves clear: its border and a little
more (a label touching the border, or its neighbour's, reads as one word with it)."""
ENDS = [(1920, 1080), (800, 480)]
"""The largest and the smallest screen, for the tests that play rather than look."""


@dataclass(frozen=True)
class Text:
    """A text as it was put on the screen."""

    content: str
    size: int
    ink: pygame.Rect
    """Where its visible pixels are."""
    clip: pygame.Rect
    """The region it was drawn in."""


def blitted_at(dest: Point | RectLike) -> tuple[float, float]:
    """Where a blit at ``dest`` puts the source's top left corner: the screen blits at rects
    and at (x, y) points."""
    if isinstance(dest, pygame.Rect | pygame.FRect):
        return dest.topleft
    assert isinstance(dest, tuple | list), f"a blit at {dest!r}"
    x, y = dest
    return x, y


class CheckedSurface(pygame.Surface):
    """Draws like the screen and notes each text it is given (render.text's, by identity),
    forgetting those painted over, and each button (render.button's), so that what the
    player sees can be checked (``faults``)."""

    texts: ClassVar[weakref.WeakKeyDictionary[pygame.Surface, tuple[str, int]]] = weakref.WeakKeyDictionary()
    """Every text surface made: its words and size."""
    pieces: ClassVar[weakref.WeakKeyDictionary[pygame.Surface, list[tuple[str, int]]]] = (
        weakref.WeakKeyDictionary()
    )
    """Every chip and bet spot drawn with words on it, and every card face as drawn (the
    recall's; the table's are copies): those words (a card's rank) and their sizes."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.shown: list[Text] = []
        self.piece_words: list[tuple[str, int]] = []
        """The words on the chips and spots drawn."""
        self.buttons: list[tuple[pygame.Rect, list[Text]]] = []
        """Each button drawn and the words written on it."""
        self.torn: list[str] = []
        """Texts painted over in part: what is left of them still shows, cut."""

    def forget(self) -> None:
        """A new picture is drawn from scratch."""
        self.shown, self.piece_words, self.buttons, self.torn = [], [], [], []

    def blit(
        self,
        source: pygame.Surface,
        dest: Point | RectLike = (0, 0),
        area: RectLike | None = None,
        special_flags: int = 0,
    ) -> pygame.Rect:
        topleft = blitted_at(dest)
        known = self.texts.get(source)
        if known is not None:
            ink = source.get_bounding_rect().move(topleft)
            if ink.w and ink.h:
                self.shown.append(Text(*known, ink, self.get_clip()))
        elif source in self.pieces:  # chips pass over each other: only their words' size is checked
            self.piece_words += self.pieces[source]
        elif not source.get_flags() & pygame.SRCALPHA:
            size = pygame.Rect(area).size if area is not None else source.get_size()
            self.cover(pygame.Rect(topleft, size))
        return super().blit(source, dest, area, special_flags)

    def fill(self, color: Any, rect: Any = None, special_flags: int = 0) -> pygame.Rect:
        if not special_flags:  # a blend (a veil that dims) leaves the texts showing under it
            self.cover(pygame.Rect(rect) if rect is not None else self.get_rect())
        return super().fill(color, rect, special_flags)

    def cover(self, area: pygame.Rect) -> None:
        """Something opaque painted over ``area``: the texts under it are gone; one only
        partly under it is torn."""
        area = area.clip(self.get_clip())
        self.torn += [
            f"{text.content!r} partly covered: {text.ink} by {area}"
            for text in self.shown
            if text.ink.colliderect(area) and not area.contains(text.ink)
        ]
        self.shown = [text for text in self.shown if not text.ink.colliderect(area)]

    def cut_off(self) -> list[str]:
        """Texts cut off by the edge of the region they were drawn in."""
        return [
            f"{t.content!r} cut off: {t.ink} is not inside {t.clip}"
            for t in self.shown
            if not t.clip.contains(t.ink)
        ]

    def faults(self) -> list[str]:
        """What a player would find wrong with the picture: text under the floor, text cut
        off by its region's edge or partly painted over, texts on top of each other, a button's
        label running to its edge or out of it, and a row of buttons whose labels differ in
        size."""
        floor = text_floor(self.get_height())
        words = [(t.content, t.size) for t in self.shown] + self.piece_words
        faults = [f"{content!r} at {size} px, under {floor}" for content, size in words if size < floor]
        faults += self.cut_off()
        faults += self.torn
        inks = [text.ink for text in self.shown]
        for number, text in enumerate(self.shown):
            for other in text.ink.collidelistall(inks[number + 1 :]):
                faults.append(f"{text.content!r} overlaps {self.shown[number + 1 + other].content!r}")
        rows: dict[tuple[int, int], set[int]] = {}
        for button, label in self.buttons:
            room = button.inflate(-2 * BUTTON_CLEARANCE, -2 * BUTTON_CLEARANCE)
            faults += [
                f"{t.content!r} runs out of its button: {t.ink} is not inside {room}"
                for t in label
                if not room.contains(t.ink)
            ]
            rows.setdefault((button.y, button.h), set()).update(t.size for t in label)
        faults += [
            f"buttons at y={y} with labels of {sorted(sizes)} px"
            for (y, _h), sizes in rows.items()
            if len(sizes) > 1
        ]
        return faults


@pytest.fixture(autouse=True)
def _texts_are_known(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every surface render.text makes is remembered, and the words on every chip and bet
    spot, every button and filled rectangle drawn on a checked surface noted, so that it
    knows what shows."""
    text, button, rectangle, card = render.text, render.button, pygame.draw.rect, cards.card
    writing: list[list[tuple[str, int]]] = []
    """The words of the chips and spots being drawn."""

    def remembered(content: str, size: int, colour: render.Colour, bold: bool = False) -> pygame.Surface:
        surface = text(content, size, colour, bold)
        CheckedSurface.texts[surface] = (content, size)
        if writing:
            writing[-1].append((content, size))
        return surface

    def pictured(draw: Callable[..., pygame.Surface]) -> Callable[..., pygame.Surface]:
        def drawing(*arguments: Any) -> pygame.Surface:
            writing.append([])
            try:
                piece = draw(*arguments)
            finally:
                words = writing.pop()
            if words:  # drawn now, not taken from render's cache
                CheckedSurface.pieces[piece] = words
            return piece

        drawing.cache_clear = draw.cache_clear  # type: ignore[attr-defined]
        drawing.cache_info = draw.cache_info  # type: ignore[attr-defined]
        return drawing

    def noted(surface: pygame.Surface, area: pygame.Rect, *arguments: Any, **options: Any) -> None:
        if not isinstance(surface, CheckedSurface):
            button(surface, area, *arguments, **options)
            return
        before = list(surface.shown)  # kept alive: a new text is never taken for one of these
        button(surface, area, *arguments, **options)
        known = {id(text) for text in before}
        surface.buttons.append((pygame.Rect(area), [t for t in surface.shown if id(t) not in known]))

    def filled(
        surface: pygame.Surface, colour: Any, area: Any, width: int = 0, **options: Any
    ) -> pygame.Rect:
        if isinstance(surface, CheckedSurface) and width == 0:
            surface.cover(pygame.Rect(area))
        return rectangle(surface, colour, area, width, **options)

    def faced(name: str | None, width: int, height: int) -> pygame.Surface:
        """A card, its rank noted as the words on it: the recall blits the card itself."""
        surface = card(name, width, height)
        if name is not None:
            rank = name[:-1]
            CheckedSurface.pieces[surface] = [(rules_text.RANK_TEXT.get(rank, rank), cards.rank_size(height))]
        return surface

    remembered.cache_clear = text.cache_clear  # type: ignore[attr-defined]
    monkeypatch.setattr(render, "text", remembered)
    monkeypatch.setattr(render, "button", noted)
    monkeypatch.setattr(render, "chip", pictured(render.chip))
    monkeypatch.setattr(render, "spot", pictured(render.spot))
    monkeypatch.setattr(cards, "card", faced)
    monkeypatch.setattr(pygame.draw, "rect", filled)
    yield
    pygame.quit()


def checked(app: App) -> CheckedSurface:
    """The kiosk draws on a checked surface instead of its window."""
    surface = CheckedSurface(app.screen.get_size())
    app.screen = app.game.screen = app.operator.screen = surface
    return surface


OTHER_SIZES = (
    (1280, 1024),
    (1366, 768),
    (800, 600),
    (1024, 600),
    window_size((1920, 1080)),
    window_size((1080, 1920)),
    window_size((1366, 768)),
    window_size((800, 600)),
)
"""Screens not of SIZES that the kiosk is also shown on (``--size``, a fullscreen display,
a window on a desktop): 5:4, the laptops' 16:9, 4:3 and 1024x600 just above the compact
layout, and the windows on a laptop's and an 800x600 desktop."""


def unreadable_screens(size: tuple[int, int], language: str) -> dict[str, list[str]]:
    """The faults of each screen of ``make screenshots`` at ``size`` in ``language``, each
    drawn once."""
    faults = {}
    surfaces: dict[App, CheckedSurface] = {}
    for app, name in screenshots.every_screen(size, language):
        surface = surfaces.setdefault(app, checked(app))
        surface.forget()
        app.repaint()
        faults[name] = surface.faults()
    assert {"attract", "attract-title", "attract-paytable", "attract-jackpot", "jackpot"} <= set(faults)
    assert {f"{table}-boxes-settled" for table in screenshots.OTHER_TABLES} <= set(faults)
    return faults


def said(faults: dict[str, list[str]]) -> str:
    return "\n".join(
        f"{name}: {len(found)} fault(s): {'; '.join(found[:3])}" for name, found in faults.items() if found
    )


@pytest.mark.parametrize("language", screenshots.LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_every_screen_is_readable(size: tuple[int, int], language: str) -> None:
    """The screens of ``make screenshots``: before the deal, in a round, settled, a jackpot,
    HELP, a tilt, the operator's menu, a handpay, the attract mode's demo round and cards, and
    the other tables' boxes; each drawn once."""
    faults = said(unreadable_screens(size, language))
    assert not faults, faults


@pytest.mark.parametrize("language", screenshots.LANGUAGES)
@pytest.mark.parametrize("size", OTHER_SIZES)
def test_every_screen_is_readable_at_other_sizes(size: tuple[int, int], language: str) -> None:
    """At 1280x1024 the Russian paytable heading ran off the screen's right edge, and at
    1024x600 and in a window on an 800x600 desktop the buttons' labels ran out of their
    buttons: the layout is fractions of any screen, so the screens are checked at sizes
    besides the four drawn for the docs."""
    faults = said(unreadable_screens(size, language))
    assert not faults, faults


class PatientApp(App):
    """The kiosk pressed as a player presses it: once the cards being dealt lie on the table
    (a press while they land only lands them, ``App._interrupt``). The tests of that moment
    take an ``App``."""

    def key(self, name: str) -> None:
        self._cards_landed()
        super().key(name)

    def click(self, x: int, y: int) -> None:
        self._cards_landed()
        super().click(x, y)

    def _cards_landed(self) -> None:
        now = self.now()
        if self.game.motions.landing(now) and not self.game.revealing(now):
            self.game.skip(now)
            self.update(0.0)  # the devices see the story told (their presses are the game's again)


def kiosk(
    tmp_path: Path,
    size: tuple[int, int],
    profile: str = "standard",
    deck: str | None = None,
    language: str = "en",
    patient: bool = True,
    **settings: Any,
) -> tuple[App, Clock]:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(
        Config(database=database, profile=profile, language=language, **settings),
        books(database, profile),
        seed_for_round=seeds_from(bytes(32)),
        deck_for_round=(lambda number: deck) if deck else None,
    )
    clock = Clock()
    app = (PatientApp if patient else App)(terminal, size=size, clock=clock)
    checked(app)
    return app, clock


def settle(app: App, clock: Clock, seconds: float = 12.0) -> None:
    """Lets every animation and count run to its end, drawing frames on the way."""
    for _ in range(int(seconds * 10)):
        clock.now += 0.1
        app.draw()


def drawn(app: App) -> None:
    """The frame at this moment, and the frames at the same moment that paint what it left
    over its budget: the screen as it stands a few sixtieths of a second later."""
    for _ in range(MOST_FRAMES_WAITED + 1):
        app.draw()


def shot(app: App, name: str) -> None:
    """Saves the screen, drawn afresh, and checks it: something drawn, the text readable."""
    surface = app.screen
    assert isinstance(surface, CheckedSurface)
    surface.forget()
    app.repaint()
    width, height = surface.get_size()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(ARTIFACTS / f"{name}-{width}x{height}.png"))
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, width, 7) for y in range(0, height, 7)}
    assert len(colours) > 8, f"{name}: the screen is nearly blank"
    assert surface.shown, f"{name}: no text drawn"
    found = surface.faults()
    assert not found, f"{name}: {found[:5]}"


def test_the_desktops_window_says_which_key_shows_the_keys(tmp_path: Path) -> None:
    """Nothing on a desktop said that L lists the keys."""
    kiosk(tmp_path, (800, 480), language="cs")
    title, _icon_title = pygame.display.get_caption()
    assert title == "Oasis Stud Poker (L zobrazí klávesy)"


def test_the_key_legend_paints_only_inside_the_area_repainted(tmp_path: Path) -> None:
    """A chip or card moving under the legend repaints its own small area, the legend within
    it: the legend had set its clip to its whole panel, and blitted all its words again over
    themselves (bolder each time, off the frame's damage)."""
    app, _clock = kiosk(tmp_path, (1280, 720))
    app.key("l")
    assert app.game.legend is not None
    rows = view.legend(app.game.legend, view.cash_for(app.terminal))
    surface = pygame.Surface((1280, 720))
    legend.draw(surface, app.game.layout, rows)
    before = surface.copy()
    area = pygame.Rect(300, 300, 20, 20)
    with render.clipped(surface, area):
        legend.draw(surface, app.game.layout, rows)
    outside = [
        (x, y)
        for x in range(0, 1280, 2)
        for y in range(0, 720, 2)
        if not area.collidepoint(x, y) and surface.get_at((x, y)) != before.get_at((x, y))
    ]
    assert outside == []


@pytest.mark.parametrize("language", screenshots.LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_the_desktops_key_legend_fits_its_panel_at_one_size(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    """Its last row had run out of the panel at 1280x720, and one meaning shrank alone."""
    app, _clock = kiosk(tmp_path, size, language=language)
    app.key("l")
    assert app.game.legend is not None
    shot(app, f"legend-{language}")
    surface = app.screen
    assert isinstance(surface, CheckedSurface)
    meanings = {meaning for _key, meaning in view.legend(app.game.legend, view.cash_for(app.terminal))}
    table = render.rect(app.game.layout.table)
    sizes = {text.size for text in surface.shown if text.content in meanings and table.contains(text.ink)}
    assert len(sizes) == 1, sizes


@pytest.mark.parametrize("size", ENDS)
def test_the_key_screens_render_and_keep_their_text_in_place(tmp_path: Path, size: tuple[int, int]) -> None:
    app, clock = kiosk(tmp_path, size, deck="As Ad Ac Kd 2h / Ks Kh 4c 5c 9d")
    terminal = app.terminal
    shot(app, "ready")
    app.key("f8")
    app.key("return")
    assert terminal.round is not None
    settle(app, clock, 2)
    shot(app, "game")
    app.key("5")
    assert terminal.selected == {4}
    shot(app, "exchange-selection")
    app.key("5")
    app.key("p")
    assert terminal.round is None
    settle(app, clock)
    shown = last_settlement(terminal)
    assert shown is not None
    assert shown["boxes"][0]["outcome"] == "won"
    assert app.game.view is not None
    assert app.game.counted(clock.now) == app.game.view.win > 0
    shot(app, "win")
    app.key("h")
    assert app.game.showing_help
    shot(app, "help")
    app.key("h")
    app.key("l")
    shot(app, "legend")
    app.key("l")
    app.key("d")
    assert "door" in terminal.tilts
    shot(app, "tilt")
    app.key("d")
    with terminal.store.transaction():
        terminal.store.set_state("operator_pin", hash_pin("243512"))
    app.key("m")
    assert terminal.operator_key
    shot(app, "operator-pin")
    for key in ("2", "4", "3", "5", "1", "2", "return"):
        app.key(key)
    assert app.operator.menu.logged_in
    shot(app, "operator-meters")
    app.key("b")
    assert app.operator.page_name == "recall"
    shot(app, "operator-recall")
    app.key("m")
    assert not terminal.operator_key
    assert not app.operator.menu.logged_in, "turning the key back closes the menu"
    app.key("o")
    assert terminal.handpay is not None
    shot(app, "handpay")


@pytest.mark.parametrize("size", SIZES)
def test_a_tilt_covers_the_labels_of_every_box_whole_or_not_at_all(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """The tilt's panel over a round on three boxes: the table dimmed behind it, no box's
    label cut by its edge, the dealer's label and the boxes' captions clear of it."""
    app, clock = kiosk(tmp_path, size, profile="russian-three-box")
    terminal = app.terminal
    app.key("f8")
    app.key("x")
    app.key("x")
    assert terminal.boxes == 3
    app.key("return")
    assert terminal.round is not None
    settle(app, clock, 2)
    app.key("d")
    assert "door" in terminal.tilts
    shot(app, "tilt-three-boxes")
    assert isinstance(app.screen, CheckedSurface)
    shown = {text.content for text in app.screen.shown}
    assert any(content.startswith("DEALER") for content in shown), "the dealer's label shows, dimmed"
    assert not [content for content in shown if content.startswith("BOX")], "the boxes' labels are under it"


@pytest.mark.parametrize("size", ENDS)
def test_a_jackpot_is_counted_up_and_celebrated(tmp_path: Path, size: tuple[int, int]) -> None:
    app, clock = kiosk(tmp_path, size, deck="As Ks Qs Js Ts / 2c 2d 4h 5h 7c")
    terminal = app.terminal
    app.key("f8")
    app.key("n")
    assert terminal.bonus_stake
    app.key("return")
    settle(app, clock, 1)
    app.key("p")
    shown = last_settlement(terminal)
    assert shown is not None
    assert shown["jackpot_awards"] > 0
    settle(app, clock, 2)
    assert app.game.busy(clock.now), "still counting and celebrating"
    assert app.game.view is not None
    assert 0 < app.game.counted(clock.now) < app.game.view.win
    shot(app, "jackpot")
    app.key("h")  # any press ends the presentation at once
    app.key("h")
    assert not app.game.busy(clock.now)
    assert app.game.counted(clock.now) == app.game.view.win


def test_the_mouse_presses_the_buttons_and_picks_cards(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1280, 720))
    terminal = app.terminal
    app.key("f8")
    settle(app, clock, 1)
    deal = next(area for area, name, _card in app.game.hotspots if name == "deal")
    app.click(*deal.center)
    assert terminal.round is not None
    settle(app, clock, 2)
    card = next(area for area, name, number in app.game.hotspots if name == "card" and number == 2)
    app.click(*card.center)
    assert terminal.selected == {1}
    settle(app, clock, 1)
    fold = next(area for area, name, _card in app.game.hotspots if name == "fold")
    app.click(*fold.center)
    assert terminal.round is None
    assert audit(terminal.store).ok


def plays(app: App) -> Iterator[str]:
    """The keys a simple player presses in each state: exchange the fifth card once where the
    profile allows, insure the smallest amount, buy the dealer's card when offered."""
    terminal = app.terminal
    exchanged = False
    while terminal.round is not None:
        live = terminal.live()
        phase = terminal.round.phase
        if phase == "insurance":
            yield from ("b", "i")
        elif phase == "purchase":
            yield "k" if "buy_card" in live else "c"
        elif "exchange" in live and not exchanged and 1 in terminal.round.legal_actions()["exchange"]:
            exchanged = True
            yield from ("5", "e")
        else:
            yield "p" if "play" in live else "f"


@pytest.mark.parametrize("profile", profile_names())
def test_every_profile_plays_whole_rounds_through_the_keyboard(tmp_path: Path, profile: str) -> None:
    app, clock = kiosk(tmp_path, (1280, 720), profile=profile)
    terminal = app.terminal
    for _ in range(19):  # 950.00 in any currency: rounds at the smallest ante of every profile
        app.key("f8")
    for number in range(1, 4):
        app.key("return")
        assert terminal.round is not None, f"round {number} was not dealt: {app.game.view}"
        for key in plays(app):
            before = terminal.changes
            app.key(key)
            assert terminal.changes > before, f"{key} did nothing"
            settle(app, clock, 0.3)
            while app.game.revealing(clock.now):  # what the dealer's cards bring waits for them
                settle(app, clock, 0.1)
        settle(app, clock, 3)  # the reveal ends first: a DEAL pressed during it only hurries it
        shown = last_settlement(terminal)
        assert shown is not None
        assert shown["round"] == number
    assert audit(terminal.store).ok
    assert app.game.view is not None
    assert app.game.view.round_key == (3, "settled")


def test_a_window_without_a_size_fits_the_display(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    app = App(Terminal(Config(database=database), books(database)))
    display = pygame.display.get_desktop_sizes()[0]
    assert app.screen.get_size() == window_size(display)


def test_without_a_display_the_kiosk_says_so_instead_of_drawing_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from oasis_kiosk.cli import main

    pygame.display.quit()
    for variable in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(variable, raising=False)
    assert main(["run", "--windowed", "--db", str(tmp_path / "kiosk.db")]) == 2
    assert "no screen to open" in capsys.readouterr().err
    pygame.display.quit()


def test_a_display_on_end_is_refused_before_anything_is_booked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Full screen on a display turned on end had opened the books, booked a power-up, then
    ended in a traceback at the first frame: each restart booked another."""
    from oasis_kiosk.cli import main

    database = tmp_path / "kiosk.db"
    assert main(["init", "--test", "--db", str(database)]) == 0
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1080, 1920)])
    capsys.readouterr()
    assert main(["run", "--fullscreen", "--db", str(database)]) == 2
    assert "taller for its width than 5:4" in capsys.readouterr().err
    assert "power_ups" not in Store(database, read_only=True).meters()


def logged_in(app: App) -> None:
    with app.terminal.store.transaction():
        app.terminal.store.set_state("operator_pin", hash_pin("135421"))
    for key in ("m", "1", "3", "5", "4", "2", "1", "return"):
        app.key(key)
    assert app.operator.menu.logged_in


def test_the_operator_switches_language_volume_and_rules_from_the_settings(tmp_path: Path) -> None:
    app, _clock = kiosk(tmp_path, (1280, 720))
    terminal = app.terminal
    logged_in(app)
    for _ in range(4):
        app.key("b")
    assert app.operator.page_name == "settings"
    app.key("2")  # CARD 2: the next language
    assert terminal.config.language == "cs"
    app.key("4")  # CARD 4: one step louder
    assert terminal.config.volume == 7
    app.key("5")  # CARD 5: the next speed
    assert terminal.config.speed == "fast"
    app.key("e")  # EXCHANGE: the attract mode one step louder
    assert terminal.config.attract_volume == 4
    app.key("1")  # CARD 1: the next profile; DEAL twice applies it
    chosen, _overrides = app.operator.rules_choice
    assert chosen != "standard"
    app.key("return")
    assert terminal.profile.id == "standard", "one DEAL only asks for confirmation"
    app.key("return")
    assert terminal.profile.id == chosen
    shot(app, "operator-settings")
    assert isinstance(app.screen, CheckedSurface)
    assert {"KARTA 5  Rychlost", "rychlá", "4/10"} <= {text.content for text in app.screen.shown}
    app.key("m")
    app.draw()
    assert app.sounds.volume == 7
    assert app.game.motions.pace == 2.0, "the cards move twice as fast"
    assert app.game.view is not None
    english = "Insert coins or notes to play."
    assert app.game.view.prompt == i18n._(english) != english, "the screen speaks Czech"
    changes = [
        e["detail"]["setting"] for e in terminal.store.events(50) if e["kind"] == "configuration_changed"
    ]
    assert {"language", "volume", "speed", "rules"} <= set(changes)


def test_the_hardware_test_reports_presses_and_lights_their_lamps(tmp_path: Path) -> None:
    app, _clock = kiosk(tmp_path, (1280, 720), language="cs")
    assert app.cabinet is not None
    logged_in(app)
    while app.operator.page_name != "test":
        app.key("b")
    app.key("return")
    assert app.cabinet.cabinet.testing
    app.key("p")
    app.key("3")
    app.key("f3")  # a coin of 200 and a note of 500, taken in while the test runs
    app.key("f5")
    app.update(1 / 60)
    assert app.cabinet.cabinet.seen == [
        Press("play"),
        Press("card", 3),
        Taken(COIN, 200),
        Taken(BILL, 500),
    ]
    assert app.terminal.credits == 700, "money taken in the test is credited"
    surface = app.screen
    assert isinstance(surface, CheckedSurface)
    surface.forget()
    app.repaint()
    listed = [text.content for text in surface.shown]
    assert {"HRÁT", "KARTA 3", "mince 2,00\xa0€", "bankovka 5,00\xa0€"} <= set(listed), (
        "in the screen's language"
    )
    assert listed.index("bankovka 5,00\xa0€") < listed.index("HRÁT"), "the newest first"
    assert app.cabinet.lamp("play")
    assert app.cabinet.lamp("card3")
    assert not app.cabinet.lamp("fold")
    assert app.terminal.round is None, "presses during the test play nothing"
    for _ in range(25 * 60):
        app.update(1 / 60)
    assert not app.cabinet.cabinet.testing, "the test ends after quiet seconds"


def test_bet_chooses_the_insurance_amount_on_screen(tmp_path: Path) -> None:
    app, _clock = kiosk(tmp_path, (1280, 720), profile="golden-oasis", deck="7s 7h 7d Kc 2h / 2c 2d 4h 5h 9c")
    terminal = app.terminal
    app.key("f8")
    app.key("f8")
    app.key("return")
    app.key("p")
    assert terminal.round is not None
    assert terminal.round.phase == "insurance"
    view = app.game.view
    assert view is not None
    largest = terminal.insurance_amounts()[-1]
    assert "€" in view.prompt
    assert ("bet", f"BET €{largest / 100:,.2f}", True) in view.buttons
    app.key("b")
    smallest = terminal.insurance_amounts()[0]
    assert app.game.view is not None
    assert ("bet", f"BET €{smallest / 100:,.2f}", True) in app.game.view.buttons
    app.key("i")
    shown = last_settlement(terminal)
    assert shown is not None
    assert shown["boxes"][0]["insurance"]["stake"] == smallest


def test_hints_are_off_until_the_operator_turns_them_on(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1280, 720), deck="As Ks Qs Js Ts / 2c 2d 4h 5h 7c")
    terminal = app.terminal
    app.key("f8")
    app.key("return")
    assert app.game.view is not None
    assert "Hint" not in app.game.view.prompt, "staff may not advise the player: off by default"
    app.key("f")
    settle(app, clock, 3)  # the dealer's reveal ends before the next deal
    logged_in(app)
    while app.operator.page_name != "settings":
        app.key("b")
    app.key("3")
    assert terminal.store.get_state("hints") is True
    app.key("m")
    app.key("return")
    assert terminal.round is not None
    app.game.advisor.wait(terminal.round)
    settle(app, clock, 0.2)
    assert app.game.view is not None
    assert app.game.view.prompt.endswith("Hint: PLAY"), app.game.view.prompt


def test_on_the_cabinet_its_own_buttons_and_the_touchscreen_play_and_a_keyboard_does_nothing(
    tmp_path: Path,
) -> None:
    from dataclasses import replace

    from gpiozero.pins.mock import MockFactory

    from oasis_kiosk.hardware.build import build_cabinet
    from oasis_kiosk.hardware.desktop import desktop_wiring

    database = tmp_path / "kiosk.db"
    config = Config(database=database)
    wiring = desktop_wiring(config.coins, config.bills, hopper=False)
    config = replace(config, devices=wiring)
    terminal = Terminal(config, books(database))
    factory, lamps = MockFactory(revision="a020a0"), MockFactory(revision="a020a0")
    devices = build_cabinet(config, terminal, pin_factory=factory, lamp_factory=lamps, bounce_time=None)
    clock = Clock()
    app = App(terminal, size=(800, 480), clock=clock, devices=devices)
    assert app.cabinet is None
    assert app.keyboard is None
    with terminal.store.transaction():
        terminal.store.post("operator_credit", 5000, reason="test")
    app.update(1 / 60)
    app.draw()
    app.key("return")
    assert terminal.round is None, "a keyboard on the cabinet presses nothing"
    deal = next(area for area, name, _card in app.game.hotspots if name == "deal")
    app.click(*deal.center)
    assert terminal.round is not None, "a touch presses DEAL"
    while app.game.motions.landing(clock.now):  # the player sees the cards before FOLD
        clock.now += 1 / 60
        app.update(1 / 60)
        app.draw()
    app.update(1 / 60)
    fold = factory.pin(wiring.buttons["fold"])
    fold.drive_low()
    fold.drive_high()
    app.update(1 / 60)
    assert terminal.round is None, "the cabinet's FOLD button folds"
    assert bool(lamps.pin(wiring.lamps["deal"]).state), "DEAL's lamp is lit again"


def test_the_service_page_credits_what_the_operator_types(tmp_path: Path) -> None:
    app, _clock = kiosk(tmp_path, (1280, 720))
    terminal = app.terminal
    logged_in(app)
    while app.operator.page_name != "service":
        app.key("b")
    for key in ("2", "5", "0", "0"):
        app.key(key)
    assert app.operator.amount == "2500"
    shot(app, "operator-service")
    app.key("return")
    assert terminal.credits == 0, "one DEAL only asks for confirmation"
    app.key("return")
    assert terminal.credits == 2500
    assert terminal.store.meters()["operator_credits"] == 2500
    app.key("p")
    app.key("p")
    assert app.operator.notice.startswith("No round is open"), "a sentence, its first letter a capital"
    assert audit(terminal.store).ok


@pytest.mark.parametrize("size", ENDS)
def test_repainting_only_the_moving_cards_gives_the_same_picture_as_a_full_repaint(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app, clock = kiosk(tmp_path, size, deck="As Ad Ac Kd 2h / Ks Kh 4c 5c 9d")
    app.key("f8")
    app.key("return")
    felt = app.game.layout.table
    frames = 0
    while app.game.motions.busy(clock.now) or frames < 3:
        clock.now += 1 / 60
        repainted = app.draw()
        frames += 1
        if frames > 1:  # after the deal's first frame, only around the moving cards
            assert all(area.w * area.h < felt.w * felt.h // 2 for area in repainted)
        if frames % 7 == 0:
            painted = app.screen.copy()
            app.game.invalidate()
            app.draw()
            assert pygame.image.tobytes(painted, "RGB") == pygame.image.tobytes(app.screen, "RGB"), (
                f"frame {frames}: the partial repaint differs from a full one"
            )
    assert frames > 10


def test_a_touch_presses_once_though_sdl_also_reports_it_as_a_click(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (800, 480))
    terminal = app.terminal
    app.key("f8")
    settle(app, clock, 0.2)
    bet = next(area for area, name, _card in app.game.hotspots if name == "bet")
    ante = terminal.ante
    width, height = app.screen.get_size()
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN, x=bet.centerx / width, y=bet.centery / height, touch_id=0, finger_id=0
        )
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=bet.center, button=1, touch=True))
    app.advance(0)
    antes = terminal.betting.antes_for(1)
    assert terminal.ante == antes[antes.index(ante) + 1], "one step, not two"


@pytest.mark.parametrize("profile", profile_names())
def test_every_house_rules_are_on_the_help_pages_in_every_language(tmp_path: Path, profile: str) -> None:
    """golden-oasis has the most to say: at 800x480 in Czech or Russian it ran off the table,
    then shrank under the floor. Now HELP turns the pages, each readable, every sentence on
    one of them, whole, and a last press goes back to the game."""
    pages_seen = []
    for language in ("en", "cs", "ru"):
        for size in ((800, 480), (1024, 768)):
            folder = tmp_path / f"{language}-{size[0]}"
            folder.mkdir()
            app, _clock = kiosk(folder, size, profile=profile, language=language)
            terminal = app.terminal
            sentences = rules_text.rules_lines(
                terminal.rules, cash_for(terminal), terminal.profile, terminal.ante
            )
            app.key("h")
            shown = []
            pages = 0
            while app.game.showing_help:
                pages += 1
                shot(app, f"help-{profile}-{language}-{pages}")
                assert isinstance(app.screen, CheckedSurface)
                shown.append(" ".join(text.content for text in app.screen.shown))
                app.key("h")
                assert pages < 10, "HELP closes after its last page"
            for sentence in sentences:
                assert any(sentence in page for page in shown), f"{sentence!r} is on no page, or split"
            if pages > 1:
                assert all(
                    i18n._("page {page} of {pages}").format(page=page, pages=pages) in said
                    for page, said in enumerate(shown, start=1)
                )
                # each page says how to go on: the next page, and from the last the game
                assert all(i18n._("HELP: next page") in said for said in shown[:-1])
                assert i18n._("HELP: back to the game") in shown[-1]
            pages_seen.append(pages)
            pygame.quit()
    assert profile != "golden-oasis" or max(pages_seen) > 1, "the most rules of all need a second page"


@pytest.mark.parametrize("size", [(800, 480), (1024, 768)])
def test_help_never_ends_a_page_on_a_lead_in_whose_list_goes_over(size: tuple[int, int]) -> None:
    """Czech golden-oasis at 800x480 ended its second page on "Ceny při ante 5,00 €:" and
    began the third with the prices: a line that leads into a list goes over with its first
    item, wherever the page ends."""
    pygame.font.init()
    render.forget()  # fonts kept from a pygame that has quit are invalid
    lay = layout(*size, 2)
    filler = "A sentence that takes a line or two of the page, as the house's rules do, and then some."
    lead_in, item = "Prices at an ante of €5.00:", "Exchange: 1 card for €5.00, 2 cards for €7.50."
    for count in range(1, 40):
        lines = ("Golden Oasis Poker", *[filler] * count, lead_in, item, filler)
        _size, _width, pages = rulebook.pages(lines, lay, False)
        assert [line for page in pages for line in page] == list(lines), "every sentence, in order"
        for page in pages[:-1]:
            assert page[-1] != lead_in, f"{count} sentences before it: its list begins the next page"


@pytest.mark.parametrize("size", [(800, 480), (1024, 768), (1920, 1080)])
def test_help_shows_every_row_of_both_paytables_at_every_size(tmp_path: Path, size: tuple[int, int]) -> None:
    """The touchscreen's strip shows three rows: the whole of both tables, the bonus's too,
    is on HELP (SCREEN.md), or a player could learn what a hand pays only from the attract."""
    app, _clock = kiosk(tmp_path, size)
    terminal = app.terminal
    cash = cash_for(terminal)
    rows = rules_text.paytable_rows(terminal.rules) + rules_text.bonus_rows(terminal.rules, cash)
    wanted = {(name, pays) for _category, name, pays in rows}
    app.key("h")
    seen: set[str] = set()
    while app.game.showing_help:
        assert isinstance(app.screen, CheckedSurface)
        app.screen.forget()
        app.repaint()
        seen |= {text.content for text in app.screen.shown}
        app.key("h")
    missing = {(name, pays) for name, pays in wanted if name not in seen or pays not in seen}
    assert not missing, missing


def test_before_a_hand_is_lit_the_touchscreens_paytable_strip_shows_its_top_rows(tmp_path: Path) -> None:
    """What a hand can win draws a player in: the strip showed the bottom rows (Ace-King)."""
    app, _clock = kiosk(tmp_path, (800, 480))
    app.key("f8")
    shot(app, "strip-before-the-deal")
    assert isinstance(app.screen, CheckedSurface)
    strip = render.rect(app.game.layout.paytable)
    names = [text.content for text in app.screen.shown if strip.contains(text.ink)]
    assert {"Royal flush", "Straight flush", "Four of a kind"} <= set(names), names


def test_help_gives_way_to_a_tilt_and_its_text_is_not_a_card(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1280, 720))
    terminal = app.terminal
    app.key("f8")
    app.key("return")
    settle(app, clock, 1)
    app.key("h")
    assert app.game.showing_help
    card = next(area for area, name, number in app.game.hotspots if name == "card" and number == 2)
    app.click(*card.center)
    assert terminal.selected == set(), "under HELP the rules are not the cards"
    app.key("d")
    assert "door" in terminal.tilts
    assert not app.game.showing_help, "the tilt's panel is what shows"
    shot(app, "tilt-over-help")


def test_the_attract_ends_for_a_tilt_and_a_panel_press_only_wakes(tmp_path: Path) -> None:
    from dataclasses import replace

    database = tmp_path / "kiosk.db"
    terminal = Terminal(replace(Config(database=database), attract_after=1), books(database))
    app = App(terminal, size=(800, 480), clock=Clock())
    for _ in range(90):
        app.update(1 / 60)
    assert app.attract is not None
    demo = app.attract
    terminal.device_fault("coin_acceptor", "jammed")
    app.update(1 / 60)
    assert app.attract is None, "a tilt ends the demo: the screen must say so"
    assert demo.player.advisor._worker._shutdown, "its strategy's worker ends with it"
    app.key("a")  # the attendant clears the tilt
    assert not terminal.tilts
    for _ in range(90):
        app.update(1 / 60)
    assert app.attract is not None
    ante = terminal.ante
    assert app.cabinet is not None
    app.cabinet.press("bet")
    assert app.attract is None
    assert terminal.ante == ante, "the press that wakes the game does nothing else"


@pytest.mark.parametrize("key", ["f3", "f5"])
def test_money_put_in_during_the_demo_or_the_reveal_is_credited_not_taken_as_a_wake(
    tmp_path: Path, key: str
) -> None:
    """A coin key pressed while the attract demo ran only woke the game: the credit stayed
    0.00 and the coin was gone. Money in is a physical fact, like a switch: it ends the demo
    (or hurries the reveal) and is credited."""
    from dataclasses import replace

    database = tmp_path / "kiosk.db"
    terminal = Terminal(replace(Config(database=database), attract_after=1), books(database))
    clock = Clock()
    app = App(terminal, size=(800, 480), clock=clock)
    for _ in range(90):
        app.update(1 / 60)
    assert app.attract is not None
    app.key(key)
    for _ in range(3):
        app.update(1 / 60)
    assert app.attract is None
    credited = terminal.credits
    assert credited > 0, "the money is credited"
    app.key("f8")
    app.key("return")  # a round whose reveal the next money arrives in
    while app.game.motions.landing(clock.now):
        clock.now += 1 / 60
        app.draw()
        app.update(1 / 60)
    app.key("p")
    clock.now += 0.3
    app.draw()
    assert app.game.revealing(clock.now)
    before = terminal.credits
    app.key(key)
    assert terminal.credits > before, "money put in during the reveal is credited too"


@pytest.mark.parametrize("size", ENDS)
def test_a_handpay_shows_its_amount_large_and_the_attendants_payment_is_confirmed(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app, _clock = kiosk(tmp_path, size)
    terminal = app.terminal
    app.key("f8")
    app.key("o")  # cash out: paid by hand here
    assert terminal.handpay is not None
    amount = cash_for(terminal)(terminal.handpay)
    surface = app.screen
    assert isinstance(surface, CheckedSurface)
    surface.forget()
    app.repaint()
    sizes = {text.content: text.size for text in surface.shown}
    assert amount in sizes, sizes
    assert sizes[amount] >= max(sizes.values()), "the amount is the largest text on the screen"
    app.key("a")  # the attendant's key: paid
    assert terminal.handpay is None
    assert app.game.view is not None
    assert f"   Handpay of {amount} paid." in app.game.view.prompt, "a sentence of its own after the prompt"


@pytest.mark.parametrize("language", screenshots.LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_a_jackpots_handpay_panel_keeps_its_words_inside_it(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    """At 1024x768 in Russian the lock-up of a jackpot over the handpay limit took its title
    on two lines and cut its instruction through the middle: the words of what to do were
    lost. A panel's words shrink, never under the floor, until all of them fit it."""
    app, clock = kiosk(tmp_path, size, deck="As Ks Qs Js Ts / 2h 3d 7c 8c 9d", language=language)
    for key in ("f8", "n", "return"):
        app.key(key)
    settle(app, clock, 3)
    app.key("p")
    settle(app, clock, 30)
    assert app.game.showing(clock.now).overlay[:1] == ("handpay",)
    assert isinstance(app.screen, CheckedSurface)
    app.screen.forget()
    app.repaint()
    assert not app.screen.faults()


@pytest.mark.parametrize("size", SIZES)
def test_a_wins_lock_up_leaves_the_hand_that_won_in_view(tmp_path: Path, size: tuple[int, int]) -> None:
    """The handpay panel of a jackpot had lain across the boxes, the royal flush dimmed under
    it for as long as the attendant took to come. It lies above the boxes' cards now, and
    the table is not dimmed: the hand stands as it was dealt beside the amount it won."""
    app, clock = kiosk(tmp_path, size, deck="As Ks Qs Js Ts / 2h 3d 7c 8c 9d")
    for key in ("f8", "n", "return"):
        app.key(key)
    settle(app, clock, 3)
    app.key("p")
    settle(app, clock, 30)
    view = app.game.showing(clock.now)
    assert view.overlay[0] == "handpay"
    app.repaint()
    lay = app.game.layout
    cards = [
        area for slot, (area, _shown) in app.game._card_poses(lay, clock.now).items() if slot[0] == "box"
    ]
    assert len(cards) == 5
    for card in cards:
        inside = card.inflate(-card.w // 4, -card.h // 4)
        faces = sum(
            tuple(app.screen.get_at((x, y)))[:3] == render.CARD_FACE
            for x in range(inside.x, inside.right, 3)
            for y in range(inside.y, inside.bottom, 3)
        )
        assert faces, "the card's face is covered or dimmed"
    shown = panel.overlay_panel(view)
    assert shown is not None
    assert panel.area(lay, shown).collidelist(cards) == -1, "the panel's frame reaches the hand"


def contrast(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """WCAG's contrast ratio of two colours."""

    def luminance(colour: tuple[int, int, int]) -> float:
        linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_a_folded_boxs_net_is_as_legible_as_any_caption(tmp_path: Path) -> None:
    """The cards are greyed; the caption, which says what the fold cost, is not: in grey on
    the felt it was barely there."""
    app, _clock = kiosk(tmp_path, (800, 480))
    app.key("f8")
    app.key("return")
    app.key("f")
    (box,) = app.game.showing(app.game.revealed_at + 10).boxes
    assert box.folded
    lay = app.game.layout
    (words, _where), *_ = hand.caption(lay, lay.boxes[0], box, hand.caption_size(lay, [box]))
    ink = max(
        (words.get_at((x, y)) for x in range(words.get_width()) for y in range(words.get_height())),
        key=lambda colour: sum(colour[:3]),
    )
    assert contrast((ink.r, ink.g, ink.b), render.FELT) >= 4.5, ink


def brightest(words: pygame.Surface) -> tuple[int, int, int]:
    """The lightest ink of words drawn on a transparent surface."""
    ink = max(
        (words.get_at((x, y)) for x in range(words.get_width()) for y in range(words.get_height())),
        key=lambda colour: sum(colour[:3]),
    )
    return ink.r, ink.g, ink.b


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_a_box_folded_while_the_round_goes_on_says_so_in_words_and_its_label_reads(
    tmp_path: Path, language: str
) -> None:
    """While the other boxes play, a folded box's caption had said only its hand, the fold
    told by grey alone, and its label was in a grey barely there on the felt (2:1)."""
    app, clock = kiosk(tmp_path, (800, 480), language=language)
    for key in ("f8", "f8", "x", "x", "return", "f"):
        app.key(key)
    assert app.terminal.round is not None, "the round goes on with the other boxes"
    settle(app, clock, 3)  # the next box's cards turn face up
    folded, *_others = app.game.showing(clock.now).boxes
    assert folded.folded
    i18n.use(language)
    try:
        assert folded.caption.endswith(": " + i18n._("folded")), folded.caption
    finally:
        i18n.use("en")
    lay = app.game.layout
    words, _where = hand.box_label(lay, lay.boxes[0], folded)
    assert contrast(brightest(words), render.FELT) >= 4.5


def test_the_boxes_captions_are_written_at_one_size(tmp_path: Path) -> None:
    """Side by side, three captions at three sizes read as three kinds of thing."""
    app, clock = kiosk(tmp_path, (1024, 768))
    for key in ("f8", "f8", "x", "x", "return", "p", "f", "p"):
        app.key(key)
    clock.now += 30
    assert isinstance(app.screen, CheckedSurface)
    app.screen.forget()
    app.repaint()
    captions = {box.caption for box in app.game.showing(clock.now).boxes}
    assert len(captions) == 3, captions
    sizes = {text.size for text in app.screen.shown if text.content in captions}
    assert len(sizes) == 1, sizes


@pytest.mark.parametrize("size", SIZES)
def test_the_meters_share_one_size_and_keep_it_as_the_credit_grows(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """At 1024x768 CREDIT's 118,00 € was written smaller than BET's 32,00 €, and it shrank
    alone as its digits grew: the three amounts read as things of different kinds."""
    app, clock = kiosk(tmp_path, size, language="cs")
    terminal = app.terminal
    app.key("f8")
    sizes: list[int] = []
    for credit in (2000, 11800, terminal.config.credit_limit - terminal.credits):
        with terminal.store.transaction():
            terminal.store.post("operator_credit", credit, reason="test")
        settle(app, clock, 3)
        surface = app.screen
        assert isinstance(surface, CheckedSurface)
        surface.forget()
        app.repaint()
        row = render.rect(app.game.layout.meters)
        glyphs = {(t.content, t.size) for t in surface.shown if len(t.content) == 1 and row.contains(t.ink)}
        found = {size for _glyph, size in glyphs}
        assert len(found) == 1, f"the meters' amounts at {sorted(found)} px with credit {terminal.credits}"
        sizes += found
    assert len(set(sizes)) == 1, f"the meters written at {sizes} px as the credit grew"


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
@pytest.mark.parametrize("size", SIZES)
def test_the_outer_boxes_captions_keep_clear_of_the_screens_edges(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    """At 800x480 the three boxes' Russian captions ran to x=2 and x=797, touching the
    screen's edges (at 1024x768 the third ran into the paytable): each keeps a margin from
    the felt's edges, wrapped onto two lines where even the floor is too wide for its box."""
    deck = "Qh Jd 9c 7s 3c / 2h 2d 9d 8s 4h / Qc Td 8c 6s 4d / Kh Kd 5c 6h 7d"
    app, clock = kiosk(tmp_path, size, "russian-three-box", deck, language=language)
    for key in ("f8", "f8", "f8", "f8", "x", "x", "return", "p", "f", "p"):
        app.key(key)
        settle(app, clock, 3)
    settle(app, clock, 20)
    assert isinstance(app.screen, CheckedSurface)
    app.screen.forget()
    app.repaint()
    lay = app.game.layout
    margin, felt = lay.small // 2, render.rect(lay.table)
    boxes = app.game.showing(clock.now).boxes
    assert len(boxes) == 3
    assert all(box.caption for box in boxes)
    for box, area in zip(boxes, lay.boxes, strict=True):
        below = pygame.Rect(
            area.x, lay.spots(area)[0].bottom, area.w, area.bottom - lay.spots(area)[0].bottom
        )
        pieces = [
            text
            for text in app.screen.shown
            if below.collidepoint(text.ink.center) and text.content in box.caption
        ]
        assert " ".join(text.content for text in pieces) == box.caption, "the whole caption shows"
        for text in pieces:
            assert felt.left + margin <= text.ink.left, (text.content, text.ink)
            assert text.ink.right <= felt.right - margin, (text.content, text.ink)
    assert not app.screen.faults()


@pytest.mark.parametrize(
    "line",
    [
        "на 2 боксах анте не меньше 15,00\u00a0$",
        "na 2 boxech je ante nejméně 15,00\u00a0€, v boxu 3 se hraje naslepo",
        "on 2 boxes the ante is at least €15.00",
    ],
)
def test_a_wrapped_line_keeps_a_number_and_a_short_word_with_the_word_after_them(line: str) -> None:
    """The Russian two-box notice at 800x480 broke as "На 2 / боксах": a line never ends in
    a bare number or a word of one or two letters, as a typesetter keeps them with the next
    word, unless that pair is alone wider than the line."""
    render.forget()
    pygame.font.init()
    size = 18
    for width in range(render.font(size).size("боксах")[0] * 2, render.font(size).size(line)[0], 7):
        pieces = render.wrap(line, size, width)
        assert " ".join(pieces) == line
        for piece in pieces[:-1]:
            last = piece.split(" ")[-1]
            assert not last.isdigit(), (width, pieces)
            assert len(last) > 2, (width, pieces)


@pytest.mark.parametrize("label", ["SÁZKA −", "BET −", "СТАВКА −"])
def test_a_buttons_sign_stays_with_its_word(label: str) -> None:
    """At 800x480 the Czech "SÁZKA −" took its minus onto a line of its own, and read like
    the "SÁZKA 11,00 €" beside it: a lone sign is never the start of a line."""
    render.forget()
    pygame.font.init()
    size = 18
    whole = render.text_width(label, size, True)
    assert render.wrap(label, size, whole, True) == (label,)
    assert render.label_width(label, size, 1000) == whole + 2 * render.BUTTON_PAD, "no cut before the sign"


@pytest.mark.parametrize("language", screenshots.LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_a_box_touched_between_rounds_is_bet_alone_and_shows_its_own_ante(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    """russian-three-box lets its boxes' antes differ: a touch on box 2 chooses it, BET steps
    its ante alone, and each box's ante chip shows its own; the prompt says how, readably."""
    app, clock = kiosk(tmp_path, size, "russian-three-box", language=language)
    for key in ("f8", "f8", "f8", "f8", "x", "x"):
        app.key(key)
    settle(app, clock, 2)
    terminal = app.terminal
    assert terminal.boxes == 3
    area = render.rect(app.game.layout.boxes[1])
    app.click(*area.center)
    assert terminal.bet_box == 1
    app.key("b")
    settle(app, clock, 2)
    first, second, third = terminal.antes
    assert second > first == third
    shown = app.game.showing(clock.now)
    assert [dict(box.bets)["ante"] for box in shown.boxes] == [first, second, third]
    assert [box.current for box in shown.boxes] == [False, True, False], "box 2's label is lit"
    assert isinstance(app.screen, CheckedSurface)
    app.screen.forget()
    app.repaint()
    assert not app.screen.faults()
    shot(app, f"bet-alone-{language}")
    app.key("return")
    for key in ("f", "f"):  # the looked-at boxes fold; the compulsory third plays
        app.key(key)
    settle(app, clock, 12)
    assert terminal.round is None
    app.key("3")  # after the round: its boxes give way to those staged, box 3 lit
    settle(app, clock, 2)
    assert [box.current for box in app.game.showing(clock.now).boxes] == [False, False, True]


@pytest.mark.parametrize("language", screenshots.LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_each_boxs_own_ante_is_written_readably_while_the_antes_differ(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    """Box 2 at €13.00 beside boxes at €10.00: on every screen but the largest the amount did
    not fit on its chip, which stayed blank; once BET went on to box 3, box 2's ante was
    shown nowhere but in the total. Each box says its own ante in words while they differ."""
    app, clock = kiosk(tmp_path, size, "standard", language=language)
    for key in ("f8", "f8", "f8", "x", "x", "2", "b", "b", "b", "3"):
        app.key(key)
    settle(app, clock, 2)
    terminal = app.terminal
    first, second, third = terminal.antes
    assert terminal.bet_box == 2
    assert second > first == third
    shot(app, f"antes-differ-{language}")
    assert isinstance(app.screen, CheckedSurface)
    cash = cash_for(terminal)
    for number, (area, ante) in enumerate(zip(app.game.layout.boxes, terminal.antes, strict=True)):
        inside = render.rect(area)
        said = [text.content for text in app.screen.shown if inside.contains(text.ink)]
        assert any(cash(ante) in words for words in said), f"box {number + 1}: {said}"


def lit_on_screen(surface: CheckedSurface, words: str, area: pygame.Rect) -> bool:
    """Whether a paytable row whose odds read ``words`` shows in ``area`` lit: a gold frame
    (or fill) just right of its odds."""
    for text in surface.shown:
        if text.content == words and area.contains(text.ink):
            y = text.ink.centery
            right = range(text.ink.right + 1, min(text.ink.right + text.size, surface.get_width()))
            if any(tuple(surface.get_at((x, y)))[:3] == render.GOLD for x in right):
                return True
    return False


@pytest.mark.parametrize(
    ("deck", "play_won"),
    [("As Ks 9s 7s 4s / Kd Kc Kh 5h 5c", False), ("As Ks 9s 7s 4s / Kd Kc 4h 5h 9c", True)],
)
@pytest.mark.parametrize("size", ENDS)
def test_a_bonus_win_lights_its_bonus_table_row_on_every_screen(
    tmp_path: Path, size: tuple[int, int], deck: str, play_won: bool
) -> None:
    """A flush the bonus pays 60:1 on: the touchscreen's strip showed the play bet's rows
    alone, and with the play bet lost lit none. The bonus's row is lit under its heading,
    beside the play bet's row when that won too."""
    app, clock = kiosk(tmp_path, size, deck=deck, language="ru")
    for key in ("f8", "n", "return"):
        app.key(key)
    settle(app, clock, 3)
    app.key("p")
    settle(app, clock, 12)
    terminal = app.terminal
    shown = app.game.showing(clock.now)
    assert shown.bonus_category == "Flush"
    assert (shown.lit_category == "Flush") is play_won
    shot(app, f"bonus-lit-{'both' if play_won else 'bonus'}")
    assert isinstance(app.screen, CheckedSurface)
    paytable = render.rect(app.game.layout.paytable)
    bonus = dict(
        (category, pays)
        for category, _name, pays in rules_text.bonus_rows(terminal.rules, cash_for(terminal))
    )
    play = dict((category, pays) for category, _name, pays in rules_text.paytable_rows(terminal.rules))
    assert bonus["Flush"] != play["Flush"]
    assert lit_on_screen(app.screen, bonus["Flush"], paytable), "the bonus's row is lit"
    assert lit_on_screen(app.screen, play["Flush"], paytable) is play_won
    headings = {text.content for text in app.screen.shown if paytable.contains(text.ink)}
    assert i18n._("BONUS") in headings


def test_a_cash_outs_handpay_dims_the_table_as_a_win_does_not(tmp_path: Path) -> None:
    """A cash-out paid by hand has no winning hand to keep in view: its panel lies across the
    table, dimmed behind it, as a tilt's does; a win's lies above the cards, bright."""
    app, clock = kiosk(tmp_path, (1280, 720))
    app.key("f8")
    app.key("o")  # cash out: paid by hand here
    shown = panel.overlay_panel(app.game.showing(clock.now))
    assert shown is not None
    assert shown.amount_line == 1
    assert not shown.above_the_hands


def test_a_touch_of_the_attendants_button_pays_no_handpay_and_clears_no_tilt(tmp_path: Path) -> None:
    """The ATTENDANT button's lamp shows on the screen; touched, it had paid the handpay as
    the attendant's key does: a player could pay his own handpay (and clear a tilt). Only
    the key turns it; a touch says to call the attendant."""
    app, clock = kiosk(tmp_path, (1280, 720))
    terminal = app.terminal
    app.key("f8")
    app.key("o")  # cash out: paid by hand here
    owed = terminal.handpay
    assert owed is not None
    app.draw()
    attendant = next(area for area, name, _card in app.game.hotspots if name == "attendant")
    app.click(*attendant.center)
    assert terminal.handpay == owed
    assert "call the attendant" in app.game.showing(clock.now).prompt
    app.key("d")  # the door opened: a tilt
    assert terminal.tilts
    app.draw()
    for area, name, _card in app.game.hotspots:
        if name == "attendant":
            app.click(*area.center)
    assert terminal.tilts, "a touch clears no tilt"
    app.key("d")
    app.key("a")  # the attendant's key
    assert terminal.handpay is None
