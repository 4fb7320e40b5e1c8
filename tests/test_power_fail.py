"""Power cuts: the headless terminal is killed with SIGKILL at random instants across a whole
scripted session and started again each time on the same database; and, in this process,
the power is cut after each of the session's commits in turn.

After every restart the audit must pass, and at the end the database must hold exactly
what an uninterrupted run of the same script holds: every coin, wager, win, jackpot
contribution (lost antes' included) and round once, none lost and none doubled. Cash-outs go through the hopper (one the attendant's key
stops halfway), the door opens and closes, the operator's key turns and turns back. A
kill during a payout changes only how the money out splits between coins and the
handpay, never its sum. Sessions are repeated until 25 kills have landed.
"""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from support import books

from oasis_kiosk import cli
from oasis_kiosk.config import load_config
from oasis_kiosk.hardware.script import run as script_run
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.store.db import Store
from oasis_kiosk.store.db.connection import Connection

SEED_BASE = "5a" * 32
KILLS = 25
CONFIG = """
[terminal]
cashout = "hopper"
[money]
hopper_coin = 500
[devices]
buttons = { attendant = 7 }
hopper = { motor = 40, exit = 41 }
[jackpot]
lost_ante_rate = "1/1000"
"""
PAID_OUT = {"cash_out", "handpay"}


def session_script(rounds: int) -> str:
    """Coins, bets (the betting keys too, a box bet alone) and rounds with exchanges, plays
    and folds, some inputs not live, the door and the operator's key, a hopper payout the attendant stops
    halfway, a cash-out."""
    rng = random.Random(2026)
    lines = ["bill 5000", "bill 5000", "bill 5000", "coin 500", "coin 3", "bonus"]
    for number in range(rounds):
        if number == rounds // 2:
            lines += ["cashout", "wait 0.3", "key attendant", "wait 0.1", "key attendant"]
            lines += ["door open", "bill 5000", "door close", "bill 5000", "key operator", "deal"]
            lines += ["key operator", "bill 5000", "bill 5000"]
        if number % 5 == 4:
            lines.append("bet")
        if number % 6 == 2:  # the betting keys' state is on the books too; REPEAT BET deals
            lines += ["bet", "bet down", "bonus", "repeat bet"]  # the DEAL after it is not live
        if number == 3:  # two boxes, the second bet alone at an ante of its own
            lines += ["bill 5000", "bill 5000", "boxes", "select 2", "bet", "select 2"]
        if number == 4:  # back to one box
            lines += ["boxes", "boxes"]
        if number == rounds - 1:
            lines += ["max bet", "bet down"]
        lines.append("deal")
        for card in rng.sample(range(1, 6), rng.randint(0, 2)):
            lines.append(f"select {card}")
        lines += ["exchange", rng.choice(["play", "play", "fold"]), "decline", "coin 200"]
        if number == 3:
            lines.append("fold")  # the second box's decision
    # The key stops the hopper, the next pays what it left by hand; after a kill during the
    # payout the restart has made the rest a handpay already, and the first key pays it.
    lines += ["cashout", "wait 1.5", "key attendant", "wait 0.1", "key attendant"]
    return "\n".join(lines) + "\n"


def start(database: Path, script: Path) -> subprocess.Popen[bytes]:
    if not database.exists():
        books(database).close()
    config = script.with_suffix(".toml")
    command = [sys.executable, "-m", "oasis_kiosk", "run", "--headless", "--config", str(config)]
    command += ["--script", str(script), "--db", str(database), "--seed-base", SEED_BASE]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def contents(database: Path) -> dict[str, Any]:
    """What a session leaves behind, without timestamps and start-up counts; each cash-out's
    coins and handpay as one sum paid out (a kill during a payout hands the rest to the
    attendant)."""
    store = Store(database, read_only=True)
    try:
        meters = store.meters()
        meters.pop("power_ups")
        meters["paid out"] = meters.pop("hopper_out", 0) + meters.pop("handpays", 0)
        ledger: list[tuple[Any, ...]] = []
        for r in store.ledger():
            if r.kind in PAID_OUT and ledger and ledger[-1][0] == "paid out":
                ledger[-1] = ("paid out", ledger[-1][1] + r.amount, r.credits_after)
            elif r.kind in PAID_OUT:
                ledger.append(("paid out", r.amount, r.credits_after))
            else:
                ledger.append((r.kind, r.amount, r.credits_after, r.round_id, r.detail))
        return {
            "ledger": ledger,
            "meters": meters,
            "rounds": [(r["record"], r["settlement"], r["state"]) for r in store.rounds()],
        }
    finally:
        store.close()


@pytest.mark.slow
def test_no_kill_loses_or_doubles_money_or_a_round(tmp_path: Path) -> None:
    script = tmp_path / "session.txt"
    script.write_text(session_script(rounds=16))
    script.with_suffix(".toml").write_text(CONFIG)

    reference = tmp_path / "reference.db"
    began = time.monotonic()
    finished = start(reference, script)
    _, errors = finished.communicate(timeout=120)
    assert finished.returncode == 0, errors.decode()
    duration = time.monotonic() - began
    expected = contents(reference)
    assert len(expected["rounds"]) == 16, "the money lasts the whole session"
    meters = Store(reference, read_only=True).meters()
    assert meters["hopper_out"] > 0, "coins were paid out"
    assert meters["door_opens"] == 1
    assert [kind for kind, *_ in expected["ledger"]].count("paid out") == 2, "two cash-outs"

    # Sessions are killed at random instants, restarted until they finish, and each must end
    # as the reference did; as many sessions as it takes to land KILLS kills.
    rng = random.Random(7)
    kills = sessions = 0
    while kills < KILLS:
        sessions += 1
        assert sessions <= 20, f"only {kills} kills landed in 20 sessions"
        database = tmp_path / f"killed-{sessions}.db"
        for _ in range(200):
            process = start(database, script)
            time.sleep(rng.uniform(0.0, duration))
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                kills += 1
            _, errors = process.communicate(timeout=120)
            reading = Store(database, read_only=True)
            report = audit(reading)
            reading.close()
            assert report.ok, report.problems
            if process.returncode == 0:
                break
            assert process.returncode == -signal.SIGKILL, errors.decode()
        assert contents(database) == expected, f"session {sessions} differs from the uninterrupted run"


class PowerCut(BaseException):
    """The power going at a chosen instant: nothing after it runs, as under SIGKILL."""


@pytest.mark.slow
@pytest.mark.parametrize(("books_mark", "every"), [("after", 1), ("before", 5)])
def test_a_power_cut_after_any_commit_of_a_session_resumes_to_the_same_books(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, books_mark: str, every: int
) -> None:
    """Where the random kills above may miss a narrow window, this cuts the power after each
    commit of the whole session in turn (``every`` one: each commit, or each fifth), either
    once the books mark has followed it or before it could, starts again on the same books
    and finishes the script: every such session must end with the books the uninterrupted
    one has. The session runs in this process, its waits taking no time."""
    script = tmp_path / "session.txt"
    script.write_text(session_script(rounds=16))
    script.with_suffix(".toml").write_text(CONFIG)
    commits, cut_at = [0], [0]
    write_mark = Connection._write_mark

    def commit_then_maybe_cut(connection: Connection) -> None:
        if books_mark == "after":
            write_mark(connection)
        commits[0] += 1
        if commits[0] == cut_at[0]:
            raise PowerCut
        if books_mark == "before":
            write_mark(connection)

    monkeypatch.setattr(Connection, "_write_mark", commit_then_maybe_cut)
    monkeypatch.setattr(cli, "run", functools.partial(script_run, sleep=lambda seconds: None))

    def session(database: Path, cut: int = 0) -> None:
        commits[0], cut_at[0] = 0, cut
        config = replace(load_config(script.with_suffix(".toml")), database=database)
        assert cli.run_headless(config, script, bytes.fromhex(SEED_BASE), None, demo=False) == 0

    reference = tmp_path / "reference.db"
    books(reference).close()
    session(reference)
    expected, total = contents(reference), commits[0]
    assert [kind for kind, *_ in expected["ledger"]].count("paid out") == 2, "two cash-outs"
    for cut in range(1, total + 1, every):
        database = tmp_path / f"cut-{cut}.db"
        books(database).close()
        with pytest.raises(PowerCut):
            session(database, cut)
        session(database)
        reading = Store(database, read_only=True)
        report = audit(reading)
        reading.close()
        assert report.ok, (cut, report.problems)
        assert contents(database) == expected, (
            f"the power cut after commit {cut} of {total} changed the books"
        )
