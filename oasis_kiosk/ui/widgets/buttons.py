"""The button bar: the buttons of the moment, lit when live, their labels in one size."""

from __future__ import annotations

from functools import lru_cache

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout

Buttons = tuple[tuple[str, str, bool], ...]
"""(button, label, live) in the bar's order."""
Hotspot = tuple[pygame.Rect, str, int | None]
"""Where a click or touch presses a button: (area, button, card number)."""


def draw(surface: pygame.Surface, lay: Layout, buttons: Buttons) -> None:
    if not buttons:  # the dealer's reveal: a press only hurries it
        return
    cells, size = bar(lay, tuple(label for _name, label, _live in buttons))
    for cell, (_name, label, live) in zip(cells, buttons, strict=True):
        render.button(surface, render.rect(cell), label, live, size)


def render_ahead(lay: Layout, bars: tuple[tuple[str, ...], ...]) -> None:
    """Renders each bar's labels, lit and dark, as ``draw`` would write them: the first
    frame of a bar (a deal's FOLD, PLAY, EXCHANGE) then blits its words."""
    for labels in bars:
        cells, size = bar(lay, labels)
        for cell, label in zip(cells, labels, strict=True):
            for live in (True, False):
                render.button_words(render.rect(cell), label, live, size)


# Kept: the bar is laid out for each repaint and each press.
@lru_cache(maxsize=64)
def bar(lay: Layout, labels: tuple[str, ...]) -> tuple[tuple[Box, ...], int]:
    """Where each button of a bar goes, and the one size of their labels: of equal widths
    if every label fits its share at the floor size or larger; otherwise (the touchscreen's
    ten buttons of a new bet, a long word beside the meters) each button as wide as its
    label, at the largest size at which the labels fit their row, the room left shared out."""
    cells = lay.button_areas(len(labels))
    if not cells:
        return (), lay.medium
    size = render.label_size(list(labels), lay.medium, cells[0].w, cells[0].h, lay.floor)
    if _fit(labels, cells, size):
        return tuple(cells), size
    # Two rows on a compact screen narrower than the touchscreen (a window on a small
    # desktop) rather than labels running out of their buttons.
    for rows in (None, 2) if lay.compact else (None,):
        height = lay.button_areas(len(labels), (0,) * len(labels), rows)[0].h
        for size in range(lay.medium, lay.floor - 1, -1):
            cells = lay.button_areas(
                len(labels), tuple(render.label_width(label, size, height) for label in labels), rows
            )
            if _fit(labels, cells, size):
                return tuple(cells), size
    return tuple(cells), size


def _fit(labels: tuple[str, ...], cells: list[Box], size: int) -> bool:
    return all(
        render.label_fits(label, size, cell.w, cell.h) for label, cell in zip(labels, cells, strict=True)
    )


def hotspots(lay: Layout, buttons: Buttons) -> list[Hotspot]:
    cells, _size = bar(lay, tuple(label for _name, label, _live in buttons))
    return [
        (render.rect(cell), name, None) for cell, (name, _label, _live) in zip(cells, buttons, strict=True)
    ]
