"""Helpers shared by the round tests."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from oasis_kiosk import Round
from oasis_kiosk.machine.operator import OperatorMenu, hash_pin
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.rules import load_profile
from oasis_kiosk.store.db import Store

if TYPE_CHECKING:
    from oasis_kiosk.store.db.rounds import RoundSettlement, StoredRound


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


def logged_in_menu(terminal: Terminal, pin: str = "243512") -> OperatorMenu:
    """The operator menu of a terminal, with a PIN set and the operator logged in."""
    with terminal.store.transaction():
        terminal.store.set_state("operator_pin", hash_pin(pin))
    terminal.handle("operator_key_on")
    menu = OperatorMenu(terminal)
    menu.login(pin)
    return menu


T = TypeVar("T")


def counted_while(work: Callable[[], T]) -> tuple[T, int]:
    """Runs ``work`` while another thread counts: the count it reaches meanwhile shows
    whether ``work`` released the GIL (it can only count then)."""
    ticks, running = [0], [True]

    def count() -> None:
        while running[0]:
            ticks[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    while ticks[0] == 0:
        time.sleep(0.01)
    before = ticks[0]
    result = work()
    during = ticks[0] - before
    running[0] = False
    counter.join()
    return result, during


def books(path: Path | str, profile: str = "standard") -> Store:
    """The books at ``path``, made the first time as test books (tests stack their decks) in
    the currency of ``profile``."""
    path = Path(path)
    if path.exists():
        return Store(path)
    currency = load_profile(profile).to_dict()["table"]["currency"]
    return Store.create(path, currency=currency, test=True)


def memory_books(currency: str = "EUR") -> Store:
    return Store.in_memory(currency=currency, test=True)


def settled(round_: StoredRound) -> RoundSettlement:
    """The settlement of a round from the books (``Store.rounds``), which the test expects
    to be settled: neither open nor voided."""
    assert round_["state"] == "settled", f"round {round_['id']} is {round_['state']}"
    return round_["settlement"]


REDRAW_DECK = "8h 8d 4c 4h 2d As Kd 9c 6h 3d Qs Js 5d 7h 9s 5c"
"""golden-oasis, two boxes: box 2 (A-K) may buy the game against a dealer's high card, box 1
(two pair) declines; the redraw gives the dealer a pair of fives."""


def golden_oasis_two_boxes(path: Path, deck: str) -> Terminal:
    """A golden-oasis terminal (return bound widened: played at any fee) on books at ``path``,
    200.00 in, two boxes with the bonus, dealt ``deck``."""
    from oasis_kiosk.config import Config, ReturnBounds

    terminal = Terminal(
        Config(database=path, profile="golden-oasis", return_bounds=ReturnBounds(return_max=1.05)),
        books(path, "golden-oasis"),
        deck_for_round=lambda n: deck,
    )
    for intent, value in [*[("bill", 5000)] * 4, ("boxes", None), ("bonus", None), ("deal", None)]:
        assert terminal.handle(intent, value).ok, intent
    return terminal


def three_boxes_played(path: Path, deck: str) -> Terminal:
    """russian-three-box on books at ``path``: 500.00 in, every box (the third blind) dealt
    ``deck``, both boxes looked at played: the round settled."""
    from oasis_kiosk.config import Config

    profile = "russian-three-box"
    terminal = Terminal(
        Config(database=path, profile=profile, bills=(50000,)),
        books(path, profile),
        deck_for_round=lambda n: deck,
    )
    assert terminal.handle("bill", 50000).ok
    while terminal.boxes < terminal.betting.most_boxes:
        assert terminal.handle("boxes").ok
    for intent in ("deal", "play", "play"):
        assert terminal.handle(intent).ok, intent
    return terminal
