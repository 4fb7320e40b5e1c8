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
from oasis_kiosk.ui.widgets import hand
from oasis_kiosk.ui.widgets.chips import insured, spot_places

NEAR = 48
"""Pixels between two damaged rectangles under which one pass over both is cheaper than two."""


class TableLook(NamedTuple):
    """What the table region shows."""

    round_key: tuple[int, str] | None
    dealer: tuple[Face, ...]
    verdict: str
    boxes: tuple[BoxView, ...]
    overlay: tuple[str, ...]
    help: tuple[object, ...]
    """HELP shown, its page and (the rules' prices and the history change with the books)
    the terminal's changes."""
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
    for index, (was, box, area) in enumerate(zip(before.boxes, now.boxes, lay.boxes, strict=False)):
        if was == box:
            continue
        if (was.label, was.current, was.folded) != (box.label, box.current, box.folded):
            changed.areas += [hand.box_label(lay, area, shown)[1] for shown in (was, box)]
        if (was.cards, was.selected, was.folded, was.won) != (box.cards, box.selected, box.folded, box.won):
            count = max(len(was.cards), len(box.cards), 5)
            changed.slots.update(("box", index, position) for position in range(count))
            changed.areas += [hand.glow(lay, area, len(shown.cards)) for shown in (was, box) if shown.won]
        if (was.caption, was.won, was.folded) != (box.caption, box.won, box.folded):
            changed.areas += [hand.caption(lay, area, shown)[1] for shown in (was, box) if shown.caption]
        if was.bets != box.bets:
            changed.areas += [
                render.rect(place) for places in spots for (at, _kind), place in places.items() if at == index
            ]
    return changed


def clusters(damage: list[pygame.Rect]) -> list[pygame.Rect]:
    """The damage as few rectangles: those that touch or lie near each other become their
    union (a piece's place before and after a step, the spot it leaves), those far apart
    stay apart, so that two cards in flight across the table do not repaint the felt
    between them."""
    found: list[pygame.Rect] = []
    for area in damage:
        area = area.copy()
        merged = True
        while merged:
            merged = False
            for index, cluster in enumerate(found):
                if cluster.inflate(NEAR, NEAR).colliderect(area):
                    area.union_ip(found.pop(index))
                    merged = True
                    break
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
