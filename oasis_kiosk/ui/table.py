"""The game screen: the table, the paytable, the jackpot meter, the meters and buttons.

Drawing is by region. The felt, panels and fixed labels are painted once per size into a
background; each frame, a region is repainted (background first, then its content) only
when what it shows changed or something in it moves, and only those rectangles go to the
display. A screen where nothing moves costs next to nothing.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

import pygame

from oasis_kiosk import i18n, shuffled_deck
from oasis_kiosk.i18n import N_, _
from oasis_kiosk.machine.advisor import Advisor
from oasis_kiosk.machine.terminal import Response, Terminal
from oasis_kiosk.ui import help, history, render
from oasis_kiosk.ui.kept import KeptLooks
from oasis_kiosk.ui.layout import Box, Layout, layout
from oasis_kiosk.ui.motion import (
    AT_REST,
    DEALER,
    PACES,
    PLAYER,
    ChipMotions,
    ChipPose,
    ChipSpot,
    CountUp,
    Face,
    Motions,
    Slot,
    count_duration,
)
from oasis_kiosk.ui.sound import win_tune
from oasis_kiosk.ui.view import (
    BoxView,
    SettledBet,
    View,
    before_reveal,
    cash_for,
    last_settlement,
    legend,
    snapshot,
    while_the_dealer_turns,
)
from oasis_kiosk.ui.widgets import jackpot, meters, paytable, rulebook

SPOT_LABELS = {"ante": N_("ANTE"), "play": N_("PLAY"), "bonus": N_("BONUS"), "insure": N_("INS")}
SETTLED_BETS: dict[str, SettledBet] = {
    "ante": "ante",
    "play": "play",
    "bonus": "bonus",
    "insure": "insurance",
}
"""Each spot's bet in a settled box."""
JACKPOT_ROLL = 8
"""The jackpot meter closes an eighth of the gap to its value each frame: it rolls up."""
CELEBRATION = 3.0  # seconds the jackpot banner stays after the count
CELEBRATION_COLOURS = (render.WHITE, render.GOLD)
"""The banner's words and frame flash between these, three times a second."""
KEPT_LOOKS = {"paytable": 4, "message": 8, "buttons": 8, "table": 3}
"""The regions whose looks recur (the paytable with a row lit, the buttons of a moment, a
prompt, the rules under HELP), and how many looks of each are kept painted: about 30 MB at
1920x1080."""
AHEAD_WHEN_UNDER = 10
"""A frame that painted less than a tenth of the screen draws a piece of what is to come."""
MOST_FRAMES_WAITED = 3
"""A region left by a frame over its budget is painted at most this many frames later."""
NEAR = 48
"""Pixels between two damaged rectangles under which one pass over both is cheaper than two."""
VEIL = (100, 100, 100)
"""What the table under a tilt's or a handpay's panel is multiplied by: about two fifths of
its light, the game plainly waiting behind the panel."""


def overlay_panel(view: View) -> tuple[tuple[str, ...], bool, int | None] | None:
    """The panel a view's overlay shows over the table (a tilt's, a handpay's, a payout's):
    its lines, whether it is an alarm, and which line is the amount; None for none."""
    if not view.overlay or view.overlay[0] == "operator":
        return None
    return view.overlay[1:], view.overlay[0] == "tilt", 1 if view.overlay[0] == "handpay" else None


class DrawnAhead:
    """What is drawn ahead for one thing (a view, a layout), a piece a call; another thing
    starts its own list."""

    def __init__(self) -> None:
        self._for: object = None
        self._left: Iterator[Callable[[], object]] = iter(())

    def draw_one(self, thing: object, pieces: Callable[[], list[Callable[[], object]]]) -> bool:
        """Draws the next piece for ``thing`` (``pieces`` lists them the first time); False
        when none is left."""
        if thing is not self._for:
            self._for, self._left = thing, iter(pieces())
        for draw in itertools.islice(self._left, 1):
            draw()
            return True
        return False


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

    def same_deal(self, before: TableLook) -> bool:
        """The same round's cards and boxes, under the same panel, legend and HELP: what
        differs is a piece here and there (a card turned or selected, a caption, a bet), or
        only the glow and the pieces in motion."""
        return self[:-2] == before[:-2] or (
            self.round_key is not None
            and before.round_key is not None
            and self.round_key[0] == before.round_key[0]
            and len(self.boxes) == len(before.boxes)
            and (self.overlay, self.help, self.legend) == (before.overlay, before.help, before.legend)
            and not self.help[0]
        )


class PaytableLook(NamedTuple):
    """What the paytable region shows: the play bet's and the bonus's lit hands, the glow,
    HELP's paytables instead."""

    lit: tuple[str | None, str | None]
    glowing: bool
    help: bool


CardShown = tuple[str | None, int]
"""A card's face (None: its back) and the width it shows at (narrower while it turns)."""
CardPose = tuple[pygame.Rect, CardShown | None]
"""Where a card lies and how it shows (None: its empty place)."""
SpotLook = tuple[Box, int | None]
"""A bet spot's place and the chip lying there (None: an empty ring)."""


@dataclass
class ChangedPieces:
    """What a frame repaints of one deal besides the pieces in motion."""

    slots: set[Slot]
    """The hands' places whose cards changed: where each was drawn and lies now."""
    areas: list[pygame.Rect]
    """Labels, captions, glows and bet spots whose look changed."""
    glow: bool
    """The winning hands' glow turned on or off."""


@dataclass
class FrameMemo:
    """What one frame works out more than once (its damage and its paint both ask), kept
    until the frame is drawn: a moving piece's place changes from one frame to the next."""

    poses: dict[tuple[Any, ...], list[tuple[Slot, pygame.Rect, Any]]] = field(default_factory=dict)
    """Each hand's poses."""
    spots: dict[ChipSpot, Box] | None = None
    """The bet spots' places."""
    spot_looks: dict[ChipSpot, SpotLook] | None = None
    """Each bet spot's place and chip."""
    flying: list[tuple[ChipSpot, pygame.Rect, ChipPose]] | None = None
    """The chips on their way."""


class Table:
    def __init__(
        self,
        terminal: Terminal,
        screen: pygame.Surface,
        play_sound: Callable[[str], None],
        *,
        demo: bool = False,
    ) -> None:
        """``demo``: the terminal plays for free (the attract mode, ``run --demo``); its meters
        say DEMO, since no money on them is on the cabinet's books."""
        self.terminal = terminal
        self.demo = demo
        self.screen = screen
        self.play_sound = play_sound
        self.motions = Motions()
        self.chips = ChipMotions()
        self.view: View | None = None
        """What the terminal holds now."""
        self._on_screen: View | None = None
        """What the frame being drawn shows of it (``showing``)."""
        self.count: CountUp | None = None
        self.celebrate_until = 0.0
        self.jackpot_shown = terminal.jackpot.value
        self.message: Response | None = None
        """A refused press or a notice (a handpay paid), said beside the prompt (in the language
        of the moment)."""
        self.showing_help = False
        self.help_page = 0
        """Which page of the rules HELP shows, when they take more than one."""
        self._history: tuple[tuple[int, str], list[str]] | None = None
        """The last rounds' sentences for HELP, and the terminal's change count and language
        they were written at: a press and its frame need them, not two replays."""
        self.legend: list[tuple[str, str, int | None]] | None = None
        """The desktop's keys (``Keyboard.legend()``), when shown."""
        self.hotspots: list[tuple[pygame.Rect, str, int | None]] = []
        """Where a click or touch presses a button: (area, button, card number)."""
        self._advisor: Advisor | None = None
        self._win_sound: tuple[float, str] | None = None
        """When the win's tune plays, and which."""
        self.revealed_at = 0.0
        """When the settled round's last dealer card has turned: its outcome shows from then."""
        self._lit_in_play: str | None = None
        """The paytable row lit while the round was played, kept lit through the reveal."""
        self._keys: dict[str, Any] = {}
        self._cards_drawn: dict[Slot, CardPose] = {}
        """Where and how each card was last drawn: a card that moved, turned or jumped to its
        place (an animation hurried) is repainted where it was and where it is."""
        self._spots_drawn: dict[ChipSpot, SpotLook] = {}
        """How each bet spot was last drawn: a chip laid on it or taken away repaints it."""
        self._waiting: dict[str, int] = {}
        """The regions a frame left to the next, with how many frames each has waited."""
        self._table_waiting: pygame.Rect | None = None
        """The part of the table a frame left to the next (the dealer's side of a new deal)."""
        self._frame: FrameMemo | None = None
        """What the frame being drawn has worked out (None between frames)."""
        self._chips_drawn: dict[ChipSpot, pygame.Rect] = {}
        """Where each chip on its way was last drawn: its old place is repainted too."""
        self._kept = KeptLooks(KEPT_LOOKS)
        self._pieces_ahead = DrawnAhead()
        """The cards and chips of a layout, drawn ahead."""
        self._words_ahead = DrawnAhead()
        """What a view's end writes large, drawn ahead."""
        self._background: tuple[tuple[Any, ...], pygame.Surface] | None = None

    # The model.

    @property
    def advisor(self) -> Advisor:
        """Hints, when the operator turns them on, come from here without holding a frame."""
        if self._advisor is None:
            self._advisor = Advisor()
        return self._advisor

    def close(self) -> None:
        if self._advisor is not None:
            self._advisor.close()

    @property
    def layout(self) -> Layout:
        width, height = self.screen.get_size()
        boxes = max(self.terminal.boxes, len(self.view.boxes) if self.view else 1, 1)
        hand = 6 if self.terminal.rules.get("sixth_card") else 5
        return layout(width, height, boxes, hand)

    def refresh(self, now: float) -> None:
        """Reads the terminal again (after an input or a device event)."""
        hints = bool(self.terminal.round) and bool(self.terminal.store.get_state("hints", False))
        self.motions.pace = self.chips.pace = PACES[self.terminal.config.speed]  # the operator's setting
        view = snapshot(self.terminal, self.message, self.advisor if hints else None)
        old = self.view
        cards: dict[Slot, str | None] = {("dealer", 0, i): face for i, face in enumerate(view.dealer)}
        for b, box in enumerate(view.boxes):
            cards |= {("box", b, i): face for i, face in enumerate(box.cards)}
        dealt = view.round_key is not None and view.round_key[1] == "open"
        fresh = dealt and (old is None or old.round_key != view.round_key)
        self.motions.show(cards, now, fresh=fresh)
        settled = view.round_key is not None and view.round_key[1] == "settled"
        if not settled or (old is not None and old.round_key != view.round_key):
            # A settled round's chips lie as played until its outcome shows (_present_outcome);
            # a bet gone from a round in play was forfeited, one gone before the deal taken back.
            self.chips.place(_chips_on(view), now, DEALER if view.round_key is not None else PLAYER)
        if old is None:
            self.motions.skip()  # what was on the table at power-up lies there already
            self.chips.skip()
        elif fresh:
            self.play_sound("deal")
            self.count, self._win_sound, self.revealed_at = None, None, 0.0
            self.showing_help = False  # a new deal shows its cards
        elif old.round_key != view.round_key and view.round_key is not None:
            # The round settled: the dealer's reveal, then the outcome and the win counted up.
            self._lit_in_play = old.lit_category
            self._present_outcome(view, max(self.motions.settled_at(), now))
            self.showing_help = False  # HELP's history would tell the outcome before the cards
        elif old.bet != view.bet or old.credits < view.credits:
            self.play_sound("chip")
        if view.overlay:
            self.showing_help = False  # a tilt or a handpay is what the screen must show
        self.view = view

    def next_help_page(self) -> None:
        """HELP shows the rules, then their next page each press, then the game again."""
        if not self.showing_help:
            self.showing_help, self.help_page = True, 0
        elif self.help_page + 1 < len(self.help_pages(self.layout)):
            self.help_page += 1
        else:
            self.showing_help = False

    def _present_outcome(self, view: View, revealed_at: float) -> None:
        """The outcome shows at ``revealed_at``: the chips leave the spots for whoever has them,
        and the win, if any, counts up, greeted by a tune of its size."""
        self.revealed_at = revealed_at
        destinations, won = self._settled_chips()
        self.chips.settle(destinations, revealed_at, won)
        self.count, self._win_sound, self.celebrate_until = None, None, 0.0
        tune = win_tune(view.win, view.ante_unit, bool(view.jackpot_won))
        if tune is None:
            return
        duration = count_duration(view.win, view.ante_unit, bool(view.jackpot_won), self.motions.pace)
        self.count = CountUp(view.win, revealed_at, duration)
        self._win_sound = (revealed_at, tune)
        if view.jackpot_won:
            self.celebrate_until = revealed_at + duration + CELEBRATION

    def skip(self, now: float) -> None:
        """A press ends every animation at once, but the dealer's reveal only hurries: the
        outcome and the win still follow its last card."""
        if self.view is not None and now < self.revealed_at:
            self.motions.hurry(now)
            self._present_outcome(self.view, max(self.motions.settled_at(), now))
            return
        self.motions.skip()
        self.chips.skip()
        self.count = None
        self._win_sound = None
        self.celebrate_until = 0.0
        self.revealed_at = 0.0
        # The meter as the screen stands (the books may have moved on with this very press).
        self.jackpot_shown = self.view.jackpot if self.view is not None else self.terminal.jackpot.value

    def celebrating(self, now: float) -> bool:
        """A jackpot won by the settled round is being celebrated: from the moment the
        dealer's last card has turned, never before (the banner would tell the outcome)."""
        return self.revealed_at <= now < self.celebrate_until

    def _settled_chips(self) -> tuple[dict[ChipSpot, str], dict[ChipSpot, int]]:
        """Where each chip of the settled round goes: a bet that paid anything back (a win, a
        stand-off, an ante returned; a bonus that hit the jackpot) to the player, a lost one
        to the dealer; and what the dealer pays beside each won bet (its win: what came back
        above the stake; a jackpot is paid by the meter, not by the dealer)."""
        settlement = last_settlement(self.terminal)
        if settlement is None:
            return {}, {}
        bets = [
            ((index, spot), box, box[bet])
            for index, box in enumerate(settlement["boxes"])
            for spot, bet in SETTLED_BETS.items()
            if box[bet]["stake"]
        ]
        destinations = {
            spot: PLAYER if bet["returned"] or (spot[1] == "bonus" and box["jackpot"]) else DEALER
            for spot, box, bet in bets
        }
        won = {
            spot: bet["returned"] - bet["stake"] for spot, _box, bet in bets if bet["returned"] > bet["stake"]
        }
        return destinations, won

    def revealing(self, now: float) -> bool:
        """The dealer's cards are still turning: a settled round's outcome, or what a round
        in play offers against the dealer's hand, is to come."""
        return self.view is not None and (now < self.revealed_at or self.motions.revealing(now))

    def showing(self, now: float) -> View:
        """The view as the screen shows it at ``now``: a settled round without its outcome
        until the dealer's last card has turned, a round in play without its next offers."""
        assert self.view is not None
        if now < self.revealed_at:
            return before_reveal(self.view, self._lit_in_play)
        if self.motions.revealing(now):
            return while_the_dealer_turns(self.view)
        return self.view

    def meters(self, now: float) -> tuple[int, int, int]:
        """CREDIT, BET and WIN as they show at ``now``: CREDIT rises with the WIN counted."""
        view = self.showing(now)
        counted = self.counted(now)
        return view.credits - (view.win - counted), view.bet, counted

    def busy(self, now: float) -> bool:
        return (
            self.motions.busy(now)
            or self.chips.busy(now)
            or (self.count is not None and not self.count.done(now))
            or now < self.celebrate_until
            or self.jackpot_shown != (self.view.jackpot if self.view else self.jackpot_shown)
        )

    def counting(self, now: float) -> bool:
        """A win is being counted up now (after the reveal, until its end)."""
        return self.count is not None and self.count.start <= now and not self.count.done(now)

    def glowing(self, now: float) -> bool:
        """The winning hand and its paytable rows glow on and off, four times a second, while
        the win counts up."""
        return self.counting(now) and int(now * 4) % 2 == 0

    def counted(self, now: float) -> int:
        """How much of the win the WIN meter shows now."""
        if self.view is None or now < self.revealed_at:
            return 0
        return self.count.value(now) if self.count is not None else self.view.win

    # Drawing.

    def invalidate(self) -> None:
        """Everything is drawn again (a new size, language or overlay underneath)."""
        self._keys.clear()
        self._kept.clear()
        self._background = None
        self._table_waiting = None

    def draw(self, now: float) -> list[pygame.Rect]:
        """Repaints what changed; returns the rectangles to put on the display."""
        if self.view is None or (self.view.thinking and self.advisor.ready()):
            self.refresh(now)
        if self._win_sound is not None and now >= self._win_sound[0]:
            self.play_sound(self._win_sound[1])
            self._win_sound = None
        view = self._on_screen = self.showing(now)
        self._frame = FrameMemo()
        try:
            dirty = self._draw_regions(view, now)
        finally:
            self._frame = None
        painted = sum(area.w * area.h for area in dirty)
        if painted * AHEAD_WHEN_UNDER > self.screen.get_width() * self.screen.get_height():
            return dirty
        if not self._draw_words_ahead() and not dirty and not self.busy(now):
            self._draw_a_piece_ahead()
        return dirty

    def _draw_words_ahead(self) -> bool:
        """One line of what the round's end writes large (a handpay's or a tilt's panel, the
        jackpot's banner in each of its colours), drawn while the dealer's cards turn, in a
        frame that painted little: the frame that shows the outcome then only blits it.
        False when there is none left to draw."""
        view = self.view
        return view is not None and self._words_ahead.draw_one(view, lambda: self._words_to_come(view))

    def _words_to_come(self, view: View) -> list[Callable[[], object]]:
        lay = self.layout
        words: list[Callable[[], object]] = []
        panel = overlay_panel(view)
        if panel is not None:
            lines, _alarm, amount_line = panel
            words += [
                functools.partial(self._panel_words, lay, number, line, amount_line)
                for number, line in enumerate(lines)
            ]
        if view.jackpot_won and self._has_jackpot:
            words += [
                functools.partial(self._banner_words, lay, view.jackpot_won, colour)
                for colour in CELEBRATION_COLOURS
            ]
        return words

    def _draw_a_piece_ahead(self) -> None:
        """One piece every round shows, drawn at the table's size in a frame with nothing to
        paint: the card back, then each face, then the chips' blanks and their labels' fonts.
        A round's first sight of a card or a chip then costs a blit, not the millisecond of
        drawing it, and every piece is ready after the first idle second."""
        lay = self.layout
        self._pieces_ahead.draw_one(lay, lambda: self._pieces_to_come(lay))

    @staticmethod
    def _pieces_to_come(lay: Layout) -> list[Callable[[], object]]:
        pieces: list[Callable[[], object]] = [
            # as ``_hand`` asks for them: the cache knows a piece by these arguments
            functools.partial(render.card_piece, name, lay.card_w, lay.card_h, False)
            for name in [None, *shuffled_deck(bytes(32))]
        ]
        pieces.append(functools.partial(render.prepare_chips, lay.spots(lay.boxes[0])[0].w))
        return pieces

    def _draw_regions(self, view: View, now: float) -> list[pygame.Rect]:
        lay = self.layout
        background = self._painted_background(lay)
        celebrating = self.celebrating(now)
        # The meter stands at its value before the hit until the celebration is over, then
        # rolls (up with contributions, down to its reset value after a hit).
        target = view.jackpot_before if celebrating else view.jackpot
        gap = target - self.jackpot_shown
        self.jackpot_shown += gap // JACKPOT_ROLL if abs(gap) >= JACKPOT_ROLL else gap
        meters = self.meters(now)
        glowing = self.glowing(now)
        moving = self.motions.busy(now) or self.chips.busy(now)
        regions: list[tuple[str, Box, Any, Callable[[Layout, float], None]]] = [
            (
                "table",
                lay.table,
                TableLook(
                    view.round_key,
                    view.dealer,
                    view.dealer_verdict,
                    view.boxes,
                    view.overlay,
                    (self.showing_help, self.help_page, self.showing_help and self.terminal.changes),
                    self.legend is not None,
                    glowing and not self.showing_help,
                    moving and not self.showing_help and now,
                ),
                self._table,
            ),
            (
                "jackpot",
                lay.jackpot,
                (self.jackpot_shown, self._has_jackpot, celebrating and int(now * 3)),
                self._jackpot,
            ),
            (
                "paytable",
                lay.paytable,
                PaytableLook((view.lit_category, view.bonus_category), glowing, self.showing_help),
                self._paytable,
            ),
            ("message", lay.message, (view.prompt,), self._message),
            ("meters", lay.meters, meters, self._meters),
            ("buttons", lay.buttons, (view.buttons,), self._buttons),
        ]
        dirty: list[pygame.Rect] = []
        whole_screen = not self._keys  # a new background: every region is painted on it now
        waited, self._waiting = self._waiting, {}
        budget = self.screen.get_width() * self.screen.get_height() // 3
        painted = 0
        for name, box, key, paint in regions:
            before = self._keys.get(name)
            if before == key and not (name == "table" and self._table_waiting is not None):
                continue
            if name == "table" and before is not None and key.same_deal(before):
                # A card turned or selected, a caption, a bet, the glow, a piece in motion:
                # only where they lie is painted, not the felt (an outcome shown is its
                # verdict, captions and glow).
                self._keys[name] = key
                if before.boxes != key.boxes:
                    self._card_hotspots(lay)
                damage = self._repaint_pieces(lay, now, background, self._changed_pieces(lay, before, key))
                painted += sum(area.w * area.h for area in damage)
                if before.boxes != key.boxes or before.verdict != key.verdict:
                    # The round's news (an outcome, a new card) and the cabinet's lamps
                    # that follow it take this frame: the message, meters and buttons
                    # that change with it wait for the next.
                    painted = max(painted, budget)
                dirty += damage
                continue
            if (
                name == "paytable"
                and before is not None
                and not lay.compact
                and not (before.help or key.help)
                and self._kept.get(name, key) is None
            ):
                # A new look of the lit rows: they alone are painted, then the column is
                # kept, so that the glow's next turn is one blit.
                self._keys[name] = key
                damage = self._repaint_lit_rows(lay, before, key, background)
                self._kept.keep(name, key, self.screen, render.rect(box))
                painted += sum(area.w * area.h for area in damage)
                dirty += damage
                continue
            area = render.rect(box)
            overdue = waited.get(name, 0) >= MOST_FRAMES_WAITED
            if painted and painted + area.w * area.h > budget and not whole_screen and not overdue:
                # The frame has painted a third of the screen's worth: the rest waits for the
                # next one, a sixtieth of a second later, so that no frame costs the table, the
                # paytable and the meters at once (a winning hand's glow, its paytable row and
                # the counting meters change together; a new deal changes everything).
                self._waiting[name] = waited.get(name, 0) + 1
                continue
            self._keys[name] = key
            painted += area.w * area.h
            if name == "buttons":
                self._button_hotspots(lay)
            if name == "table":
                self._table_waiting = None
            kept = self._kept.get(name, key)
            if kept is not None:
                self.screen.blit(kept, area)
            else:
                whole = area
                if name == "table" and not whole_screen and area.w * area.h > budget:
                    # A new deal, an outcome shown, a bet placed: the felt and everything on
                    # it, more than a frame's worth. The boxes' side (the player's bets and
                    # cards, a deal's first card) is painted now, the dealer's side a frame
                    # later, with whatever moves there then (``_repaint_pieces``).
                    self._table_waiting = pygame.Rect(area.x, area.y, area.w, lay.dealer.bottom - area.y)
                    area = pygame.Rect(area.x, lay.dealer.bottom, area.w, area.bottom - lay.dealer.bottom)
                self.screen.blit(background, area, area)
                with self._clip(area):
                    paint(lay, now)
                if area == whole and name in self._kept and (name != "table" or self.showing_help):
                    self._kept.keep(name, key, self.screen, area)
            dirty.append(area)
        return dirty

    def _repaint_lit_rows(
        self, lay: Layout, before: PaytableLook, now: PaytableLook, background: pygame.Surface
    ) -> list[pygame.Rect]:
        """The paytable column's lit rows changed (a hand lit, its glow on or off): only the
        rows whose look changed are repainted, not the column."""
        lines = paytable.column_lines(
            lay,
            help.paytable_rows(self.terminal.rules),
            help.bonus_rows(self.terminal.rules, cash_for(self.terminal)),
        )
        size = paytable.column_size(lay, lines)
        damage = []
        for line in lines:
            if line.look(before.lit, before.glowing) != line.look(now.lit, now.glowing):
                area = render.rect(line.area)
                self.screen.blit(background, area, area)
                with self._clip(area):
                    paytable.column_line(self.screen, lay, line, size, now.lit, now.glowing)
                damage.append(area)
        return damage

    def _changed_pieces(self, lay: Layout, before: TableLook, now: TableLook) -> ChangedPieces:
        """What differs between two looks of one deal: the hands whose cards changed (a
        card turned, selected, exchanged or greyed, a glow on or off), and the places of the
        labels, captions, glows and bet spots that changed."""
        changed = ChangedPieces(set(), [], glow=before.glowing != now.glowing)
        if before.verdict != now.verdict:
            changed.areas.append(render.rect(self._label_box(lay.dealer, lay)))
        if before.dealer != now.dealer:
            count = max(len(before.dealer), len(now.dealer), 5)
            changed.slots.update(("dealer", 0, position) for position in range(count))
        bonus = bool(self.terminal.rules.get("bonus"))
        spots = [spot_places(lay, _insured(look.boxes), bonus) for look in (before, now)]
        for index, (was, box, area) in enumerate(zip(before.boxes, now.boxes, lay.boxes, strict=False)):
            if was == box:
                continue
            if (was.label, was.current, was.folded) != (box.label, box.current, box.folded):
                changed.areas.append(render.rect(self._label_box(area, lay)))
            if (was.cards, was.selected, was.folded, was.won) != (
                box.cards,
                box.selected,
                box.folded,
                box.won,
            ):
                count = max(len(was.cards), len(box.cards), 5)
                changed.slots.update(("box", index, position) for position in range(count))
                changed.areas += [self._glow(lay, area, hand) for hand in (was, box) if hand.won]
            if (was.caption, was.won, was.folded) != (box.caption, box.won, box.folded):
                changed.areas.append(render.rect(self._caption_box(area, lay)))
            if was.bets != box.bets:
                changed.areas += [
                    render.rect(place)
                    for places in spots
                    for (at, _kind), place in places.items()
                    if at == index
                ]
        return changed

    def _repaint_pieces(
        self, lay: Layout, now: float, background: pygame.Surface, changed: ChangedPieces
    ) -> list[pygame.Rect]:
        """Only where a changed piece lies, a card or a chip was and is now (and the spot a
        chip leaves or reaches), and round the winning hands when their glow turns, the
        background, then everything of the table that lies there, in the order the whole
        table is painted (a panel or the keys' legend over them included, within the
        damage). A dealing frame costs a few card-sized blits, not the felt."""
        was = self._cards_drawn
        now_at = self._card_poses(lay, now)
        redrawn = changed.slots | {
            slot for slot in was.keys() | now_at.keys() if was.get(slot) != now_at.get(slot)
        }
        table = render.rect(lay.table)
        damage = [
            pose[0].clip(table)  # a card coming from the shoe starts above the felt
            for slot in redrawn
            for pose in (was.get(slot), now_at.get(slot))
            if pose is not None and pose[0].colliderect(table)
        ]
        for slot in was.keys() - now_at.keys():
            del was[slot]  # a hand of fewer cards, or gone: its place is repainted once
        damage += changed.areas
        spots_were, spots = self._spots_drawn, self._spot_looks(lay, now)
        damage += [
            render.rect(look[0])
            for spot in spots_were.keys() | spots.keys()
            if spots_were.get(spot) != spots.get(spot)
            for look in (spots_were.get(spot), spots.get(spot))
            if look is not None
        ]
        for spot in spots_were.keys() - spots.keys():
            del spots_were[spot]
        chips = self._chip_areas(lay, now)
        damage += [
            area.clip(table)  # a chip comes from below the felt and goes above it
            for area in (*self._chips_drawn.values(), *chips.values())
            if area.colliderect(table)
        ]
        self._chips_drawn = chips
        if self._table_waiting is not None:
            damage.append(self._table_waiting)
            self._table_waiting = None
        if changed.glow:
            damage += [self._glow(lay, area, box) for box, area in self._winning_hands(lay)]
        areas = _clusters(damage)
        for area in areas:
            self.screen.blit(background, area, area)
            with self._clip(area):
                self._table(lay, now, only=area)
        return areas

    @contextmanager
    def _clip(self, area: pygame.Rect) -> Iterator[None]:
        """Drawing within ``area`` and within the clip already set: a panel's words repainted
        for a moving piece under it go no further than the piece's damage."""
        previous = self.screen.get_clip()
        self.screen.set_clip(area.clip(previous))
        try:
            yield
        finally:
            self.screen.set_clip(previous)

    def _painted_background(self, lay: Layout) -> pygame.Surface:
        key = (self.screen.get_size(), self.terminal.profile.digest, lay.compact, len(lay.boxes), _("DEALER"))
        if self._background is not None and self._background[0] == key:
            return self._background[1]
        surface = pygame.Surface(self.screen.get_size())
        surface.fill(render.FELT)
        table = render.rect(lay.table)
        pygame.draw.ellipse(surface, render.FELT_LINE, table.inflate(-table.w // 12, -table.h // 10), width=2)
        for box in (lay.paytable, lay.jackpot):
            pygame.draw.rect(surface, render.FELT_DARK, render.rect(box))
        for box in (lay.message, lay.meters, lay.buttons):
            pygame.draw.rect(surface, render.PANEL, render.rect(box))
        self._background = (key, surface)
        self._keys.clear()
        self.screen.blit(surface, (0, 0))
        return surface

    @property
    def _has_jackpot(self) -> bool:
        bonus = self.terminal.rules.get("bonus")
        return bool(bonus and bonus.get("jackpot"))

    def _jackpot(self, lay: Layout, now: float) -> None:
        """The progressive meter, odometer style: each digit in its own cell; nothing for a
        profile without a jackpot."""
        if not self._has_jackpot:
            return
        if self.celebrating(now):
            self._celebration(lay, now)
            return
        jackpot.odometer(self.screen, lay.jackpot, cash_for(self.terminal)(self.jackpot_shown), lay.floor)

    def _table(self, lay: Layout, now: float, only: pygame.Rect | None = None) -> None:
        """The table; with ``only``, just what lies in that rectangle (a moving piece's)."""
        view = self._on_screen
        assert view is not None

        def there(box: Box) -> bool:
            return only is None or only.colliderect(render.rect(box))

        if only is None:
            self._card_hotspots(lay)
            self._cards_drawn.clear()
            self._spots_drawn.clear()
        if self.showing_help:
            self._help(lay)
        else:
            self._cards_and_bets(lay, now, there, only)
        panel = overlay_panel(view)
        if panel is not None:
            lines, alarm, amount_line = panel
            self._panel(lay, lines, alarm=alarm, amount_line=amount_line)
        if self.legend is not None:
            self._legend(lay)

    def _cards_and_bets(
        self, lay: Layout, now: float, there: Callable[[Box], bool], only: pygame.Rect | None
    ) -> None:
        view = self._on_screen
        assert view is not None
        dealer = lay.dealer
        label = _("DEALER") + (f"   {view.dealer_verdict}" if view.dealer_verdict else "")
        if there(self._label_box(dealer, lay)):
            self._label(label, dealer, lay, render.GOLD if view.dealer_verdict else render.WHITE)
        self._hand("dealer", 0, len(view.dealer) or 5, dealer, lay, now, frozenset(), only)
        for index, (box, area) in enumerate(zip(view.boxes, lay.boxes, strict=False)):
            colour = render.DIM if box.folded else render.LIVE if box.current else render.WHITE
            if there(self._label_box(area, lay)):
                self._label(box.label, area, lay, colour)
            self._hand(
                "box", index, len(box.cards) or 5, area, lay, now, box.selected, only, greyed=box.folded
            )
            if box.won and self.glowing(now):
                for place in lay.cards(area, len(box.cards)):  # the winning hand glows while it counts
                    pygame.draw.rect(self.screen, render.GOLD, _glowing(place), width=3, border_radius=8)
            self._bets(index, lay, now, only)
            if box.caption and there(self._caption_box(area, lay)):
                caption_colour = render.GOLD if box.won else render.DIM if box.folded else render.WHITE
                words = render.fitted(
                    box.caption, lay.medium, caption_colour, area.w - lay.small, least=lay.floor
                )
                self.screen.blit(
                    words,
                    words.get_rect(midbottom=(area.x + area.w // 2, area.bottom - lay.small // 2)),
                )
        self._moving_chips(lay, now, only)  # over everything on the felt, as a dealer's hand moves them

    def _winning_hands(self, lay: Layout) -> list[tuple[BoxView, Box]]:
        view = self._on_screen
        assert view is not None
        return [(box, area) for box, area in zip(view.boxes, lay.boxes, strict=False) if box.won]

    @staticmethod
    def _glow(lay: Layout, area: Box, box: BoxView) -> pygame.Rect:
        """Where a winning hand's glow lies: round its cards."""
        places = lay.cards(area, len(box.cards))
        return _glowing(places[0]).union(_glowing(places[-1]))

    @staticmethod
    def _label_box(area: Box, lay: Layout) -> Box:
        return Box(area.x, area.y, area.w, lay.small * 2)

    @staticmethod
    def _caption_box(area: Box, lay: Layout) -> Box:
        return Box(area.x, area.bottom - lay.medium * 2, area.w, lay.medium * 2)

    def _label(self, content: str, area: Box, lay: Layout, colour: render.Colour) -> None:
        words = render.fitted(content, lay.small, colour, area.w - lay.small * 2, True, lay.floor)
        self.screen.blit(words, (area.x + lay.small, area.y + lay.small // 2))

    def _card_poses(self, lay: Layout, now: float) -> dict[Slot, CardPose]:
        """Where each card on the table lies at this moment (its selection bar included) and
        how it shows."""
        view = self._on_screen
        assert view is not None
        hands: list[tuple[str, int, int, Box, frozenset[int]]] = [
            ("dealer", 0, len(view.dealer) or 5, lay.dealer, frozenset())
        ]
        hands += [
            ("box", index, len(box.cards) or 5, area, box.selected)
            for index, (box, area) in enumerate(zip(view.boxes, lay.boxes, strict=False))
        ]
        return {
            slot: (area, card)
            for where, index, count, box, selected in hands
            for slot, area, card in self._poses(where, index, count, box, lay, now, selected)
        }

    def _poses(
        self, where: str, index: int, count: int, area: Box, lay: Layout, now: float, selected: frozenset[int]
    ) -> list[tuple[Slot, pygame.Rect, CardShown | None]]:
        """Each card of a hand: its slot, where it lies now and (face, shown width), or None
        for an empty place."""
        memo = self._frame.poses if self._frame is not None else None
        key = (where, index, count, selected)  # a frame's layout places each hand in one area
        if memo is not None and key in memo:
            return memo[key]
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
        if memo is not None:
            memo[key] = poses
        return poses

    def _hand(
        self,
        where: str,
        index: int,
        count: int,
        area: Box,
        lay: Layout,
        now: float,
        selected: frozenset[int],
        only: pygame.Rect | None = None,
        *,
        greyed: bool = False,
    ) -> None:
        """``greyed``: a folded box's cards."""
        for slot, shown, card in self._poses(where, index, count, area, lay, now, selected):
            self._cards_drawn[slot] = (shown, card)
            if only is not None and not only.colliderect(shown):
                continue
            if card is None:
                self.screen.blit(render.card_slot(lay.card_w, lay.card_h), shown.topleft)
                continue
            face, width = card
            if width < lay.card_w:
                picture = (render.greyed_card if greyed else render.card)(face, lay.card_w, lay.card_h)
                surface = pygame.transform.scale(picture, (width, lay.card_h))
            else:
                surface = render.card_piece(face, lay.card_w, lay.card_h, greyed)
            self.screen.blit(surface, shown.topleft)
            if shown.h > lay.card_h:  # selected: a bar under the card
                bar = pygame.Rect(shown.x, shown.y + lay.card_h + 2, shown.w, shown.h - lay.card_h - 2)
                pygame.draw.rect(self.screen, render.LIVE, bar, border_radius=2)

    def _spot_places(self, lay: Layout) -> dict[ChipSpot, Box]:
        view = self._on_screen
        assert view is not None
        if self._frame is not None and self._frame.spots is not None:
            return self._frame.spots
        places = spot_places(lay, _insured(view.boxes), bool(self.terminal.rules.get("bonus")))
        if self._frame is not None:
            self._frame.spots = places
        return places

    def _bets(self, index: int, lay: Layout, now: float, only: pygame.Rect | None) -> None:
        """A box's spots: each with its chip lying there, or an empty ring while its chip is
        still to come or on its way (``_moving_chips``)."""
        cash = cash_for(self.terminal)
        for (box, kind), look in self._spot_looks(lay, now).items():
            place, amount = look
            if box != index:
                continue
            self._spots_drawn[box, kind] = look
            if only is not None and not only.colliderect(render.rect(place)):
                continue
            if amount is not None:
                piece = render.chip(kind, self._chip_label(amount, cash), place.w)
            else:
                piece = render.spot(_(SPOT_LABELS[kind]), place.w)
            self.screen.blit(piece, (place.x, place.y))

    def _spot_looks(self, lay: Layout, now: float) -> dict[ChipSpot, SpotLook]:
        """Each bet spot's place and the amount of the chip lying there (None: an empty
        ring, its chip still to come or on its way)."""
        if self._frame is not None and self._frame.spot_looks is not None:
            return self._frame.spot_looks
        looks: dict[ChipSpot, SpotLook] = {}
        for spot, place in self._spot_places(lay).items():
            pose = self.chips.pose(spot, now)
            looks[spot] = (place, pose.amount if pose is not None and pose.end is None else None)
        if self._frame is not None:
            self._frame.spot_looks = looks
        return looks

    def _flying_chips(self, lay: Layout, now: float) -> list[tuple[ChipSpot, pygame.Rect, ChipPose]]:
        """The chips on their way at ``now``: each one's spot, where it is and its pose. The
        player's end of the way is under the credit meter, below the felt; the dealer's above
        the dealer's cards, beyond the felt's top edge."""
        if self._frame is not None and self._frame.flying is not None:
            return self._frame.flying
        places = self._spot_places(lay)
        credit = lay.meters.split(3)[0]
        flying = []
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
            flying.append((spot, area, pose))
        if self._frame is not None:
            self._frame.flying = flying
        return flying

    def _chip_areas(self, lay: Layout, now: float) -> dict[ChipSpot, pygame.Rect]:
        return {spot: area for spot, area, _pose in self._flying_chips(lay, now)}

    def _moving_chips(self, lay: Layout, now: float, only: pygame.Rect | None) -> None:
        cash = cash_for(self.terminal)
        flying = self._flying_chips(lay, now)
        if only is None:
            self._chips_drawn = {spot: area for spot, area, _pose in flying}
        for (_box, kind), area, pose in flying:
            if only is None or only.colliderect(area):
                self.screen.blit(render.chip(kind, self._chip_label(pose.amount, cash), area.w), area)

    def _chip_label(self, amount: int, cash: Callable[[int], str]) -> str:
        """What a chip says: whole units without the currency, as a casino's chips do (the
        meters name it), so that it can be read on a touchscreen's small chip."""
        minor = self.terminal.rules["table"]["minor_units"]
        return i18n.number(amount // minor) if amount % minor == 0 else cash(amount)

    def _panel(
        self, lay: Layout, lines: tuple[str, ...], alarm: bool, amount_line: int | None = None
    ) -> None:
        """Tilt, handpay, payout: a panel across the table, its text inside it; the line
        ``amount_line`` (a handpay's amount) in the largest type, for the attendant. The game
        waits behind it: the table is dimmed, and the panel spans its width, so that it
        covers the boxes' labels on its way whole, never cutting one (the dealer's above and
        the captions below stay clear of it)."""
        self.screen.fill(VEIL, render.rect(lay.table), special_flags=pygame.BLEND_RGB_MULT)
        panel = self._panel_area(lay)
        pygame.draw.rect(self.screen, render.ALARM if alarm else render.PANEL, panel, border_radius=12)
        pygame.draw.rect(self.screen, render.GOLD, panel, width=3, border_radius=12)
        shown = [
            words
            for number, line in enumerate(lines)
            for words in self._panel_words(lay, number, line, amount_line)
        ]
        gap = lay.small // 2
        tall = sum(words.get_height() for words in shown) + gap * (len(shown) - 1)
        y = max(panel.centery - tall // 2, panel.y + lay.medium)  # the words in the middle
        with self._clip(panel.inflate(-6, -6)):
            for words in shown:
                self.screen.blit(words, words.get_rect(midtop=(panel.centerx, y)))
                y += words.get_height() + gap

    @staticmethod
    def _panel_area(lay: Layout) -> pygame.Rect:
        table = render.rect(lay.table)
        return table.inflate(-lay.small, -table.h // 3)

    @staticmethod
    def _panel_words(lay: Layout, number: int, line: str, amount_line: int | None) -> list[pygame.Surface]:
        """A panel's line ``number`` as it is written: the first as its title, the amount
        (``amount_line``) in the largest type, the others wrapped to the panel's width."""
        room = Table._panel_area(lay).w - lay.medium * 2
        if number == amount_line:
            return [render.fitted(line, lay.large * 2, render.GOLD, room, True, lay.floor)]
        size = lay.large * 3 // 2 if number == 0 else lay.medium
        colour = render.GOLD if number == 0 else render.WHITE
        return [
            render.text(piece, size, colour, bold=number == 0)
            for piece in render.wrap(line, size, room, bold=number == 0)
        ]

    def celebration_area(self, lay: Layout) -> pygame.Rect:
        """Where the jackpot banner flashes: over the jackpot meter, never over a hand."""
        return render.rect(lay.jackpot).inflate(-4, -4)

    def _celebration(self, lay: Layout, now: float) -> None:
        view = self._on_screen
        assert view is not None
        banner = self.celebration_area(lay)
        colour = CELEBRATION_COLOURS[int(now * 3) % 2]
        pygame.draw.rect(self.screen, render.PANEL, banner, border_radius=16)
        pygame.draw.rect(self.screen, colour, banner, width=4, border_radius=16)
        words = self._banner_words(lay, view.jackpot_won, colour)
        self.screen.blit(words, words.get_rect(center=banner.center))

    def _banner_words(self, lay: Layout, won: int, colour: render.Colour) -> pygame.Surface:
        banner = self.celebration_area(lay)
        return render.fitted(
            _("JACKPOT! {amount}").format(amount=cash_for(self.terminal)(won)),
            banner.h * 7 // 10,
            colour,
            banner.w - 20,
            bold=True,
            least=lay.floor,
        )

    def _rules_pages(self, lay: Layout) -> tuple[int, int, rulebook.Pages]:
        """The rules of the active profile in the active language, paged for this screen."""
        rules, cash = self.terminal.rules, cash_for(self.terminal)
        lines = help.rules_lines(rules, cash, self.terminal.profile.prices(self.terminal.ante))
        beside = paytable.both_fit(
            lay.table.h, help.paytable_rows(rules), help.bonus_rows(rules, cash), lay.floor
        )
        return rulebook.pages(tuple(lines), lay, beside)

    def _history_pages(self, lay: Layout) -> tuple[int, int, rulebook.Pages]:
        """The player's last rounds (``ui/history.py``), paged for this screen; none before
        the first round."""
        written_at = (self.terminal.changes, i18n.active())
        if self._history is None or self._history[0] != written_at:
            self._history = (written_at, history.history_lines(self.terminal.store, cash_for(self.terminal)))
        lines = self._history[1]
        return rulebook.pages(tuple(lines), lay, False) if len(lines) > 1 else (lay.small, lay.table.w, ())

    def help_pages(self, lay: Layout) -> list[tuple[str, ...]]:
        """Every page HELP steps through: the rules, then the last rounds."""
        return [*self._rules_pages(lay)[2], *self._history_pages(lay)[2]]

    def _help(self, lay: Layout) -> None:
        """The rules of the active profile over the table, a page of them when they take
        more (and its number); its paytables in their column, or beside the rules on a
        compact screen where there is room. After the rules, the player's last rounds."""
        table = lay.table
        pygame.draw.rect(self.screen, render.FELT_DARK, render.rect(table))
        rule_pages, round_pages = self._rules_pages(lay), self._history_pages(lay)
        count = len(rule_pages[2])
        total = count + len(round_pages[2])
        page = min(self.help_page, total - 1)
        (size, width, pages), first = (rule_pages, page) if page < count else (round_pages, page - count)
        area = Box(table.x, table.y, width, table.h)
        rulebook.sentences(self.screen, area, pages[first], size, lay.small, titled=first == 0)
        if total > 1:
            number = render.text(
                _("page {page} of {pages}").format(page=page + 1, pages=total), size, render.GOLD
            )
            self.screen.blit(
                number, number.get_rect(bottomright=(area.right - lay.small, area.bottom - lay.small // 2))
            )
        if width < table.w:
            rules = self.terminal.rules
            paytable.both(
                self.screen,
                Box(table.x + width, table.y, table.w - width, table.h),
                help.paytable_rows(rules),
                help.bonus_rows(rules, cash_for(self.terminal)),
                lay.small,
                lay.floor,
            )

    def _paytable(self, lay: Layout, now: float) -> None:
        view = self._on_screen
        assert view is not None
        pulse = self.glowing(now)
        rows = help.paytable_rows(self.terminal.rules)
        bonus = help.bonus_rows(self.terminal.rules, cash_for(self.terminal))
        if lay.compact:
            paytable.strip(self.screen, lay, rows, view.lit_category, pulse)
        elif self.showing_help:
            paytable.both(self.screen, lay.paytable, rows, bonus, lay.small, lay.floor)
        else:
            paytable.column(self.screen, lay, rows, bonus, (view.lit_category, view.bonus_category), pulse)

    def _message(self, lay: Layout, now: float) -> None:
        view = self._on_screen
        assert view is not None
        box = lay.message
        # A long sentence (Czech, Russian, a refusal's reason) takes two lines, not a size
        # under the floor.
        size, pieces = render.lines_that_fit(view.prompt, lay.medium, box.w - lay.medium, box.h, lay.floor)
        step = render.font(size).get_linesize()
        y = box.y + (box.h - step * len(pieces)) // 2
        for piece in pieces:
            self.screen.blit(render.text(piece, size, render.WHITE), (box.x + lay.medium // 2, y))
            y += step

    def _meters(self, lay: Layout, now: float) -> None:
        view = self._on_screen
        assert view is not None
        credit, bet, win = self.meters(now)
        values = (
            (_("DEMO CREDIT") if self.demo else _("CREDIT"), credit),
            (_("DEMO BET") if self.demo else _("BET"), bet),
            (_("DEMO WIN") if self.demo else _("WIN"), win),
        )
        meters.draw(self.screen, lay, values, cash_for(self.terminal))

    def _buttons(self, lay: Layout, now: float) -> None:
        view = self._on_screen
        assert view is not None
        if not view.buttons:  # the dealer's reveal: a press only hurries it
            return
        cells = lay.button_areas(len(view.buttons))
        labels = [label for _name, label, _live in view.buttons]
        size = render.label_size(labels, lay.medium, cells[0].w, cells[0].h, lay.floor)
        for cell, (_name, label, live) in zip(cells, view.buttons, strict=True):
            render.button(self.screen, render.rect(cell), label, live, size)

    def _card_hotspots(self, lay: Layout) -> None:
        """The cards of the box in play, each where a touch or a click selects it."""
        view = self._on_screen
        assert view is not None
        self.hotspots = [spot for spot in self.hotspots if spot[1] != "card"]
        if self.showing_help:
            return
        self.hotspots += [
            (render.rect(card), "card", position + 1)
            for box, area in zip(view.boxes, lay.boxes, strict=False)
            if box.current
            for position, card in enumerate(lay.cards(area))
        ]

    def _button_hotspots(self, lay: Layout) -> None:
        assert self._on_screen is not None
        buttons = self._on_screen.buttons
        self.hotspots = [spot for spot in self.hotspots if spot[1] == "card"]
        self.hotspots += [
            (render.rect(cell), name, None)
            for cell, (name, _label, _live) in zip(lay.button_areas(len(buttons)), buttons, strict=True)
        ]

    def _legend(self, lay: Layout) -> None:
        """The desktop's keys, over the table."""
        assert self.legend is not None
        keys = legend(self.legend, cash_for(self.terminal))
        table = render.rect(lay.table)
        columns = 3
        per_column = -(-len(keys) // columns)
        size = min(lay.medium, table.h // (per_column + 3))
        panel = table.inflate(-lay.small * 2, 0)
        panel.h = size * (per_column + 3)
        pygame.draw.rect(self.screen, render.PANEL, panel, border_radius=8)
        width = panel.w // columns
        key_w = max(render.font(size, True).size(key)[0] for key, _meaning in keys) + size
        title = render.text(_("KEYS (L hides this)"), size, render.GOLD, True)
        self.screen.blit(title, (panel.x + size, panel.y + size // 2))
        for number, (key, meaning) in enumerate(keys):
            column, line = divmod(number, per_column)
            x = panel.x + column * width + size
            y = panel.y + size * 2 + line * (size + 2)
            self.screen.blit(render.text(key, size, render.LIVE, True), (x, y))
            self.screen.blit(render.fitted(meaning, size, render.WHITE, width - key_w - size), (x + key_w, y))

    def hit(self, x: int, y: int) -> tuple[str, int | None] | None:
        """The button (and card number) under a click or touch; the cards only while they
        show (not under HELP, a panel or the key legend)."""
        covered = self.showing_help or self.legend is not None or bool(self.view and self.view.overlay)
        for area, name, card in self.hotspots:
            if area.collidepoint(x, y) and not (covered and name == "card"):
                return name, card
        return None


def _chips_on(view: View) -> dict[ChipSpot, int]:
    """The bets each box's spots hold in ``view``."""
    return {(index, kind): amount for index, box in enumerate(view.boxes) for kind, amount in box.bets}


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


def _insured(boxes: tuple[BoxView, ...]) -> tuple[bool, ...]:
    """Which boxes bet on insurance (its spot stands where the bonus's would)."""
    return tuple(any(kind == "insure" for kind, _amount in box.bets) for box in boxes)


def _clusters(damage: list[pygame.Rect]) -> list[pygame.Rect]:
    """The damage as few rectangles: those that touch or lie near each other become their
    union (a piece's place before and after a step, the spot it leaves), those far apart
    stay apart, so that two cards in flight across the table do not repaint the felt
    between them."""
    clusters: list[pygame.Rect] = []
    for area in damage:
        area = area.copy()
        merged = True
        while merged:
            merged = False
            for index, cluster in enumerate(clusters):
                if cluster.inflate(NEAR, NEAR).colliderect(area):
                    area.union_ip(clusters.pop(index))
                    merged = True
                    break
        clusters.append(area)
    return clusters


def _glowing(place: Box) -> pygame.Rect:
    """A winning card's glow: a gold frame just outside it."""
    return render.rect(place).inflate(6, 6)
