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
    labels = [label for _name, label, _live in buttons]
    size = render.label_size(labels, lay.medium, cells[0].w, cells[0].h, lay.floor)
    for cell, (_name, label, live) in zip(cells, buttons, strict=True):
        render.button(surface, render.rect(cell), label, live, size)


def hotspots(lay: Layout, buttons: Buttons) -> list[Hotspot]:
    return [
        (render.rect(cell), name, None)
        for cell, (name, _label, _live) in zip(lay.button_areas(len(buttons)), buttons, strict=True)
    ]
