"""Helpers shared by the round tests."""

from __future__ import annotations

import json
from typing import Any

from oasis_kiosk import Round
from oasis_kiosk.machine.operator import OperatorMenu, hash_pin
from oasis_kiosk.machine.terminal import Terminal


def snapshot(round_: Round) -> tuple[Any, ...]:
    """Everything an action could change, to show that a refused one changed nothing."""
    return (
        json.dumps(round_.record()),
        round_.phase,
        round_.current_box,
        round_.credit,
        round_.collected,
        [round_.box_cards(i) for i in range(round_.box_count)],
        round_.dealer_cards,
        round_.legal_actions(),
    )


def logged_in_menu(terminal: Terminal, pin: str = "2468") -> OperatorMenu:
    """The operator menu of a terminal, with a PIN set and the operator logged in."""
    with terminal.store.transaction():
        terminal.store.set_state("operator_pin", hash_pin(pin))
    terminal.handle("operator_key_on")
    menu = OperatorMenu(terminal)
    menu.login(pin)
    return menu
