"""The hands on the table: where each card lies at a moment (on its way from the shoe,
turning, lifted while selected), drawing it there, and how each was last drawn."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.ui import cards, render
from oasis_kiosk.ui.layout import Box, Layout
from oasis_kiosk.ui.motion import AT_REST, Motions, Slot
from oasis_kiosk.ui.view import BoxView

CardShown = tuple[str | None, int]
"""A card's face (None: its back) and the width it shows at (narrower while it turns)."""
CardPose = tuple[pygame.Rect, CardShown | None]
"""Where a card lies and how it shows (None: its empty place)."""
Hand = tuple[str, int, int, Box, frozenset[int]]
"""A hand as the table holds it: the dealer's or a box's, its index, how many places,
its area and the positions selected."""


Words = tuple[pygame.Surface, pygame.Rect]
"""Words on the table and where they lie: only there does a change of them repaint."""


def dealer_label(lay: Layout, verdict: str) -> Words:
    """The dealer's label, with the verdict on the hand once it is known, in gold."""
    content = _("DEALER") + (f"   {verdict}" if verdict else "")
    return _label(lay, lay.dealer, content, render.GOLD if verdict else render.WHITE)


def box_label(lay: Layout, area: Box, box: BoxView) -> Words:
    colour = render.FOLDED_WORDS if box.folded else render.LIVE if box.current else render.WHITE
    content = box.label
    if box.shorter_label and render.text_width(content, lay.floor, True) > _label_room(lay, area):
        content = box.shorter_label
    return _label(lay, area, content, colour)


def _label_room(lay: Layout, area: Box) -> int:
    return area.w - lay.small * 2


def _label(lay: Layout, area: Box, content: str, colour: render.Colour) -> Words:
    """A hand's label: along the top of its area, from the left."""
    words = render.fitted(content, lay.small, colour, _label_room(lay, area), True, lay.floor)
    return words, words.get_rect(topleft=(area.x + lay.small, area.y + lay.small // 2))


def caption_size(lay: Layout, boxes: Sequence[BoxView]) -> int:
    """The one size every box's caption is written at: the largest at which each fits its
    box (side by side, captions at three sizes read as three kinds of thing)."""
    width = _caption_room(lay)
    fitting = [
        render.fitted_size(box.caption, lay.medium, width, least=lay.floor) for box in boxes if box.caption
    ]
    return min(fitting, default=lay.medium)


def _caption_room(lay: Layout) -> int:
    return min(area.w for area in lay.boxes) - lay.small


def caption(lay: Layout, area: Box, box: BoxView, size: int) -> list[Words]:
    """A box's caption (its hand and outcome) at ``size`` (``caption_size``): along the
    bottom of its area, centred, on two lines where even at the floor it is wider than its
    box (it never runs to the felt's edge); a folded box's is grey as its cards are, still
    light enough to read what the fold cost."""
    colour = render.GOLD if box.won else render.FOLDED_WORDS if box.folded else render.WHITE
    room = _caption_room(lay)
    fits = render.text_width(box.caption, size) <= room
    lines = (box.caption,) if fits else render.wrap(box.caption, size, room)
    step = render.font(size).get_linesize()
    centre, bottom = area.x + area.w // 2, area.bottom - lay.small // 2
    said = []
    for number, line in enumerate(lines):
        words = render.text(line, size, colour)
        below = (len(lines) - 1 - number) * step
        said.append((words, words.get_rect(midbottom=(centre, bottom - below))))
    return said


def caption_area(lay: Layout, area: Box, box: BoxView, size: int) -> pygame.Rect:
    """Where a box's caption lies, on as many lines as it takes."""
    first, *others = (where for _words, where in caption(lay, area, box, size))
    return first.unionall(others) if others else first


def draw_caption(surface: pygame.Surface, lay: Layout, area: Box, box: BoxView, size: int) -> None:
    """The caption on a patch of plain felt: the felt's oval line, which crosses a box's
    bottom on a small screen, does not strike through its words."""
    for words, where in caption(lay, area, box, size):
        surface.fill(render.FELT, where)
        surface.blit(words, where)


def glowing(place: Box) -> pygame.Rect:
    """A winning card's glow: a gold frame just outside it."""
    return render.rect(place).inflate(6, 6)


def glow(lay: Layout, area: Box, cards: int) -> pygame.Rect:
    """Where a winning hand of ``cards`` cards glows: round them."""
    places = lay.cards(area, cards)
    return glowing(places[0]).union(glowing(places[-1]))


def draw_glow(surface: pygame.Surface, lay: Layout, area: Box, cards: int) -> None:
    for place in lay.cards(area, cards):
        pygame.draw.rect(surface, render.GOLD, glowing(place), width=3, border_radius=8)


class Hands:
    """The cards of every hand, moved by ``motions``."""

    def __init__(self, motions: Motions) -> None:
        self.motions = motions
        self.drawn: dict[Slot, CardPose] = {}
        """Where and how each card was last drawn: a card that moved, turned or jumped to its
        place (an animation hurried) is repainted where it was and where it is."""
        self._frame: dict[tuple[object, ...], list[tuple[Slot, pygame.Rect, CardShown | None]]] | None = None

    @contextmanager
    def one_frame(self) -> Iterator[None]:
        """Each hand's poses worked out once in a frame (its damage and its paint both ask),
        forgotten after it: a moving card's place changes from one frame to the next."""
        self._frame = {}
        try:
            yield
        finally:
            self._frame = None

    def poses(self, hand: Hand, lay: Layout, now: float) -> list[tuple[Slot, pygame.Rect, CardShown | None]]:
        """Each card of ``hand``: its slot, where it lies now and (face, shown width), or None
        for an empty place."""
        where, index, count, area, selected = hand
        key = (where, index, count, selected)  # a frame's layout places each hand in one area
        if self._frame is not None and key in self._frame:
            return self._frame[key]
        shoe = (lay.table.right - lay.card_w * 2, lay.table.y - lay.card_h)
        marker = max(lay.small // 3, 3) + 2
        poses: list[tuple[Slot, pygame.Rect, CardShown | None]] = []
        for position, place in enumerate(lay.cards(area, count)):
            slot = (where, index, position)
            pose = self.motions.pose(slot, now)
            if pose is None:
                poses.append((slot, render.rect(place), None))
                continue
            lift = lay.card_h // 8 if position in selected else 0
            x = round(shoe[0] + (place.x - shoe[0]) * pose.travel)
            y = round(shoe[1] + (place.y - lift - shoe[1]) * pose.travel)
            width = max(round(place.w * pose.width), 1) if pose.width < AT_REST else place.w
            shown = pygame.Rect(x + (place.w - width) // 2, y, width, place.h + (marker if lift else 0))
            poses.append((slot, shown, (pose.face, width)))
        if self._frame is not None:
            self._frame[key] = poses
        return poses

    def all_poses(self, hands: list[Hand], lay: Layout, now: float) -> dict[Slot, CardPose]:
        """Where each card of ``hands`` lies at this moment (its selection bar included) and
        how it shows."""
        return {slot: (area, card) for hand in hands for slot, area, card in self.poses(hand, lay, now)}

    def draw(
        self,
        surface: pygame.Surface,
        hand: Hand,
        lay: Layout,
        now: float,
        only: pygame.Rect | None = None,
        *,
        greyed: bool = False,
    ) -> None:
        """``only``: just the cards that lie in it; ``greyed``: a folded box's cards."""
        for slot, shown, card in self.poses(hand, lay, now):
            self.drawn[slot] = (shown, card)
            if only is not None and not only.colliderect(shown):
                continue
            if card is None:
                surface.blit(cards.card_slot(lay.card_w, lay.card_h), shown.topleft)
                continue
            face, width = card
            if width < lay.card_w:
                picture = (cards.greyed_card if greyed else cards.card)(face, lay.card_w, lay.card_h)
                piece = pygame.transform.scale(picture, (width, lay.card_h))
            else:
                piece = cards.card_piece(face, lay.card_w, lay.card_h, greyed)
            surface.blit(piece, shown.topleft)
            if shown.h > lay.card_h:  # selected: a bar under the card
                bar = pygame.Rect(shown.x, shown.y + lay.card_h + 2, shown.w, shown.h - lay.card_h - 2)
                pygame.draw.rect(surface, render.LIVE, bar, border_radius=2)
