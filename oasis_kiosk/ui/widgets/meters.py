"""The credit, bet and win meters along the bottom of the screen."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout

Meters = tuple[tuple[str, int], ...]
"""Each meter's name and amount, the win last."""


def _cells(lay: Layout, values: Meters) -> list[tuple[Box, Box]]:
    """Each meter's cell and, inside it, where its words go (a gap between neighbouring
    amounts)."""
    cells = lay.meters.split(len(values))
    return [(cell, cell.shrink(max(lay.small // 2, 2))) for cell in cells]


def _amount(
    lay: Layout, inner: Box, number: int, values: Meters, cash: Callable[[int], str]
) -> tuple[pygame.Surface, ...]:
    """A meter's amount as glyphs (on a compact screen, its name too); the last, the win,
    in gold while it is not zero."""
    name, amount = values[number]
    colour = render.GOLD if number == len(values) - 1 and amount else render.WHITE
    words = f"{name} {cash(amount)}" if lay.compact else cash(amount)
    return render.amount(words, lay.large, colour, inner.w, True, lay.floor)


def draw(
    screen: pygame.Surface,
    lay: Layout,
    values: Meters,
    cash: Callable[[int], str],
    only: pygame.Rect | None = None,
) -> None:
    """Each (name, amount) in its cell; with ``only``, just the cells that reach into it."""
    for number, (cell, inner) in enumerate(_cells(lay, values)):
        if only is not None and not only.colliderect(render.rect(cell)):
            continue
        glyphs = _amount(lay, inner, number, values, cash)
        height = glyphs[0].get_height()
        if lay.compact:
            x = inner.x + (inner.w - render.row_width(glyphs)) // 2
            render.row(screen, glyphs, x, inner.y + (inner.h - height) // 2)
            continue
        name = values[number][0]
        title = render.fitted(name, lay.small, render.DIM, inner.w, bold=True, least=lay.floor)
        screen.blit(title, (inner.x, inner.y))
        render.row(screen, glyphs, inner.x, inner.bottom - height)


def changed(
    lay: Layout, before: Meters, now: Meters, cash: Callable[[int], str]
) -> list[tuple[pygame.Rect, pygame.Rect]]:
    """Where the meters' picture changed from ``before``, each with its meter's cell: of a
    meter whose amount changed but not its glyphs' size or colour, from its first changed
    glyph to the end of the longer amount (a count changes the last few digits of CREDIT
    and WIN each frame); of any other changed meter, its cell."""
    areas = []
    for number, (cell, inner) in enumerate(_cells(lay, now)):
        if before[number] == now[number]:
            continue
        whole = render.rect(cell)
        was, glyphs = (_amount(lay, inner, number, values, cash) for values in (before, now))
        if (
            lay.compact
            or before[number][0] != now[number][0]
            or was[0].get_height() != glyphs[0].get_height()
        ):
            areas.append((whole, whole))
            continue
        same = 0  # a glyph of the same character, size and colour is the same surface (render.text)
        while same < min(len(was), len(glyphs)) and was[same] is glyphs[same]:
            same += 1
        left = inner.x + render.row_width(glyphs[:same])
        right = inner.x + max(render.row_width(was), render.row_width(glyphs))
        height = glyphs[0].get_height()
        areas.append((pygame.Rect(left, inner.bottom - height, right - left, height), whole))
    return areas
