"""Free play, for the attract mode and ``oasis-kiosk run --demo``: a terminal on an in-memory
database, topped up with play credits whenever it runs low, so nothing it does reaches the
cabinet's books; and a player that plays it by the core's strategy, one input at a time,
the way a person would press the buttons."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from oasis_kiosk._core import Choice
from oasis_kiosk.config import Config
from oasis_kiosk.machine.advisor import Advisor
from oasis_kiosk.machine.intents import ACTION_INTENTS, Intent
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store

FREE_PLAY_ROUNDS = 20
"""Play credits for this many rounds of the bets placed, put on again when they run low: a
demo's credit meter shows a sum a player might have, not a fortune."""


def free_play_terminal(config: Config) -> Terminal:
    currency = config.load_profile().to_dict()["table"]["currency"]
    terminal = Terminal(replace(config, database=Path(":memory:")), Store.in_memory(currency=currency))
    top_up(terminal)
    return terminal


def top_up(terminal: Terminal) -> None:
    """Play credits, between rounds, when they would not pay for a few more of the bets
    placed (a round's fees twice over its stake at most: short of them, the round offers
    fewer options, never a bet the credit cannot cover)."""
    round_at_most = terminal.upfront() * 2
    if terminal.round is not None or terminal.credits >= round_at_most * 3:
        return
    terminal.credit_by_operator(round_at_most * FREE_PLAY_ROUNDS, "free play")


class DemoPlayer:
    def __init__(self, terminal: Terminal, seed: int | None = None) -> None:
        self.terminal = terminal
        self.random = random.Random(seed)
        self.advisor = Advisor()
        self.plan: list[tuple[Intent, int | None]] = []

    def next_input(self) -> tuple[Intent, int | None] | None:
        """The next button the demo presses (with its value); None while the strategy is
        still thinking (ask again)."""
        if not self.plan:
            if self.terminal.round is None:
                self.plan = self._between_rounds()
            else:
                advice = self.advisor.advice(self.terminal.round)
                if advice is None:
                    return None
                self.plan = self._decide(advice.best)
        return self.plan.pop(0)

    def wait_input(self) -> tuple[Intent, int | None]:
        """The next press, waiting for the strategy if need be (scripts and tests)."""
        if not self.plan and self.terminal.round is not None:
            self.advisor.wait(self.terminal.round)
        press = self.next_input()
        if press is None:
            raise RuntimeError("the strategy gave no advice after it was waited for")
        return press

    def _between_rounds(self) -> list[tuple[Intent, int | None]]:
        terminal = self.terminal
        top_up(terminal)
        plan: list[tuple[Intent, int | None]] = []
        if Intent.BONUS in terminal.live():  # shows the bonus bet now and then
            stakes = terminal.profile.bonus_stakes(terminal.ante)
            wanted = self.random.random() < 0.6
            if wanted and not terminal.bonus_stake:
                plan.append((Intent.BONUS, None))
            elif not wanted and terminal.bonus_stake:
                # BONUS steps through the stakes, then off.
                plan += [(Intent.BONUS, None)] * (len(stakes) - stakes.index(terminal.bonus_stake))
        return [*plan, (Intent.DEAL, None)]

    def _decide(self, choice: Choice) -> list[tuple[Intent, int | None]]:
        if choice.action == "exchange":
            # Clear a selection left over, then select what the strategy discards.
            positions = set(choice.positions or ())
            toggles = sorted(self.terminal.selected ^ positions)
            return [*((Intent.CARD, position + 1) for position in toggles), (Intent.EXCHANGE, None)]
        if choice.action == "insure":
            return [(Intent.INSURE, choice.amount)]
        return [(ACTION_INTENTS[choice.action], None)]
