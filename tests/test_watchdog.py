"""A stolen cabinet login cannot stop the floor: one that holds the pool's lock in an open
transaction (its own timeouts turned off) is ended by the owner's watchdog (``hub
watchdog``), which records it, and the honest cabinets' agents carry on (docs/floor.md)."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import stat
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
    assert floor.owner.execute("SELECT last_seq FROM hub.cabinets WHERE name = 'c01'").fetchone() == (0,), (
        "nothing of its transaction was kept"
    )
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
        ended = sorted((ended.cabinet, ended.pid, ended.reason) for ended in dog.look())
        assert ended == [  # in any order: one look ends both
            ("c01", stolen_pid, "pool held"),
            ("c04", accomplice.info.backend_pid, "advisory lock held"),
        ]
    finally:
        dog.close()
    waiting.join(10)
    assert len(outcome) == 1, "its wait ended: c04's lock went with its session, or its own session ended"
    with pytest.raises(psycopg.OperationalError):
        stolen.execute("SELECT 1")


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
        assert "any login of this database may call pg_catalog.pg_advisory_lock(bigint)" in said, (
            "a server whose functions were not restricted is said at start"
        )
        assert "cannot watch the hub" in said
        assert "the hub is reached again" in said
        assert f"cabinet c01: its session (role {floor.dbname}_cabinet_c01, pid {stolen_pid})" in said
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        floor.close()
        server.stop()


def with_a_fast_clock(floor: FloorHub) -> watchdog.Watchdog:
    """The watchdog with every look 1000 s after the one before: what it saw at one look it
    ends at the next, if it is still there."""
    times = itertools.count(0, 1000)
    return watchdog.Watchdog(lambda: access.connect(floor.owner_dsn), HOLD, clock=lambda: float(next(times)))


def waits_until(floor: FloorHub, pid: int, state: str) -> None:
    deadline = time.monotonic() + 10
    while floor.owner.execute("SELECT state FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone() != (
        state,
    ):
        assert time.monotonic() < deadline, f"session {pid} never {state}"
        time.sleep(0.05)


def idle_in_a_transaction_elsewhere(connection: psycopg.Connection[Any]) -> None:
    """A transaction that never touches the pool: it holds back vacuum and migrate's DDL."""
    connection.execute("SET idle_in_transaction_session_timeout = 0")
    connection.execute("BEGIN")
    connection.execute("SELECT count(*) FROM hub.events")


def sleeping_in_a_long_statement(connection: psycopg.Connection[Any]) -> None:
    connection.execute("SET statement_timeout = 0")
    in_background(lambda: connection.execute("SELECT pg_sleep(600)"))


def holding_an_advisory_lock(connection: psycopg.Connection[Any]) -> None:
    """Held by the session, outside any transaction, until it lets go or ends."""
    connection.execute("SELECT pg_advisory_lock(7)")


def listening(connection: psycopg.Connection[Any]) -> None:
    """A listener that never reads: the server's NOTIFY queue fills behind it."""
    connection.execute("LISTEN oasis_hub_pool")


@pytest.mark.parametrize(
    ("offend", "state", "reason"),
    [
        (idle_in_a_transaction_elsewhere, "idle in transaction", "transaction held"),
        (sleeping_in_a_long_statement, "active", "transaction held"),
        (holding_an_advisory_lock, "idle", "advisory lock held"),
        (listening, "idle", "listening"),
    ],
)
def test_a_cabinets_session_holding_anything_past_the_bound_is_ended(
    floor: FloorHub, offend: Any, state: str, reason: str
) -> None:
    floor.add_cabinet("c01")
    stolen = floor.cabinet("c01")
    offend(stolen)
    stolen_pid = stolen.info.backend_pid
    waits_until(floor, stolen_pid, state)
    dog = with_a_fast_clock(floor)
    try:
        assert dog.look() == []
        assert [(ended.cabinet, ended.pid, ended.reason) for ended in dog.look()] == [
            ("c01", stolen_pid, reason)
        ]
    finally:
        dog.close()
    assert floor.owner.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [stolen_pid]
    ).fetchone() == (0,)
    assert floor.owner.execute("SELECT reason, login_disabled FROM hub.sessions_ended").fetchall() == [
        (reason, True)
    ]


def test_the_owners_a_dashboards_and_an_idle_agents_sessions_are_never_ended(
    floor: FloorHub, tmp_path: Path
) -> None:
    """Whatever the owner and a dashboard hold, and an honest agent idle between its batches."""
    owner = access.connect(floor.owner_dsn)
    floor.closing.append(owner)
    owner.execute("SELECT pg_advisory_lock(8)")
    owner.execute("LISTEN oasis_hub_pool")
    owner.execute("BEGIN")
    owner.execute("SELECT count(*) FROM hub.events")
    office = access.connect(floor.add_dashboard(), options=dashboard_options())
    floor.closing.append(office)
    office.execute("SELECT pg_advisory_lock(9)")
    office.execute("LISTEN oasis_hub_pool")
    office.execute("BEGIN")
    office.execute("SELECT count(*) FROM hub.events")
    books = honest_cabinet(floor, "c02", tmp_path)
    link = agent.Agent(books, floor.credentials("c02"), batch=50)
    try:
        assert link.push_all() > 0
        link.push_once()  # idle now: its heartbeat and the pool's value, as between batches
        dog = with_a_fast_clock(floor)
        try:
            assert [dog.look() for _ in range(4)] == [[], [], [], []]
        finally:
            dog.close()
        assert link.push_once() == 0, "its session goes on"
    finally:
        link.close()
    assert owner.execute("SELECT 1").fetchone() == (1,)
    assert office.execute("SELECT 1").fetchone() == (1,)
    assert ended_sessions(floor) == []


def dashboard_options() -> str:
    from oasis_kiosk.floor import dashboard

    return dashboard.SESSION_OPTIONS


def test_an_ended_login_is_disabled_and_its_other_sessions_ended(floor: FloorHub) -> None:
    floor.add_cabinet("c01")
    floor.add_cabinet("c02")
    stolen = floor.cabinet("c01")
    accomplice = floor.cabinet("c01")  # innocent-looking: idle, nothing held
    honest = floor.cabinet("c02")
    take_the_pool(stolen)
    dog = with_a_fast_clock(floor)
    try:
        assert dog.look() == []
        (ended,) = dog.look()
    finally:
        dog.close()
    assert (ended.cabinet, ended.reason, ended.login_disabled) == ("c01", "pool held", True)
    for session in (stolen, accomplice):
        with pytest.raises(psycopg.OperationalError):
            session.execute("SELECT 1")
    assert honest.execute("SELECT 1").fetchone() == (1,)
    assert floor.owner.execute(
        "SELECT rolcanlogin FROM pg_roles WHERE rolname = %s", [f"{floor.dbname}_cabinet_c01"]
    ).fetchone() == (False,)
    assert floor.owner.execute(
        "SELECT reason, login_disabled, other_sessions_ended FROM hub.sessions_ended"
    ).fetchall() == [("pool held", True, 1)]
    with pytest.raises(HubError, match="the hub's watchdog disabled the login"):
        floor.cabinet("c01")


def test_a_disabled_login_is_told_so_and_how_the_owner_lets_it_in_again(
    floor: FloorHub, tmp_path: Path
) -> None:
    books = honest_cabinet(floor, "c01", tmp_path)
    take_the_pool(floor.cabinet("c01"))
    dog = with_a_fast_clock(floor)
    try:
        dog.look()
        assert len(dog.look()) == 1
    finally:
        dog.close()
    role = f"{floor.dbname}_cabinet_c01"
    told = (
        f"the hub's watchdog disabled the login {role} of cabinet c01 (it held the hub past the bound: a login "
        "used by something other than its link agent); the hub's owner lets it in again with "
        "hub enable-cabinet c01 --by WHO"
    )
    with pytest.raises(HubError) as refused:
        access.connect(floor.credentials("c01"))
    assert told in str(refused.value)
    with pytest.raises(HubError) as refused:
        push(books, floor.credentials("c01"))
    assert told in str(refused.value)
    assert "has no login" not in str(refused.value)


def test_the_owner_lets_a_disabled_login_in_again_recorded_with_who_and_when(
    floor: FloorHub, capsys: pytest.CaptureFixture[str]
) -> None:
    floor.add_cabinet("c01")
    take_the_pool(floor.cabinet("c01"))
    dog = with_a_fast_clock(floor)
    try:
        dog.look()
        assert len(dog.look()) == 1
    finally:
        dog.close()
    enable = ["hub", "enable-cabinet", "c01", "--by", "Ana (floor manager)", "--dsn", floor.owner_dsn]
    assert main(enable) == 0
    said = capsys.readouterr().out
    assert "cabinet c01: its login may log in again (enabled by Ana (floor manager) at " in said
    assert floor.cabinet("c01").execute("SELECT 1").fetchone() == (1,)
    ((by, role_name, at_ok),) = floor.owner.execute(
        """SELECT e.enabled_by, e.role_name, e.enabled_at <= now() FROM hub.logins_enabled e
             JOIN hub.cabinets c ON c.id = e.cabinet_id WHERE c.name = 'c01'"""
    ).fetchall()
    assert (by, role_name, at_ok) == ("Ana (floor manager)", f"{floor.dbname}_cabinet_c01", True)
    assert "if it was stolen, give the cabinet new credentials: hub new-credentials c01 --out FILE" in said
    assert main(enable) == 2
    assert "cabinet c01: its login is not disabled: nothing was changed" in capsys.readouterr().err
    assert main(["hub", "enable-cabinet", "c09", "--by", "Ana", "--dsn", floor.owner_dsn]) == 2
    assert "the hub has no cabinet 'c09'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["hub", "enable-cabinet", "c01", "--dsn", floor.owner_dsn])
    assert "--by" in capsys.readouterr().err


def test_the_dashboard_reads_what_the_watchdog_did_and_a_cabinet_nothing_of_it(floor: FloorHub) -> None:
    floor.add_cabinet("c01")
    office = access.connect(floor.add_dashboard())
    floor.closing.append(office)
    cabinet = floor.cabinet("c01")
    for table in (
        "hub.sessions_ended",
        "hub.logins_enabled",
        "hub.login_settings_restored",
        "hub.credentials_replaced",
    ):
        assert office.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            office.execute(f"DELETE FROM {table}")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            cabinet.execute(f"SELECT count(*) FROM {table}")


def test_reconcile_lists_the_sessions_ended_during_its_own_run(
    floor: FloorHub, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from oasis_kiosk.floor import reconcile

    books = honest_cabinet(floor, "c02", tmp_path)
    push(books, floor.credentials("c02"))
    floor.add_cabinet("c01")
    listener = floor.cabinet("c01")
    listener.execute("LISTEN oasis_hub_pool")
    dog = with_a_fast_clock(floor)
    dog.look()
    compare = reconcile.compare

    def compare_while_the_watchdog_ends_one(*args: Any, **kwargs: Any) -> Any:
        verdict = compare(*args, **kwargs)
        assert len(dog.look()) == 1
        return verdict

    monkeypatch.setattr(reconcile, "compare", compare_while_the_watchdog_ends_one)
    command = ["hub", "reconcile", "--books", f"c02={books}", "--skip", "c01", "--dsn", floor.owner_dsn]
    try:
        assert main(command) == 0
    finally:
        dog.close()
    said = capsys.readouterr().out
    assert "sessions the watchdog ended since the last reconciliation (1):" in said
    assert (
        f"cabinet c01: its session (role {floor.dbname}_cabinet_c01, pid {listener.info.backend_pid})" in said
    )
    assert "listening" in said
    assert "its login is still disabled (hub enable-cabinet c01 --by WHO lets it in again)" in said
    monkeypatch.setattr(reconcile, "compare", compare)
    assert main(command) == 0
    assert "the watchdog ended" not in capsys.readouterr().out, "told once"


def test_stolen_logins_taking_turns_are_each_ended_once_and_the_honest_stake_commits(
    floor: FloorHub, tmp_path: Path, guard: watchdog.Watchdog
) -> None:
    """Each stolen login takes the pool again as soon as its session is ended: disabled, it
    cannot, and the honest cabinet's stake, queued behind them all, commits."""
    logins = [f"s{number}" for number in range(6)]
    stop = threading.Event()
    takes: dict[str, int] = dict.fromkeys(logins, 0)

    def take_turns(name: str) -> None:
        while not stop.is_set():
            try:
                connection = access.connect(floor.credentials(name))
            except HubError:
                return  # disabled
            with connection:
                connection.execute("SET statement_timeout = 0")
                connection.execute("SET idle_in_transaction_session_timeout = 0")
                takes[name] += 1
                with contextlib.suppress(psycopg.Error):
                    take_the_pool(connection)
                    while not stop.wait(0.2):
                        connection.execute("SELECT 1")

    for name in logins:
        floor.add_cabinet(name)
    turns = [in_background(lambda name=name: take_turns(name))[0] for name in logins]
    try:
        deadline = time.monotonic() + 10
        while floor.owner.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        ).fetchone() != (len(logins) - 1,):
            assert time.monotonic() < deadline, "the stolen logins never all queued"
            time.sleep(0.05)
        started = time.monotonic()
        honest_push_completes(floor, tmp_path)
        waited = time.monotonic() - started
    finally:
        stop.set()
        for thread in turns:
            thread.join(10)
    print(f"the honest stake waited {waited:.1f} s behind {len(logins)} stolen logins")
    ended = [row[0] for row in ended_sessions(floor)]
    assert len(ended) == len(set(ended)), f"a login ended twice: {ended}"
    assert takes == dict.fromkeys(logins, 1), "each took the pool once: ended, it was refused"


def role_settings(floor: FloorHub, role: str) -> list[tuple[str, str]]:
    """Every setting the server keeps for ``role``: (its database, or "" for all), sorted."""
    rows = floor.owner.execute(
        """SELECT coalesce(d.datname, ''), unnest(s.setconfig) FROM pg_db_role_setting s
             LEFT JOIN pg_database d ON d.oid = s.setdatabase
            WHERE s.setrole = (SELECT oid FROM pg_roles WHERE rolname = %s) ORDER BY 1, 2""",
        [role],
    ).fetchall()
    return [(str(database), str(setting)) for database, setting in rows]


def change_own_settings(connection: psycopg.Connection[Any], dbname: str, *settings: str) -> None:
    """As a stolen login may: PostgreSQL lets any role change its own settings."""
    for setting in settings:
        connection.execute(f"ALTER ROLE CURRENT_USER SET {setting}".encode())
    connection.execute(f'ALTER ROLE CURRENT_USER IN DATABASE "{dbname}" SET lock_timeout = 0'.encode())


def test_a_login_that_changes_its_own_settings_has_the_hubs_put_back_recorded(floor: FloorHub) -> None:
    """A cabinet's login (or a dashboard's) turned its timeouts off, or its session's read-only
    default, for every session of it to come (ALTER ROLE itself SET …, which no right takes
    away): the watchdog finds a login whose settings are not the hub's, puts the hub's back
    and records it, with who and when."""
    floor.add_cabinet("c01")
    cabinet, office = f"{floor.dbname}_cabinet_c01", f"{floor.dbname}_dashboard_office"
    dashboard = access.connect(floor.add_dashboard())
    floor.closing.append(dashboard)
    hubs = {cabinet: role_settings(floor, cabinet), office: role_settings(floor, office)}
    assert ("", "statement_timeout=10s") in hubs[cabinet]
    assert hubs[office] == []
    change_own_settings(
        floor.cabinet("c01"),
        floor.dbname,
        "statement_timeout = 0",
        "idle_in_transaction_session_timeout = 0",
        "tcp_keepalives_idle = 0",
    )
    change_own_settings(dashboard, floor.dbname, "default_transaction_read_only = off")
    assert role_settings(floor, cabinet) != hubs[cabinet]
    dog = with_a_fast_clock(floor)
    try:
        assert dog.look() == []
        assert {role: role_settings(floor, role) for role in hubs} == hubs
        dog.look()
    finally:
        dog.close()
    restored = floor.owner.execute(
        """SELECT role_name, cabinet_id IS NOT NULL, found, restored_by, restored_at <= now()
             FROM hub.login_settings_restored ORDER BY id"""
    ).fetchall()
    assert sorted(restored) == [
        (
            cabinet,
            True,
            sorted(
                [
                    "idle_in_transaction_session_timeout=0",
                    "statement_timeout=0",
                    "tcp_keepalives_count=3",
                    "tcp_keepalives_idle=0",
                    "tcp_keepalives_interval=5",
                    f"in database {floor.dbname}: lock_timeout=0",
                ]
            ),
            "hub watchdog",
            True,
        ),
        (
            office,
            False,
            sorted(["default_transaction_read_only=off", f"in database {floor.dbname}: lock_timeout=0"]),
            "hub watchdog",
            True,
        ),
    ], "each once"
    with floor.cabinet("c01") as again:
        assert again.execute("SHOW statement_timeout").fetchone() == ("10s",)
        assert again.execute("SHOW lock_timeout").fetchone() == ("0",)


def test_enabling_a_login_puts_the_hubs_settings_back(floor: FloorHub) -> None:
    floor.add_cabinet("c01")
    role = f"{floor.dbname}_cabinet_c01"
    hubs = role_settings(floor, role)
    change_own_settings(floor.cabinet("c01"), floor.dbname, "statement_timeout = 0")
    floor.owner.execute(f'ALTER ROLE "{role}" NOLOGIN'.encode())
    assert main(["hub", "enable-cabinet", "c01", "--by", "Ana", "--dsn", floor.owner_dsn]) == 0
    assert role_settings(floor, role) == hubs
    assert floor.owner.execute(
        "SELECT role_name, restored_by FROM hub.login_settings_restored"
    ).fetchall() == [(role, "Ana")]


def test_a_cabinet_gets_new_credentials_and_the_old_password_is_refused(
    floor: FloorHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stolen password stayed valid: nothing gave a cabinet new credentials. ``hub
    new-credentials`` gives its login a new password (its settings the hub's again, its
    sessions ended), writes its credentials file as ``hub add-cabinet`` does, and records who
    and when; the old file is refused, the new one logs in."""
    old = floor.add_cabinet("c01")
    role = f"{floor.dbname}_cabinet_c01"
    hubs = role_settings(floor, role)
    stolen = access.connect(old)
    change_own_settings(stolen, floor.dbname, "statement_timeout = 0")
    new = tmp_path / "c01-new.toml"
    command = ["hub", "new-credentials", "c01", "--out", str(new), "--by", "Ana", "--hub-host", "127.0.0.1"]
    assert main([*command, "--hub-port", str(floor.server.port), "--dsn", floor.owner_dsn]) == 0
    said = capsys.readouterr().out
    assert f"cabinet c01: role {role} has a new password, credentials in {new}" in said
    assert "the old password is refused" in said
    assert stat.S_IMODE(new.stat().st_mode) == 0o600
    renewed = access.read_credentials(new)
    before = access.read_credentials(old)
    assert (renewed.user, renewed.cabinet, renewed.dbname) == (before.user, "c01", before.dbname)
    assert renewed.password != before.password
    with pytest.raises(HubError, match=f"refused the login of {role}: wrong password"):
        access.connect(old)
    with pytest.raises(psycopg.OperationalError):
        stolen.execute("SELECT 1")  # its session was ended
    with access.connect(new) as cabinet:
        assert hub.held(cabinet) == 0
        assert cabinet.execute("SHOW statement_timeout").fetchone() == ("10s",)
    assert role_settings(floor, role) == hubs
    ((by, role_name, at_ok),) = floor.owner.execute(
        """SELECT r.replaced_by, r.role_name, r.replaced_at <= now() FROM hub.credentials_replaced r
             JOIN hub.cabinets c ON c.id = r.cabinet_id WHERE c.name = 'c01'"""
    ).fetchall()
    assert (by, role_name, at_ok) == ("Ana", role, True)
    assert main([*command, "--dsn", floor.owner_dsn]) == 2
    assert "exists already: a credentials file is never overwritten" in capsys.readouterr().err
    with access.connect(new) as cabinet:
        assert cabinet.execute("SELECT 1").fetchone() == (1,), "a refused command changes nothing"
    assert (
        main(
            [
                "hub",
                "new-credentials",
                "c09",
                "--out",
                str(tmp_path / "c09.toml"),
                "--by",
                "Ana",
                "--dsn",
                floor.owner_dsn,
            ]
        )
        == 2
    )
    assert "the hub has no cabinet 'c09'" in capsys.readouterr().err
    assert not (tmp_path / "c09.toml").exists()
