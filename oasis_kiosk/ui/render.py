"""Drawing the pieces: text in the bundled font, cards and chips, each rendered once per
size and kept.

Suits are drawn as shapes, not glyphs, so they are crisp at any size; the hand's name is
always written too (nothing is told by colour alone). The font is DejaVu Sans (assets/fonts,
with its licence): Latin-2, Cyrillic, the card suits, and digits of one width, so meters
do not jitter as they count.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache

import pygame

from oasis_kiosk.assets import ASSETS
from oasis_kiosk.ui.layout import BUTTON_PAD as BUTTON_PAD  # the buttons drawn elsewhere pad as render does
from oasis_kiosk.ui.layout import MIN_TEXT_SIZE, Box

FELT = (14, 92, 52)
FELT_DARK = (10, 66, 38)
FELT_LINE = (40, 130, 84)
PANEL = (12, 30, 24)
CARD_FACE = (246, 242, 232)
CARD_BACK = (120, 24, 36)
INK = (24, 24, 28)
RED = (196, 30, 42)
GOLD = (232, 190, 72)
LIVE = (90, 200, 250)
DIM = (110, 130, 120)
GREYED = (150, 150, 150)
# A folded box's words (its label, its caption): grey like its cards, yet light enough on the
# felt (contrast 4.8:1) to read what the fold cost.
FOLDED_WORDS = (200, 200, 200)
WHITE = (240, 240, 235)
ALARM = (150, 20, 30)

Colour = tuple[int, int, int]
FONTS = {False: ASSETS / "fonts" / "DejaVuSans.ttf", True: ASSETS / "fonts" / "DejaVuSans-Bold.ttf"}


def rect(box: Box) -> pygame.Rect:
    return pygame.Rect(box.x, box.y, box.w, box.h)


@contextmanager
def clipped(surface: pygame.Surface, area: pygame.Rect) -> Iterator[None]:
    """Drawing within ``area`` and within the clip already set: a panel's words repainted
    for a moving piece under it go no further than the piece's damage."""
    previous = surface.get_clip()
    surface.set_clip(area.clip(previous))
    try:
        yield
    finally:
        surface.set_clip(previous)


@cache
def _font_file(bold: bool) -> bytes:
    return FONTS[bold].read_bytes()


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    # Read from memory, not opened as a file: a font dropped after pygame has quit is never
    # closed by SDL, and from a file it would keep a descriptor open for good.
    return pygame.font.Font(io.BytesIO(_font_file(bold)), size)


# Bounded: a counting meter renders a new string every frame.
@lru_cache(maxsize=4096)
def text(content: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    return font(size, bold).render(content, True, colour)


@lru_cache(maxsize=4096)
def text_width(content: str, size: int, bold: bool = False) -> int:
    """The width ``text`` would have, measured without rendering it."""
    return int(font(size, bold).size(content)[0])


def fitted(
    content: str, size: int, colour: Colour, width: int, bold: bool = False, least: int = MIN_TEXT_SIZE
) -> pygame.Surface:
    """The text at ``size`` or, if it is wider than ``width``, at the size that fits, but
    never under ``least``: text too small to read is no better than text cut off. The sizes
    tried are measured, not rendered (a font's ``size`` is its rendering's, to the pixel)."""
    return text(content, fitted_size(content, size, width, bold, least), colour, bold)


def fitted_size(content: str, size: int, width: int, bold: bool = False, least: int = MIN_TEXT_SIZE) -> int:
    """The size ``fitted`` writes ``content`` at."""
    chosen = size
    for chosen in fitting_sizes(size, least):  # the last one tried, if none fits
        if text_width(content, chosen, bold) <= width:
            break
    return chosen


def fitting_sizes(size: int, least: int) -> Iterator[int]:
    """The sizes ``fitted`` tries, largest first: ``size``, then nine tenths of the last
    down to ``least``."""
    yield size
    while size > least:
        size = max(size * 9 // 10, least)
        yield size


# Kept: a meter's amount is asked for again the next frame, to see which glyphs changed.
@lru_cache(maxsize=64)
def amount(
    content: str, size: int, colour: Colour, width: int, bold: bool = False, least: int = MIN_TEXT_SIZE
) -> tuple[pygame.Surface, ...]:
    """A changing amount (a meter counting up), at ``size`` or smaller to fit ``width`` (not
    under ``least``), as kept single-character glyphs to blit side by side (``row``): a new
    value costs a few small blits, not a fresh render of the whole string. The digits are of
    one width, so nothing jitters."""
    chosen = amount_size(content, size, width, bold, least)
    return tuple(text(character, chosen, colour, bold) for character in content)


def amount_size(content: str, size: int, width: int, bold: bool = False, least: int = MIN_TEXT_SIZE) -> int:
    """The size ``amount`` writes ``content`` at."""
    chosen = size
    for chosen in fitting_sizes(size, least):  # the last one tried, if none fits
        if sum(text_width(character, chosen, bold) for character in content) <= width:
            break
    return chosen


def row(surface: pygame.Surface, glyphs: Sequence[pygame.Surface], x: int, y: int) -> None:
    for glyph in glyphs:
        surface.blit(glyph, (x, y))
        x += glyph.get_width()


def row_width(glyphs: Sequence[pygame.Surface]) -> int:
    return sum(glyph.get_width() for glyph in glyphs)


# Kept: a panel, a prompt or a button is laid out again each time a piece moving under it is
# repainted, and measuring its words costs more than drawing them.
@lru_cache(maxsize=1024)
def wrap(line: str, size: int, width: int, bold: bool = False) -> tuple[str, ...]:
    """Breaks a line at its spaces into pieces no wider than ``width`` pixels at this font
    size (a word wider than that is a piece of its own). Money keeps its no-break space, and
    a number or a word of one or two letters keeps to the word after it, as a typesetter
    keeps "на 2 боксах" or "v boxu" on one line, unless together they are too wide for one."""
    pieces: list[str] = []
    current = ""
    for word in _unbroken(line, size, width, bold):
        candidate = f"{current} {word}".strip(" ")
        if current and font(size, bold).size(candidate)[0] > width:
            pieces.append(current)
            current = word
        else:
            current = candidate
    return (*pieces, current) if current else tuple(pieces)


def _unbroken(line: str, size: int, width: int, bold: bool) -> list[str]:
    """The pieces of ``line`` no break may split (``_units``), each split at its spaces after
    all where it is too wide for a line of its own."""
    return [
        word
        for unit in _units(line)
        for word in ([unit] if font(size, bold).size(unit)[0] <= width else unit.split(" "))
    ]


def _units(line: str) -> list[str]:
    """The words of ``line``, joined where a typesetter never breaks: after a number or a word
    of one or two letters ("на 2 боксах"), before a lone sign ("BET −")."""
    units: list[str] = []
    for word in line.split(" "):
        if units and (_keeps_to_the_next(units[-1].rsplit(" ", 1)[-1]) or _keeps_to_the_previous(word)):
            units[-1] = f"{units[-1]} {word}"
        else:
            units.append(word)
    return units


def _keeps_to_the_next(word: str) -> bool:
    return word.isdigit() or (0 < len(word) <= 2 and word.isalpha())


def _keeps_to_the_previous(word: str) -> bool:
    return len(word) == 1 and not word.isalnum()


@lru_cache(maxsize=1024)
def lines_that_fit(
    content: str, size: int, width: int, height: int, least: int, bold: bool = False, most: int = 2
) -> tuple[int, tuple[str, ...]]:
    """The largest size from ``size`` down to ``least`` at which ``content`` fits a box of
    ``width`` by ``height`` on at most ``most`` lines, and its lines; if nothing fits, at
    ``least``, all its lines (running over: the screen's test sees that, a player would)."""
    for tried in range(size, least - 1, -1):
        pieces = wrap(content, tried, width, bold)
        widest = max((font(tried, bold).size(piece)[0] for piece in pieces), default=0)
        if (
            len(pieces) <= most
            and widest <= width
            and len(pieces) * font(tried, bold).get_linesize() <= height
        ):
            return tried, pieces
    return least, wrap(content, least, width, bold)


def block(
    surface: pygame.Surface,
    pieces: Sequence[str],
    size: int,
    colour: Colour,
    centre: tuple[int, int],
    bold: bool = False,
) -> None:
    """Lines of text centred one under the other on ``centre``."""
    step = font(size, bold).get_linesize()
    y = centre[1] - step * len(pieces) // 2
    for piece in pieces:
        words = text(piece, size, colour, bold)
        surface.blit(words, words.get_rect(midtop=(centre[0], y)))
        y += step


def run_length(surface: pygame.Surface) -> pygame.Surface:
    """A copy of a kept picture that is blitted whole and never drawn on or scaled: run-length
    encoded, so that its opaque runs are copied and its clear ones skipped instead of every
    pixel blended (a card blits about 2.5 times faster, an empty spot's ring 3 times)."""
    encoded = surface.copy()
    encoded.set_alpha(255, pygame.RLEACCEL)
    return encoded


CHIP_COLOURS = {
    "ante": (30, 90, 170),
    "play": (170, 40, 40),
    "bonus": (200, 150, 30),
    "insure": (90, 60, 150),
}


@lru_cache(maxsize=512)  # bounded: each amount bet or won is a label of its own
def chip(kind: str, label: str, diameter: int, least: int) -> pygame.Surface:
    """A chip on a bet spot with its amount written on it, not under ``least`` (the
    screen's text floor): a copy of the blank chip of its kind and size, drawn once, and the
    words (a new amount costs its words, not the chip). A chip too small for its amount at
    ``least`` shows none: the amounts are on the meters and in the prompt too."""
    surface = _blank_chip(kind, diameter).copy()
    words = ring_words(label, _chip_label_size(diameter, least), WHITE, diameter * 7 // 10, True, least)
    if words is not None:
        surface.blit(words, words.get_rect(center=(diameter // 2, diameter // 2)))
    return run_length(surface)


def ring_words(
    content: str, size: int, colour: Colour, width: int, bold: bool, least: int
) -> pygame.Surface | None:
    """Words written inside a chip or a ring, at ``size`` or smaller to fit ``width`` but
    not under ``least``; None if they fit at no such size (a word spilling out of its ring, or
    too small to read, is worse than none)."""
    size = fitted_size(content, size, width, bold, least)
    return text(content, size, colour, bold) if text_width(content, size, bold) <= width else None


def preparing_chips(diameter: int, least: int) -> Iterator[None]:
    """What every chip of this size shares, drawn ahead a step at a time: each kind's blank,
    then each font its label may be fitted in (a font read from its file takes a tenth of a
    millisecond or more)."""
    for kind in CHIP_COLOURS:
        _blank_chip(kind, diameter)
    for number, size in enumerate(fitting_sizes(_chip_label_size(diameter, least), least)):
        if number % 2 == 0:
            yield
        font(size, True)


def preparing_fonts(sizes: Iterable[tuple[int, bool]]) -> Iterator[None]:
    """Each font of ``sizes`` ((size, bold)) read ahead, one a step: the first words at a
    new size (a panel's, the jackpot's banner) then cost their rendering only."""
    for size, bold in sizes:
        yield
        font(size, bold)


def _chip_label_size(diameter: int, least: int) -> int:
    return max(diameter // 4, least)


@cache
def _blank_chip(kind: str, diameter: int) -> pygame.Surface:
    surface = pygame.Surface((diameter, diameter), pygame.SRCALPHA)
    centre, radius = (diameter // 2, diameter // 2), diameter // 2
    pygame.draw.circle(surface, CHIP_COLOURS[kind], centre, radius)
    dash = max(diameter // 10, 2)
    for angle in range(0, 360, 45):
        vector = pygame.math.Vector2(radius - dash // 2, 0).rotate(angle)
        pygame.draw.circle(surface, WHITE, (centre[0] + vector.x, centre[1] + vector.y), dash // 2 + 1)
    pygame.draw.circle(surface, WHITE, centre, radius * 7 // 10, width=max(diameter // 30, 1))
    return surface


@cache
def spot(label: str, diameter: int, least: int) -> pygame.Surface:
    """An empty bet spot: a ring with the bet's name (``spot_words``); a ring too small for it,
    or with no name, is left plain: its chip's colour and the bet buttons name it."""
    surface = pygame.Surface((diameter, diameter), pygame.SRCALPHA)
    pygame.draw.circle(
        surface, FELT_LINE, (diameter // 2, diameter // 2), diameter // 2, width=max(diameter // 20, 1)
    )
    words = spot_words(label, diameter, least) if label else None
    if words is not None:
        surface.blit(words, words.get_rect(center=(diameter // 2, diameter // 2)))
    return run_length(surface)


def spot_words(label: str, diameter: int, least: int) -> pygame.Surface | None:
    """A bet's name as a ring of ``diameter`` writes it inside, at ``least`` (the screen's
    text floor) or larger; None if it does not fit."""
    return ring_words(label, max(diameter // 5, least), FELT_LINE, diameter * 8 // 10, False, least)


def label_size(labels: list[str], size: int, width: int, height: int, least: int) -> int:
    """One size for the labels of a row of buttons ``width`` by ``height``: the largest, up
    to ``size``, at which each fits its button on two lines at most, and not under
    ``least``. Buttons side by side with labels of different sizes look broken."""
    return min(
        (
            lines_that_fit(label, size, width - 2 * BUTTON_PAD, height - 2 * BUTTON_PAD, least, bold=True)[0]
            for label in labels
        ),
        default=size,
    )


def label_fits(label: str, size: int, width: int, height: int) -> bool:
    """Whether ``label`` fits a button ``width`` by ``height`` at ``size`` on two lines at
    most, inside its padding."""
    inner_w, inner_h = width - 2 * BUTTON_PAD, height - 2 * BUTTON_PAD
    pieces = lines_that_fit(label, size, inner_w, inner_h, size, bold=True)[1]
    step = font(size, True).get_linesize()
    return (
        len(pieces) <= 2
        and len(pieces) * step <= inner_h
        and all(text_width(piece, size, True) <= inner_w for piece in pieces)
    )


@lru_cache(maxsize=1024)
def label_width(label: str, size: int, height: int) -> int:
    """The least width of a button ``height`` tall that holds ``label`` at ``size``: on one
    line, or on two split at a space where two lines fit its height."""
    widest = text_width(label, size, True)
    if 2 * font(size, True).get_linesize() <= height - 2 * BUTTON_PAD:
        words = _units(label)
        for cut in range(1, len(words)):
            lines = (" ".join(words[:cut]), " ".join(words[cut:]))
            widest = min(widest, max(text_width(line, size, True) for line in lines))
    return widest + 2 * BUTTON_PAD


def button(surface: pygame.Surface, rect: pygame.Rect, label: str, live: bool, size: int) -> None:
    """An on-screen button: lit like its lamp when live, dim otherwise; its label at
    ``size`` (``label_size``), on two lines if it needs them."""
    radius = max(rect.h // 5, 3)
    pygame.draw.rect(surface, (20, 70, 95) if live else PANEL, rect, border_radius=radius)
    pygame.draw.rect(surface, LIVE if live else DIM, rect, width=2, border_radius=radius)
    block(
        surface, _button_lines(rect, label, live, size), size, WHITE if live else DIM, rect.center, bold=live
    )


def button_words(rect: pygame.Rect, label: str, live: bool, size: int) -> None:
    """Renders ahead the words ``button`` writes on a button: its first sight then costs
    blits, not renders."""
    for piece in _button_lines(rect, label, live, size):
        text(piece, size, WHITE if live else DIM, live)


def _button_lines(rect: pygame.Rect, label: str, live: bool, size: int) -> tuple[str, ...]:
    _size, pieces = lines_that_fit(
        label, size, rect.w - 2 * BUTTON_PAD, rect.h - 2 * BUTTON_PAD, size, bold=live
    )
    return pieces


_kept_elsewhere: list[Callable[[], None]] = []
"""How the other modules that keep pictures drop them (``keeps``)."""


def keeps(drop: Callable[[], None]) -> None:
    """A module that keeps pictures of its own (``cards``) drops them with ``forget``."""
    _kept_elsewhere.append(drop)


def forget() -> None:
    """Drops every kept font and surface: after pygame restarts, old fonts are invalid."""
    for drop in _kept_elsewhere:
        drop()
    for kept in (
        font,
        text,
        text_width,
        amount,
        wrap,
        lines_that_fit,
        label_width,
        chip,
        _blank_chip,
        spot,
    ):
        kept.cache_clear()
