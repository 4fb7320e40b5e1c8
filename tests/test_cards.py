"""The cards as drawn: J, Q and K with a court figure each, the number cards with as many
pips as their rank, the ace one large pip, the rank and suit in two corners, and a house
back with a pattern; at every card size the screens use."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pygame
import pytest

from oasis_kiosk.ui import cards, render
from oasis_kiosk.ui.layout import SIZES, layout

CARD_SIZES = sorted(
    {
        (lay.card_w, lay.card_h)
        for width, height in SIZES
        for boxes in (1, 2, 3)
        for lay in [layout(width, height, boxes)]
    }
)
LARGE = CARD_SIZES[-2:]
"""Large enough to count pips on."""
SUITS = "shdc"


@pytest.fixture(autouse=True)
def _fonts() -> Iterator[None]:
    """Fonts kept from an earlier test are invalid once pygame has quit: drawn afresh."""
    render.forget()
    pygame.init()
    yield
    render.forget()
    pygame.quit()


def centre(surface: pygame.Surface) -> bytes:
    """The middle of the card, clear of both corner indices."""
    width, height = surface.get_size()
    middle = pygame.Rect(width * 35 // 100, height * 30 // 100, width * 3 // 10, height * 4 // 10)
    return pygame.image.tobytes(surface.subsurface(middle), "RGBA")


def colours(surface: pygame.Surface) -> set[tuple[int, int, int]]:
    width, height = surface.get_size()
    return {
        tuple(surface.get_at((x, y)))[:3]  # type: ignore[misc]
        for x in range(width // 8, width * 7 // 8)
        for y in range(height // 8, height * 7 // 8)
    }


def near(colour: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 24 for a, b in zip(colour, wanted, strict=True))


@pytest.mark.parametrize("size", CARD_SIZES)
def test_court_cards_show_a_figure_of_their_own_where_number_cards_show_pips(size: tuple[int, int]) -> None:
    for suit in SUITS:
        middles = {rank: centre(cards.card(rank + suit, *size)) for rank in "23456789TJQKA"}
        for court in "JQK":
            assert all(middles[court] != middles[rank] for rank in "23456789TA"), f"{court}{suit} at {size}"
        assert len({middles["J"], middles["Q"], middles["K"]}) == 3, f"J, Q and K of {suit} alike at {size}"


@pytest.mark.parametrize("size", LARGE)
@pytest.mark.parametrize("court", ["J", "Q", "K"])
def test_a_court_figure_is_in_its_suits_colour_with_gold_and_mirrored_like_a_real_card(
    size: tuple[int, int], court: str
) -> None:
    for suit in SUITS:
        face = cards.card(court + suit, *size)
        drawn = colours(face)
        assert any(near(colour, render.GOLD) for colour in drawn), f"{court}{suit}: no gold"
        suit_colour = render.RED if suit in "hd" else render.INK
        assert any(near(colour, suit_colour) for colour in drawn)
        width, height = size
        left, upper, tall = width * 3 // 10, height // 10, height * 3 // 10
        top = face.subsurface(pygame.Rect(left, upper, width - 2 * left, tall))
        bottom = face.subsurface(pygame.Rect(left, height - upper - tall, width - 2 * left, tall))
        turned = pygame.transform.rotate(bottom, 180)
        same = sum(
            near(tuple(top.get_at((x, y)))[:3], tuple(turned.get_at((x, y)))[:3])  # type: ignore[arg-type]
            for x in range(top.get_width())
            for y in range(top.get_height())
        )
        assert same > top.get_width() * top.get_height() * 9 // 10, "the bottom half is the top turned round"


def pips(face: pygame.Surface, suit: str) -> int:
    """The suit's shapes between the corner indices (and inside the card's edge)."""
    width, height = face.get_size()
    field = face.subsurface(pygame.Rect(width * 3 // 10, height // 20, width * 4 // 10, height * 9 // 10))
    ink = render.RED if suit in "hd" else render.INK
    mask = pygame.mask.from_threshold(field, (*ink, 255), (40, 40, 40, 255))
    return len([part for part in mask.connected_components() if part.count() > 8])


@pytest.mark.parametrize("size", LARGE)
def test_number_cards_show_as_many_pips_as_their_rank_and_the_ace_one_large(size: tuple[int, int]) -> None:
    for suit in SUITS:
        for number, rank in enumerate("23456789T", start=2):
            assert pips(cards.card(rank + suit, *size), suit) == number, f"{rank}{suit} at {size}"
        ace = cards.card("A" + suit, *size)
        assert pips(ace, suit) == 1
        ink = render.RED if suit in "hd" else render.INK
        field = ace.subsurface(pygame.Rect(size[0] * 3 // 10, 0, size[0] * 4 // 10, size[1]))
        single = pygame.mask.from_threshold(field, (*ink, 255), (40, 40, 40, 255)).get_bounding_rects()[0]
        assert single.w >= size[0] // 3, "the ace's pip is large"


@pytest.mark.parametrize("size", CARD_SIZES)
def test_the_rank_and_suit_stand_in_two_opposite_corners(size: tuple[int, int]) -> None:
    width, height = size
    for name in ("Ts", "Qh", "7d", "Ac"):
        face = cards.card(name, *size)
        ink = render.RED if name[-1] in "hd" else render.INK
        corners = (
            pygame.Rect(0, 0, width * 3 // 10, height * 3 // 10),
            pygame.Rect(
                width - width * 3 // 10, height - height * 3 // 10, width * 3 // 10, height * 3 // 10
            ),
        )
        for corner in corners:
            drawn = pygame.mask.from_threshold(face.subsurface(corner), (*ink, 255), (40, 40, 40, 255))
            assert drawn.count() > corner.w * corner.h // 12, f"{name} at {size}: the corner {corner} is bare"
        assert tuple(face.get_at((width * 4 // 5, height // 10)))[:3] == render.CARD_FACE, (
            "the top right corner is plain: a folded box's grey shows there"
        )


@pytest.mark.parametrize("size", CARD_SIZES)
def test_the_back_is_a_drawn_house_pattern_not_a_flat_fill(size: tuple[int, int]) -> None:
    back = cards.card(None, *size)
    drawn = colours(back)
    assert len(drawn) > 6, f"{len(drawn)} colours"
    assert any(near(colour, render.CARD_BACK) for colour in drawn)
    assert any(near(colour, render.GOLD) for colour in drawn)
    assert back.get_at((size[0] // 2, 1))[3] == 255, "a card, not a frame"
    assert centre(back) != centre(cards.card("Ks", *size))
    turned = pygame.image.tobytes(pygame.transform.rotate(back, 180), "RGB")
    differing = sum(abs(a - b) > 40 for a, b in zip(pygame.image.tobytes(back, "RGB"), turned, strict=True))
    assert differing < len(turned) // 20, "a back looks the same either way up: it tells nothing"


def test_a_font_dropped_after_pygame_quit_leaves_no_file_open() -> None:
    """A screen test quits pygame with its fonts kept, and the next drops them: a font read
    from its file keeps the file open when dropped after the quit, and a whole run of such
    tests came near the 1 024 descriptors ``select`` can watch."""

    def open_descriptors() -> int:
        return len(os.listdir("/proc/self/fd"))

    before = open_descriptors()
    for size in range(20, 40):
        render.text("Flush", size, render.WHITE, bold=size % 2 == 0)
        pygame.quit()
        render.forget()
        pygame.init()
    assert open_descriptors() - before < 5
