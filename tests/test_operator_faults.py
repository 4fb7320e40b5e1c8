"""The operator menu when a write fails: nothing of it is committed and the terminal's memory
is what the books hold, whatever the write had changed in memory before it failed; books with
two rounds open are a tilt at start and a problem of the audit, never a traceback."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from support import books, logged_in_menu, memory_books

from oasis_kiosk.config import Config
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.operator import OperatorError, OperatorMenu
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import StoreError

if TYPE_CHECKING:
    from oasis_kiosk._core import _RoundRecord as RoundRecord


def unresumable(database: Path) -> Terminal:
    """Books with round 1 open and a record that does not replay (the ``resume`` tilt), the
    terminal started on them again."""
    first = Terminal(Config(database=database), books(database))
    first.handle("bill", 5000)
    first.handle("deal")
    assert first.round is not None
    record: RoundRecord = {**first.round.record(), "deck": {"seed": "not a seed"}}
    with first.store.transaction():
        first.store.update_round(1, record, None)
    first.store.close()
    again = Terminal(Config(database=database), books(database))
    assert "resume" in again.tilts
    return again


def failing_commits(terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every transaction of the terminal's books runs its writes, then fails to commit (an
    I/O error at COMMIT): rolled back whole."""
    real = terminal.store.transaction

    @contextmanager
    def failing() -> Iterator[None]:
        with real():
            yield
            raise OSError("the card refused the commit")

    monkeypatch.setattr(terminal.store, "transaction", failing)


def memory(terminal: Terminal) -> dict[str, Any]:
    """What the terminal holds in memory of its books."""
    return {
        "credits": terminal.credits,
        "tilts": dict(terminal.tilts),
        "jackpot": terminal.jackpot,
        "round_id": terminal.round_id,
        "config": terminal.config,
        "handpay": terminal.handpay,
    }


def raised_base(menu: OperatorMenu) -> Callable[[], None]:
    menu.set_jackpot(base=2_000_000, rate="0.01", maximum=6_000_000)
    return menu.reset_jackpot


WRITES: dict[str, Callable[[OperatorMenu], Callable[[], None]]] = {
    "reset_jackpot": raised_base,
    "set_jackpot": lambda menu: lambda: menu.set_jackpot(base=900_000, rate="0.01", maximum=5_000_000),
    "set_language": lambda menu: lambda: menu.set_language("cs"),
    "set_speed": lambda menu: lambda: menu.set_speed("fast"),
    "set_hints": lambda menu: lambda: menu.set_hints(True),
    "reset_period": lambda menu: menu.reset_period,
    "add_credit": lambda menu: lambda: menu.add_credit(500, "a refund"),
    "set_pin": lambda menu: lambda: menu.set_pin("5432154"),
}


@pytest.mark.parametrize("write", sorted(WRITES))
def test_a_menu_write_that_fails_leaves_memory_as_the_books_hold_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: str
) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    menu = logged_in_menu(terminal)
    change = WRITES[write](menu)
    before = memory(terminal)
    failing_commits(terminal, monkeypatch)
    with pytest.raises(Exception, match="the card refused the commit"):
        change()
    monkeypatch.undo()
    assert memory(terminal) == before, "nothing of a write that failed stays in memory"
    terminal.handle("operator_key_off")
    terminal.handle("bill", 5000)  # the next input writes memory back to the books
    report = audit(terminal.store)
    assert report.ok, report.problems


def test_a_void_that_fails_leaves_the_round_open_and_the_deal_blocked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = unresumable(tmp_path / "kiosk.db")
    menu = logged_in_menu(terminal)
    failing_commits(terminal, monkeypatch)
    with pytest.raises(OSError, match="the card refused the commit"):
        menu.void_open_round("record damaged")
    monkeypatch.undo()
    assert "resume" in terminal.tilts, "the round is still open: its tilt stands"
    terminal.handle("operator_key_off")
    assert not terminal.handle("deal").ok, "no round is dealt over one that was never refunded"
    assert [r["id"] for r in terminal.store.rounds() if r["state"] == "open"] == [1]
    menu = logged_in_menu(terminal)
    menu.void_open_round("record damaged")
    terminal.handle("operator_key_off")
    assert terminal.credits == 5000, "everything the round took is refunded, once"
    assert terminal.handle("deal").ok


def two_rounds_open(database: Path) -> None:
    """Sealed books where a second round was opened over an open one that does not replay (as
    a failed void once let happen: ``open_round`` itself now refuses it)."""
    terminal = unresumable(database)
    store = terminal.store
    with store.transaction():
        cursor = store._write(
            "INSERT INTO rounds (started_at, profile, record, state, deck) "
            "SELECT started_at, profile, record, 'open', deck FROM rounds WHERE id = 1",
            (),
        )
        store._seal("rounds", int(cursor.lastrowid or 0))
    store.close()


def test_a_round_is_never_opened_over_an_open_one(tmp_path: Path) -> None:
    terminal = unresumable(tmp_path / "kiosk.db")
    record = terminal.store.rounds()[0]["record"]
    with pytest.raises(StoreError, match="round 1 is still open"), terminal.store.transaction():
        terminal.store.open_round(terminal.profile, record)
    assert [r["id"] for r in terminal.store.rounds()] == [1]


def test_books_with_two_rounds_open_stand_still_with_a_books_tilt_and_fail_the_audit(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    two_rounds_open(database)
    terminal = Terminal(Config(database=database), books(database))
    assert "2 rounds are open at once" in terminal.tilts["books"]
    assert not terminal.handle("deal").ok
    report = audit(terminal.store)
    assert "rounds 1 and 2 are both open" in report.problems


def handpay_after_a_stopped_payout() -> Terminal:
    """A hopper cash-out of 1 000 stopped after 3 coins: a handpay of 700 pending."""
    terminal = Terminal(Config(cashout="hopper", hopper_coin=100), memory_books())
    for _ in range(5):
        terminal.handle("coin", 200)
    terminal.handle("cashout")
    for _ in range(3):
        terminal.payout_item_paid(100)
    terminal.handle("attendant")
    terminal.payout_ended(700)
    assert terminal.handpay == 700
    return terminal


def test_a_late_coin_takes_its_value_off_the_handpay_and_nothing_else() -> None:
    """Coins booked and the handpay are what was cashed out, whatever else is on the credits:
    a late coin once made the handpay all the credits."""
    terminal = handpay_after_a_stopped_payout()
    terminal.credit_by_operator(500, "a credit that came in meanwhile")
    assert terminal.payout_item_paid(100).ok
    assert terminal.handpay == 600
    assert terminal.handle("attendant").ok
    assert terminal.credits == 500, "what came in after the cash-out stays on the credits"
    assert audit(terminal.store).ok


@pytest.mark.parametrize(
    "change",
    [
        lambda menu: menu.add_credit(500, "a refund"),
        lambda menu: menu.set_rules("caribbean"),
        lambda menu: menu.reset_period(),
        lambda menu: menu.set_jackpot(base=2_000_000, rate="0.01", maximum=6_000_000),
        lambda menu: menu.reset_jackpot(),
    ],
    ids=["add_credit", "set_rules", "reset_period", "set_jackpot", "reset_jackpot"],
)
def test_the_menu_changes_no_money_or_rules_while_a_handpay_is_pending(
    change: Callable[[OperatorMenu], None],
) -> None:
    terminal = handpay_after_a_stopped_payout()
    menu = logged_in_menu(terminal)
    before = (
        terminal.credits,
        terminal.handpay,
        terminal.profile.id,
        terminal.store.get_state("period_baseline"),
    )
    with pytest.raises(OperatorError, match="handpay"):
        change(menu)
    after = (
        terminal.credits,
        terminal.handpay,
        terminal.profile.id,
        terminal.store.get_state("period_baseline"),
    )
    assert after == before


@pytest.mark.parametrize(
    "jackpot",
    [
        {"base": 1.5, "rate": "0.01", "maximum": 6_000_000},
        {"base": True, "rate": "0.01", "maximum": 6_000_000},
        {"base": "1000000", "rate": "0.01", "maximum": 6_000_000},
        {"base": 1_000_000, "rate": "0.01", "maximum": 6_000_000.0},
    ],
)
def test_the_jackpot_is_refused_where_the_configuration_would_refuse_it(
    tmp_path: Path, jackpot: dict[str, Any]
) -> None:
    """A base of 1.5 was stored, and the next start refused its own books' setting."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    menu = logged_in_menu(terminal)
    with pytest.raises(OperatorError, match="the jackpot"):
        menu.set_jackpot(**jackpot)
    assert terminal.store.get_state("jackpot_config") is None
    terminal.store.close()
    assert not Terminal(Config(database=database), books(database)).tilts
