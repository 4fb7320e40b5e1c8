"""The desktop's keys, listed over the table while L shows them."""

from __future__ import annotations

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Layout


def draw(surface: pygame.Surface, lay: Layout, keys: list[tuple[str, str]]) -> None:
    """``keys``: (key, what it does), in three columns."""
    table = render.rect(lay.table)
    columns = 3
    per_column = -(-len(keys) // columns)
    size = min(lay.medium, table.h // (per_column + 3))
    panel = table.inflate(-lay.small * 2, 0)
    panel.h = size * (per_column + 3)
    pygame.draw.rect(surface, render.PANEL, panel, border_radius=8)
    width = panel.w // columns
    key_w = max(render.font(size, True).size(key)[0] for key, _meaning in keys) + size
    title = render.text(_("KEYS (L hides this)"), size, render.GOLD, True)
    surface.blit(title, (panel.x + size, panel.y + size // 2))
    for number, (key, meaning) in enumerate(keys):
        column, line = divmod(number, per_column)
        x = panel.x + column * width + size
        y = panel.y + size * 2 + line * (size + 2)
        surface.blit(render.text(key, size, render.LIVE, True), (x, y))
        surface.blit(render.fitted(meaning, size, render.WHITE, width - key_w - size), (x + key_w, y))
