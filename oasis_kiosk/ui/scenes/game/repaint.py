"""How the game's frames repaint little: what each region shows (its look, compared with
the look last painted), what changed on the table, the damage as few rectangles, and the
pieces drawn ahead in frames that painted next to nothing."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Layout
from oasis_kiosk.ui.motion import Face, Slot
from oasis_kiosk.ui.view import BoxView
from oasis_kiosk.ui.widgets import hand, panel
from oasis_kiosk.ui.widgets.chips import insured, spot_places

NEAR = 48
"""Pixels between two damaged rectangles under which one pass over both is cheaper than two."""
COLUMN = 16
"""Pixels: a rectangle whose left edge and width are whole columns of this many is filled and
copied several times faster than one a few pixels off (SDL's fill, ten times at worst): the
damage is painted in whole columns."""
DETAIL_BAND = 16
"""Rows of the felt's line taken at a time: it is copied in pieces this tall at most, a steep
stretch of it a few pixels wide."""


class TableLook(NamedTuple):
    """What the table region shows."""

    round_key: tuple[int, str] | None
    dealer: tuple[Face, ...]
    verdict: str
    boxes: tuple[BoxView, ...]
    overlay: tuple[str, ...]
    help: tuple[object, ...]
    """HELP shown, its page and what its pages are written from (``HelpPages.written``)."""
    legend: bool
    glowing: bool
    """The winning hands' glow (the rules cover it)."""
    moving: float | bool
    """The moment while cards or chips are in motion (the rules cover them), else False."""

    def same_table(self, before: TableLook) -> bool:
        """The same boxes under the same panel, legend and HELP: what differs is a piece here
        and there (a card turned, selected or dealt, a label, a caption, a bet), or only the
        glow and the pieces in motion. A new deal too: its cards, labels, captions and spots
        are what it changes, not the felt between them."""
        return self[:-2] == before[:-2] or (
            len(self.boxes) == len(before.boxes)
            and (self.overlay, self.help, self.legend) == (before.overlay, before.help, before.legend)
            and not self.help[0]
        )


class PaytableLook(NamedTuple):
    """What the paytable region shows: the play bet's and the bonus's lit hands, the glow,
    HELP's paytables instead."""

    lit: tuple[str | None, str | None]
    glowing: bool
    help: bool


@dataclass
class ChangedPieces:
    """What a frame repaints of the table besides the pieces in motion."""

    slots: set[Slot]
    """The hands' places whose cards changed: where each was drawn and lies now."""
    areas: list[pygame.Rect]
    """Labels, captions, glows and bet spots whose look changed."""
    glow: bool
    """The winning hands' glow turned on or off."""


def changed_pieces(lay: Layout, before: TableLook, now: TableLook, bonus: bool) -> ChangedPieces:
    """What differs between two looks of the table: the hands whose cards changed (a card
    turned, selected, exchanged or greyed, a glow on or off), and the places of the labels,
    captions, glows and bet spots that changed. ``bonus``: the profile has a bonus spot."""
    changed = ChangedPieces(set(), [], glow=before.glowing != now.glowing)
    if before.verdict != now.verdict:
        changed.areas += [hand.dealer_label(lay, look.verdict)[1] for look in (before, now)]
    if before.dealer != now.dealer:
        count = max(len(before.dealer), len(now.dealer), 5)
        changed.slots.update(("dealer", 0, position) for position in range(count))
    spots = [spot_places(lay, insured(look.boxes), bonus) for look in (before, now)]
    captions = [[(box.caption, box.won, box.folded) for box in look.boxes] for look in (before, now)]
    if captions[0] != captions[1]:
        # Every box's caption, before and after: they share one size, which one new caption
        # may change for all.
        for look in (before, now):
            size = hand.caption_size(lay, look.boxes)
            changed.areas += [
                hand.caption_area(lay, area, box, size)
                for box, area in zip(look.boxes, lay.boxes, strict=False)
                if box.caption
            ]
    for index, (was, box, area) in enumerate(zip(before.boxes, now.boxes, lay.boxes, strict=False)):
        if was == box:
            continue
        if (was.label, was.current, was.folded) != (box.label, box.current, box.folded):
            changed.areas += [hand.box_label(lay, area, shown)[1] for shown in (was, box)]
        if (was.cards, was.selected, was.folded, was.won) != (box.cards, box.selected, box.folded, box.won):
            count = max(len(was.cards), len(box.cards), 5)
            changed.slots.update(("box", index, position) for position in range(count))
            changed.areas += [hand.glow(lay, area, len(shown.cards)) for shown in (was, box) if shown.won]
        if was.bets != box.bets:
            changed.areas += [
                render.rect(place) for places in spots for (at, _kind), place in places.items() if at == index
            ]
    return changed


def in_columns(area: pygame.Rect, within: pygame.Rect) -> pygame.Rect:
    """``area`` widened to whole COLUMNs of the screen, no further than ``within``."""
    left = area.x // COLUMN * COLUMN
    right = -(-area.right // COLUMN) * COLUMN
    return pygame.Rect(left, area.y, right - left, area.h).clip(within)


def in_whole_columns(area: pygame.Rect, within: pygame.Rect) -> pygame.Rect:
    """``area`` in whole COLUMNs, as wide wherever it lies (a column more than its own width
    takes), no further than ``within``: a winning hand's glow, whose kept looks share one size."""
    width = -(-area.w // COLUMN) * COLUMN + COLUMN
    return pygame.Rect(area.x // COLUMN * COLUMN, area.y, width, area.h).clip(within)


def in_sight_of_panel(lay: Layout, shown: panel.Panel, area: pygame.Rect) -> list[pygame.Rect]:
    """What of ``area`` (on the table) a panel's body leaves in sight: the bands above and
    below its straight edges (its rounded corners in them) and the strips beside it, the
    strips widened under the body to whole COLUMNs; none empty. The body is filled over
    what lies under it: felt, pieces and veil painted there would be painted for nothing."""
    frame = panel.area(lay, shown)
    top, bottom = frame.y + panel.CORNER, frame.bottom - panel.CORNER
    left = -(-frame.x // COLUMN) * COLUMN
    right = frame.right // COLUMN * COLUMN
    parts = [
        pygame.Rect(area.x, area.y, area.w, top - area.y),
        pygame.Rect(area.x, bottom, area.w, area.bottom - bottom),
        pygame.Rect(area.x, top, left - area.x, bottom - top),
        pygame.Rect(right, top, area.right - right, bottom - top),
    ]
    return [part.clip(area) for part in parts if part.w > 0 and part.h > 0 and part.colliderect(area)]


def clusters(damage: list[pygame.Rect], within: pygame.Rect) -> list[pygame.Rect]:
    """The damage as few rectangles, in whole columns (``in_columns``) of ``within``: those
    that touch or lie near each other become their union (a piece's place before and after
    a step, the spot it leaves), those far apart stay apart, so that two cards in flight
    across the table do not repaint the felt between them."""
    found: list[pygame.Rect] = []
    for area in damage:
        area = in_columns(area, within)
        if not area.w or not area.h:
            continue  # nothing of it lies within
        # The first cluster near the area, as one C call a pass: the area grown by NEAR
        # meets a cluster where the cluster grown by NEAR meets the area.
        index = area.inflate(NEAR, NEAR).collidelist(found)
        while index >= 0:
            area.union_ip(found.pop(index))
            index = area.inflate(NEAR, NEAR).collidelist(found)
        found.append(area)
    return found


class DrawnAhead:
    """What is drawn ahead for one thing (a view, a layout), a step a call; another thing
    starts its own steps."""

    def __init__(self) -> None:
        self._for: object = None
        self._left: Iterator[object] = iter(())

    def draw_one(self, thing: object, steps: Callable[[], Iterator[object]]) -> bool:
        """Takes the next step for ``thing`` (``steps`` starts them the first time), each
        drawing as it is taken; False when none is left."""
        if thing is not self._for:
            self._for, self._left = thing, steps()
        for _step in itertools.islice(self._left, 1):
            return True
        return False


class Background:
    """The felt, its oval line and the panels' ground, painted once per layout, and put back
    under a repainted area by parts: where the background is one colour, a fill; only where
    the line runs, a copy. A fill only writes; a copy also reads the background, rarely in
    the cache by the time a deal clears the last round's cards (a copy of the dealer's hand
    cost three times its fill)."""

    def __init__(
        self, size: tuple[int, int], plain: list[tuple[pygame.Rect, render.Colour]], line: pygame.Rect
    ) -> None:
        """``plain``: rectangles filled with a colour, in this order; ``line``: the rectangle
        the felt's oval line is drawn round, over them."""
        self.plain = plain
        self.surface = pygame.Surface(size)
        for rect, colour in plain:
            self.surface.fill(colour, rect)
        pygame.draw.ellipse(self.surface, render.FELT_LINE, line, width=2)
        self.details = _line_pieces(line)
        """Where the background is not its plain fills: the line, a band of rows at a time."""

    def paint(self, screen: pygame.Surface, area: pygame.Rect) -> None:
        """The background in ``area`` (inside the screen): filled where it is plain, if the
        area is in whole columns (SDL fills others slowly), else copied."""
        under = [number for number, (rect, _colour) in enumerate(self.plain) if rect.contains(area)]
        if not under or area.x % COLUMN or area.w % COLUMN:
            screen.blit(self.surface, area, area)
            return
        for rect, colour in self.plain[under[-1] :]:  # the last fill under all of the area, those over it
            if rect.colliderect(area):
                screen.fill(colour, rect.clip(area))
        for number in area.collidelistall(self.details):
            piece = self.details[number].clip(area)
            screen.blit(self.surface, piece, piece)


def _line_pieces(line: pygame.Rect) -> list[pygame.Rect]:
    """The pixels of the oval line drawn round ``line``, as the rectangles round its pieces in
    each band of DETAIL_BAND rows."""
    layer = pygame.Surface(line.size, 0, 8)
    layer.set_colorkey(0)
    pygame.draw.ellipse(layer, 1, layer.get_rect(), width=2)
    drawn = pygame.mask.from_surface(layer)
    pieces = []
    for top in range(0, line.h, DETAIL_BAND):
        band = pygame.mask.Mask((line.w, min(DETAIL_BAND, line.h - top)))
        band.draw(drawn, (0, -top))
        pieces += [piece.move(line.x, line.y + top) for piece in band.get_bounding_rects()]
    return pieces
