"""Drawing the pieces: text in the bundled font, cards and chips, each rendered once per
size and kept.

Suits are drawn as shapes, not glyphs, so they are crisp at any size; the hand's name is
always written too (nothing is told by colour alone). The font is DejaVu Sans (assets/fonts,
with its licence): Latin-2, Cyrillic, the card suits, and digits of one width, so meters
do not jitter as they count.
"""

from __future__ import annotations

from functools import cache, lru_cache

import pygame

from oasis_kiosk.assets import ASSETS
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
WHITE = (240, 240, 235)
ALARM = (150, 20, 30)

Colour = tuple[int, int, int]
FONTS = {False: ASSETS / "fonts" / "DejaVuSans.ttf", True: ASSETS / "fonts" / "DejaVuSans-Bold.ttf"}
RANK_TEXT = {"T": "10"}


def rect(box: Box) -> pygame.Rect:
    return pygame.Rect(box.x, box.y, box.w, box.h)


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    return pygame.font.Font(FONTS[bold], size)


# Bounded: a counting meter renders a new string every frame.
@lru_cache(maxsize=4096)
def text(content: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    return font(size, bold).render(content, True, colour)


def fitted(
    content: str, size: int, colour: Colour, width: int, bold: bool = False, least: int = MIN_TEXT_SIZE
) -> pygame.Surface:
    """The text at ``size`` or, if it is wider than ``width``, at the size that fits, but
    never under ``least``: text too small to read is no better than text cut off."""
    surface = text(content, size, colour, bold)
    while surface.get_width() > width and size > least:
        size = max(size * 9 // 10, least)
        surface = text(content, size, colour, bold)
    return surface


def amount(
    content: str, size: int, colour: Colour, width: int, bold: bool = False, least: int = MIN_TEXT_SIZE
) -> list[pygame.Surface]:
    """A changing amount (a meter counting up), at ``size`` or smaller to fit ``width`` (not
    under ``least``), as kept single-character glyphs to blit side by side (``row``): a new
    value costs a few small blits, not a fresh render of the whole string. The digits are of
    one width, so nothing jitters."""
    glyphs = [text(character, size, colour, bold) for character in content]
    while sum(glyph.get_width() for glyph in glyphs) > width and size > least:
        size = max(size * 9 // 10, least)
        glyphs = [text(character, size, colour, bold) for character in content]
    return glyphs


def row(surface: pygame.Surface, glyphs: list[pygame.Surface], x: int, y: int) -> None:
    for glyph in glyphs:
        surface.blit(glyph, (x, y))
        x += glyph.get_width()


def row_width(glyphs: list[pygame.Surface]) -> int:
    return sum(glyph.get_width() for glyph in glyphs)


def wrap(line: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Breaks a line at its spaces into pieces no wider than ``width`` pixels at this font
    size (a word wider than that is a piece of its own). Money keeps its no-break space."""
    pieces: list[str] = []
    current = ""
    for word in line.split(" "):
        candidate = f"{current} {word}".strip(" ")
        if current and font(size, bold).size(candidate)[0] > width:
            pieces.append(current)
            current = word
        else:
            current = candidate
    return [*pieces, current] if current else pieces


def lines_that_fit(
    content: str, size: int, width: int, height: int, least: int, bold: bool = False, most: int = 2
) -> tuple[int, list[str]]:
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
    pieces: list[str],
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


def _suit(surface: pygame.Surface, suit: str, centre: tuple[int, int], size: int) -> None:
    x, y = centre
    r = max(size // 4, 2)
    colour = RED if suit in "hd" else INK
    if suit == "d":
        pygame.draw.polygon(
            surface, colour, [(x, y - 2 * r), (x + 3 * r // 2, y), (x, y + 2 * r), (x - 3 * r // 2, y)]
        )
    elif suit == "h":
        pygame.draw.circle(surface, colour, (x - r, y - r // 2), r)
        pygame.draw.circle(surface, colour, (x + r, y - r // 2), r)
        pygame.draw.polygon(
            surface, colour, [(x - 2 * r, y - r // 3), (x + 2 * r, y - r // 3), (x, y + 2 * r)]
        )
    elif suit == "s":
        pygame.draw.circle(surface, colour, (x - r, y + r // 3), r)
        pygame.draw.circle(surface, colour, (x + r, y + r // 3), r)
        pygame.draw.polygon(
            surface, colour, [(x - 2 * r, y + r // 4), (x + 2 * r, y + r // 4), (x, y - 2 * r)]
        )
        pygame.draw.polygon(surface, colour, [(x, y + r), (x - r, y + 2 * r), (x + r, y + 2 * r)])
    else:  # clubs
        for dx, dy in ((0, -r), (-r, r // 3), (r, r // 3)):
            pygame.draw.circle(surface, colour, (x + dx, y + dy), r * 9 // 10)
        pygame.draw.polygon(surface, colour, [(x, y), (x - r, y + 2 * r), (x + r, y + 2 * r)])


@cache
def card(name: str | None, width: int, height: int) -> pygame.Surface:
    """A card face (``"As"``) or, for None, a card back; drawn once per size."""
    surface = pygame.Surface((width, height), pygame.SRCALPHA)
    radius = max(width // 10, 2)
    rect = surface.get_rect()
    if name is None:
        pygame.draw.rect(surface, CARD_BACK, rect, border_radius=radius)
        inner = rect.inflate(-width // 6, -width // 6)
        pygame.draw.rect(surface, GOLD, inner, width=max(width // 30, 1), border_radius=radius)
        return surface
    pygame.draw.rect(surface, CARD_FACE, rect, border_radius=radius)
    pygame.draw.rect(surface, INK, rect, width=1, border_radius=radius)
    rank, suit = name[:-1], name[-1]
    colour = RED if suit in "hd" else INK
    label = text(RANK_TEXT.get(rank, rank), max(height // 5, 10), colour, True)
    surface.blit(label, (width // 10, height // 24))
    _suit(
        surface,
        suit,
        (width // 10 + label.get_width() // 2, height // 24 + label.get_height() + width // 10),
        width // 5,
    )
    _suit(surface, suit, (width // 2, height * 3 // 5), width // 2)
    return surface


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
    return surface


CHIP_TEXT_SIZE = 8
"""A chip's amount and a spot's name are part of its picture, drawn as small as the chip
needs: the amounts are written on the meters and in the prompt too."""
CHIP_COLOURS = {
    "ante": (30, 90, 170),
    "play": (170, 40, 40),
    "bonus": (200, 150, 30),
    "insure": (90, 60, 150),
}


@cache
def chip(kind: str, label: str, diameter: int) -> pygame.Surface:
    """A chip on a bet spot with its amount written on it."""
    surface = pygame.Surface((diameter, diameter), pygame.SRCALPHA)
    centre, radius = (diameter // 2, diameter // 2), diameter // 2
    pygame.draw.circle(surface, CHIP_COLOURS[kind], centre, radius)
    dash = max(diameter // 10, 2)
    for angle in range(0, 360, 45):
        vector = pygame.math.Vector2(radius - dash // 2, 0).rotate(angle)
        pygame.draw.circle(surface, WHITE, (centre[0] + vector.x, centre[1] + vector.y), dash // 2 + 1)
    pygame.draw.circle(surface, WHITE, centre, radius * 7 // 10, width=max(diameter // 30, 1))
    words = fitted(label, max(diameter // 4, 8), WHITE, diameter * 6 // 10, bold=True, least=CHIP_TEXT_SIZE)
    surface.blit(words, words.get_rect(center=centre))
    return surface


@cache
def spot(label: str, diameter: int) -> pygame.Surface:
    """An empty bet spot: a ring with the bet's name."""
    surface = pygame.Surface((diameter, diameter), pygame.SRCALPHA)
    pygame.draw.circle(
        surface, FELT_LINE, (diameter // 2, diameter // 2), diameter // 2, width=max(diameter // 20, 1)
    )
    words = fitted(label, max(diameter // 5, 8), FELT_LINE, diameter * 8 // 10, least=CHIP_TEXT_SIZE)
    surface.blit(words, words.get_rect(center=(diameter // 2, diameter // 2)))
    return surface


BUTTON_PAD = 4
"""Pixels between a button's edge and its label."""


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


def button(surface: pygame.Surface, rect: pygame.Rect, label: str, live: bool, size: int) -> None:
    """An on-screen button: lit like its lamp when live, dim otherwise; its label at
    ``size`` (``label_size``), on two lines if it needs them."""
    radius = max(rect.h // 5, 3)
    pygame.draw.rect(surface, (20, 70, 95) if live else PANEL, rect, border_radius=radius)
    pygame.draw.rect(surface, LIVE if live else DIM, rect, width=2, border_radius=radius)
    _size, pieces = lines_that_fit(
        label, size, rect.w - 2 * BUTTON_PAD, rect.h - 2 * BUTTON_PAD, size, bold=live
    )
    block(surface, pieces, size, WHITE if live else DIM, rect.center, bold=live)


def forget() -> None:
    """Drops every kept font and surface: after pygame restarts, old fonts are invalid."""
    for kept in (font, text, card, greyed_card, card_slot, chip, spot):
        kept.cache_clear()
