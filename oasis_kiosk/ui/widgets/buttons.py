"""The button bar: the buttons of the moment, lit when live, their labels in one size."""

from __future__ import annotations

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Layout

Buttons = tuple[tuple[str, str, bool], ...]
"""(button, label, live) in the bar's order."""
Hotspot = tuple[pygame.Rect, str, int | None]
"""Where a click or touch presses a button: (area, button, card number)."""


def draw(surface: pygame.Surface, lay: Layout, buttons: Buttons) -> None:
    if not buttons:  # the dealer's reveal: a press only hurries it
        return
    cells = lay.button_areas(len(buttons))
    size = _label_size(lay, [label for _name, label, _live in buttons])
    for cell, (_name, label, live) in zip(cells, buttons, strict=True):
        render.button(surface, render.rect(cell), label, live, size)


def render_ahead(lay: Layout, bars: tuple[tuple[str, ...], ...]) -> None:
    """Renders each bar's labels, lit and dark, as ``draw`` would write them: the first
    frame of a bar (a deal's FOLD, PLAY, EXCHANGE) then blits its words."""
    for labels in bars:
        cells = lay.button_areas(len(labels))
        size = _label_size(lay, list(labels))
        for cell, label in zip(cells, labels, strict=True):
            for live in (True, False):
                render.button_words(render.rect(cell), label, live, size)


def _label_size(lay: Layout, labels: list[str]) -> int:
    cell = lay.button_areas(len(labels))[0]
    return render.label_size(labels, lay.medium, cell.w, cell.h, lay.floor)


def hotspots(lay: Layout, buttons: Buttons) -> list[Hotspot]:
    return [
        (render.rect(cell), name, None)
        for cell, (name, _label, _live) in zip(lay.button_areas(len(buttons)), buttons, strict=True)
    ]
