"""The progressive jackpot meter, odometer style: each digit in its own cell."""

from __future__ import annotations

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box


def odometer(screen: pygame.Surface, area: Box, amount: str, least: int) -> None:
    """The title and ``amount`` (formatted money) centred in ``area``; no text under
    ``least`` pixels."""
    # A long title (Russian) beside a large meter can be wider than the box: both step
    # down together until the whole meter fits.
    size = max(area.h * 55 // 100, least)
    while True:
        title = render.text(_("PROGRESSIVE JACKPOT"), max(size * 6 // 11, least), render.GOLD, True)
        cell_w = render.font(size, True).size("0")[0] + size // 5
        total = title.get_width() + size + cell_w * len(amount)
        if total + 2 * (size // 3) <= area.w or size <= least:
            break
        size -= 1
    x = area.x + max((area.w - total) // 2, size // 3)
    screen.blit(title, (x, area.y + (area.h - title.get_height()) // 2))
    x += title.get_width() + size
    top = area.y + (area.h - size * 5 // 4) // 2
    for character in amount:
        cell = pygame.Rect(x, top, cell_w - 2, size * 5 // 4)
        if character.isdigit():
            pygame.draw.rect(screen, render.PANEL, cell, border_radius=3)
        glyph = render.text(character, size, render.GOLD, True)
        screen.blit(glyph, glyph.get_rect(center=cell.center))
        x += cell_w
