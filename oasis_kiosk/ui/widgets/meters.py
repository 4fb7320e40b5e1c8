"""The credit, bet and win meters along the bottom of the screen."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Layout


def draw(
    screen: pygame.Surface, lay: Layout, values: tuple[tuple[str, int], ...], cash: Callable[[int], str]
) -> None:
    """Each (name, amount) in its cell; the last is the win, gold while it is not zero."""
    for number, (cell, (name, amount)) in enumerate(zip(lay.meters.split(len(values)), values, strict=True)):
        inner = cell.shrink(max(lay.small // 2, 2))  # a gap between neighbouring amounts
        colour = render.GOLD if number == len(values) - 1 and amount else render.WHITE
        if lay.compact:
            glyphs = render.amount(f"{name} {cash(amount)}", lay.large, colour, inner.w, True, lay.floor)
            height = glyphs[0].get_height()
            x = inner.x + (inner.w - render.row_width(glyphs)) // 2
            render.row(screen, glyphs, x, inner.y + (inner.h - height) // 2)
            continue
        title = render.fitted(name, lay.small, render.DIM, inner.w, bold=True, least=lay.floor)
        screen.blit(title, (inner.x, inner.y))
        glyphs = render.amount(cash(amount), lay.large, colour, inner.w, True, lay.floor)
        render.row(screen, glyphs, inner.x, inner.bottom - glyphs[0].get_height())
