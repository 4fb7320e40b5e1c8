"""The terminal when things go wrong: money at odd moments, failing writes, a full disk, late
hopper coins, an unreplayable round, and an audit that must notice tampering."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from support import books, logged_in_menu

from oasis_kiosk import i18n
from oasis_kiosk.cli import describe_round
from oasis_kiosk.config import Config, ConfigError, load_config
from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.hardware.script import ScriptStoppedError, run
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.money_kinds import COIN
from oasis_kiosk.machine.operator import OperatorError
from oasis_kiosk.machine.terminal import Terminal, seeds_from

if TYPE_CHECKING:
    from oasis_kiosk._core import _RoundRecord as RoundRecord

SEEDS = seeds_from(bytes(32))


def terminal(database: Path, **config: object) -> Terminal:
    return Terminal(Config(database=database, **config), books(database), seed_for_round=SEEDS)  # type: ignore[arg-type]


def test_money_arriving_during_a_round_is_credited_and_the_round_still_settles(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    t.handle("bill", 5000)
    t.handle("deal")
    assert t.accept_money(COIN, 100).ok
    assert t.handle("fold").ok
    assert t.round is None
    assert t.credits == 5000 - 1000 + 100
    assert audit(t.store).ok


def test_a_failure_inside_an_input_commits_nothing_and_leaves_memory_as_the_books(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = terminal(tmp_path / "kiosk.db")
    t.handle("bill", 5000)
    t.handle("bonus")
    t.handle("deal")
    record, jackpot = t.round.record() if t.round else None, t.jackpot
    real_post = t.store.post

    def failing_post(kind: str, amount: int, **detail: object) -> int:
        if kind in {"win", "wager"}:
            raise RuntimeError("the disk controller hiccupped")
        return real_post(kind, amount, **detail)  # type: ignore[arg-type]

    monkeypatch.setattr(t.store, "post", failing_post)
    response = t.handle("play")
    assert response.message == "fault: the disk controller hiccupped"
    i18n.use("cs")
    try:  # the error's English words are the log's; the screen says a fault in its language
        assert response.text(str) == "porucha"
    finally:
        i18n.use("en")
    assert t.tilts["fault"] == "the disk controller hiccupped"
    assert t.round is not None
    assert t.round.record() == record, "the round is as the database has it"
    assert t.jackpot == jackpot
    monkeypatch.undo()
    assert audit(t.store).ok


def test_a_full_disk_is_a_database_tilt_not_a_crash(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    t.handle("bill", 5000)
    pages = t.store._db.execute("PRAGMA page_count").fetchone()[0]
    t.store._db.execute(f"PRAGMA max_page_count = {pages}")
    responses = [t.handle("door_open" if n % 2 == 0 else "door_close") for n in range(400)]
    failed = [r for r in responses if not r.ok]
    assert failed, "the disk fills up"
    assert failed[0].message.startswith("database error:")
    assert "database" in t.tilts
    assert t.credits == 5000


def test_a_coin_the_hopper_did_not_owe_is_booked_and_tilts(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = terminal(database, cashout="hopper", hopper_coin=100)
    t.handle("bill", 500)
    t.handle("coin", 50)
    t.handle("cashout")
    for _ in range(5):
        assert t.payout_item_paid(100).ok
    assert t.payout_ended(short=0).message == "handpay of 50: call the attendant"
    late = t.payout_item_paid(100)
    assert not late.ok
    assert t.store.meters()["hopper_overpaid"] == 100
    assert "hopper_overpaid" in t.tilts
    assert t.credits == 50
    assert audit(t.store).ok


def test_the_attendant_can_stop_a_payout_and_hopper_cashout_needs_a_hopper(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db", cashout="hopper", hopper_coin=100)
    t.handle("bill", 500)
    t.handle("cashout")
    assert t.handle("attendant").message == "A payout stopped before it was complete."
    assert t.payout_ended(short=500).message == "handpay of 500: call the attendant"
    assert t.handle("attendant").message == "handpay of 500 paid"
    path = tmp_path / "config.toml"
    path.write_text("[terminal]\ncashout = 'hopper'\n")
    with pytest.raises(ConfigError, match="'hopper' needs a hopper in \\[devices\\]"):
        load_config(path)


def test_the_door_counts_even_during_a_handpay(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    t.handle("bill", 500)
    t.handle("cashout")
    assert t.handle("door_open").ok
    assert t.store.meters()["door_opens"] == 1
    t.handle("attendant")
    assert "deal" not in t.live(), "no play with the door open"
    t.handle("door_close")
    assert t.live() >= {"bill", "door_open"}


def test_a_round_that_cannot_resume_blocks_the_deal_until_the_operator_voids_it(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = terminal(database)
    t.handle("bill", 5000)
    t.handle("bonus")
    t.handle("deal")
    # A record this terminal journalled but cannot replay (written by a version before an
    # upgrade, say): sealed, so the books are sound, and the round still cannot resume.
    assert t.round is not None
    record: RoundRecord = {**t.round.record(), "deck": {"seed": "not a seed"}}
    with t.store.transaction():
        t.store.update_round(1, record, None)
    t.store.close()

    again = terminal(database)
    assert "resume" in again.tilts
    assert not again.handle("attendant").ok, "the attendant alone cannot make the round go away"
    logged_in_menu(again).void_open_round("record damaged")
    again.handle("operator_key_off")
    assert again.credits == 5000, "everything the round took is refunded"
    assert "resume" not in again.tilts
    assert again.handle("deal").ok
    report = audit(again.store)
    assert report.ok, report.problems
    header, _actions = describe_round(again.store.rounds()[0])
    assert "  voided  antes" in header, "the console recalls a voided round too"


def test_a_round_a_failed_self_test_holds_still_is_voided_by_the_operator_and_refunded(
    tmp_path: Path,
) -> None:
    """A round open when the power went, and a self-test finding at the start (the rules'
    approved return narrowed, say): nothing could play the round on, and the operator's
    void had been refused because the round had resumed, so the stakes waited for good."""
    database = tmp_path / "kiosk.db"
    t = terminal(database)
    t.handle("bill", 5000)
    t.handle("deal")
    assert t.round is not None
    t.store.close()
    again = terminal(database)
    assert again.round is not None, "the round resumed"
    menu = logged_in_menu(again)
    assert not menu.round_to_void, "the service page offers no void of a round that plays on"
    with pytest.raises(OperatorError, match="play it to the end"):
        menu.void_open_round("the player left")
    again.record_self_test(["configuration: the return is above the approved maximum"])
    assert not again.handle("play").ok
    assert menu.round_to_void, "the service page offers its void"
    menu.void_open_round("held by the self-test")
    assert not menu.round_to_void
    assert again.round is None
    assert again.credits == 5000, "everything the round took is refunded"
    assert again.store.unfinished_round() is None
    assert "self_test" in again.tilts, "the finding stands until a start passes"
    again.store.close()
    after = terminal(database)
    assert after.round is None
    assert audit(after.store).ok


def test_a_rules_change_switches_off_a_bonus_the_new_rules_do_not_have(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db", credit_limit=10**6)
    assert t.handle("bonus").ok
    assert t.bonus_stake
    logged_in_menu(t).set_rules("caribbean")  # no credits on: the rules may change
    t.handle("operator_key_off")
    for _ in range(20):
        t.handle("bill", 5000)
    assert not t.bonus_stake
    assert t.handle("deal").ok


def test_an_absurd_value_is_refused_not_a_crash(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    assert (
        t.handle("insure", 10**30).message
        == f"insure {10**30}: a value is a whole number from 0 to 1000000000000"
    )


@pytest.mark.parametrize("value", [1.5, 2.0, 5000.0, "200", [200], b"200", True, float("nan")])
@pytest.mark.parametrize("intent", ["card", "coin", "bill", "insure", "bet"])
def test_a_value_that_is_not_a_whole_number_is_refused_and_changes_nothing(
    tmp_path: Path, intent: str, value: object
) -> None:
    """A card of 1.5 was taken and saved as the selection, and the books then never opened
    again; a note of 5000.0 was credited on a meter of its own."""
    t = terminal(tmp_path / "kiosk.db")
    t.handle("bill", 5000)
    t.handle("deal")
    before = (t.credits, set(t.selected), t.store.meters(), t.store.get_state("terminal"))
    response = t.handle(intent, value)  # type: ignore[arg-type]
    assert not response.ok
    assert response.message == f"{intent} {value!r}: a value is a whole number from 0 to 1000000000000"
    assert (t.credits, set(t.selected), t.store.meters(), t.store.get_state("terminal")) == before
    assert not t.tilts
    assert not t.tilts


def test_the_audit_notices_meters_the_jackpot_and_a_round_split_tampered(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = terminal(database)
    t.handle("bill", 5000)
    t.handle("bonus")
    t.handle("deal")
    t.handle("fold")
    assert audit(t.store).ok
    t.store.close()
    raw = sqlite3.connect(database)
    raw.execute("INSERT INTO meters (name, value) VALUES ('handpays', 5000)")
    state = json.loads(raw.execute("SELECT value FROM state WHERE key = 'terminal'").fetchone()[0])
    state["jackpot"]["value"] += 99
    raw.execute("UPDATE state SET value = ? WHERE key = 'terminal'", (json.dumps(state),))
    raw.execute("UPDATE ledger SET amount = amount - 7 WHERE kind = 'wager'")
    raw.execute(
        "UPDATE ledger SET credits_after = credits_after - 7 WHERE id > (SELECT id FROM ledger WHERE kind = 'bill_in')"
    )
    raw.commit()
    raw.close()
    problems = "\n".join(audit(books(database)).problems)
    assert "meter handpays is 5000, the ledger says 0" in problems
    assert "the jackpot holds" in problems
    assert "round 1: the ledger took 1207, the round 1200" in problems


def test_a_script_stops_at_a_line_the_database_would_not_take(tmp_path: Path) -> None:
    database, script = tmp_path / "kiosk.db", tmp_path / "s.txt"
    script.write_text("bill 5000\ncoin 100\ncoin 200\n")
    t = terminal(database)
    blocker = sqlite3.connect(database, timeout=0)
    t.handle("bill", 5000)
    blocker.execute("BEGIN IMMEDIATE")
    t.store._db.execute("PRAGMA busy_timeout = 0")
    with pytest.raises(ScriptStoppedError, match="line 1: bill 5000: database error"):
        run(MockCabinet(t), script, report=lambda line: None)
    blocker.rollback()
    blocker.close()
    t.store.close()
    again = terminal(database)
    again.handle("attendant")
    run(MockCabinet(again), script, report=lambda line: None)
    assert again.credits == 5000 + 5000 + 100 + 200, "every line ran once, none lost"
