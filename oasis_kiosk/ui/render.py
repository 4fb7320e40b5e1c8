"""Drawing the pieces: text in the bundled font, cards and chips, each rendered once per
size and kept.

Suits are drawn as shapes, not glyphs, so they are crisp at any size; the hand's name is
always written too (nothing is told by colour alone). The font is DejaVu Sans (assets/fonts,
with its licence): Latin-2, Cyrillic, the card suits, and digits of one width, so meters
do not jitter as they count.
"""

from __future__ import annotations

import io
import math
from collections.abc import Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache

import pygame

from oasis_kiosk.assets import ASSETS
from oasis_kiosk.ui.layout import BUTTON_PAD as BUTTON_PAD  # the buttons drawn elsewhere pad as render does
from oasis_kiosk.ui.layout import MIN_TEXT_SIZE, Box
from oasis_kiosk.ui.rules_text import RANK_TEXT

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


def _suit(
    surface: pygame.Surface, suit: str, centre: tuple[float, float], size: float, upside_down: bool = False
) -> None:
    """A suit ``size`` pixels wide about ``centre``; ``upside_down`` for the pips of a card's
    lower half, which point the other way as on a real card."""
    x, y = centre
    r = max(size / 4, 1.0)
    down = -1 if upside_down else 1

    def at(dx: float, dy: float) -> tuple[float, float]:
        return (x + dx * r, y + down * dy * r)

    colour = _ink(suit)
    if suit == "d":
        pygame.draw.polygon(surface, colour, [at(0, -2), at(1.5, 0), at(0, 2), at(-1.5, 0)])
    elif suit == "h":
        pygame.draw.circle(surface, colour, at(-1, -0.5), r)
        pygame.draw.circle(surface, colour, at(1, -0.5), r)
        pygame.draw.polygon(surface, colour, [at(-2, -1 / 3), at(2, -1 / 3), at(0, 2)])
    elif suit == "s":
        pygame.draw.circle(surface, colour, at(-1, 1 / 3), r)
        pygame.draw.circle(surface, colour, at(1, 1 / 3), r)
        pygame.draw.polygon(surface, colour, [at(-2, 1 / 4), at(2, 1 / 4), at(0, -2)])
        pygame.draw.polygon(surface, colour, [at(0, 0.3), at(-1, 2), at(1, 2)])
    else:  # clubs: three leaves, the gap between them filled, and a stem
        leaves = [at(0, -1), at(-1, 1 / 3), at(1, 1 / 3)]
        for leaf in leaves:
            pygame.draw.circle(surface, colour, leaf, r * 0.9)
        pygame.draw.polygon(surface, colour, leaves)
        pygame.draw.polygon(surface, colour, [at(0, 0), at(-1, 2), at(1, 2)])


def _ink(suit: str) -> Colour:
    return RED if suit in "hd" else INK


SHARP_WIDTH = 160
"""Pixels: a card's shapes are drawn at least this wide (and at least twice its size), then
scaled down smoothly, so that their edges are smooth at every size (``_sharpness``)."""
PARCHMENT = (250, 236, 204)
SKIN = (240, 204, 168)
HAIR = (92, 58, 34)
SAND = (196, 150, 70)
LATTICE = (160, 46, 60)
PIPS = {
    "2": ((0, 0), (0, 1)),
    "3": ((0, 0), (0, 0.5), (0, 1)),
    "4": ((-1, 0), (1, 0), (-1, 1), (1, 1)),
    "5": ((-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    "6": ((-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    "7": ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    "8": ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)),
    "9": ((-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)),
    "T": (
        (-1, 0),
        (1, 0),
        (0, 1 / 6),
        (-1, 1 / 3),
        (1, 1 / 3),
        (-1, 2 / 3),
        (1, 2 / 3),
        (0, 5 / 6),
        (-1, 1),
        (1, 1),
    ),
}
"""Where a number card's pips go, as on a real card: (column -1, 0 or 1; fraction of the way
down the field). Those below the middle are drawn upside down."""


class _Sketch:
    """Drawing in fractions of a surface (0 to 1 across and down), so that one figure serves
    every size."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.w, self.h = surface.get_size()
        self.stroke = max(round(self.w / 40), 1)
        """An outline's width."""

    def at(self, u: float, v: float) -> tuple[float, float]:
        return (u * self.w, v * self.h)

    def polygon(self, colour: Colour, *points: tuple[float, float], outline: bool = False) -> None:
        corners = [self.at(u, v) for u, v in points]
        pygame.draw.polygon(self.surface, colour, corners)
        if outline:
            pygame.draw.polygon(self.surface, INK, corners, self.stroke)

    def ellipse(
        self, colour: Colour, left: float, top: float, right: float, bottom: float, outline: bool = False
    ) -> None:
        area = pygame.Rect(
            round(left * self.w),
            round(top * self.h),
            round((right - left) * self.w),
            round((bottom - top) * self.h),
        )
        pygame.draw.ellipse(self.surface, colour, area)
        if outline:
            pygame.draw.ellipse(self.surface, INK, area, self.stroke)

    def circle(self, colour: Colour, u: float, v: float, radius: float) -> None:
        """``radius`` in fractions of the width."""
        pygame.draw.circle(self.surface, colour, self.at(u, v), max(radius * self.w, 1))

    def line(self, colour: Colour, *points: tuple[float, float], thick: float = 1.0) -> None:
        width = max(round(self.stroke * thick), 1)
        pygame.draw.lines(self.surface, colour, False, [self.at(u, v) for u, v in points], width)


def _head(pen: _Sketch, rank: str) -> None:
    """A face under the hair of its rank: long for the queen, short for the jack."""
    hair = {"Q": (0.26, 0.25, 0.74, 0.8), "K": (0.31, 0.3, 0.69, 0.62), "J": (0.32, 0.29, 0.68, 0.56)}[rank]
    pen.ellipse(HAIR, *hair)
    pen.polygon(SKIN, (0.44, 0.55), (0.56, 0.55), (0.57, 0.7), (0.43, 0.7))
    pen.ellipse(SKIN, 0.35, 0.28, 0.65, 0.62, outline=True)
    if rank == "J":  # a fringe under the cap
        pen.polygon(HAIR, (0.36, 0.33), (0.64, 0.33), (0.6, 0.38), (0.4, 0.38))
    for u in (0.44, 0.56):
        pen.circle(INK, u, 0.43, 0.016)
    pen.line(INK, (0.5, 0.45), (0.485, 0.51), (0.505, 0.515))


def _king(pen: _Sketch, robe: Colour) -> None:
    """A bearded king: a crown, an ermine collar, a gold chain and a sceptre."""
    pen.polygon(
        HAIR, (0.35, 0.49), (0.42, 0.55), (0.58, 0.55), (0.65, 0.49), (0.61, 0.64), (0.5, 0.71), (0.39, 0.64)
    )
    pen.line(RED, (0.46, 0.575), (0.54, 0.575), thick=1.4)
    pen.polygon(WHITE, (0.24, 0.68), (0.76, 0.68), (0.7, 0.81), (0.3, 0.81), outline=True)
    for u, v in ((0.31, 0.73), (0.41, 0.77), (0.5, 0.72), (0.59, 0.77), (0.69, 0.73)):
        pen.circle(INK, u, v, 0.014)
    pen.line(GOLD, (0.33, 0.84), (0.5, 0.93), (0.67, 0.84), thick=2)
    pen.circle(GOLD, 0.5, 0.94, 0.045)
    pen.line(GOLD, (0.87, 1.0), (0.85, 0.58), thick=2.5)
    pen.circle(GOLD, 0.85, 0.55, 0.05)
    crown = (
        (0.33, 0.32),
        (0.32, 0.13),
        (0.4, 0.22),
        (0.45, 0.08),
        (0.5, 0.2),
        (0.55, 0.08),
        (0.6, 0.22),
        (0.68, 0.13),
        (0.67, 0.32),
    )
    pen.polygon(GOLD, *crown, outline=True)
    for u in (0.42, 0.5, 0.58):
        pen.circle(robe, u, 0.275, 0.022)


def _queen(pen: _Sketch, robe: Colour) -> None:
    """A queen: a tiara, a gold neckline with pearls, and a flower."""
    pen.line(RED, (0.46, 0.565), (0.5, 0.575), (0.54, 0.565), thick=1.4)
    pen.polygon(GOLD, (0.37, 0.68), (0.5, 0.86), (0.63, 0.68), outline=True)
    for step in range(7):
        u = 0.35 + step * 0.05
        pen.circle(WHITE, u, 0.7 + 0.04 * (1 - abs(step - 3) / 3), 0.018)
    tiara = ((0.36, 0.31), (0.4, 0.21), (0.45, 0.26), (0.5, 0.14), (0.55, 0.26), (0.6, 0.21), (0.64, 0.31))
    pen.polygon(GOLD, *tiara, (0.5, 0.28), outline=True)
    pen.circle(robe, 0.5, 0.235, 0.022)
    pen.line((40, 120, 60), (0.8, 1.0), (0.78, 0.7), thick=1.6)
    for angle in range(0, 360, 72):
        petal = pygame.math.Vector2(0.05, 0).rotate(angle - 90)
        pen.circle(GOLD, 0.78 + petal.x, 0.64 + petal.y * pen.w / pen.h, 0.04)
    pen.circle(robe, 0.78, 0.64, 0.025)


def _jack(pen: _Sketch, robe: Colour) -> None:
    """A young jack: a striped tunic, a plain collar, a cap with a feather."""
    pen.line(RED, (0.46, 0.57), (0.54, 0.57), thick=1.2)
    for u in (0.3, 0.42, 0.58, 0.7):
        pen.polygon(GOLD, (u - 0.025, 0.75), (u + 0.025, 0.75), (u + 0.03, 1.0), (u - 0.03, 1.0))
    pen.polygon(WHITE, (0.38, 0.68), (0.5, 0.8), (0.62, 0.68), outline=True)
    pen.polygon(GOLD, (0.66, 0.26), (0.74, 0.13), (0.93, 0.02), (0.83, 0.15), (0.7, 0.29), outline=True)
    pen.ellipse(robe, 0.3, 0.16, 0.72, 0.36, outline=True)
    pen.polygon(GOLD, (0.32, 0.3), (0.7, 0.3), (0.7, 0.35), (0.32, 0.35), outline=True)


COURTS = {"K": _king, "Q": _queen, "J": _jack}


def _court_half(half: pygame.Surface, rank: str, suit: str) -> None:
    """The upper half of a court card's picture: the figure to the chest, in its suit's
    colour with gold and black, and the suit in the corner."""
    half.fill(PARCHMENT)
    pen = _Sketch(half)
    robe = _ink(suit)
    _head(pen, rank)
    pen.polygon(
        robe, (0.03, 1.0), (0.06, 0.8), (0.24, 0.68), (0.76, 0.68), (0.94, 0.8), (0.97, 1.0), outline=True
    )
    COURTS[rank](pen, robe)
    _suit(half, suit, pen.at(0.14, 0.11), pen.w * 0.17)


def _court(big: pygame.Surface, rank: str, suit: str) -> None:
    """The court figure in its frame, the lower half the upper turned round, as on a real card."""
    width, height = big.get_size()
    left, top = round(width * 0.26), round(height * 0.06)
    frame = pygame.Rect(left, top, width - 2 * left, (height - 2 * top) // 2 * 2)
    half = pygame.Surface((frame.w, frame.h // 2))
    _court_half(half, rank, suit)
    big.blit(half, frame.topleft)
    big.blit(pygame.transform.rotate(half, 180), (frame.x, frame.centery))
    line = max(width // 90, 1)
    pygame.draw.line(big, _ink(suit), (frame.x, frame.centery), (frame.right - 1, frame.centery), line)
    pygame.draw.rect(big, _ink(suit), frame, width=line)


def _pips(big: pygame.Surface, rank: str, suit: str) -> None:
    """A number card's pips as on a real card; the ace's one, large."""
    width, height = big.get_size()
    if rank == "A":
        _suit(big, suit, (width / 2, height / 2), width * 0.5)
        return
    top, bottom = height * 0.15, height * 0.85
    for column, down in PIPS[rank]:
        _suit(
            big,
            suit,
            (width / 2 + column * width * 0.165, top + down * (bottom - top)),
            width * 0.145,
            upside_down=down > 0.5,
        )


def _rank_label(rank: str, size: int, colour: Colour) -> pygame.Surface:
    """The rank's ink, its characters set close and "10" narrowed as on a real card's index, so
    that every rank fits the corner beside the pips."""
    glyphs = [text(character, size, colour, True) for character in RANK_TEXT.get(rank, rank)]
    inks = [glyph.get_bounding_rect() for glyph in glyphs]
    top, bottom = min(ink.top for ink in inks), max(ink.bottom for ink in inks)
    gap = size // 16
    label = pygame.Surface(
        (sum(ink.w for ink in inks) + gap * (len(inks) - 1), bottom - top), pygame.SRCALPHA
    )
    x = 0
    for glyph, ink in zip(glyphs, inks, strict=True):
        label.blit(glyph, (x, 0), pygame.Rect(ink.x, top, ink.w, bottom - top))
        x += ink.w + gap
    widest = size * 72 // 100
    if label.get_width() > widest:
        label = pygame.transform.smoothscale(label, (widest, label.get_height()))
    return label


def rank_size(height: int) -> int:
    """The size of the rank in a card's corner: a fifth of the card's height (a card to be
    read needs to be at least five times the screen's text floor tall)."""
    return max(height // 5, 9)


def card_height_for(rank: int) -> int:
    """The least height of a card whose rank is ``rank`` pixels tall (``rank_size``)."""
    return rank * 5


def _blank(width: int, height: int, scale: int) -> pygame.Surface:
    """A card's outline at ``scale`` times its size: the face, a thin black edge."""
    big = pygame.Surface((width * scale, height * scale), pygame.SRCALPHA)
    radius = max(big.get_width() // 10, 2)
    pygame.draw.rect(big, CARD_FACE, big.get_rect(), border_radius=radius)
    pygame.draw.rect(big, INK, big.get_rect(), width=scale, border_radius=radius)
    return big


def _sharpness(width: int) -> int:
    """How many times its size a card is drawn: a power of two, which scales down exactly (other
    factors lose a little of every colour, and of the card's opacity)."""
    scale = 2
    while width * scale < SHARP_WIDTH:
        scale *= 2
    return scale


_cards: dict[tuple[str | None, int, int], pygame.Surface] = {}
"""Every card drawn, by face and size (``card``)."""


def card(name: str | None, width: int, height: int) -> pygame.Surface:
    """A card face (``"As"``) or, for None, the house's back; drawn once per size. The rank
    and suit stand in the top left corner and, turned round, in the bottom right."""
    key = (name, width, height)
    if key not in _cards:
        for _step in drawing_card(name, width, height):
            pass
    return _cards[key]


def drawing_card(name: str | None, width: int, height: int) -> Iterator[None]:
    """``card`` drawn a step at a time (a fifth of a millisecond or so each at 1920x1080; two
    for a number card, three for a court, four for the back), yielding between steps, kept
    after the last: a frame drawing ahead takes one step, not the millisecond of a whole card."""
    if (name, width, height) in _cards:
        return
    if name is None:
        surface = yield from _drawing_back(width, height)
    else:
        surface = yield from _drawing_face(name, width, height)
    _cards.setdefault((name, width, height), surface)  # a deal may have drawn it meanwhile


def _drawing_face(name: str, width: int, height: int) -> Generator[None, None, pygame.Surface]:
    rank, suit = name[:-1], name[-1]
    scale = _sharpness(width)
    big = _blank(width, height, scale)
    label = _rank_label(rank, rank_size(height), _ink(suit))
    corner = (max(width // 20, 2), max(height // 25, 2))
    index = width * 0.16
    beside = (corner[0] + label.get_width() / 2, corner[1] + label.get_height() + height / 40 + index / 2)
    _suit(big, suit, (beside[0] * scale, beside[1] * scale), index * scale)
    _suit(
        big,
        suit,
        ((width - beside[0]) * scale, (height - beside[1]) * scale),
        index * scale,
        upside_down=True,
    )
    if rank in COURTS:  # a court's figure costs as much as the rest of its card
        yield
        _court(big, rank, suit)
    else:
        _pips(big, rank, suit)
    yield
    surface = pygame.transform.smoothscale(big, (width, height))
    surface.blit(label, corner)
    turned = pygame.transform.rotate(label, 180)
    surface.blit(turned, (width - corner[0] - label.get_width(), height - corner[1] - label.get_height()))
    return surface


def _palm(half: pygame.Surface) -> None:
    """An oasis palm on its mound, gold on the house's green: half of the back's medallion."""
    pen = _Sketch(half)
    pen.ellipse(SAND, 0.3, 0.86, 0.7, 1.14)
    pen.polygon(GOLD, (0.47, 0.93), (0.53, 0.93), (0.57, 0.66), (0.58, 0.42), (0.54, 0.42), (0.52, 0.66))
    crown = pygame.math.Vector2(pen.at(0.56, 0.4))
    for tip, lift in (((0.18, 0.56), 0.22), ((0.3, 0.26), 0.14), ((0.82, 0.26), 0.14), ((0.92, 0.56), 0.22)):
        _frond(half, crown, pygame.math.Vector2(pen.at(*tip)), lift)
    pen.circle(SAND, 0.54, 0.44, 0.03)
    pen.circle(SAND, 0.59, 0.45, 0.03)


def _frond(
    surface: pygame.Surface, crown: pygame.math.Vector2, tip: pygame.math.Vector2, lift: float
) -> None:
    """A palm frond from the crown to its tip: arching up by ``lift`` of its length, broad in
    the middle, pointed at both ends."""
    along = tip - crown
    up = pygame.math.Vector2(-along.y, along.x)
    if up.y > 0:  # the side of the frond that faces the sky
        up = -up
    samples = [step / 6 for step in range(7)]
    spine = [crown + along * t + up * lift * 4 * t * (1 - t) for t in samples]
    width = [up * 0.2 * math.sin(math.pi * t) for t in samples]
    edge = [point + side for point, side in zip(spine, width, strict=True)]
    edge += [point - side * 0.5 for point, side in reversed(list(zip(spine, width, strict=True)))]
    pygame.draw.polygon(surface, GOLD, [point.xy for point in edge])


def _drawing_back(width: int, height: int) -> Generator[None, None, pygame.Surface]:
    """The house's back: a gold lattice on the house's red inside a white border, and in the
    middle a green medallion with two oasis palms, the lower the upper turned round (a back
    looks the same either way up, as a real one does)."""
    scale = _sharpness(width)
    big = _blank(width, height, scale)
    big_w = big.get_width()
    inner = big.get_rect().inflate(-big_w // 16 * 2, -big_w // 16 * 2)  # even: centred to the pixel
    step = inner.w / 5
    line = max(big_w // 100, 1)
    radius = line * 2  # the lattice, clipped square, fills the corners: the frame covers them
    pygame.draw.rect(big, CARD_BACK, inner, border_radius=radius)
    previous = big.get_clip()
    big.set_clip(inner)
    # The lattice is laid from the middle out, so that it looks the same either way up.
    middle = pygame.math.Vector2(inner.center)
    crossings = int((inner.w + inner.h) / step) + 1
    for number in range(-crossings, crossings + 1):
        for slope in (1, -1):
            through = middle + pygame.math.Vector2(number * step, 0)
            reach = pygame.math.Vector2(inner.h, slope * inner.h)
            pygame.draw.line(big, LATTICE, through - reach, through + reach, line)
    yield
    rows, columns = int(inner.h / step) + 1, int(inner.w / step) + 1
    for row in range(-rows, rows + 1):  # a gold stud where the lines cross, none on the edge
        for column in range(-columns, columns + 1):
            stud = middle + pygame.math.Vector2(column, row) * step / 2
            if (row + column) % 2 == 0 and inner.inflate(-step / 2, -step / 2).collidepoint(stud):
                pygame.draw.circle(big, GOLD, stud, line * 1.5)
    big.set_clip(previous)
    yield
    pygame.draw.rect(big, GOLD, inner, width=line * 2, border_radius=radius)
    medallion = pygame.Rect(0, 0, inner.w * 62 // 100, inner.h * 56 // 100 // 2 * 2)
    medallion.center = inner.center
    pygame.draw.ellipse(big, FELT_DARK, medallion)
    half = pygame.Surface((medallion.w, medallion.h // 2), pygame.SRCALPHA)
    _palm(half)
    big.blit(half, medallion.topleft)
    big.blit(pygame.transform.rotate(half, 180), (medallion.x, medallion.centery))
    pygame.draw.ellipse(big, GOLD, medallion, width=line * 2)
    pygame.draw.ellipse(big, GOLD, medallion.inflate(-line * 6, -line * 6), width=line)
    yield
    return pygame.transform.smoothscale(big, (width, height))


def run_length(surface: pygame.Surface) -> pygame.Surface:
    """A copy of a kept picture that is blitted whole and never drawn on or scaled: run-length
    encoded, so that its opaque runs are copied and its clear ones skipped instead of every
    pixel blended (a card blits about 2.5 times faster, an empty spot's ring 3 times)."""
    encoded = surface.copy()
    encoded.set_alpha(255, pygame.RLEACCEL)
    return encoded


@cache
def card_piece(name: str | None, width: int, height: int, greyed: bool = False) -> pygame.Surface:
    """A card as the table lays it: the picture (``greyed``: a folded box's), run-length
    encoded; a card being turned is scaled from the picture itself."""
    return run_length((greyed_card if greyed else card)(name, width, height))


@cache
def greyed_card(name: str | None, width: int, height: int) -> pygame.Surface:
    """A folded box's card: the card in grey, dimmed."""
    surface = pygame.transform.grayscale(card(name, width, height))
    surface.fill(GREYED, special_flags=pygame.BLEND_RGB_MULT)
    return surface


@cache
def card_slot(width: int, height: int) -> pygame.Surface:
    """Where a card will lie: a faint outline on the felt."""
    surface = pygame.Surface((width, height), pygame.SRCALPHA)
    pygame.draw.rect(
        surface, FELT_LINE, surface.get_rect(), width=max(width // 40, 1), border_radius=width // 10
    )
    return run_length(surface)


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


def forget() -> None:
    """Drops every kept font and surface: after pygame restarts, old fonts are invalid."""
    for kept in (
        font,
        text,
        text_width,
        amount,
        wrap,
        lines_that_fit,
        label_width,
        card_piece,
        greyed_card,
        card_slot,
        chip,
        _blank_chip,
        spot,
    ):
        kept.cache_clear()
    _cards.clear()
