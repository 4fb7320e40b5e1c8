"""Free play, for the attract mode and ``oasis-kiosk run --demo``: a terminal on an in-memory
database, topped up with play credits whenever it runs low, so nothing it does reaches the
cabinet's books; and a player that plays it by the core's strategy, one input at a time,
the way a person would press the buttons."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from oasis_kiosk.config import Config
from oasis_kiosk.machine.terminal import ROUND_ACTIONS, Terminal
from oasis_kiosk.store.db import Store

FREE_PLAY_ROUNDS = 50
"""Play credits for this many rounds at the largest stake, put on again when they run low."""
INTENTS = {name: intent for intent, name in ROUND_ACTIONS.items()}
"""The terminal's intent for each of the round's actions."""


def free_play_terminal(config: Config) -> Terminal:
    terminal = Terminal(replace(config, database=Path(":memory:")), Store(":memory:"))
    top_up(terminal)
    return terminal


def top_up(terminal: Terminal) -> None:
    """Play credits, between rounds, when they would not pay for a few more."""
    largest = max(terminal.profile.allowed_antes()) * int(terminal.rules["boxes"]["max"]) * 10
    if terminal.round is not None or terminal.credits >= largest * 3:
        return
    with terminal.store.transaction():
        terminal.store.post("operator_credit", largest * FREE_PLAY_ROUNDS, reason="free play")


def best_choice(terminal: Terminal) -> dict[str, Any]:
    """The strategy's best decision for the box to act in the round in play."""
    assert terminal.round is not None
    return terminal.round.advice().best


class DemoPlayer:
    def __init__(self, terminal: Terminal, seed: int | None = None) -> None:
        self.terminal = terminal
        self.random = random.Random(seed)
        self.plan: list[tuple[str, int | None]] = []

    def next_input(self) -> tuple[str, int | None]:
        """The next button the demo presses (with its value)."""
        if not self.plan:
            self.plan = self._between_rounds() if self.terminal.round is None else self._decide()
        return self.plan.pop(0)

    def _between_rounds(self) -> list[tuple[str, int | None]]:
        terminal = self.terminal
        top_up(terminal)
        plan: list[tuple[str, int | None]] = []
        if "bonus" in terminal.live() and terminal.bonus != (self.random.random() < 0.6):
            plan.append(("bonus", None))  # shows the bonus bet now and then
        return [*plan, ("deal", None)]

    def _decide(self) -> list[tuple[str, int | None]]:
        choice = best_choice(self.terminal)
        action = choice["action"]
        if action == "exchange":
            cards: list[tuple[str, int | None]] = [("card", position + 1) for position in choice["positions"]]
            return [*cards, ("exchange", None)]
        if action == "insure":
            return [("insure", int(choice["amount"]))]
        return [(INTENTS[action], None)]
