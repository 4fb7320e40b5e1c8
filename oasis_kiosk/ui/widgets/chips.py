"""The boxes' bet spots and the chips on them: each spot's place, the chip lying there or
its empty ring, and the chips on their way between the spots, the player and the dealer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache

import pygame

from oasis_kiosk import i18n
from oasis_kiosk.i18n import N_, _
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout
from oasis_kiosk.ui.motion import PLAYER, ChipMotions, ChipPose, ChipSpot
from oasis_kiosk.ui.view import BoxView, View

SPOT_LABELS = {"ante": N_("ANTE"), "play": N_("PLAY"), "bonus": N_("BONUS"), "insure": N_("INS")}
SpotLook = tuple[Box, int | None]
"""A bet spot's place and the chip lying there (None: an empty ring)."""
Flight = tuple[ChipSpot, pygame.Rect, ChipPose]
"""A chip on its way: its spot, where it is and its pose."""
ChipPiece = Callable[[str, int | None, int], pygame.Surface]
"""The picture of a chip of a kind of bet, of an amount (None: the spot's empty ring), of a
diameter."""


def spot_name(kind: str, diameter: int, floor: int) -> str:
    """The name written in ``kind``'s empty ring of ``diameter``: none unless every spot's
    name fits its ring at the text floor (rings named in part look broken)."""
    return _(SPOT_LABELS[kind]) if _names_fit(diameter, floor, i18n.active()) else ""


@cache
def _names_fit(diameter: int, floor: int, language: str) -> bool:
    return all(render.spot_words(_(label), diameter, floor) is not None for label in SPOT_LABELS.values())


def chips_on(view: View) -> dict[ChipSpot, int]:
    """The bets each box's spots hold in ``view``."""
    return {(index, kind): amount for index, box in enumerate(view.boxes) for kind, amount in box.bets}


def insured(boxes: tuple[BoxView, ...]) -> tuple[bool, ...]:
    """Which boxes bet on insurance (its spot stands where the bonus's would)."""
    return tuple(any(kind == "insure" for kind, _amount in box.bets) for box in boxes)


@cache
def spot_places(lay: Layout, insured: tuple[bool, ...], bonus: bool) -> dict[ChipSpot, Box]:
    """Each box's bet spots: ante, play and bonus (with ``bonus``: a profile without one has
    no bonus spot), or insurance on a box ``insured``. Kept: a moving piece's frame asks often."""
    places: dict[ChipSpot, Box] = {}
    for index, (has_insurance, area) in enumerate(zip(insured, lay.boxes, strict=False)):
        kinds = ["ante", "play"]
        if has_insurance:
            kinds.append("insure")
        elif bonus:
            kinds.append("bonus")
        places |= {(index, kind): place for kind, place in zip(kinds, lay.spots(area), strict=False)}
    return places


class BetSpots:
    """The chips of every spot, moved by ``chips``."""

    def __init__(self, chips: ChipMotions) -> None:
        self.chips = chips
        self.drawn: dict[ChipSpot, SpotLook] = {}
        """How each bet spot was last drawn: a chip laid on it or taken away repaints it."""
        self.flights_drawn: dict[ChipSpot, pygame.Rect] = {}
        """Where each chip on its way was last drawn: its old place is repainted too."""
        self._looks: dict[ChipSpot, SpotLook] | None = None
        self._flights: list[Flight] | None = None
        self._in_frame = False

    @contextmanager
    def one_frame(self) -> Iterator[None]:
        """The spots' looks and the flights worked out once in a frame, forgotten after it."""
        self._in_frame = True
        try:
            yield
        finally:
            self._in_frame, self._looks, self._flights = False, None, None

    def looks(self, places: dict[ChipSpot, Box], now: float) -> dict[ChipSpot, SpotLook]:
        """Each bet spot's place and the amount of the chip lying there (None: an empty
        ring, its chip still to come or on its way)."""
        if self._looks is not None:
            return self._looks
        looks: dict[ChipSpot, SpotLook] = {}
        for spot, place in places.items():
            pose = self.chips.pose(spot, now)
            looks[spot] = (place, pose.amount if pose is not None and pose.end is None else None)
        if self._in_frame:
            self._looks = looks
        return looks

    def flights(self, places: dict[ChipSpot, Box], lay: Layout, now: float) -> list[Flight]:
        """The chips on their way at ``now``. The player's end of the way is under the credit
        meter, below the felt; the dealer's above the dealer's cards, beyond the felt's top edge."""
        if self._flights is not None:
            return self._flights
        credit = lay.meters.split(3)[0]
        flights = []
        poses = [(spot, self.chips.pose(spot, now)) for spot in sorted(self.chips.moving(now))]
        for spot, pose in [*poses, *self.chips.payments(now).items()]:
            if spot not in places or pose is None or pose.end is None:
                continue
            place = places[spot]
            if pose.end == PLAYER:
                end = (credit.x + credit.w // 2, lay.table.bottom + place.h)
            else:
                end = (lay.dealer.x + lay.dealer.w // 2, lay.table.y - place.h)
            centre = (place.x + place.w // 2, place.y + place.h // 2)
            area = pygame.Rect(0, 0, place.w, place.h)
            area.center = (
                round(end[0] + (centre[0] - end[0]) * pose.nearness),
                round(end[1] + (centre[1] - end[1]) * pose.nearness),
            )
            flights.append((spot, area, pose))
        if self._in_frame:
            self._flights = flights
        return flights

    def draw_box(
        self,
        surface: pygame.Surface,
        index: int,
        looks: dict[ChipSpot, SpotLook],
        piece: ChipPiece,
        only: pygame.Rect | None,
    ) -> None:
        """Box ``index``'s spots: each with its chip lying there, or an empty ring while its
        chip is still to come or on its way."""
        for (box, kind), look in looks.items():
            place, amount = look
            if box != index:
                continue
            self.drawn[box, kind] = look
            if only is not None and not only.colliderect(render.rect(place)):
                continue
            surface.blit(piece(kind, amount, place.w), (place.x, place.y))

    def draw_flights(
        self,
        surface: pygame.Surface,
        flights: list[Flight],
        piece: ChipPiece,
        only: pygame.Rect | None,
    ) -> None:
        """The chips on their way, over everything on the felt, as a dealer's hand moves them."""
        if only is None:
            self.flights_drawn = {spot: area for spot, area, _pose in flights}
        for (_box, kind), area, pose in flights:
            if only is None or only.colliderect(area):
                surface.blit(piece(kind, pose.amount, area.w), area)
