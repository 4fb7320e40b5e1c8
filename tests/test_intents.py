"""The intents' registry: every intent by name has its entry and is carried out by the
terminal (a round's action, or a handler of its own), and a name that is no intent is
refused without a word to the books."""

from __future__ import annotations

from pathlib import Path

from support import books

from oasis_kiosk.config import Config
from oasis_kiosk.machine.intents import INTENTS, ROUND_ACTIONS, Intent
from oasis_kiosk.machine.money_kinds import MONEY_KINDS
from oasis_kiosk.machine.terminal import Terminal


def test_every_intent_has_its_entry_and_every_kind_of_money_its_intent() -> None:
    assert set(INTENTS) == set(Intent)
    assert set(MONEY_KINDS) <= set(Intent)


def test_every_intent_is_carried_out_by_a_round_action_or_a_handler_of_its_own() -> None:
    unhandled = [
        intent for intent in Intent if intent not in ROUND_ACTIONS and not hasattr(Terminal, f"_on_{intent}")
    ]
    assert unhandled == []


def test_a_name_that_is_no_intent_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    before = terminal.store.events()
    response = terminal.handle("dael")
    assert not response.ok
    assert response.message == "unknown input 'dael'"
    assert terminal.store.events() == before
