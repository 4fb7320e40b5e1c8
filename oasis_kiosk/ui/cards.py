"""The cards' pictures: faces with their pips and drawn court figures, the house's back, and
the pieces the table lays (a folded box's greyed, an empty place's outline); each drawn once
per size and kept. Suits are drawn as shapes, not glyphs, so they are crisp at any size."""

from __future__ import annotations

import math
from collections.abc import Generator, Iterator
from functools import cache

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.render import (
    CARD_BACK,
    CARD_FACE,
    FELT_DARK,
    FELT_LINE,
    GOLD,
    GREYED,
    INK,
    RED,
    WHITE,
    Colour,
    run_length,
)
from oasis_kiosk.ui.rules_text import RANK_TEXT


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
    glyphs = [render.text(character, size, colour, True) for character in RANK_TEXT.get(rank, rank)]
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


for _kept in (card_piece.cache_clear, greyed_card.cache_clear, card_slot.cache_clear, _cards.clear):
    render.keeps(_kept)
