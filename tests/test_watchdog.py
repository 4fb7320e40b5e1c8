"""A stolen cabinet login cannot stop the floor: one that holds the pool's lock in an open
transaction (its own timeouts turned off) is ended by the owner's watchdog (``hub
watchdog``), which records it, and the honest cabinets' agents carry on (docs/floor.md)."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from floor import FloorHub, linked_terminal, new_hub, play, push
from postgres import Postgres

from oasis_kiosk.cli import main
from oasis_kiosk.floor import access, agent, hub, migrate, watchdog
from oasis_kiosk.floor.errors import HubError

HOLD = 2.0
"""The tests' bound, shorter than the default so that they take less time."""


def take_the_pool(connection: psycopg.Connection[Any]) -> None:
    """As a stolen login would: a stake received in an open transaction (its trigger takes the
    pool's row FOR UPDATE), and the login's own limits turned off."""
    connection.execute("BEGIN")
    connection.execute(
        "INSERT INTO hub.events (seq, kind, payload, committed_at)"
        ' VALUES (1, \'jackpot_contribution\', \'{"stake": 100, "round_id": "r1"}\', now())'
    )
    connection.execute("SET statement_timeout = 0")
    connection.execute("SET idle_in_transaction_session_timeout = 0")


def honest_cabinet(floor: FloorHub, name: str, tmp_path: Path) -> Path:
    """A linked terminal whose books hold stakes on the jackpot, not yet pushed; its books."""
    floor.add_cabinet(name)
    database = tmp_path / name / "kiosk.db"
    database.parent.mkdir()
    terminal = linked_terminal(database)
    play(terminal, 2)
    terminal.store.close()
    return database


def in_background(work: Any) -> tuple[threading.Thread, list[Any]]:
    """``work()`` in a thread; ``outcome`` gets what it returned, or the error it raised."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(work())
        except Exception as error:  # reported by the test, not lost in the thread
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


@pytest.fixture
def guard(floor: FloorHub) -> Iterator[watchdog.Watchdog]:
    """The watchdog, running as the hub's owner, in a thread."""
    dog = watchdog.Watchdog(lambda: access.connect(floor.owner_dsn, **watchdog.SESSION_OPTIONS), HOLD)
    thread = threading.Thread(target=dog.run, daemon=True)
    thread.start()
    try:
        yield dog
    finally:
        dog.stop()
        thread.join(10)


def ended_sessions(floor: FloorHub) -> list[tuple[Any, ...]]:
    return floor.owner.execute(
        """SELECT c.name, e.pid, e.held_ms, e.state, e.query
             FROM hub.sessions_ended e JOIN hub.cabinets c ON c.id = e.cabinet_id ORDER BY e.id"""
    ).fetchall()


def recorded(floor: FloorHub) -> list[tuple[Any, ...]]:
    """The sessions ended, once the watchdog has recorded one (it records each right after
    ending it, while the floor may already go on); none after 30 s."""
    deadline = time.monotonic() + 30
    while not (found := ended_sessions(floor)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def honest_push_completes(floor: FloorHub, tmp_path: Path) -> Path:
    """c02's link agent pushes its stakes while the pool is held; its books."""
    database = honest_cabinet(floor, "c02", tmp_path)
    pushing, outcome = in_background(lambda: push(database, floor.credentials("c02")))
    pushing.join(30)
    assert not pushing.is_alive(), "the honest cabinet's push still waits for the pool"
    (sent,) = outcome
    assert isinstance(sent, int), sent
    assert sent > 0
    with floor.cabinet("c02") as c02:
        assert hub.held(c02) == sent
        assert c02.execute("SELECT count(*) FROM hub.contributions").fetchone() == (2,)
    return database


def test_a_login_idle_in_its_transaction_with_the_pool_cannot_stop_the_floor(
    floor: FloorHub, tmp_path: Path, guard: watchdog.Watchdog, capsys: pytest.CaptureFixture[str]
) -> None:
    floor.add_cabinet("c01")
    stolen = floor.cabinet("c01")
    take_the_pool(stolen)
    stolen_pid = stolen.info.backend_pid
    books = honest_push_completes(floor, tmp_path)
    with pytest.raises(psycopg.OperationalError):
        stolen.execute("SELECT 1")
    ((name, pid, held_ms, state, _query),) = recorded(floor)
    assert (name, pid, state) == ("c01", stolen_pid, "idle in transaction")
    assert held_ms >= HOLD * 1000
    with floor.cabinet("c01") as c01:
        assert hub.held(c01) == 0, "nothing of its transaction was kept"
    reconcile = ["hub", "reconcile", "--books", f"c02={books}", "--skip", "c01", "--dsn", floor.owner_dsn]
    assert main(reconcile) == 0
    said = capsys.readouterr().out
    assert "sessions the watchdog ended since the last reconciliation (1):" in said
    assert f"cabinet c01: its session (role {floor.dbname}_cabinet_c01, pid {stolen_pid}) was ended" in said
    assert main(reconcile) == 0
    assert "the watchdog ended" not in capsys.readouterr().out, "told once"


def test_a_long_statement_holding_the_pool_is_ended(
    floor: FloorHub, tmp_path: Path, guard: watchdog.Watchdog
) -> None:
    floor.add_cabinet("c01")
    stolen = floor.cabinet("c01")
    take_the_pool(stolen)
    stolen_pid = stolen.info.backend_pid
    sleeping, outcome = in_background(lambda: stolen.execute("SELECT pg_sleep(600)"))
    honest_push_completes(floor, tmp_path)
    sleeping.join(30)
    (error,) = outcome
    assert isinstance(error, psycopg.OperationalError), error
    ((name, pid, _held, state, query),) = recorded(floor)
    assert (name, pid, state) == ("c01", stolen_pid, "active")
    assert "pg_sleep(600)" in query


def test_a_login_that_chains_short_statements_holding_the_pool_is_ended(
    floor: FloorHub, tmp_path: Path, guard: watchdog.Watchdog
) -> None:
    """Never idle, never one long statement: its transaction is what holds the pool."""
    floor.add_cabinet("c01")
    stolen = floor.cabinet("c01")
    take_the_pool(stolen)
    stolen_pid = stolen.info.backend_pid

    def chain() -> None:
        while True:
            stolen.execute("SELECT pg_sleep(0.2)")

    chaining, outcome = in_background(chain)
    honest_push_completes(floor, tmp_path)
    chaining.join(30)
    (error,) = outcome
    assert isinstance(error, psycopg.OperationalError), error
    assert [row[:2] for row in recorded(floor)] == [("c01", stolen_pid)]


def test_the_link_agent_waits_longer_than_the_watchdog_takes_to_free_the_pool() -> None:
    """A batch waiting behind a stolen login is freed before its own statement timeout."""
    dog = watchdog.Watchdog(lambda: pytest.fail("no connection needed"))
    assert dog.hold_seconds + dog.look_every < agent.STATEMENT_TIMEOUT
    assert f"statement_timeout={agent.STATEMENT_TIMEOUT * 1000}" in agent.CONNECTION_OPTIONS["options"]


def test_only_cabinets_sessions_are_ended_and_not_one_queued_for_the_pool(floor: FloorHub) -> None:
    """The owner's and a dashboard's transactions on the pool stay, however long; a cabinet's
    batch waiting its turn behind the stolen login is not counted as holding the pool."""
    floor.add_cabinet("c01")
    stolen = floor.cabinet("c01")
    take_the_pool(stolen)
    owner = access.connect(floor.owner_dsn)
    floor.closing.append(owner)
    owner.execute("BEGIN")
    owner.execute("LOCK TABLE hub.pool IN ROW SHARE MODE")
    office = access.connect(floor.add_dashboard())
    floor.closing.append(office)
    office.execute("BEGIN")
    office.execute("SELECT value FROM hub.pool")
    floor.add_cabinet("c03")
    queued = floor.cabinet("c03")
    queued.execute("BEGIN")  # its batch's transaction, which holds the pool once it has it
    waiting, outcome = in_background(
        lambda: queued.execute(
            "INSERT INTO hub.events (seq, kind, payload, committed_at)"
            ' VALUES (1, \'jackpot_contribution\', \'{"stake": 100, "round_id": "r1"}\', now())'
        )
    )
    while floor.owner.execute(
        "SELECT wait_event_type IS DISTINCT FROM 'Lock' FROM pg_stat_activity WHERE pid = %s",
        [queued.info.backend_pid],
    ).fetchone() != (False,):
        time.sleep(0.05)
    times = itertools.count(0, 1000)  # every look 1000 s after the one before
    dog = watchdog.Watchdog(lambda: access.connect(floor.owner_dsn), HOLD, clock=lambda: float(next(times)))
    stolen_pid = stolen.info.backend_pid
    try:
        assert dog.look() == []  # first seen: nobody has held it long yet
        assert [(ended.cabinet, ended.pid) for ended in dog.look()] == [("c01", stolen_pid)]
        waiting.join(10)
        (inserted,) = outcome
        assert not isinstance(inserted, Exception), inserted
        assert dog.look() == [], "c03's batch had just got the pool"
        queued.execute("COMMIT")
    finally:
        dog.close()
    assert [row[0] for row in ended_sessions(floor)] == ["c01"]
    assert owner.execute("SELECT 1").fetchone() == (1,)
    assert office.execute("SELECT 1").fetchone() == (1,)


def test_a_login_waiting_on_an_advisory_lock_while_it_holds_the_pool_is_not_queued(floor: FloorHub) -> None:
    """Any login may take an advisory lock: two stolen logins could otherwise pass one for a
    batch waiting its turn, the other holding the lock it waits for and no pool at all."""
    floor.add_cabinet("c01")
    floor.add_cabinet("c04")
    accomplice = floor.cabinet("c04")
    accomplice.execute("SELECT pg_advisory_lock(42)")
    stolen = floor.cabinet("c01")
    take_the_pool(stolen)
    stolen_pid = stolen.info.backend_pid
    waiting, outcome = in_background(lambda: stolen.execute("SELECT pg_advisory_xact_lock(42)"))
    while floor.owner.execute(
        "SELECT wait_event_type IS DISTINCT FROM 'Lock' FROM pg_stat_activity WHERE pid = %s", [stolen_pid]
    ).fetchone() != (False,):
        time.sleep(0.05)
    times = itertools.count(0, 1000)
    dog = watchdog.Watchdog(lambda: access.connect(floor.owner_dsn), HOLD, clock=lambda: float(next(times)))
    try:
        assert dog.look() == []
        assert [(ended.cabinet, ended.pid) for ended in dog.look()] == [("c01", stolen_pid)]
    finally:
        dog.close()
    waiting.join(10)
    (error,) = outcome
    assert isinstance(error, psycopg.OperationalError), error


def test_a_cabinet_added_before_the_watchdog_may_have_its_session_ended(
    postgres: Postgres, tmp_path: Path
) -> None:
    """Migration 0013 gives the owner the right for the cabinets already there, as ``hub
    add-cabinet`` does for each new one."""
    before = tmp_path / "migrations"
    before.mkdir()
    for path in sorted(migrate.MIGRATIONS.glob("*.sql"))[:12]:
        shutil.copy(path, before)
    floor = new_hub(postgres, tmp_path, migrations=before)
    try:
        floor.add_cabinet("c01")
        migrate.migrate(floor.owner)
        stolen = floor.cabinet("c01")
        take_the_pool(stolen)
        stolen_pid = stolen.info.backend_pid
        times = itertools.count(0, 1000)
        dog = watchdog.Watchdog(
            lambda: access.connect(floor.owner_dsn), HOLD, clock=lambda: float(next(times))
        )
        try:
            assert dog.look() == []
            assert [(ended.cabinet, ended.pid) for ended in dog.look()] == [("c01", stolen_pid)]
        finally:
            dog.close()
    finally:
        floor.close()


@pytest.mark.parametrize("bound", ["0", "-1", "-0.5", "five", "nan", "inf", ""])
def test_a_bad_bound_is_refused_before_anything_is_done(
    bound: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    unreachable = f"host={tmp_path} port=1 dbname=none user=nobody connect_timeout=1"
    with pytest.raises(SystemExit) as stopped:
        main(["hub", "watchdog", "--hold-seconds", bound, "--dsn", unreachable])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "--hold-seconds" in err
    assert "not a number of seconds" in err
    assert "cannot reach the hub" not in err


@pytest.mark.parametrize("bound", [0, -1.0, float("nan"), float("inf")])
def test_the_watchdog_itself_refuses_a_bad_bound(bound: float) -> None:
    calls: list[None] = []

    def connect() -> psycopg.Connection[Any]:
        calls.append(None)
        raise AssertionError("it connected")

    with pytest.raises(HubError, match="the watchdog's bound is a number of seconds above 0"):
        watchdog.Watchdog(connect, bound)
    assert calls == []


def test_the_watchdog_command_is_the_owners_only(floor: FloorHub, capsys: pytest.CaptureFixture[str]) -> None:
    office = floor.add_dashboard()
    assert main(["hub", "watchdog", "--credentials", str(office)]) == 2
    assert f"hub watchdog runs as the hub's owner, {floor.owner_role}" in capsys.readouterr().err


def test_the_watchdog_outlives_a_restart_of_the_hub(tmp_path: Path) -> None:
    server = Postgres.start(durable=True)  # what it committed outlives the kill
    floor = new_hub(server, tmp_path)
    command = [sys.executable, "-m", "oasis_kiosk", "hub", "watchdog", "--hold-seconds", str(HOLD)]
    log = tmp_path / "watchdog.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [*command, "--dsn", floor.owner_dsn], stdout=out, stderr=subprocess.STDOUT, env=os.environ
        )
    try:
        floor.add_cabinet("c01")
        deadline = time.monotonic() + 30
        while "ending any cabinet's session" not in log.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            time.sleep(0.1)
        floor.owner.close()
        server.kill()
        server.resume()
        floor.owner = access.connect(floor.owner_dsn)
        stolen = floor.cabinet("c01")
        take_the_pool(stolen)
        stolen_pid = stolen.info.backend_pid
        assert [row[:2] for row in recorded(floor)] == [("c01", stolen_pid)]
        process.terminate()
        assert process.wait(15) == 0
        said = log.read_text()
        assert "cannot watch the hub" in said
        assert "the hub is reached again" in said
        assert f"cabinet c01: its session (role {floor.dbname}_cabinet_c01, pid {stolen_pid})" in said
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        floor.close()
        server.stop()
