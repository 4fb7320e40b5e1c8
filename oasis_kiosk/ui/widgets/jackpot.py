"""The progressive jackpot meter, odometer style (each digit in its own cell), and the banner
that celebrates a hit over it."""

from __future__ import annotations

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout

NO_VALUE = "—"
"""The meter with no value to show (a linked jackpot the hub has not told yet): a dash, not
a 0 the pool never held."""


def cell_width(character: str, size: int) -> int:
    """The width of the cell of one character of a meter of ``size`` pixels: every digit's
    the same (tabular figures: the meter does not jitter as it counts), a separator or the
    currency's sign as narrow as it is."""
    return render.font(size, True).size("0" if character.isdigit() else character)[0] + size // 5


def meter_width(amount: str, size: int) -> int:
    return sum(cell_width(character, size) for character in amount)


def cells(screen: pygame.Surface, amount: str, size: int, x: int, top: int) -> None:
    """``amount`` (formatted money) from ``x``, each character in a cell ``size * 5 // 4``
    tall from ``top``, the digits' cells dark."""
    for character in amount:
        width = cell_width(character, size)
        cell = pygame.Rect(x, top, width - 2, size * 5 // 4)
        if character.isdigit():
            pygame.draw.rect(screen, render.PANEL, cell, border_radius=3)
        glyph = render.text(character, size, render.GOLD, True)
        screen.blit(glyph, glyph.get_rect(center=cell.center))
        x += width


def odometer(screen: pygame.Surface, area: Box, amount: str, least: int) -> None:
    """The title and ``amount`` (formatted money) centred in ``area``; no text under
    ``least`` pixels."""
    # A long title (Russian) beside a large meter can be wider than the box: both step
    # down together until the whole meter fits.
    size = max(area.h * 55 // 100, least)
    while True:
        title = render.text(_("PROGRESSIVE JACKPOT"), max(size * 6 // 11, least), render.GOLD, True)
        total = title.get_width() + size + meter_width(amount, size)
        if total + 2 * (size // 3) <= area.w or size <= least:
            break
        size -= 1
    x = area.x + max((area.w - total) // 2, size // 3)
    screen.blit(title, (x, area.y + (area.h - title.get_height()) // 2))
    cells(screen, amount, size, x + title.get_width() + size, area.y + (area.h - size * 5 // 4) // 2)


BANNER_COLOURS = (render.WHITE, render.GOLD)
"""The jackpot banner's words and frame flash between these, three times a second."""


def banner_colour(now: float) -> render.Colour:
    """The colour the banner flashes in at ``now``."""
    return BANNER_COLOURS[int(now * 3) % 2]


def banner_area(lay: Layout) -> pygame.Rect:
    """Where the jackpot banner flashes: over the jackpot meter, never over a hand."""
    return render.rect(lay.jackpot).inflate(-4, -4)


def _banner_size(lay: Layout) -> int:
    return banner_area(lay).h * 7 // 10


def banner_font_sizes(lay: Layout) -> list[tuple[int, bool]]:
    """The fonts (size, bold) the banner's words may be fitted in."""
    return [(size, True) for size in render.fitting_sizes(_banner_size(lay), lay.floor)]


def banner_words(lay: Layout, amount: str, colour: render.Colour) -> pygame.Surface:
    """``amount``: the jackpot won, as money."""
    area = banner_area(lay)
    return render.fitted(
        _("JACKPOT! {amount}").format(amount=amount),
        _banner_size(lay),
        colour,
        area.w - 20,
        bold=True,
        least=lay.floor,
    )


def banner(surface: pygame.Surface, lay: Layout, amount: str, now: float) -> None:
    area = banner_area(lay)
    colour = banner_colour(now)
    pygame.draw.rect(surface, render.PANEL, area, border_radius=16)
    pygame.draw.rect(surface, colour, area, width=4, border_radius=16)
    words = banner_words(lay, amount, colour)
    surface.blit(words, words.get_rect(center=area.center))
