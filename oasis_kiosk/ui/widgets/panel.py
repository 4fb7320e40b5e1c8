"""The panel a tilt, a handpay or a payout shows across the table, the game dimmed behind it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Layout
from oasis_kiosk.ui.view import View

VEIL = (100, 100, 100)
"""What the table under a panel is multiplied by: about two fifths of its light, the game
plainly waiting behind the panel."""


class Panel(NamedTuple):
    lines: tuple[str, ...]
    alarm: bool
    amount_line: int | None
    """Which line is the amount, in the largest type (None: none)."""
    above_the_hands: bool
    """A win's panel (a handpay's, a jackpot's pending award): it lies above the boxes'
    cards, undimmed, so the hand that won stays in view while the cabinet waits."""


WINS = ("handpay", "pending")
"""The overlays of a win the cabinet waits on."""
HANDPAYS = ("handpay", "cash-out handpay")
"""The overlays whose second line is the amount the attendant pays."""


def overlay_panel(view: View) -> Panel | None:
    """The panel a view's overlay shows over the table (a tilt's, a handpay's, a payout's);
    None for none."""
    if not view.overlay or view.overlay[0] == "operator":
        return None
    kind = view.overlay[0]
    return Panel(view.overlay[1:], kind == "tilt", 1 if kind in HANDPAYS else None, kind in WINS)


def area(lay: Layout, shown: Panel) -> pygame.Rect:
    """The panel's frame: across the middle of the table, or a win's above the boxes' cards
    (over the dealer's hand and the boxes' labels; the captions below still name each
    box's hand and result)."""
    table = render.rect(lay.table)
    if not shown.above_the_hands:
        return table.inflate(-lay.small, -table.h // 3)
    top = table.y + lay.small // 2
    cards = min(place.y for place in lay.cards(lay.boxes[0]))
    return pygame.Rect(table.x + lay.small // 2, top, table.w - lay.small, cards - lay.small // 2 - top)


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


def _words(lay: Layout, shown: Panel, number: int, line: str, scale: Scale) -> list[pygame.Surface]:
    """A panel's line ``number`` as it is written at ``scale``: the first as its title, the
    amount in the largest type, the others wrapped to the panel's width."""
    room = area(lay, shown).w - lay.medium * 2
    title, amount, body = scale
    if number == shown.amount_line:
        return [render.fitted(line, amount, render.GOLD, room, True, lay.floor)]
    size = title if number == 0 else body
    colour = render.GOLD if number == 0 else render.WHITE
    return [
        render.text(piece, size, colour, bold=number == 0)
        for piece in render.wrap(line, size, room, bold=number == 0)
    ]


def all_words(lay: Layout, shown: Panel) -> list[pygame.Surface]:
    """The panel's words at the largest scale at which they all fit its frame (at the least
    of them if none does: the screen's test sees that)."""
    room = area(lay, shown).h - lay.medium * 2
    for scale in scales(lay):
        words = [
            piece
            for number, line in enumerate(shown.lines)
            for piece in _words(lay, shown, number, line, scale)
        ]
        if _height(lay, words) <= room:
            break
    return words


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


def hides(lay: Layout, shown: Panel) -> list[pygame.Rect]:
    """Where a panel hides the table whole: its frame but the rounded corners."""
    frame = area(lay, shown)
    return [frame.inflate(-2 * CORNER, 0), frame.inflate(0, -2 * CORNER)]


def draw(surface: pygame.Surface, lay: Layout, shown: Panel, veiled: Sequence[pygame.Rect]) -> None:
    """The panel over the table (``area``), its text inside it; the amount line (a handpay's)
    in the largest type, for the attendant. It spans the table's width, so that it covers the
    boxes' labels on its way whole, never cutting one. Behind a panel that stops the game the
    table is dimmed (in ``veiled``: what is in sight of it, the body filled over the rest); a
    win's is left bright, its hand in view."""
    if not shown.above_the_hands:
        for part in veiled:
            surface.fill(VEIL, part, special_flags=pygame.BLEND_RGB_MULT)
    frame = area(lay, shown)
    pygame.draw.rect(surface, render.ALARM if shown.alarm else render.PANEL, frame, border_radius=CORNER)
    pygame.draw.rect(surface, render.GOLD, frame, width=3, border_radius=CORNER)
    words = all_words(lay, shown)
    gap = _gap(lay)
    y = max(frame.centery - _height(lay, words) // 2, frame.y + lay.medium)  # the words in the middle
    with render.clipped(surface, frame.inflate(-6, -6)):
        for piece in words:
            surface.blit(piece, piece.get_rect(midtop=(frame.centerx, y)))
            y += piece.get_height() + gap
