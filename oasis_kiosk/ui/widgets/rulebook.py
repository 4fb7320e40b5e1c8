"""The rules of the profile as sentences over the table (HELP), sized to fit."""

from __future__ import annotations

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout


def fit(lines: list[str], lay: Layout) -> tuple[int, int]:
    """The text size and width at which every sentence is on the table. A house with many
    options (golden-oasis) says more than fits a small screen at the usual size: the text
    steps down, and on a compact screen the paytable column beside it gives way (the
    paytable stays in the strip above)."""
    table, margin = lay.table, lay.small
    # On a compact screen the paytable column stays while the text is still readable.
    tries = [(table.w * 3 // 5, max(lay.small - 2, render.MIN_TEXT_SIZE))] if lay.compact else []
    for width, least in [*tries, (table.w, render.MIN_TEXT_SIZE)]:
        for size in range(lay.small + 2, least - 1, -1):
            pieces = sum(len(render.wrap(line, size, width - 2 * margin)) for line in lines)
            if pieces * (size + 2) + len(lines) * (size // 3) <= table.h - 2 * margin:
                return size, width
    return render.MIN_TEXT_SIZE, table.w


def sentences(screen: pygame.Surface, area: Box, lines: list[str], size: int, margin: int) -> None:
    """The lines wrapped to ``area``, the first (the profile's name) in gold."""
    y = area.y + margin
    for number, line in enumerate(lines):
        colour = render.GOLD if number == 0 else render.WHITE
        for piece in render.wrap(line, size, area.w - 2 * margin):
            screen.blit(render.text(piece, size, colour), (area.x + margin, y))
            y += size + 2
        y += size // 3
