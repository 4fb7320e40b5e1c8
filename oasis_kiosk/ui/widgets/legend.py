"""The desktop's keys, listed over the table while L shows them."""

from __future__ import annotations

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Layout

COLUMNS = 3


def draw(surface: pygame.Surface, lay: Layout, keys: list[tuple[str, str]]) -> None:
    """``keys``: (key, what it does), in three columns, all at one size (``_size``), on a
    panel over the whole table (a panel ending part-way cut through the box's label)."""
    size = _size(lay, keys)
    line = _line(size)
    per_column = -(-len(keys) // COLUMNS)
    panel = render.rect(lay.table).inflate(-lay.small * 2, 0)
    pygame.draw.rect(surface, render.PANEL, panel, border_radius=8)
    width = panel.w // COLUMNS
    key_w = _key_width(keys, size)
    clip = surface.get_clip()
    surface.set_clip(panel.clip(clip))  # within the area repainted, and nothing onto the table
    surface.blit(
        render.text(_("KEYS (L hides this)"), size, render.GOLD, True), (panel.x + size, panel.y + line // 3)
    )
    for number, (key, meaning) in enumerate(keys):
        column, row = divmod(number, per_column)
        x = panel.x + column * width + size
        y = panel.y + line * (row + 1) + line // 2
        surface.blit(render.text(key, size, render.LIVE, True), (x, y))
        surface.blit(render.text(meaning, size, render.WHITE), (x + key_w, y))
    surface.set_clip(clip)


def _size(lay: Layout, keys: list[tuple[str, str]]) -> int:
    """The largest size, up to the table's medium text and not under the floor, at which
    every row fits the table's height and every meaning its column."""
    per_column = -(-len(keys) // COLUMNS)
    width = (lay.table.w - lay.small * 2) // COLUMNS
    for size in render.fitting_sizes(lay.medium, lay.floor):
        fits_height = _line(size) * (per_column + 2) <= lay.table.h
        widest = max(render.text_width(meaning, size) for _key, meaning in keys)
        if fits_height and _key_width(keys, size) + widest + size <= width:
            return size
    return lay.floor


def _line(size: int) -> int:
    return size * 6 // 5


def _key_width(keys: list[tuple[str, str]], size: int) -> int:
    return max(render.text_width(key, size, True) for key, _meaning in keys) + size
