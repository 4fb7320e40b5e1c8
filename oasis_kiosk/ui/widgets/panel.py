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


Scale = tuple[int, int, int]
"""A panel's type sizes: its title's, its amount's (the largest it may be fitted at) and its
text's."""


def scales(lay: Layout) -> list[Scale]:
    """A panel's type sizes, largest first: a panel whose words do not fit its frame takes the
    next (at 1024x768 a Russian jackpot's lock-up had cut its instruction through)."""
    return [
        (lay.large * 3 // 2, lay.large * 2, lay.medium),
        (lay.large, lay.large * 3 // 2, lay.medium),
        (lay.medium, lay.large, lay.medium),
        (lay.medium, lay.large, max(lay.small, lay.floor)),
    ]


def _words(
    lay: Layout, number: int, line: str, amount_line: int | None, scale: Scale
) -> list[pygame.Surface]:
    """A panel's line ``number`` as it is written at ``scale``: the first as its title, the
    amount (``amount_line``) in the largest type, the others wrapped to the panel's width."""
    room = area(lay).w - lay.medium * 2
    title, amount, body = scale
    if number == amount_line:
        return [render.fitted(line, amount, render.GOLD, room, True, lay.floor)]
    size = title if number == 0 else body
    colour = render.GOLD if number == 0 else render.WHITE
    return [
        render.text(piece, size, colour, bold=number == 0)
        for piece in render.wrap(line, size, room, bold=number == 0)
    ]


def all_words(lay: Layout, lines: Sequence[str], amount_line: int | None) -> list[pygame.Surface]:
    """The panel's words at the largest scale at which they all fit its frame (at the least
    of them if none does: the screen's test sees that)."""
    room = area(lay).h - lay.medium * 2
    for scale in scales(lay):
        shown = [
            piece
            for number, line in enumerate(lines)
            for piece in _words(lay, number, line, amount_line, scale)
        ]
        if _height(lay, shown) <= room:
            break
    return shown


def _height(lay: Layout, shown: Sequence[pygame.Surface]) -> int:
    return sum(piece.get_height() for piece in shown) + _gap(lay) * (len(shown) - 1)


def _gap(lay: Layout) -> int:
    """Between two lines of a panel."""
    return lay.small // 2


def font_sizes(lay: Layout) -> list[tuple[int, bool]]:
    """The fonts (size, bold) a panel's words may be written in: its titles', its texts' and
    each its amount may be fitted at."""
    amount = sorted(
        {(size, True) for _t, most, _b in scales(lay) for size in render.fitting_sizes(most, lay.floor)}
    )
    titles = {(title, True) for title, _amount, _body in scales(lay)}
    bodies = {(body, False) for _title, _amount, body in scales(lay)}
    return [*sorted(titles), *sorted(bodies), *amount]


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
    shown = all_words(lay, lines, amount_line)
    gap = _gap(lay)
    y = max(frame.centery - _height(lay, shown) // 2, frame.y + lay.medium)  # the words in the middle
    with render.clipped(surface, frame.inflate(-6, -6)):
        for piece in shown:
            surface.blit(piece, piece.get_rect(midtop=(frame.centerx, y)))
            y += piece.get_height() + gap
