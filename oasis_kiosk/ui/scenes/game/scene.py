"""The game scene: the model of what the screen shows at a moment (the dealer's reveal,
the outcome, the win counted up, the chips' travels) and its drawing by region.

Drawing is by region. The felt, panels and fixed labels are painted once per size into a
background; each frame, a region is repainted (background first, then its content) only
when what it shows changed or something in it moves, and only those rectangles go to the
display. A screen where nothing moves costs next to nothing (``repaint.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import pygame

from oasis_kiosk import shuffled_deck
from oasis_kiosk.i18n import _
from oasis_kiosk.machine.advisor import Advisor
from oasis_kiosk.machine.terminal import Response, Terminal
from oasis_kiosk.ui import cards, render, rules_text
from oasis_kiosk.ui.kept import KeptLooks
from oasis_kiosk.ui.layout import Box, Layout
from oasis_kiosk.ui.motion import (
    DEALER,
    PACES,
    PLAYER,
    ChipSpot,
    Slot,
)
from oasis_kiosk.ui.scenes.game.repaint import (
    Background,
    ChangedPieces,
    DrawnAhead,
    PaytableLook,
    TableLook,
    changed_pieces,
    clusters,
    in_columns,
    in_whole_columns,
)
from oasis_kiosk.ui.scenes.game.table import TableScene
from oasis_kiosk.ui.view import (
    View,
    bars_to_come,
    cash_for,
    snapshot,
)
from oasis_kiosk.ui.widgets import buttons, hand, jackpot, meters, panel, paytable
from oasis_kiosk.ui.widgets.chips import (
    SpotLook,
    chips_on,
    insured,
    spot_places,
)
from oasis_kiosk.ui.widgets.hand import CardPose

JACKPOT_ROLL = 8
"""The jackpot meter closes an eighth of the gap to its value each frame: it rolls up."""
KEPT_LOOKS = {
    "paytable": 4,
    "lit row": 12,
    "message": 8,
    "buttons": 8,
    "table": 3,
    "game table": 1,
    "glow": 4,
    "jackpot": 2,
}
"""The regions whose looks recur (the paytable column and HELP's paytables, a row of the column
lit, glowing and dark again, the buttons of a moment, a prompt, the rules under HELP, the
game's table HELP went over, a winning hand glowing and not, the jackpot's banner in each
colour), and how many looks of each are kept painted: about 38 MB at 1920x1080."""
AHEAD_WHEN_UNDER = 10
"""A frame that painted less than a tenth of the screen draws a piece of what is to come."""
MOST_FRAMES_WAITED = 3
"""A region left by a frame over its budget is painted at most this many frames later."""
TableDrawn = tuple[dict[Slot, CardPose], dict[ChipSpot, SpotLook], dict[ChipSpot, pygame.Rect]]
"""The cards' poses, the bet spots' looks and the chips' flights a look of the table shows."""
Region = tuple[str, Box, Any, Callable[..., None]]
"""A region of the screen: its name, its box, its look now and what paints it (given the
layout and the moment; the table's also its background, the area and ``only``, since a
panel over it leaves only parts of the felt to paint)."""


@dataclass
class FrameBudget:
    """How much of the screen a frame may paint and has painted (in pixels)."""

    whole_screen: bool
    """A new background: every region is painted on it now, whatever the budget."""
    budget: int
    painted: int = 0
    waited: bool = False
    """A region that an earlier frame left has been painted: another one waits (unless
    overdue), so that what a frame full of news left is spread over the frames after it."""


class GameScene(TableScene):
    """The game screen, drawn by region (see the module's docstring) from the terminal's view."""

    def __init__(
        self,
        terminal: Terminal,
        screen: pygame.Surface,
        play_sound: Callable[[str], None],
        *,
        demo: bool = False,
        played_by_itself: bool = False,
    ) -> None:
        """``demo``: the terminal plays for free (the attract mode, ``run --demo``); its meters
        say DEMO, since no money on them is on the cabinet's books. ``played_by_itself``: the
        attract mode's demo, whose buttons its own player presses: all drawn dark, since a
        visitor's press only ends the demo."""
        super().__init__(terminal, screen, play_sound)
        self.demo = demo
        self.played_by_itself = played_by_itself
        self.message: Response | None = None
        """A refused press or a notice (a handpay paid), said beside the prompt (in the language
        of the moment)."""
        self._advisor: Advisor | None = None
        self._keys: dict[str, Any] = {}
        self._waiting: dict[str, int] = {}
        """The regions a frame left to the next, with how many frames each has waited."""
        self._table_waiting: pygame.Rect | None = None
        """The part of the table a frame left to the next (the dealer's side of a table
        repainted whole)."""
        self._kept = KeptLooks(KEPT_LOOKS)
        self._pieces_ahead = DrawnAhead()
        """The cards and chips of a layout, drawn ahead."""
        self._outcome_ahead = DrawnAhead()
        """What a view's end writes large and the chips it moves, drawn ahead."""
        self._words_read: tuple[View | None, tuple[Any, ...] | None] = (None, None)
        """The view the words to come (``_render_words_ahead``) were last worked out for, and
        what they were when they were rendered."""
        self._background: tuple[tuple[Any, ...], Background] | None = None
        self._table_drawn: dict[Hashable, TableDrawn] = {}
        """What a kept look of the table shows of the cards and chips (their poses, looks and
        flights): shown again, the pieces' repaints start from it."""
        self._lines: tuple[tuple[Any, ...], list[paytable.ColumnLine]] | None = None

    # The scene's own model (the round's story is ``RoundStory``'s).

    @property
    def advisor(self) -> Advisor:
        """Hints, when the operator turns them on, come from here without holding a frame."""
        if self._advisor is None:
            self._advisor = Advisor()
        return self._advisor

    def close(self) -> None:
        if self._advisor is not None:
            self._advisor.close()

    def refresh(self, now: float) -> None:
        """Reads the terminal again (after an input or a device event)."""
        hints = bool(self.terminal.round) and self.terminal.hints
        self.motions.pace = self.chips.pace = PACES[self.terminal.config.speed]  # the operator's setting
        view = snapshot(self.terminal, self.message, self.advisor if hints else None)
        if self.played_by_itself:
            view = replace(view, buttons=tuple((name, label, False) for name, label, _lit in view.buttons))
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
            self.chips.place(chips_on(view), now, DEALER if view.round_key is not None else PLAYER)
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
        elif self.help_page + 1 < len(self._help.pages(self.layout)):
            self.help_page += 1
        else:
            self.showing_help = False

    # Drawing.

    def invalidate(self) -> None:
        """Everything is drawn again (a new size, language or overlay underneath)."""
        self._keys.clear()
        self._kept.clear()
        self._table_drawn.clear()
        self._background = None
        self._lines = None
        self._table_waiting = None
        self._words_read = (None, None)  # rendered ahead again: the kept ones may be forgotten

    def draw(self, now: float) -> list[pygame.Rect]:
        """Repaints what changed; returns the rectangles to put on the display."""
        if self.view is None or (self.view.thinking and self.advisor.ready()):
            self.refresh(now)
        if self._win_sound is not None and now >= self._win_sound[0]:
            self.play_sound(self._win_sound[1])
            self._win_sound = None
        view = self._on_screen = self.showing(now)
        new_background = not self._keys
        with self.hands.one_frame(), self.bets.one_frame():
            self._parts = None
            try:
                dirty = self._draw_regions(view, now)
            finally:
                self._parts = None
        if new_background:
            self._render_words_ahead(now)
        painted = sum(area.w * area.h for area in dirty)
        if painted * AHEAD_WHEN_UNDER > self.screen.get_width() * self.screen.get_height():
            return dirty
        if (
            not self._draw_outcome_ahead()
            and not dirty
            and not self.busy(now)
            and not self._render_words_ahead(now)
        ):
            self._draw_a_piece_ahead()
        return dirty

    def _render_words_ahead(self, now: float) -> bool:
        """Renders the words the next moments first write (every bar of buttons of the
        language, lit and dark; the meters' glyphs at their sizes), all at once in the frame
        that paints a new background (a new layout or language) and, when they changed since
        (a bet's amount), in a frame with nothing to paint: a deal's first frames then blit
        their labels; most are kept already. Worked out again for each new view; False when
        they were rendered already."""
        view, rendered = self._words_read
        if view is self.view:
            return False
        lay, cash = self.layout, cash_for(self.terminal)
        values = self._meter_values(self.meters(now))
        names, sizes = (
            tuple(name for name, _amount in values),
            meters.glyph_sizes(lay, values, cash, self._most),
        )
        words = (lay, tuple(bars_to_come(self.terminal, cash)), names, sizes)
        self._words_read = (self.view, words)
        if words == rendered:
            return False
        buttons.render_ahead(lay, words[1])
        meters.render_ahead(lay, names, sizes, cash)
        return True

    def _draw_outcome_ahead(self) -> bool:
        """One line of what the round's end writes (the dealer's verdict, a box's label and
        caption, a handpay's or a tilt's panel, the jackpot's banner in each of its colours)
        or one chip it moves (the dealer's pay, a stake going back with its pay), drawn while
        the dealer's cards turn, in a frame that painted little: the frames that show the
        outcome then only blit them. False when there is none left to draw."""
        view = self.view
        return view is not None and self._outcome_ahead.draw_one(view, lambda: self._outcome_to_come(view))

    def _outcome_to_come(self, view: View) -> Iterator[object]:
        lay = self.layout
        if self._on_screen is not view:  # the dealer's cards still hide some of it
            yield hand.dealer_label(lay, view.dealer_verdict)
            size = hand.caption_size(lay, view.boxes)
            for box, area in zip(view.boxes, lay.boxes, strict=False):
                yield hand.box_label(lay, area, box)
                if box.caption:
                    yield hand.caption(lay, area, box, size)
        shown = panel.overlay_panel(view)
        if shown is not None:
            yield panel.all_words(lay, shown)
        if view.jackpot_won and self._has_jackpot:
            won = cash_for(self.terminal)(view.jackpot_won)
            for colour in jackpot.BANNER_COLOURS:
                yield jackpot.banner_words(lay, won, colour)
        places = spot_places(lay, insured(view.boxes), self._has_bonus)
        for spot, move in [*self.chips.paying.items(), *self.chips.leaving.items()]:
            if spot in places:
                # as ``BetSpots`` asks for it: the cache knows a chip by these arguments
                yield self._encoded(self._chip(spot[1], move.amount, places[spot].w))

    def _draw_a_piece_ahead(self) -> None:
        """A step of one piece every round shows, drawn at the table's size in a frame with
        nothing to paint: the card back, then each face, then the chips' blanks and their
        labels' fonts, then the fonts of a panel's and the jackpot banner's words. A round's first sight of a card or a chip then costs a blit, not the
        millisecond of drawing it, and every piece is ready within two and a half idle
        seconds; a card is drawn in steps (``cards.drawing_card``), a chip's fonts one by
        one, so that no frame pays for a whole millisecond."""
        lay = self.layout
        self._pieces_ahead.draw_one(lay, lambda: self._pieces_to_come(lay))

    def _pieces_to_come(self, lay: Layout) -> Iterator[object]:
        for name in [None, *shuffled_deck(bytes(32))]:
            yield from cards.drawing_card(name, lay.card_w, lay.card_h)
            # as ``_hand`` asks for it: the cache knows a piece by these arguments
            yield self._encoded(cards.card_piece(name, lay.card_w, lay.card_h, False))
        yield from render.preparing_chips(lay.spots(lay.boxes[0])[0].w, lay.floor)
        outcome_fonts = panel.font_sizes(lay) + (jackpot.banner_font_sizes(lay) if self._has_jackpot else [])
        yield from render.preparing_fonts(outcome_fonts)
        yield from self._help.drawing_ahead(lay)

    def _encoded(self, piece: pygame.Surface) -> pygame.Surface:
        """``piece`` (``render.run_length``) blitted once on the screen, and what the screen
        showed there put back: SDL encodes a piece for the surface it is first blitted on (a
        sixth of a millisecond a card at 1920x1080), which a deal's frame would pay for."""
        area = piece.get_rect()
        shown = self.screen.subsurface(area).copy()
        self.screen.blit(piece, area)
        self.screen.blit(shown, area)
        return piece

    def _regions(self, view: View, lay: Layout, now: float) -> list[Region]:
        """Each region in the order a frame paints them, with its look at ``now``."""
        celebrating = self.celebrating(now)
        # The meter stands at its value before the hit until the celebration is over, then
        # rolls (up with contributions, down to its reset value after a hit).
        target = view.jackpot_before if celebrating else view.jackpot
        if target is None or self.jackpot_shown is None:
            self.jackpot_shown = target  # no value yet, or the first: nothing to roll from
        else:
            gap = target - self.jackpot_shown
            self.jackpot_shown += gap // JACKPOT_ROLL if abs(gap) >= JACKPOT_ROLL else gap
        glowing = self.glowing(now)
        moving = self.motions.busy(now) or self.chips.busy(now)
        table = TableLook(
            view.round_key,
            view.dealer,
            view.dealer_verdict,
            view.boxes,
            view.overlay,
            (self.showing_help, self.help_page, self.showing_help and self._help.written()),
            self.legend is not None,
            glowing and not self.showing_help,
            moving and not self.showing_help and now,
        )
        lit = PaytableLook((view.lit_category, view.bonus_category), glowing, self.showing_help)
        return [
            ("table", lay.table, table, self._paint_table),
            (
                "jackpot",
                lay.jackpot,
                (self.jackpot_shown, self._has_jackpot, jackpot.banner_colour(now) if celebrating else None),
                self._jackpot,
            ),
            ("paytable", lay.paytable, lit, self._paytable),
            ("message", lay.message, (view.prompt,), self._message),
            ("meters", lay.meters, self.meters(now), self._meters),
            ("buttons", lay.buttons, (view.buttons,), self._buttons),
        ]

    def _draw_regions(self, view: View, now: float) -> list[pygame.Rect]:
        """Each region whose look changed, whole or only its changed pieces, within the
        frame's budget; returns the rectangles painted."""
        lay = self.layout
        background = self._painted_background(lay)
        frame = FrameBudget(
            whole_screen=not self._keys,  # a new background: every region is painted on it now
            budget=self.screen.get_width() * self.screen.get_height() // 3,
        )
        waited, self._waiting = self._waiting, {}
        dirty: list[pygame.Rect] = []
        for name, box, key, paint in self._regions(view, lay, now):
            before = self._keys.get(name)
            if before == key and not (name == "table" and self._table_waiting is not None):
                continue
            if name == "table" and before is not None and key.same_table(before):
                damage = self._repaint_deal(lay, now, background, before, key)
                frame.painted += sum(area.w * area.h for area in damage)
                if before.boxes != key.boxes or before.verdict != key.verdict:
                    # The round's news (an outcome, a new card) and the cabinet's lamps
                    # that follow it take this frame: the message, meters and buttons
                    # that change with it wait for the next.
                    frame.painted = max(frame.painted, frame.budget)
            elif (
                name == "paytable"
                and before is not None
                and not lay.compact
                and not (before.help or key.help)
            ):
                # The lit rows changed: they alone are repainted, not the column (a row's
                # worth, as the budget sees it).
                if self._waits(frame, waited, name, lay.paytable.w * self._column_lines(lay)[0].area.h):
                    continue
                self._keys[name] = key
                damage = self._repaint_lit_rows(lay, before, key, background)
                frame.painted += sum(area.w * area.h for area in damage)
            else:
                area = render.rect(box)
                if self._waits(frame, waited, name, area.w * area.h):
                    continue
                if name == "table" and before is not None and key.help[0] and not before.help[0]:
                    self._keep_game_table(lay, before, key)
                frame.painted += area.w * area.h
                if name == "meters" and before is not None and not frame.whole_screen:
                    self._keys[name] = key
                    damage = self._repaint_meters(lay, before, key, background)
                else:
                    damage = [self._paint_region((name, box, key, paint), lay, now, background, frame)]
            dirty += damage
        return dirty

    def _waits(self, frame: FrameBudget, waited: dict[str, int], name: str, pixels: int) -> bool:
        """Whether region ``name`` (``pixels`` to paint) waits for the next frame: when the
        frame has painted a third of the screen's worth (or the round's news took it), or
        when it has painted another region that waited already, unless this one has
        waited MOST_FRAMES_WAITED frames. The rest waits a sixtieth of a second, so that no
        frame costs the table, the paytable and the meters at once (a winning hand's glow,
        its paytable row and the counting meters change together; a panel shown changes
        everything), nor the message, meters and buttons a deal's first frame left."""
        if frame.whole_screen or waited.get(name, 0) >= MOST_FRAMES_WAITED:
            frame.waited = frame.waited or name in waited
            return False
        if (frame.painted and frame.painted + pixels > frame.budget) or (name in waited and frame.waited):
            self._waiting[name] = waited.get(name, 0) + 1
            return True
        frame.waited = frame.waited or name in waited
        return False

    def _repaint_deal(
        self, lay: Layout, now: float, background: Background, before: TableLook, key: TableLook
    ) -> list[pygame.Rect]:
        """A card dealt, turned or selected, a caption, a bet, the glow, a piece in motion:
        only where they lie is painted, not the felt (an outcome shown is its verdict,
        captions and glow; a new deal, the last round's pieces gone and its own come)."""
        self._keys["table"] = key
        if before.boxes != key.boxes:
            self._card_hotspots(lay)
        finishing = self._table_waiting is not None
        damage = self._repaint_pieces(lay, now, background, changed_pieces(lay, before, key, self._has_bonus))
        if finishing and self.showing_help:
            self._keep_table(lay, key)  # HELP's page, whose dealer's side this frame painted
        return damage

    def _paint_region(
        self, region: Region, lay: Layout, now: float, background: Background, frame: FrameBudget
    ) -> pygame.Rect:
        """A region painted whole (or shown from its kept look); a table too big for the
        frame's budget leaves its dealer's side to the next frame. Returns what was painted."""
        name, box, key, paint = region
        self._keys[name] = key
        if name == "buttons":
            self._button_hotspots(lay)
        if name == "table":
            self._table_waiting = None
        area = render.rect(box)
        kept = self._kept.get(self._kept_as(name, key), key)
        if kept is not None:
            self.screen.blit(kept, area)
            if name == "table":
                self._table_shown_again(lay, key)
            return area
        whole = area
        if name == "table" and not frame.whole_screen and area.w * area.h > frame.budget:
            # A panel shown or gone, HELP, more boxes: the felt and everything on it, more
            # than a frame's worth. The boxes' side (the player's bets and cards) is painted
            # now, the dealer's side a frame later, with whatever moves there then
            # (``_repaint_pieces``).
            self._table_waiting = pygame.Rect(area.x, area.y, area.w, lay.dealer.bottom - area.y)
            area = pygame.Rect(area.x, lay.dealer.bottom, area.w, area.bottom - lay.dealer.bottom)
        if name == "table":
            paint(lay, now, background, area, only=None)
        else:
            background.paint(self.screen, area)
            with render.clipped(self.screen, area):
                paint(lay, now)
        if area == whole and name == "table" and self.showing_help:
            self._keep_table(lay, key)
        elif area == whole and name in self._kept and name != "table":
            self._kept.keep(name, key, self.screen, area)
        return area

    @staticmethod
    def _kept_as(name: str, key: Any) -> str:
        """The kept region a region's look is kept in: the table's, HELP's pages apart from
        the game's table (one look, the one HELP went over)."""
        return "game table" if name == "table" and not key.help[0] else name

    def _keep_game_table(self, lay: Layout, shown: TableLook, help_look: TableLook) -> None:
        """HELP opens over the game's table ``shown``: kept, so that HELP's close is a blit,
        once HELP's page is kept (its opening then a blit too; the frame of its first sight
        paints the page and keeps nothing more)."""
        if self._table_waiting is None and self._kept.get("table", help_look) is not None:
            self._keep_table(lay, shown)

    def _keep_table(self, lay: Layout, look: TableLook) -> None:
        """Keeps the table the screen shows whole as ``look``, with its pieces as drawn: HELP's
        page once painted (its first sight takes two frames, the dealer's side the second),
        the game's table as HELP goes over it. Opening and closing HELP are then a blit of
        the table each (it costs half a full-screen blit at 1920x1080), not the page drawn
        again, nor the felt with every card and chip on it."""
        region = self._kept_as("table", look)
        if look.moving is not False or self._kept.get(region, look) is not None:
            return
        self._kept.keep(region, look, self.screen, render.rect(lay.table))
        self._table_drawn = {
            kept: drawn
            for kept, drawn in self._table_drawn.items()
            if self._kept.get(self._kept_as("table", kept), kept) is not None
        }
        self._table_drawn[look] = (
            dict(self.hands.drawn),
            dict(self.bets.drawn),
            dict(self.bets.flights_drawn),
        )

    def _table_shown_again(self, lay: Layout, look: TableLook) -> None:
        """A kept look of the table shown: its pieces as they were drawn in it, and where a
        touch selects its cards."""
        drawn = self._table_drawn.get(look)
        if drawn is not None:
            poses, looks, flights = drawn
            self.hands.drawn, self.bets.drawn, self.bets.flights_drawn = (
                dict(poses),
                dict(looks),
                dict(flights),
            )
        self._card_hotspots(lay)

    def _repaint_lit_rows(
        self, lay: Layout, before: PaytableLook, now: PaytableLook, background: Background
    ) -> list[pygame.Rect]:
        """The paytable column's lit rows changed (a hand lit, its glow on or off): only the
        rows whose look changed are repainted, each from its kept look once it has been
        painted (the glow turns four times a second while a win counts: from its third turn
        on, each row is a blit of the row, not of the column)."""
        lines = self._column_lines(lay)
        size = paytable.column_size(lay, lines)
        assert self._background is not None
        damage = []
        changed = paytable.changed_lines(lines, (before.lit, before.glowing), (now.lit, now.glowing))
        for number, line, look in changed:
            area = in_columns(render.rect(line.area), render.rect(lay.paytable))
            row = (self._background[0], number, look)
            kept = self._kept.get("lit row", row)
            if kept is not None:
                self.screen.blit(kept, area)
            else:
                background.paint(self.screen, area)
                with render.clipped(self.screen, area):
                    paytable.column_line(self.screen, lay, line, size, now.lit, now.glowing)
                self._kept.keep("lit row", row, self.screen, area)
            damage.append(area)
        return damage

    def _column_lines(self, lay: Layout) -> list[paytable.ColumnLine]:
        """The paytable column's lines, worked out once for each background (its layout and
        rules) until the screen is drawn afresh (a new language): a counting frame repaints
        its rows as the glow turns."""
        assert self._background is not None
        if self._lines is None or self._lines[0] != self._background[0]:
            rows = rules_text.paytable_rows(self.terminal.rules)
            bonus = rules_text.bonus_rows(self.terminal.rules, cash_for(self.terminal))
            self._lines = (self._background[0], paytable.column_lines(lay, rows, bonus))
        return self._lines[1]

    def _repaint_meters(
        self, lay: Layout, before: tuple[int, int, int], now: tuple[int, int, int], background: Background
    ) -> list[pygame.Rect]:
        """The meters' amounts changed: only the glyphs from each one's first change on are
        repainted (a count changes CREDIT's and WIN's last digits, not BET)."""
        cash = cash_for(self.terminal)
        shown = self._meter_values(now)
        damage = []
        for area, cell in meters.changed(lay, self._meter_values(before), shown, cash, self._most):
            area = in_columns(area, cell)
            background.paint(self.screen, area)
            with render.clipped(self.screen, area):
                meters.draw(self.screen, lay, shown, cash, self._most, only=area)
            damage.append(area)
        return damage

    def _repaint_pieces(
        self, lay: Layout, now: float, background: Background, changed: ChangedPieces
    ) -> list[pygame.Rect]:
        """Only where a changed piece lies, a card or a chip was and is now (and the spot a
        chip leaves or reaches), and round the winning hands when their glow turns, the
        background, then everything of the table that lies there, in the order the whole
        table is painted (a panel or the keys' legend over them included, within the
        damage). A dealing frame costs a few card-sized blits, not the felt."""
        was = self.hands.drawn
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
        places = self._spot_places(lay)
        spots_were, spots = self.bets.drawn, self.bets.looks(places, now)
        damage += [
            render.rect(look[0])
            for spot in spots_were.keys() | spots.keys()
            if spots_were.get(spot) != spots.get(spot)
            for look in (spots_were.get(spot), spots.get(spot))
            if look is not None
        ]
        for spot in spots_were.keys() - spots.keys():
            del spots_were[spot]
        chips = {spot: area for spot, area, _pose in self.bets.flights(places, lay, now)}
        damage += [
            area.clip(table)  # a chip comes from below the felt and goes above it
            for area in (*self.bets.flights_drawn.values(), *chips.values())
            if area.colliderect(table)
        ]
        self.bets.flights_drawn = chips
        if self._table_waiting is not None:
            damage.append(self._table_waiting)
            self._table_waiting = None
        winning = self._winning_hands(lay) if changed.glow else []
        turned = [in_whole_columns(hand.glow(lay, area, len(box.cards)), table) for box, area in winning]
        areas = clusters(damage, table)
        alone = [glow for glow in turned if glow.collidelist(areas) < 0]
        if len(alone) < len(turned):  # a glow that a repainted area reaches is painted with it
            areas = clusters(damage + [glow for glow in turned if glow not in alone], table)
        assert self._on_screen is not None
        shown = panel.overlay_panel(self._on_screen)
        if shown is not None:
            # What moves or glows wholly under a panel (chips on their way) changes nothing
            # on the screen.
            hidden = panel.hides(lay, shown)
            areas, alone = (
                [area for area in found if not any(side.contains(area) for side in hidden)]
                for found in (areas, alone)
            )
        for area in areas:
            self._repaint_area(lay, now, background, area)
        for glow in alone:
            self._turn_glow(lay, now, background, glow, self._glow_look(glow, now_at, spots))
        return areas + alone

    def _repaint_area(self, lay: Layout, now: float, background: Background, area: pygame.Rect) -> None:
        self._paint_table(lay, now, background, area, only=area)

    def _turn_glow(
        self, lay: Layout, now: float, background: Background, area: pygame.Rect, look: Hashable
    ) -> None:
        """A winning hand's glow turned with nothing else changing round it: a look kept is
        one blit of the hand; a look not seen yet is painted, then kept (the glow turns on
        and off four times a second while the win counts: from its third turn on, each
        is a blit)."""
        kept = self._kept.get("glow", look)
        if kept is not None:
            self.screen.blit(kept, area)
            return
        self._repaint_area(lay, now, background, area)
        self._kept.keep("glow", look, self.screen, area)

    def _glow_look(
        self, area: pygame.Rect, poses: dict[Slot, CardPose], spots: dict[ChipSpot, SpotLook]
    ) -> Hashable:
        """What a winning hand's glow area shows: the table's look but its round's number and
        what moves (nothing moves there: it would be repainted with it), and the cards and
        chips lying in it, on this background."""
        assert self._background is not None
        table = self._keys["table"]
        return (
            self._background[0],
            tuple(area),
            table._replace(round_key=None, moving=False),
            tuple((tuple(place), shown) for place, shown in poses.values() if place.colliderect(area)),
            tuple(look for look in spots.values() if area.colliderect(render.rect(look[0]))),
        )

    def _painted_background(self, lay: Layout) -> Background:
        key = (self.screen.get_size(), self.terminal.profile.digest, lay.compact, len(lay.boxes), _("DEALER"))
        if self._background is not None and self._background[0] == key:
            return self._background[1]
        plain = [(self.screen.get_rect(), render.FELT)]
        plain += [(render.rect(box), render.FELT_DARK) for box in (lay.paytable, lay.jackpot)]
        plain += [(render.rect(box), render.PANEL) for box in (lay.message, lay.meters, lay.buttons)]
        table = render.rect(lay.table)
        line = table.inflate(-table.w // 12, -table.h // 10)
        self._background = (key, Background(self.screen.get_size(), plain, line))
        self._keys.clear()
        glow = in_whole_columns(hand.glow(lay, lay.boxes[0], 5), render.rect(lay.table))
        self._kept.prepare("glow", self.screen, glow.size)
        for region in ("table", "game table"):  # kept as HELP opens and closes
            self._kept.prepare(region, self.screen, table.size)
        if not lay.compact:
            row = in_columns(render.rect(self._column_lines(lay)[-1].area), render.rect(lay.paytable))
            self._kept.prepare("lit row", self.screen, row.size)
        self.screen.blit(self._background[1].surface, (0, 0))
        return self._background[1]

    def _jackpot(self, lay: Layout, now: float) -> None:
        """The progressive meter, odometer style: each digit in its own cell; for a profile
        without a jackpot, the game's name, as a cabinet's marquee shows it."""
        if not self._has_jackpot:
            band = render.rect(lay.jackpot)
            size = max(band.h * 45 // 100, lay.floor)
            name = render.fitted(
                self.terminal.rules["name"], size, render.GOLD, band.w * 9 // 10, True, lay.floor
            )
            self.screen.blit(name, name.get_rect(center=band.center))
            return
        if self.celebrating(now):
            assert self._on_screen is not None
            jackpot.banner(self.screen, lay, cash_for(self.terminal)(self._on_screen.jackpot_won), now)
            return
        shown = self.jackpot_shown
        amount = jackpot.NO_VALUE if shown is None else cash_for(self.terminal)(shown)
        jackpot.odometer(self.screen, lay.jackpot, amount, lay.floor)

    def _paytable(self, lay: Layout, now: float) -> None:
        view = self._on_screen
        assert view is not None
        pulse = self.glowing(now)
        rows = rules_text.paytable_rows(self.terminal.rules)
        bonus = rules_text.bonus_rows(self.terminal.rules, cash_for(self.terminal))
        if lay.compact:
            paytable.strip(self.screen, lay, rows, bonus, (view.lit_category, view.bonus_category), pulse)
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
        values = self._meter_values(self.meters(now))
        meters.draw(self.screen, lay, values, cash_for(self.terminal), self._most)

    @property
    def _most(self) -> int:
        """The amount the meters are sized for: the credit limit, the most money may bring."""
        return self.terminal.config.credit_limit

    def _meter_values(self, amounts: tuple[int, int, int]) -> meters.Meters:
        credit, bet, win = amounts
        return (
            (_("DEMO CREDIT") if self.demo else _("CREDIT"), credit),
            (_("DEMO BET") if self.demo else _("BET"), bet),
            (_("DEMO WIN") if self.demo else _("WIN"), win),
        )

    def _buttons(self, lay: Layout, now: float) -> None:
        assert self._on_screen is not None
        buttons.draw(self.screen, lay, self._on_screen.buttons)
