"""The round's story on the table: what the screen shows of the terminal at a moment. The
dealer's cards turn one by one; the outcome, the chips leaving the spots and the win
counted up follow the last of them; a jackpot is celebrated after its count. A press hurries
the story, never skips its order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui.motion import DEALER, PLAYER, ChipMotions, ChipSpot, CountUp, Motions, count_duration
from oasis_kiosk.ui.sound import win_tune
from oasis_kiosk.ui.view import (
    SettledBet,
    View,
    before_reveal,
    last_settlement,
    while_the_cards_land,
    while_the_dealer_turns,
)

SETTLED_BETS: dict[str, SettledBet] = {
    "ante": "ante",
    "play": "play",
    "bonus": "bonus",
    "insure": "insurance",
}
"""Each spot's bet in a settled box."""
CELEBRATION = 3.0  # seconds the jackpot banner stays after the count


class RoundStory:
    def __init__(self, terminal: Terminal, play_sound: Callable[[str], None]) -> None:
        self.terminal = terminal
        self.play_sound = play_sound
        self.motions = Motions()
        self.chips = ChipMotions()
        self.view: View | None = None
        """What the terminal holds now."""
        self.count: CountUp | None = None
        self.celebrate_until = 0.0
        self.jackpot_shown: int | None = terminal.jackpot_shown
        self._win_sound: tuple[float, str] | None = None
        """When the win's tune plays, and which."""
        self.revealed_at = 0.0
        """When the settled round's last dealer card has turned: its outcome shows from then."""
        self._lit_in_play: str | None = None
        """The paytable row lit while the round was played, kept lit through the reveal."""
        self._hidden: tuple[View, str | None, str | frozenset[int], View] | None = None
        """The last view shown without what its reveal is to tell (``_hiding``): a frame of
        the reveal asks twice, and every frame of it asks the same."""

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
        self.jackpot_shown = self.view.jackpot if self.view is not None else self.terminal.jackpot_shown

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

    def telling(self, now: float) -> bool:
        """The story tells what a press must not run ahead of: the dealer's cards turning, or
        a box's cards still landing (a press then only hurries them)."""
        return self.revealing(now) or (self.view is not None and bool(self.motions.landing(now)))

    def showing(self, now: float) -> View:
        """The view as the screen shows it at ``now``: a settled round without its outcome
        until the dealer's last card has turned, a round in play without its next offers."""
        assert self.view is not None
        if now < self.revealed_at:  # a blind box's cards turn with the dealer's: named after
            return self._hiding(self.view, "settled")
        landing = self.motions.landing(now)
        if landing:
            return self._hiding(self.view, landing)
        if self.motions.revealing(now):
            return self._hiding(self.view, "turning")
        if self.view.overlay[:1] == ("handpay",) and (self.counting(now) or self.celebrating(now)):
            # The winning hand stays in view while its win counts up and its jackpot is
            # celebrated; the prompt already says the attendant pays it, then the lock-up shows.
            return replace(self.view, overlay=())
        return self.view

    def _hiding(self, view: View, moment: str | frozenset[int]) -> View:
        """``view`` as the moment shows it, made once for the view: the boxes whose cards are
        still landing (``while_the_cards_land``), a settled round's dealer turning
        (``before_reveal``), a round in play's (``while_the_dealer_turns``)."""
        kept = self._hidden
        if kept is not None and kept[0] is view and kept[1:3] == (self._lit_in_play, moment):
            return kept[3]
        if isinstance(moment, frozenset):
            hidden = while_the_cards_land(view, moment)
        elif moment == "settled":
            hidden = before_reveal(view, self._lit_in_play)
        else:
            hidden = while_the_dealer_turns(view)
        self._hidden = (view, self._lit_in_play, moment, hidden)
        return hidden

    def meters(self, now: float) -> tuple[int, int, int]:
        """CREDIT, BET and WIN as they show at ``now``: CREDIT rises with the WIN counted, when
        the win went on the credits (not when the attendant pays it)."""
        view = self.showing(now)
        counted = self.counted(now)
        return view.credits - min(view.win - counted, view.returned), view.bet, counted

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
