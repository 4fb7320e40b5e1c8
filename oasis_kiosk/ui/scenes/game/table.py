"""The table of the game scene: the felt's cards, bet spots and chips, their captions and
labels, the panel and the keys' legend over them, HELP's rules in their place, and where a
touch presses a card or a button. ``GameScene`` paints it by region (``scene.py``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from oasis_kiosk import i18n
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.rules import has_jackpot
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout, layout
from oasis_kiosk.ui.motion import ChipSpot, Slot
from oasis_kiosk.ui.scenes.game.repaint import Background, in_sight_of_panel
from oasis_kiosk.ui.scenes.game.story import RoundStory
from oasis_kiosk.ui.scenes.help import HelpPages
from oasis_kiosk.ui.view import BoxView, View, cash_for
from oasis_kiosk.ui.view import legend as legend_rows
from oasis_kiosk.ui.widgets import buttons, hand, legend, panel
from oasis_kiosk.ui.widgets.chips import BetSpots, Flight, SpotLook, insured, spot_name, spot_places
from oasis_kiosk.ui.widgets.hand import CardPose, Hand, Hands


@dataclass
class TableParts:
    """The table of a frame, as each area repainted asks for it: the hands, the bet spots,
    their looks, the chips on their way and where the labels, glows and captions lie."""

    hands: list[Hand]
    places: dict[ChipSpot, Box]
    looks: dict[ChipSpot, SpotLook]
    flights: list[Flight]
    dealer_label: pygame.Rect
    boxes: list[tuple[BoxView, Box, Hand, pygame.Rect, pygame.Rect | None, pygame.Rect | None]]
    """Each box: its view, its area, its hand, where its label lies, its glow while the hand
    glows, and its caption if it has one."""
    caption_size: int
    """The size the boxes' captions share (``hand.caption_size``)."""
    panel_frame: pygame.Rect | None
    """Where a panel lies over the table: a label it reaches is hidden whole, not cut by its
    rounded corner or the felt beside it."""

    def label_shown(self, label: pygame.Rect, only: pygame.Rect) -> bool:
        return only.colliderect(label) and not (self.panel_frame and self.panel_frame.colliderect(label))


class TableScene(RoundStory):
    """The table's part of the game scene: what lies on the felt at a moment and where."""

    def __init__(self, terminal: Terminal, screen: pygame.Surface, play_sound: Callable[[str], None]) -> None:
        super().__init__(terminal, play_sound)
        self.screen = screen
        self._on_screen: View | None = None
        """What the frame being drawn shows of it (``showing``)."""
        self.showing_help = False
        self.help_page = 0
        """Which page of the rules HELP shows, when they take more than one."""
        self._help = HelpPages(terminal)
        self.legend: list[tuple[str, str, int | None]] | None = None
        """The desktop's keys (``Keyboard.legend()``), when shown."""
        self.hotspots: list[buttons.Hotspot] = []
        """Where a click or touch presses a button or selects a card."""
        self.hands = Hands(self.motions)
        self.bets = BetSpots(self.chips)
        self._parts: TableParts | None = None
        """What the frame being drawn asks of its table in every area it repaints."""

    @property
    def layout(self) -> Layout:
        width, height = self.screen.get_size()
        boxes = max(self.terminal.boxes, len(self.view.boxes) if self.view else 1, 1)
        hand = 6 if self.terminal.rules.get("sixth_card") else 5
        return layout(width, height, boxes, hand)

    def help_pages(self, lay: Layout) -> list[tuple[str, ...]]:
        """Every page HELP steps through: the rules, then the last rounds."""
        return self._help.pages(lay)

    def _paint_table(
        self, lay: Layout, now: float, background: Background, area: pygame.Rect, only: pygame.Rect | None
    ) -> None:
        """The table in ``area`` on its background; with ``only``, just what lies in that
        rectangle (a moving piece's). Under a panel, only what its body leaves in sight
        (``in_sight_of_panel``): a panel's frame painted the felt, its pieces and the veil
        under the body too, twice the cost of the table."""
        view = self._on_screen
        assert view is not None
        if only is None:
            self._card_hotspots(lay)
            self.hands.drawn.clear()
            self.bets.drawn.clear()
            flights = self.bets.flights(self._spot_places(lay), lay, now)
            self.bets.flights_drawn = {spot: place for spot, place, _pose in flights}
        shown = panel.overlay_panel(view)
        parts = [area] if shown is None else in_sight_of_panel(lay, shown, area)
        for part in parts:
            background.paint(self.screen, part)
            with render.clipped(self.screen, part):
                self._under_panel(lay, now, part)
        with render.clipped(self.screen, area):
            if shown is not None:
                panel.draw(self.screen, lay, shown, veiled=parts)
            if self.legend is not None:
                legend.draw(self.screen, lay, legend_rows(self.legend, cash_for(self.terminal)))

    def _under_panel(self, lay: Layout, now: float, only: pygame.Rect) -> None:
        """What lies in ``only`` of the table under a panel and the keys' legend: the rules
        under HELP, else the cards and the bets."""
        if self.showing_help:
            self._help.draw(self.screen, lay, self.help_page)
            return

        self._cards_and_bets(lay, now, only)

    def _table_parts(self, lay: Layout, now: float) -> TableParts:
        """What every repainted area of the frame's table asks alike, worked out once a frame
        (a deal's first frame repaints four areas)."""
        if self._parts is not None:
            return self._parts
        view = self._on_screen
        assert view is not None
        glowing = self.glowing(now)
        hands = self._hands(lay)
        places = self._spot_places(lay)
        size = hand.caption_size(lay, view.boxes)
        shown = panel.overlay_panel(view)
        self._parts = TableParts(
            hands,
            places,
            self.bets.looks(places, now),
            self.bets.flights(places, lay, now),
            render.rect(lay.label(lay.dealer)),
            [
                (
                    box,
                    area,
                    hands[index + 1],
                    render.rect(lay.label(area)),
                    hand.glow(lay, area, len(box.cards)) if box.won and glowing else None,
                    hand.caption_area(lay, area, box, size) if box.caption else None,
                )
                for index, (box, area) in enumerate(zip(view.boxes, lay.boxes, strict=False))
            ],
            size,
            None if shown is None else panel.area(lay, shown),
        )
        return self._parts

    def _cards_and_bets(self, lay: Layout, now: float, only: pygame.Rect) -> None:
        view = self._on_screen
        assert view is not None
        parts = self._table_parts(lay, now)
        if parts.label_shown(parts.dealer_label, only):
            self.screen.blit(*hand.dealer_label(lay, view.dealer_verdict))
        self.hands.draw(self.screen, parts.hands[0], lay, now, only)
        for index, (box, area, shown, label, glow, caption) in enumerate(parts.boxes):
            if parts.label_shown(label, only):
                self.screen.blit(*hand.box_label(lay, area, box))
            self.hands.draw(self.screen, shown, lay, now, only, greyed=box.folded)
            # the winning hand glows while it counts (its rounded frames are slow to draw clipped away)
            if glow is not None and only.colliderect(glow):
                hand.draw_glow(self.screen, lay, area, len(box.cards))
            self.bets.draw_box(self.screen, index, parts.looks, self._chip, only)
            if caption is not None and only.colliderect(caption):
                hand.draw_caption(self.screen, lay, area, box, parts.caption_size)
        self.bets.draw_flights(self.screen, parts.flights, self._chip, only)

    def _winning_hands(self, lay: Layout) -> list[tuple[BoxView, Box]]:
        view = self._on_screen
        assert view is not None
        return [(box, area) for box, area in zip(view.boxes, lay.boxes, strict=False) if box.won]

    def _hands(self, lay: Layout) -> list[Hand]:
        """The dealer's hand, then each box's."""
        view = self._on_screen
        assert view is not None
        hands: list[Hand] = [("dealer", 0, len(view.dealer) or 5, lay.dealer, frozenset())]
        hands += [
            ("box", index, len(box.cards) or 5, area, box.selected)
            for index, (box, area) in enumerate(zip(view.boxes, lay.boxes, strict=False))
        ]
        return hands

    def _card_poses(self, lay: Layout, now: float) -> dict[Slot, CardPose]:
        """Where each card on the table lies at this moment and how it shows."""
        return self.hands.all_poses(self._hands(lay), lay, now)

    def _spot_places(self, lay: Layout) -> dict[ChipSpot, Box]:
        view = self._on_screen
        assert view is not None
        return spot_places(lay, insured(view.boxes), self._has_bonus)

    def _chip(self, kind: str, amount: int | None, diameter: int) -> pygame.Surface:
        """A chip of ``amount`` on a ``kind`` spot, or the spot's empty ring (None), its
        words at the screen's text floor or larger."""
        floor = self.layout.floor
        if amount is None:
            return render.spot(spot_name(kind, diameter, floor), diameter, floor)
        label = i18n.bare_amount(amount, self.terminal.rules["table"]["minor_units"])
        return render.chip(kind, label, diameter, floor)

    @property
    def _has_bonus(self) -> bool:
        return bool(self.terminal.rules.get("bonus"))

    @property
    def _has_jackpot(self) -> bool:
        return has_jackpot(self.terminal.rules)

    def _card_hotspots(self, lay: Layout) -> None:
        """The cards of the box in play, each where a touch or a click selects it; between
        rounds, where a box may be bet alone, each box bet on (its card button's press)."""
        view = self._on_screen
        assert view is not None
        self.hotspots = [spot for spot in self.hotspots if spot[1] != Intent.CARD]
        if self.showing_help:
            return
        terminal = self.terminal
        if terminal.round is None and terminal.betting.antes_may_differ and terminal.boxes > 1:
            self.hotspots += [
                (render.rect(area), Intent.CARD, index + 1)
                for index, area in enumerate(lay.boxes[: terminal.boxes])
            ]
            return
        self.hotspots += [
            (render.rect(card), Intent.CARD, position + 1)
            for box, area in zip(view.boxes, lay.boxes, strict=False)
            if box.current
            for position, card in enumerate(lay.cards(area))
        ]

    def _button_hotspots(self, lay: Layout) -> None:
        assert self._on_screen is not None
        self.hotspots = [spot for spot in self.hotspots if spot[1] == Intent.CARD]
        self.hotspots += buttons.hotspots(lay, self._on_screen.buttons)

    def hit(self, x: int, y: int) -> tuple[str, int | None] | None:
        """The button (and card number) under a click or touch; the cards only while they
        show (not under HELP, a panel or the key legend)."""
        covered = self.showing_help or self.legend is not None or bool(self.view and self.view.overlay)
        for area, name, card in self.hotspots:
            if area.collidepoint(x, y) and not (covered and name == Intent.CARD):
                return name, card
        return None
