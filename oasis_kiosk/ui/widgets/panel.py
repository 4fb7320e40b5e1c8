"""The panel a tilt, a handpay or a payout shows across the table, the game dimmed behind it."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Layout
from oasis_kiosk.ui.view import View

VEIL = (100, 100, 100)
"""What the table under a panel is multiplied by: about two fifths of its light, the game
plainly waiting behind the panel."""
Panel = tuple[tuple[str, ...], bool, int | None]
"""A panel's lines, whether it is an alarm, and which line is the amount (None: none)."""


def overlay_panel(view: View) -> Panel | None:
    """The panel a view's overlay shows over the table (a tilt's, a handpay's, a payout's);
    None for none."""
    if not view.overlay or view.overlay[0] == "operator":
        return None
    return view.overlay[1:], view.overlay[0] == "tilt", 1 if view.overlay[0] == "handpay" else None


def area(lay: Layout) -> pygame.Rect:
    table = render.rect(lay.table)
    return table.inflate(-lay.small, -table.h // 3)


def words(lay: Layout, number: int, line: str, amount_line: int | None) -> list[pygame.Surface]:
    """A panel's line ``number`` as it is written: the first as its title, the amount
    (``amount_line``) in the largest type, the others wrapped to the panel's width."""
    room = area(lay).w - lay.medium * 2
    if number == amount_line:
        return [render.fitted(line, _amount_size(lay), render.GOLD, room, True, lay.floor)]
    size = _title_size(lay) if number == 0 else lay.medium
    colour = render.GOLD if number == 0 else render.WHITE
    return [
        render.text(piece, size, colour, bold=number == 0)
        for piece in render.wrap(line, size, room, bold=number == 0)
    ]


def _amount_size(lay: Layout) -> int:
    return lay.large * 2


def _title_size(lay: Layout) -> int:
    return lay.large * 3 // 2


def font_sizes(lay: Layout) -> list[tuple[int, bool]]:
    """The fonts (size, bold) a panel's words may be written in: its title's, its text's
    and each its amount may be fitted at."""
    amount = [(size, True) for size in render.fitting_sizes(_amount_size(lay), lay.floor)]
    return [(_title_size(lay), True), (lay.medium, False), *amount]


CORNER = 12
"""The radius of a panel's corners, in pixels."""


def hides(lay: Layout) -> list[pygame.Rect]:
    """Where a panel hides the table whole: its frame but the rounded corners."""
    frame = area(lay)
    return [frame.inflate(-2 * CORNER, 0), frame.inflate(0, -2 * CORNER)]


def draw(surface: pygame.Surface, lay: Layout, panel: Panel, veiled: Sequence[pygame.Rect]) -> None:
    """The panel across the table, its text inside it; the amount line (a handpay's) in the
    largest type, for the attendant. The game waits behind it: the table is dimmed (in
    ``veiled``: what is in sight of it, the body filled over the rest), and the panel spans
    its width, so that it covers the boxes' labels on its way whole, never cutting one (the
    dealer's above and the captions below stay clear of it)."""
    lines, alarm, amount_line = panel
    for part in veiled:
        surface.fill(VEIL, part, special_flags=pygame.BLEND_RGB_MULT)
    frame = area(lay)
    pygame.draw.rect(surface, render.ALARM if alarm else render.PANEL, frame, border_radius=CORNER)
    pygame.draw.rect(surface, render.GOLD, frame, width=3, border_radius=CORNER)
    shown = [piece for number, line in enumerate(lines) for piece in words(lay, number, line, amount_line)]
    gap = lay.small // 2
    tall = sum(piece.get_height() for piece in shown) + gap * (len(shown) - 1)
    y = max(frame.centery - tall // 2, frame.y + lay.medium)  # the words in the middle
    with render.clipped(surface, frame.inflate(-6, -6)):
        for piece in shown:
            surface.blit(piece, piece.get_rect(midtop=(frame.centerx, y)))
            y += piece.get_height() + gap
