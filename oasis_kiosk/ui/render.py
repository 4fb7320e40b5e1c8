"""Drawing the pieces: cards (rendered once per size and cached), text (cached), money.

Suits are drawn as shapes, not glyphs, so they are crisp at any size whatever font is at
hand; the hand's name is always written too (nothing is told by colour alone).
"""

from __future__ import annotations

from functools import cache

import pygame

FELT = (14, 92, 52)
FELT_DARK = (10, 66, 38)
CARD_FACE = (246, 242, 232)
CARD_BACK = (120, 24, 36)
INK = (24, 24, 28)
RED = (196, 30, 42)
GOLD = (232, 190, 72)
LIVE = (90, 200, 250)
DIM = (110, 130, 120)
WHITE = (240, 240, 235)

RANK_TEXT = {"T": "10"}


@cache
def font(size: int) -> pygame.font.Font:
    return pygame.font.Font(None, size)


@cache
def text(content: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
    return font(size).render(content, True, colour)


def money(amount: int, currency: str, minor_units: int) -> str:
    """``1234`` EUR (100 minor units) -> ``EUR 12.34``; integers all the way."""
    sign = "-" if amount < 0 else ""
    whole, part = divmod(abs(amount), minor_units)
    places = len(str(minor_units)) - 1
    return f"{currency} {sign}{whole:,}" + (f".{part:0{places}d}" if places else "")


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
    label = text(RANK_TEXT.get(rank, rank), max(height // 4, 10), colour)
    surface.blit(label, (width // 10, height // 20))
    _suit(surface, suit, (width // 2, height * 3 // 5), width // 2)
    return surface
