"""The floor's hub against a real PostgreSQL server (tests/postgres.py): its migrations, its
roles and row-level security, the cabinets' idempotent ingest, the linked jackpot's pool,
claims (concurrent ones included) and parameters."""

from __future__ import annotations

import json
import re
import shutil
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from floor import new_database, restrict_server_functions
from postgres import Postgres

from oasis_kiosk.cli import main
from oasis_kiosk.floor import access, hub, migrate, reconcile
from oasis_kiosk.floor.errors import (
    AwardDisagreesError,
    BatchError,
    CredentialsError,
    GapError,
    HubError,
    HubUnavailableError,
    MigrationError,
    OtherBooksError,
    ParametersError,
    PoolShortError,
    UnknownCabinetError,
    UnknownHitError,
)
from oasis_kiosk.floor.hub import Event

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@dataclass
class Hub:
    """A migrated hub in a database of its own, with its owner's connection."""

    server: Postgres
    dbname: str
    owner_role: str
    owner_password: str
    directory: Path
    owner: psycopg.Connection[Any]
    connections: list[psycopg.Connection[Any]] = field(default_factory=list)

    @property
    def owner_dsn(self) -> str:
        return self.server.conninfo(self.dbname, self.owner_role, self.owner_password)

    def keep(self, connection: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
        self.connections.append(connection)
        return connection

    def cabinet(self, name: str) -> psycopg.Connection[Any]:
        access.add_cabinet(self.owner, name, self.directory / f"{name}.toml")
        return self.login(name)

    def login(self, name: str) -> psycopg.Connection[Any]:
        return self.keep(access.connect(self.directory / f"{name}.toml"))

    def dashboard(self, name: str = "office") -> psycopg.Connection[Any]:
        access.add_dashboard(self.owner, name, self.directory / f"dashboard-{name}.toml")
        return self.keep(access.connect(self.directory / f"dashboard-{name}.toml"))


@pytest.fixture
def bare(postgres: Postgres, tmp_path: Path) -> Iterator[Hub]:
    """A hub's database before its first migration."""
    dbname, role, password = new_database(postgres, "hub")
    owner = access.connect(postgres.conninfo(dbname, role, password))
    state = Hub(postgres, dbname, role, password, tmp_path, owner)
    try:
        yield state
    finally:
        for connection in [*state.connections, owner]:
            connection.close()


@pytest.fixture
def floor(bare: Hub) -> Hub:
    """A migrated hub whose pool feeds 10 % of a stake to the pool and 1 % to the reserve,
    resets to 1 000 and holds at most 2 000."""
    migrate.migrate(bare.owner)
    hub.set_parameters(
        bare.owner, "tests", reset=1000, rate_ppm=100_000, maximum=2000, reserve_rate_ppm=10_000
    )
    return bare


def migrate_up_to(last: int, bare: Hub, directory: Path) -> None:
    """The hub as a release with migrations 1 to ``last`` left it."""
    before = directory / "migrations"
    before.mkdir()
    for path in sorted(migrate.MIGRATIONS.glob("*.sql"))[:last]:
        shutil.copy(path, before)
    migrate.migrate(bare.owner, before)


def every_migration_from(first: int) -> list[int]:
    """The migrations a hub left at migration ``first - 1`` is given by this release."""
    return list(range(first, len(migrate.migrations()) + 1))


def hit(seq: int, round_id: str, box: int = 0) -> Event:
    return Event(seq, "jackpot_hit", {"round_id": round_id, "box": box}, NOW)


def contributions(
    first: int, stakes: list[int], round_prefix: str = "b:", round_id: str | None = None
) -> list[Event]:
    """Stakes on the jackpot from event ``first`` on, each of its own round ``<round_prefix><seq>``
    (a round of books ``b``), or all of ``round_id`` (its boxes)."""
    return [
        Event(
            seq, "jackpot_contribution", {"stake": stake, "round_id": round_id or f"{round_prefix}{seq}"}, NOW
        )
        for seq, stake in enumerate(stakes, start=first)
    ]


def count(connection: psycopg.Connection[Any], query: str) -> int:
    row = connection.execute(query.encode()).fetchone()
    assert row is not None
    return int(row[0])


# Migrations


def test_migrations_apply_in_order_once(bare: Hub) -> None:
    applied = migrate.migrate(bare.owner)
    assert [m.label for m in applied] == [m.label for m in migrate.migrations()]
    assert [m.version for m in applied] == list(range(1, len(applied) + 1))
    recorded = bare.owner.execute(
        "SELECT version, checksum FROM hub.schema_migrations ORDER BY version"
    ).fetchall()
    assert recorded == [(m.version, m.checksum) for m in applied]
    assert migrate.migrate(bare.owner) == []
    assert count(bare.owner, "SELECT count(*) FROM hub.schema_migrations") == len(applied)
    assert count(bare.owner, "SELECT count(*) FROM hub.pool") == 1


def test_a_failed_migration_leaves_nothing_and_a_changed_one_is_refused(bare: Hub, tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    shutil.copytree(migrate.MIGRATIONS, directory)
    last = len(migrate.migrations())
    broken = directory / f"{last + 1:04d}_broken.sql"
    broken.write_text("CREATE TABLE hub.half_done (a integer);\nSELECT 1 / 0;\n", encoding="utf-8")
    with pytest.raises(
        MigrationError, match=rf"{last + 1:04d}_broken failed, nothing of it applied.*division by zero"
    ):
        migrate.migrate(bare.owner, directory)
    assert count(bare.owner, "SELECT count(*) FROM hub.schema_migrations") == last
    assert count(bare.owner, "SELECT count(*) FROM pg_tables WHERE tablename = 'half_done'") == 0

    broken.write_text("CREATE TABLE hub.later (a integer);\n", encoding="utf-8")
    assert [m.version for m in migrate.migrate(bare.owner, directory)] == [last + 1]
    with pytest.raises(
        MigrationError, match=rf"{last + 1:04d}_broken, which this version of oasis-kiosk does not know"
    ):
        migrate.migrate(bare.owner)
    first = sorted(directory.glob("0001_*.sql"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    with pytest.raises(MigrationError, match=r"0001_books has changed since it was applied"):
        migrate.migrate(bare.owner, directory)


def test_a_server_older_than_postgresql_15_is_refused_before_anything_is_made(
    bare: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(MigrationError, match=r"needs PostgreSQL 15 or later, and this server is 14\.11"):
        migrate.check_server(140011)
    migrate.check_server(bare.owner.info.server_version)  # the test's own server, 15 or later
    monkeypatch.setattr(migrate, "OLDEST_SERVER", bare.owner.info.server_version + 1)
    with pytest.raises(MigrationError, match="needs PostgreSQL 15 or later"):
        migrate.migrate(bare.owner)
    assert count(bare.owner, "SELECT count(*) FROM pg_namespace WHERE nspname = 'hub'") == 0


def test_a_migration_waits_for_its_lock_only_so_long_and_names_who_holds_it(floor: Hub) -> None:
    """Any login may take an advisory lock: one held by a cabinet stops ``hub migrate`` with
    a message naming it, not for ever."""
    cabinet = floor.cabinet("c01")
    cabinet.execute("SELECT pg_advisory_lock(%s)", [migrate.LOCK])
    began = time.monotonic()
    with pytest.raises(
        MigrationError, match=r"the migration lock is held by role \S+_cabinet_c01 \(pid \d+\)"
    ):
        migrate.migrate(floor.owner, lock_wait=1.0)
    assert time.monotonic() - began < 10
    cabinet.execute("SELECT pg_advisory_unlock(%s)", [migrate.LOCK])
    assert migrate.migrate(floor.owner, lock_wait=1.0) == []


def test_a_migration_waits_for_a_hub_table_only_so_long_and_names_who_holds_it(
    floor: Hub, tmp_path: Path
) -> None:
    """A session that kept a transaction open on a hub table (a stolen cabinet's login with
    its timeouts off, someone's psql) held hub migrate for ever, and every cabinet's stake
    queued behind the lock migrate waited for. Now it gives up after TABLE_LOCK_WAIT,
    applies nothing, and names the session; the floor goes on."""
    directory = tmp_path / "migrations"
    shutil.copytree(migrate.MIGRATIONS, directory)
    last = len(migrate.migrations())
    (directory / f"{last + 1:04d}_later.sql").write_text(
        "ALTER TABLE hub.pool ADD COLUMN later integer;\n", encoding="utf-8"
    )
    stolen, honest = floor.cabinet("c01"), floor.cabinet("c02")
    stolen.execute("SET idle_in_transaction_session_timeout = 0")
    stolen.execute("BEGIN")
    stolen.execute("SELECT value FROM hub.pool")
    holder = stolen.info.backend_pid
    floor.owner.execute("SET statement_timeout = '20s'")  # the test's own bound on a wait for ever
    staked: list[float] = []

    def stake_while_migrate_waits() -> None:
        time.sleep(1)
        began = time.monotonic()
        hub.ingest(honest, contributions(1, [100], round_prefix="h:"))
        staked.append(time.monotonic() - began)

    staking = threading.Thread(target=stake_while_migrate_waits)
    staking.start()
    began = time.monotonic()
    with pytest.raises(
        MigrationError,
        match=rf"migration {last + 1:04d}_later waited 5 s for a lock on the hub's tables held by "
        rf"pid {holder} \(role {floor.dbname}_cabinet_c01, idle in transaction since [0-9:]+\); "
        rf"nothing of it applied: .*pg_terminate_backend\({holder}\)",
    ):
        migrate.migrate(floor.owner, directory)
    waited = time.monotonic() - began
    staking.join(10)
    assert 4.5 < waited < 8
    [stake_took] = staked
    assert stake_took < 6, "the stake queued behind migrate only while it waited"
    assert count(floor.owner, "SELECT count(*) FROM hub.schema_migrations") == last
    assert count(floor.owner, "SELECT count(*) FROM pg_attribute WHERE attname = 'later'") == 0
    assert count(floor.owner, "SELECT count(*) FROM pg_locks WHERE NOT granted") == 0
    stolen.execute("ROLLBACK")
    assert [m.version for m in migrate.migrate(floor.owner, directory)] == [last + 1]


ADVISORY_LOCKS = [
    f"SELECT pg_{kind}(1{second})"
    for kind in (
        "advisory_lock",
        "advisory_lock_shared",
        "try_advisory_lock",
        "try_advisory_lock_shared",
        "advisory_xact_lock",
        "advisory_xact_lock_shared",
        "try_advisory_xact_lock",
        "try_advisory_xact_lock_shared",
    )
    for second in ("", ", 2")
]
"""Every way to take an advisory lock: each function by one bigint and by two integers."""


def refused(connection: psycopg.Connection[Any], statement: str) -> bool:
    """Whether ``statement`` is refused for want of the right to call a function."""
    try:
        connection.execute(statement.encode())
    except psycopg.errors.InsufficientPrivilege as error:
        connection.rollback()
        return "permission denied for function" in str(error)
    connection.rollback()
    return False


def test_after_the_server_functions_step_only_the_owner_takes_an_advisory_lock_and_nobody_notifies(
    floor: Hub, tmp_path: Path
) -> None:
    """Any login could take advisory locks by the million and fill the server's one shared lock
    table, after which nobody, a superuser included, could connect; or fill its one NOTIFY
    queue. server_functions.sql, run by a superuser on the hub's database, takes both from
    every login but the owner's own lock, which hub migrate takes."""
    cabinet, dashboard = floor.cabinet("c01"), floor.dashboard()
    restrict_server_functions(floor.server, floor.dbname)
    restrict_server_functions(floor.server, floor.dbname)  # again: nothing changes
    for login in (cabinet, dashboard):
        assert [call for call in ADVISORY_LOCKS if not refused(login, call)] == []
        assert refused(login, "SELECT pg_notify('anything', 'x')")
    owners = [call for call in ADVISORY_LOCKS if not refused(floor.owner, call)]
    assert owners == ["SELECT pg_advisory_xact_lock(1)"], "what hub migrate takes, and that only"
    assert refused(floor.owner, "SELECT pg_notify('anything', 'x')")

    directory = tmp_path / "migrations"
    shutil.copytree(migrate.MIGRATIONS, directory)
    later = directory / f"{len(migrate.migrations()) + 1:04d}_later.sql"
    later.write_text("CREATE TABLE hub.later (a integer);\n", encoding="utf-8")
    assert [m.label for m in migrate.migrate(floor.owner, directory)] == [later.stem]
    hub.ingest(cabinet, [*contributions(1, [5000]), hit(2, "b:1")])
    assert hub.claim(cabinet, "b:1", 0).amount == 1500
    hub.set_parameters(floor.owner, "tests", reset=900)


def test_the_server_functions_step_is_a_superusers_on_a_hub_that_no_longer_notifies(
    bare: Hub, tmp_path: Path
) -> None:
    """Run too early, the step would refuse every stake of a hub whose functions still
    notify; run on another database, it would restrict the wrong one."""
    with pytest.raises(psycopg.errors.RaiseException, match="database postgres holds no hub"):
        restrict_server_functions(bare.server, "postgres")
    migrate_up_to(13, bare, tmp_path)
    with pytest.raises(
        psycopg.errors.RaiseException,
        match=r"functions .*hub\.apply_event\(\).* still notify: run hub migrate",
    ):
        restrict_server_functions(bare.server, bare.dbname)
    migrate.migrate(bare.owner)
    with pytest.raises(psycopg.errors.RaiseException, match=f"run by a superuser, not by {bare.owner_role}"):
        bare.owner.execute(migrate.SERVER_FUNCTIONS.read_text(encoding="utf-8").encode())
    bare.owner.rollback()
    restrict_server_functions(bare.server, bare.dbname)


def test_hub_migrate_warns_while_any_login_may_take_advisory_locks_or_notify(
    bare: Hub, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server functions' step is a superuser's, apart from hub migrate: migrate says
    when it is missing (a new hub, or one restored into a new server), naming the file."""
    dsn = ["--dsn", bare.owner_dsn]
    assert main(["hub", "migrate", *dsn]) == 0
    out, err = capsys.readouterr()
    assert "the hub's schema is up to date" in out
    [warning] = err.splitlines()
    assert warning.startswith(
        "oasis-kiosk: hub: warning: any login of this database may call pg_catalog.pg_advisory_lock(bigint), "
    )
    assert "and 16 more" in warning
    server = bare.owner.info
    assert (
        f"psql -h {server.host} -p {server.port} -v ON_ERROR_STOP=1 -U postgres -d {bare.dbname} "
        f"-f {migrate.SERVER_FUNCTIONS}"
    ) in warning, "the psql that reaches this hub's server"
    restrict_server_functions(bare.server, bare.dbname)
    assert main(["hub", "migrate", *dsn]) == 0
    assert capsys.readouterr().err == "", "the step run, and the server allows no prepared transaction"
    with bare.server.connect(bare.dbname, autocommit=True) as superuser:
        superuser.execute("GRANT EXECUTE ON FUNCTION pg_notify(text, text) TO PUBLIC")
    [warning] = migrate.server_warnings(bare.owner)
    assert warning.startswith("any login of this database may call pg_catalog.pg_notify(text, text): ")


def test_hub_migrate_warns_of_a_server_that_allows_prepared_transactions() -> None:
    """A login's prepared transaction keeps its locks, the pool's too, with no session that
    the watchdog could end; the hub prepares none."""
    server = Postgres.start(settings={"max_prepared_transactions": "5"})
    try:
        dbname, role, password = new_database(server, "prepared")
        with access.connect(server.conninfo(dbname, role, password)) as owner:
            migrate.migrate(owner)
            restrict_server_functions(server, dbname)
            [warning] = migrate.server_warnings(owner)
    finally:
        server.stop()
    assert warning.startswith("the server allows prepared transactions (max_prepared_transactions = 5): ")


def test_migration_files_are_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;", encoding="utf-8")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(MigrationError, match="migration 0002 is missing before 0003_c"):
        migrate.migrations(tmp_path)
    (tmp_path / "4_bad.sql").write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(MigrationError, match=r"a migration is named NNNN_name\.sql"):
        migrate.migrations(tmp_path)


def test_only_the_owner_migrates(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    with pytest.raises(MigrationError, match=f"runs as the database's owner, {floor.owner_role}"):
        migrate.migrate(cabinet)
    with pytest.raises(MigrationError, match="runs as the database's owner"):
        migrate.migrate(floor.dashboard())


# Ingest


def test_a_batch_sent_twice_changes_nothing(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    assert hub.held(cabinet) == 0
    batch = contributions(1, [100, 200, 300])
    assert hub.ingest(cabinet, batch) == 3
    after_once = hub.pool(floor.owner)
    assert after_once.value == 1000 + 10 + 20 + 30
    assert hub.ingest(cabinet, batch) == 3
    assert hub.pool(floor.owner) == after_once
    assert count(floor.owner, "SELECT count(*) FROM hub.events") == 3
    assert count(floor.owner, "SELECT count(*) FROM hub.contributions") == 3
    # A resend overlapping what is held: only the new rows count.
    assert hub.ingest(cabinet, [*batch[1:], *contributions(4, [400, 500])]) == 5
    assert hub.pool(floor.owner).value == 1000 + 10 + 20 + 30 + 40 + 50
    assert count(floor.owner, "SELECT count(*) FROM hub.contributions") == 5
    assert hub.ingest(cabinet, []) == 5
    last_seen = floor.owner.execute("SELECT last_seen FROM hub.cabinets WHERE name = 'c01'").fetchone()
    assert last_seen is not None
    assert last_seen[0] is not None


def test_a_gap_is_refused_naming_it(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    hub.ingest(cabinet, contributions(1, [100, 100, 100]))
    before = hub.pool(floor.owner)
    with pytest.raises(GapError, match="event 5 cannot follow event 3: event 4 is missing") as caught:
        hub.ingest(cabinet, contributions(5, [100]))
    assert (caught.value.held, caught.value.first) == (3, 5)
    with pytest.raises(GapError, match="events 4 to 9 are missing"):
        hub.ingest(cabinet, contributions(10, [100, 100]))
    assert hub.pool(floor.owner) == before
    assert hub.held(cabinet) == 3
    # The hub itself refuses a gap, whatever the client.
    with pytest.raises(
        psycopg.Error, match="event 6 cannot follow event 3: events 4 to 5 are missing"
    ) as raw:
        cabinet.execute(
            "INSERT INTO hub.events (seq, kind, payload, committed_at) VALUES (6, 'note', '{}', now())"
        )
    assert raw.value.sqlstate == "OA001"
    with pytest.raises(BatchError, match="consecutive: event 6 follows event 4"):
        hub.ingest(cabinet, [*contributions(4, [1]), *contributions(6, [1])])


def test_a_row_sent_again_with_other_contents_is_refused(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    batch = contributions(1, [100, 200])
    hub.ingest(cabinet, batch)
    changed = replace(batch[1], payload={"stake": 999, "round_id": "r2"})
    with pytest.raises(BatchError, match="event 2 was received before with other contents"):
        hub.ingest(cabinet, [batch[0], changed, *contributions(3, [1])])
    assert hub.held(cabinet) == 2


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (Event(1, "jackpot_contribution", {"stake": -5, "round_id": "r"}, NOW), "stake is a whole number"),
        (Event(1, "jackpot_contribution", {"stake": 1.5, "round_id": "r"}, NOW), "stake is a whole number"),
        (Event(1, "jackpot_contribution", {"stake": True, "round_id": "r"}, NOW), "stake is a whole number"),
        (Event(1, "jackpot_contribution", {"stake": 5}, NOW), "round_id is a text"),
        (Event(1, "jackpot_hit", {"round_id": "", "box": 0}, NOW), "round_id is a text"),
        (Event(1, "jackpot_hit", {"round_id": "r"}, NOW), "box is a whole number from 0"),
        (Event(1, "jackpot_hit", {"round_id": "r", "box": -1}, NOW), "box is a whole number from 0"),
        (Event(1, "jackpot_hit", {"round_id": "r", "box": True}, NOW), "box is a whole number from 0"),
        (Event(1, "Bad Kind", {}, NOW), "kind 'Bad Kind'"),
        (Event(0, "note", {}, NOW), "a sequence number is a whole number from 1"),
        (Event(1, "note", {}, datetime(2026, 1, 1)), "timezone-aware"),
    ],
)
def test_malformed_events_are_refused_before_sending(floor: Hub, event: Event, message: str) -> None:
    cabinet = floor.cabinet("c01")
    with pytest.raises(BatchError, match=message):
        hub.ingest(cabinet, [event])
    assert hub.held(cabinet) == 0


def test_the_hub_refuses_a_malformed_contribution_itself(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    with pytest.raises(
        psycopg.Error, match=r'cabinet c01, event 1 \(jackpot_contribution\): "stake" must be a whole'
    ):
        cabinet.execute(
            "INSERT INTO hub.events (seq, kind, payload, committed_at)"
            """ VALUES (1, 'jackpot_contribution', '{"stake": 2.5, "round_id": "r"}', now())"""
        )
    assert hub.held(cabinet) == 0


def test_the_hub_refuses_a_hit_without_its_box_itself(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    with pytest.raises(psycopg.Error, match=r'cabinet c01, event 1 \(jackpot_hit\): "box" must be a whole'):
        cabinet.execute(
            "INSERT INTO hub.events (seq, kind, payload, committed_at)"
            """ VALUES (1, 'jackpot_hit', '{"round_id": "r"}', now())"""
        )
    assert hub.held(cabinet) == 0


def test_contributions_are_exact_and_overflow_to_the_reserve(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    # 10 % of 15 is 1.5: the half is carried, never lost; 1 % goes to the reserve.
    hub.ingest(cabinet, contributions(1, [15]))
    pool = hub.pool(floor.owner)
    assert (pool.value, pool.carry, pool.reserve, pool.reserve_carry) == (1001, 500_000, 0, 150_000)
    hub.ingest(cabinet, contributions(2, [15]))
    pool = hub.pool(floor.owner)
    assert (pool.value, pool.carry, pool.reserve, pool.reserve_carry) == (1003, 0, 0, 300_000)
    # Up to the maximum (2 000), then the pool's share goes to the reserve.
    hub.ingest(cabinet, contributions(3, [10_000, 10_000]))
    pool = hub.pool(floor.owner)
    assert pool.value == 2000
    stakes = 15 + 15 + 10_000 + 10_000
    whole = stakes * 100_000 // 1_000_000 + stakes * 10_000 // 1_000_000
    assert pool.value - 1000 + pool.reserve == whole
    rows = floor.owner.execute(
        "SELECT sum(to_pool), sum(overflow), sum(to_reserve) FROM hub.contributions"
    ).fetchone()
    assert rows is not None
    assert (rows[0], rows[1] + rows[2]) == (pool.value - 1000, pool.reserve)
    assert rows[1] > 0


# Claims


def test_a_claim_awards_the_pool_once(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    # The pool 1 000 + 500 + 800 capped at 2 000; the reserve 50 + 80 and the 300 over.
    hub.ingest(cabinet, [*contributions(1, [5000, 8000]), hit(3, "b:2")])
    before = hub.pool(floor.owner)
    assert before.value == 2000
    award = hub.claim(cabinet, "b:2", 0)
    assert award.amount == 2000
    assert before.reserve == 430
    assert (award.reset, award.from_reserve, award.pool_after) == (1000, 430, 1430)
    after = hub.pool(floor.owner)
    assert (after.value, after.reserve, after.hits) == (1000 + before.reserve, 0, 1)
    assert hub.claim(cabinet, "b:2", 0) == award
    assert hub.pool(floor.owner) == after
    assert hub.pool_value(cabinet).value == after.value
    with pytest.raises(BatchError, match="a claim names its round"):
        hub.claim(cabinet, "", 0)


def test_the_pool_moves_without_notifying_so_a_full_notify_queue_cannot_stop_it(floor: Hub) -> None:
    """Nothing listens to the pool's changes. A notification each stake, claim, award told
    and parameter change sent made them depend on the server's NOTIFY queue, which any login
    may fill (a session that listens and never reads, and large notifications), after which
    every one of them failed. On a hub whose owner may not notify at all, they go on."""
    with floor.server.connect(floor.dbname, autocommit=True) as superuser:
        superuser.execute("REVOKE EXECUTE ON FUNCTION pg_notify(text, text) FROM PUBLIC")
    c01, c02 = floor.cabinet("c01"), floor.cabinet("c02")
    hub.ingest(c01, [*contributions(1, [5000]), hit(2, "b:1")])
    hub.ingest(c02, [*contributions(1, [5000], round_prefix="d:"), hit(2, "d:1")])
    assert hub.pool(floor.owner).value == 2000
    assert hub.claim(c01, "b:1", 0).amount == 2000
    told = hub.claim_paid(c02, "d:1", 0, 1000, at_once=True)
    assert (told.amount, told.at_once) == (1000, True)
    hub.set_parameters(floor.owner, "tests", reset=900)
    assert hub.pool(floor.owner).parameters.reset == 900


def test_a_claim_of_a_hit_the_cabinet_never_sent_is_refused_and_changes_nothing(floor: Hub) -> None:
    cabinet, other = floor.cabinet("c01"), floor.cabinet("c02")
    hub.ingest(cabinet, [*contributions(1, [5000]), hit(2, "b:1")])
    hub.ingest(other, [*contributions(1, [100], round_prefix="t:"), hit(2, "t:1")])
    before = hub.pool(floor.owner)
    for round_id, box in (("never", 0), ("b:1", 1), ("t:1", 0)):
        with pytest.raises(
            UnknownHitError, match=f"cabinet c01 has sent no jackpot hit of round {round_id}, box {box}"
        ):
            hub.claim(cabinet, round_id, box)
    assert hub.pool(floor.owner) == before
    assert count(floor.owner, "SELECT count(*) FROM hub.awards") == 0
    assert hub.claim(cabinet, "b:1", 0).amount == before.value, "its own hit is paid"


def test_a_hit_of_a_round_not_staked_or_not_of_the_cabinets_books_is_refused(floor: Hub) -> None:
    """A cabinet's login won the pool with a hit of a round it never staked, of books not its
    own, of a box its round never had: the hub refuses such a hit, and keeps nothing of its batch."""
    honest, thief = floor.cabinet("c02"), floor.cabinet("c01")
    hub.ingest(honest, contributions(1, [1_000_000], round_prefix="h:"), books_id="h")
    before = hub.pool(floor.owner)
    stake = Event(1, "jackpot_contribution", {"stake": 10, "round_id": "mine:1"}, NOW)
    for batch, refused in (
        (
            [hit(1, "not-mine:999999", box=7)],
            "a jackpot hit of round not-mine:999999 is not of its books mine",
        ),
        ([hit(1, "h:1")], "a jackpot hit of round h:1 is not of its books mine"),
        ([hit(1, "mine")], "a jackpot hit of round mine is not of its books mine"),
        ([hit(1, "mine:1")], "round mine:1 staked nothing on the jackpot"),
        (
            [stake, hit(2, "mine:1", box=1)],
            r"round mine:1 staked the jackpot on 1 box\(es\), 0 to 0: it has no box 1",
        ),
    ):
        with pytest.raises(BatchError, match=f"cabinet c01: {refused}"):
            hub.ingest(thief, batch, books_id="mine")
        assert hub.held(thief) == 0, "nothing of the batch is kept"
    with pytest.raises(UnknownHitError):
        hub.claim(thief, "not-mine:999999", 7)
    assert hub.pool(floor.owner) == before
    assert hub.pending_hits(floor.owner) == []
    hub.ingest(thief, [stake, hit(2, "mine:1")], books_id="mine")
    assert hub.claim(thief, "mine:1", 0).amount == before.value, "a hit of its own staked round"


def test_a_hit_is_of_a_box_staked_at_least_the_pools_least_stake(floor: Hub) -> None:
    """A cabinet's login staked its box 1 minor unit and its hit won the whole pool: with the
    pool's least stake set, a hit's box must have staked at least it (as it was when the
    stake was received); a smaller stake still feeds the pool, and wins nothing."""
    thief = floor.cabinet("c01")
    hub.ingest(thief, contributions(1, [100], round_id="mine:1"), books_id="mine")
    assert hub.set_parameters(floor.owner, "tests", least_stake=200).new["least_stake"] == 200
    assert hub.pool(floor.owner).parameters.least_stake == 200
    hub.ingest(thief, contributions(2, [1], round_id="mine:2"), books_id="mine")
    before = hub.pool(floor.owner)
    with pytest.raises(
        BatchError, match=r"cabinet c01: round mine:2 staked nothing on the jackpot of at least 200"
    ):
        hub.ingest(thief, [hit(3, "mine:2")], books_id="mine")
    hub.ingest(thief, contributions(3, [200, 150], round_id="mine:3"), books_id="mine")
    with pytest.raises(
        BatchError,
        match=r"cabinet c01: round mine:3 staked the jackpot at least 200 on 1 box\(es\), 0 to 0: it has no box 1",
    ):
        hub.ingest(thief, [hit(5, "mine:3", box=1)], books_id="mine")
    assert hub.held(thief) == 4
    assert hub.pending_hits(floor.owner) == []
    assert hub.pool(floor.owner).value == before.value + 35
    hub.ingest(thief, [hit(5, "mine:3"), hit(6, "mine:1")], books_id="mine")
    assert hub.claim(thief, "mine:3", 0).amount == before.value + 35
    assert hub.claim(thief, "mine:1", 0).at_once, "staked 100 before the least stake was 200: it stands"
    with pytest.raises(ParametersError, match="least_stake is a whole number from 0"):
        hub.set_parameters(floor.owner, "tests", least_stake=-1)


def test_a_hit_received_before_the_hub_checked_hits_is_checked_at_its_claim(
    bare: Hub, tmp_path: Path
) -> None:
    migrate_up_to(11, bare, tmp_path)
    bare.owner.execute("UPDATE hub.pool SET value = 1500, reset = 1000, maximum = 2000")
    cabinet = bare.cabinet("c01")
    hub.ingest(cabinet, [*contributions(1, [100], round_prefix="b:"), hit(2, "b:1"), hit(3, "b:9")])
    migrate.migrate(bare.owner)
    with pytest.raises(BatchError, match="cabinet c01: round b:9 staked nothing on the jackpot"):
        hub.claim(cabinet, "b:9", 0)
    assert hub.claim(cabinet, "b:1", 0).amount == 1500


def test_two_hits_in_one_round_are_two_claims_each_answered_the_same_again(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    hits = [Event(3 + box, "jackpot_hit", {"round_id": "b:2", "box": box}, NOW) for box in (0, 1)]
    hub.ingest(
        cabinet, [*contributions(1, [5000, 8000], round_id="b:2"), *hits]
    )  # the pool 2 000, the reserve 430
    assert hub.pending_hits(floor.owner) == [("c01", "b:2", 0), ("c01", "b:2", 1)]
    first = hub.claim(cabinet, "b:2", 0)
    assert (first.box, first.amount, first.pool_after) == (0, 2000, 1430)
    assert hub.pending_hits(floor.owner) == [("c01", "b:2", 1)], "the second box still waits"
    second = hub.claim(cabinet, "b:2", 1)
    assert (second.box, second.amount, second.pool_after) == (1, 1000, 1430), "the reset value, by the house"
    assert (first.at_once, second.at_once) == (False, True)
    # Claimed again (the agent killed before it wrote an answer down): each hit's own answer.
    assert hub.claim(cabinet, "b:2", 1) == second
    assert hub.claim(cabinet, "b:2", 0) == first
    pool = hub.pool(floor.owner)
    assert (pool.value, pool.reserve, pool.hits) == (1430, 0, 2)
    assert count(floor.owner, "SELECT count(*) FROM hub.awards") == 2
    assert hub.pending_hits(floor.owner) == []
    with pytest.raises(BatchError, match="a claim names its box: a whole number from 0"):
        hub.claim(cabinet, "b:2", -1)


def test_a_cabinet_that_sent_rounds_before_migration_0008_has_its_books_recorded_by_it(
    bare: Hub, tmp_path: Path
) -> None:
    migrate_up_to(7, bare, tmp_path)
    cabinet, quiet = bare.cabinet("c01"), bare.cabinet("c02")
    hub.ingest(cabinet, contributions(1, [100], round_prefix="books-a:"))
    assert [m.version for m in migrate.migrate(bare.owner)] == every_migration_from(8)
    books = dict(bare.owner.execute("SELECT name, books_id FROM hub.cabinets").fetchall())
    assert books == {"c01": "books-a", "c02": None}, "a cabinet that sent no round adopts its first books"
    with pytest.raises(OtherBooksError, match="holds the events of books books-a, not of books books-b"):
        hub.ingest(cabinet, contributions(2, [100], round_prefix="books-b:"), books_id="books-b")
    assert hub.ingest(quiet, contributions(1, [100], round_prefix="books-c:"), books_id="books-c") == 1


def test_hits_claimed_before_migration_0006_are_box_0_of_their_round(bare: Hub, tmp_path: Path) -> None:
    migrate_up_to(5, bare, tmp_path)
    bare.owner.execute("UPDATE hub.pool SET value = 1000, reset = 1000, maximum = 2000")
    cabinet = bare.cabinet("c01")
    # A hub and a cabinet of 0005: a hit names no box, and its round is claimed.
    hub.ingest(cabinet, contributions(1, [100, 100]))
    for seq, round_id in ((3, "b:1"), (4, "b:2")):
        cabinet.execute(
            "INSERT INTO hub.events (seq, kind, payload, committed_at) VALUES (%s, 'jackpot_hit', %s, now())",
            [seq, json.dumps({"round_id": round_id})],
        )
    cabinet.execute("SELECT * FROM hub.claim('b:1')")
    assert [m.version for m in migrate.migrate(bare.owner)] == every_migration_from(6)
    assert hub.pending_hits(bare.owner) == [("c01", "b:2", 0)], "b:1 was claimed; b:2 waits, as box 0"
    assert hub.claim(cabinet, "b:1", 0).amount == 1000, "the award b:1 had"
    assert hub.claim(cabinet, "b:2", 0).amount == 1000
    assert hub.pending_hits(bare.owner) == []
    assert hub.pool(bare.owner).hits == 2


def test_the_reserve_refills_the_pool_only_up_to_its_maximum(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    hub.ingest(cabinet, [*contributions(1, [200_000]), hit(2, "b:1")])  # pool 2 000, reserve 2 000 + 19 000
    reserve = hub.pool(floor.owner).reserve
    award = hub.claim(cabinet, "b:1", 0)
    assert (award.amount, award.from_reserve, award.pool_after) == (2000, 1000, 2000)
    assert hub.pool(floor.owner).reserve == reserve - 1000


def claim_at_once(
    hold: psycopg.Connection[Any], superuser: psycopg.Connection[Any], claims: list[Any]
) -> list[Any]:
    """Runs each claim in a thread while ``hold`` keeps the pool locked, so that they all
    wait on it; then lets them go, and returns their results in the claims' order."""
    results: list[Any] = [None] * len(claims)

    def run(index: int) -> None:
        try:
            results[index] = claims[index]()
        except Exception as error:  # reported to the test below
            results[index] = error

    with hold.transaction():
        hold.execute("SELECT value FROM hub.pool FOR UPDATE")
        threads = [threading.Thread(target=run, args=(index,)) for index in range(len(claims))]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            waiting = superuser.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                [hold.info.dbname],
            ).fetchone()
            if waiting and waiting[0] == len(claims):
                break
            time.sleep(0.02)
        else:
            pytest.fail("the claims never waited on the pool's lock together")
    for thread in threads:
        thread.join(20)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def test_of_two_hits_at_once_the_first_committed_wins_the_pool(floor: Hub, postgres: Postgres) -> None:
    first, second = floor.cabinet("c01"), floor.cabinet("c02")
    hub.ingest(first, [*contributions(1, [3000]), hit(2, "b:1")])
    hub.ingest(second, [*contributions(1, [4000], round_prefix="s:"), hit(2, "s:1")])
    before = hub.pool(floor.owner)
    assert before.value == 1000 + 300 + 400
    with postgres.connect(autocommit=True) as superuser:
        awards = claim_at_once(
            floor.owner, superuser, [lambda: hub.claim(first, "b:1", 0), lambda: hub.claim(second, "s:1", 0)]
        )
    ids = {
        (int(cabinet_id), str(round_id)): int(award_id)
        for award_id, cabinet_id, round_id in floor.owner.execute(
            "SELECT id, cabinet_id, round_id FROM hub.awards"
        )
    }
    winner, later = sorted(awards, key=lambda award: ids[award.cabinet_id, award.round_id])
    assert winner.amount == before.value
    assert winner.pool_after == 1000 + before.reserve
    assert (later.amount, later.at_once) == (1000, True), "the reset value"
    assert later.pool_after == winner.pool_after, "paid by the house: the pool goes on from its reset"
    after = hub.pool(floor.owner)
    assert (after.value, after.reserve, after.hits) == (1000 + before.reserve, 0, 2)


def test_a_hit_received_before_another_is_awarded_the_reset_value_however_late_it_is_claimed(
    floor: Hub,
) -> None:
    first, second, third = floor.cabinet("c01"), floor.cabinet("c02"), floor.cabinet("c03")
    hub.ingest(first, [*contributions(1, [3000]), hit(2, "b:1")])
    hub.ingest(
        second, [*contributions(1, [1], round_prefix="s:"), hit(2, "s:1")]
    )  # waiting for the same pool as c01's hit
    won = hub.claim(first, "b:1", 0)
    assert won.amount == 1300
    hub.ingest(third, [*contributions(1, [2000], round_prefix="t:"), hit(2, "t:1")])  # after the award
    assert hub.claim(second, "s:1", 0).amount == 1000, "the pool it hit was won first"
    # c03 hit the pool that started again after c01's award: an award at once changed nothing of it.
    pool = hub.pool(floor.owner)
    assert pool.value == won.pool_after + 200
    third_award = hub.claim(third, "t:1", 0)
    assert (third_award.amount, third_award.at_once) == (pool.value, False)
    assert hub.pool(floor.owner).hits == 3


def test_a_hit_at_once_is_awarded_the_reset_value_in_force_when_it_was_received(floor: Hub) -> None:
    """The reset value changed between a hit at once and its claim (its cabinet silent, named)
    does not change its award: the rule when it hit promised that reset value."""
    first, second = floor.cabinet("c01"), floor.cabinet("c02")
    hub.ingest(first, [*contributions(1, [3000]), hit(2, "b:1")])
    hub.ingest(second, [*contributions(1, [4000], round_prefix="s:"), hit(2, "s:1")])
    assert hub.claim(first, "b:1", 0).amount == 1700
    floor.owner.execute("UPDATE hub.cabinets SET last_seen = now() - interval '1 minute' WHERE name = 'c02'")
    hub.set_parameters(floor.owner, "someone", reset=10, despite_silent=["c02"])
    pool = hub.pool(floor.owner)
    award = hub.claim(second, "s:1", 0)
    assert (award.amount, award.at_once) == (1000, True), "the reset value when it hit"
    assert hub.pool(floor.owner) == replace(pool, hits=pool.hits + 1, updated_at=award.claimed_at)
    hub.ingest(second, [*contributions(3, [100, 100], round_id="s:c"), hit(5, "s:c"), hit(6, "s:c", box=1)])
    assert hub.claim(second, "s:c", 0).at_once is False
    assert hub.claim(second, "s:c", 1).amount == 10, "a hit received after the change: the new reset value"


def test_a_hit_waiting_when_the_hub_learns_the_rule_of_hits_at_once_takes_its_turn(
    bare: Hub, tmp_path: Path
) -> None:
    migrate_up_to(9, bare, tmp_path)
    bare.owner.execute("UPDATE hub.pool SET value = 1500, reset = 1000, maximum = 2000")
    first, second = bare.cabinet("c01"), bare.cabinet("c02")
    hub.ingest(first, [*contributions(1, [100], round_prefix="a:"), hit(2, "a:1")])
    hub.ingest(second, [*contributions(1, [100], round_prefix="b:"), hit(2, "b:1")])
    assert [m.version for m in migrate.migrate(bare.owner)] == every_migration_from(10)
    assert hub.claim(second, "b:1", 0).amount == 1500, "the first claimed wins the pool"
    assert hub.claim(first, "a:1", 0).amount == 1000, "the other waited for the same pool"
    assert hub.pool(bare.owner).value == 1000


def test_one_round_claimed_twice_at_once_gets_one_award(floor: Hub, postgres: Postgres) -> None:
    cabinet = floor.cabinet("c01")
    again = floor.login("c01")
    hub.ingest(cabinet, [*contributions(1, [3000]), hit(2, "b:1")])
    value = hub.pool(floor.owner).value
    with postgres.connect(autocommit=True) as superuser:
        one, other = claim_at_once(
            floor.owner, superuser, [lambda: hub.claim(cabinet, "b:1", 0), lambda: hub.claim(again, "b:1", 0)]
        )
    assert one == other
    assert one.amount == value
    assert hub.pool(floor.owner).hits == 1
    assert count(floor.owner, "SELECT count(*) FROM hub.awards") == 1


# Roles and row-level security


def test_a_cabinet_sends_and_reads_only_its_own_rows(floor: Hub) -> None:
    first, second = floor.cabinet("c01"), floor.cabinet("c02")
    hub.ingest(first, contributions(1, [100, 100]))
    hub.ingest(second, [*contributions(1, [100]), hit(2, "b:1")])
    hub.claim(second, "b:1", 0)
    other = floor.owner.execute("SELECT id FROM hub.cabinets WHERE name = 'c02'").fetchone()
    assert other is not None
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="c01 may send only its own events"):
        first.execute(
            "INSERT INTO hub.events (cabinet_id, seq, kind, payload, committed_at) VALUES (%s, 2, 'note', '{}', now())",
            [other[0]],
        )
    assert count(first, "SELECT count(*) FROM hub.events") == 2
    assert count(first, "SELECT count(*) FROM hub.contributions") == 2
    assert count(first, "SELECT count(*) FROM hub.awards") == 0
    assert first.execute("SELECT name FROM hub.cabinets").fetchall() == [("c01",)]
    assert count(floor.owner, "SELECT count(*) FROM hub.events") == 4, "c01's two, c02's stake and hit"


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE hub.pool SET value = value + 1000000",
        "SELECT reserve FROM hub.pool",
        "UPDATE hub.cabinets SET last_seq = 0",
        "DELETE FROM hub.events",
        "UPDATE hub.events SET payload = '{}'",
        "INSERT INTO hub.awards (cabinet_id, round_id, amount, reset, from_reserve, pool_after)"
        " VALUES (hub.session_cabinet(), 'x', 1, 0, 0, 0)",
        "INSERT INTO hub.contributions VALUES (1, 1, 'r', 1, 1, 0, 0, 1)",
        "SELECT * FROM hub.parameter_changes",
        "SELECT * FROM hub.schema_migrations",
        "CREATE TABLE hub.mine (a integer)",
        "CREATE TABLE public.mine (a integer)",
        "ALTER TABLE hub.events DISABLE ROW LEVEL SECURITY",
        "ALTER TABLE hub.pool ADD COLUMN mine integer",
        "DROP POLICY cabinet_sends_own ON hub.events",
        "CREATE SCHEMA mine",
    ],
)
def test_a_cabinet_cannot_change_the_pool_or_the_schema(floor: Hub, statement: str) -> None:
    cabinet = floor.cabinet("c01")
    hub.ingest(cabinet, contributions(1, [100]))
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        cabinet.execute(statement.encode())


def test_a_cabinet_cannot_set_the_pools_parameters(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    with pytest.raises(ParametersError, match="may not change the pool: the hub's owner does"):
        hub.set_parameters(cabinet, "c01", rate_ppm=1_000_000)
    assert hub.pool(floor.owner).parameters.rate_ppm == 100_000


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO hub.events (cabinet_id, seq, kind, payload, committed_at) VALUES (1, 2, 'note', '{}', now())",
        "UPDATE hub.pool SET value = 0",
        "DELETE FROM hub.awards",
        "INSERT INTO hub.parameter_changes (changed_by, old, new) VALUES ('me', '{}', '{}')",
        "SELECT * FROM hub.claim('r', 0)",
        "CREATE TABLE hub.mine (a integer)",
        "CREATE TABLE public.mine (a integer)",
    ],
)
def test_the_dashboard_reads_everything_and_writes_nothing(floor: Hub, statement: str) -> None:
    cabinet = floor.cabinet("c01")
    hub.ingest(cabinet, [*contributions(1, [100]), hit(2, "b:1")])
    hub.claim(cabinet, "b:1", 0)
    dashboard = floor.dashboard()
    assert count(dashboard, "SELECT count(*) FROM hub.events") == 2
    assert count(dashboard, "SELECT count(*) FROM hub.awards") == 1
    assert count(dashboard, "SELECT count(*) FROM hub.cabinets") == 1
    assert count(dashboard, "SELECT count(*) FROM hub.parameter_changes") == 1
    assert hub.pool(dashboard) == hub.pool(floor.owner)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        dashboard.execute(statement.encode())


def test_roles_of_another_hub_cannot_connect(floor: Hub, postgres: Postgres, tmp_path: Path) -> None:
    dbname, role, password = new_database(postgres, "hub")
    with access.connect(postgres.conninfo(dbname, role, password)) as other_owner:
        migrate.migrate(other_owner)
        access.add_cabinet(other_owner, "c01", tmp_path / "other.toml")
    credentials = access.read_credentials(tmp_path / "other.toml")
    with pytest.raises(CredentialsError, match="may not connect to this hub's database"):
        access.connect(replace(credentials, dbname=floor.dbname))


# Parameters


def test_parameter_changes_are_logged_with_who_and_when(floor: Hub) -> None:
    change = hub.set_parameters(floor.owner, "Jana Nováková", reset=1500, maximum=5000)
    assert change.changed_by == "Jana Nováková"
    assert change.role_name == floor.owner_role
    assert change.old == {
        "reset": 1000,
        "rate_ppm": 100_000,
        "maximum": 2000,
        "reserve_rate_ppm": 10_000,
        "least_stake": 0,
        "value": 1000,
    }
    assert change.new == {
        "reset": 1500,
        "rate_ppm": 100_000,
        "maximum": 5000,
        "reserve_rate_ppm": 10_000,
        "least_stake": 0,
        "value": 1500,
        "topped_up": 500,
    }
    log = hub.parameter_log(floor.owner)
    assert [entry.changed_by for entry in log] == ["Jana Nováková", "tests"]
    assert log[0] == change
    assert hub.pool(floor.owner).value == 1500


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"reset": 3000}, "reset value 3000 is above the maximum 2000"),
        ({"rate_ppm": 1_000_001}, "parts per million"),
        ({"rate_ppm": 600_000, "reserve_rate_ppm": 500_000}, "together feed at most the whole stake"),
        ({"maximum": -1}, "a whole number from 0"),
        ({"maximum": 1100}, "the maximum 1100 is below the pool's value 1500"),
    ],
)
def test_parameters_out_of_range_are_refused(floor: Hub, changes: dict[str, Any], message: str) -> None:
    hub.ingest(floor.cabinet("c01"), contributions(1, [5000]))
    before = hub.pool(floor.owner)
    with pytest.raises(ParametersError, match=message):
        hub.set_parameters(floor.owner, "someone", **changes)
    assert hub.pool(floor.owner) == before
    with pytest.raises(ParametersError, match="says who makes it"):
        hub.set_parameters(floor.owner, "  ", rate_ppm=0)


def test_a_hit_received_waits_for_a_parameter_change_under_way(floor: Hub, postgres: Postgres) -> None:
    """A change holds the pool and then looks for hits waiting: a batch of a hit alone waits
    for the pool too, so the change either sees it or commits before it is received."""
    cabinet = floor.cabinet("c01")
    done: list[int] = []
    with postgres.connect(autocommit=True) as superuser, floor.owner.transaction():
        floor.owner.execute("SELECT value FROM hub.pool FOR UPDATE")  # a change under way
        sending = threading.Thread(
            target=lambda: done.append(hub.ingest(cabinet, [*contributions(1, [100]), hit(2, "b:1")]))
        )
        sending.start()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not done:
            row = superuser.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                [floor.dbname],
            ).fetchone()
            if row and row[0] == 1:
                break
            time.sleep(0.02)
        assert not done, "the hit was received while the pool was held"
        assert hub.pending_hits(floor.owner) == [], "not yet received: the change sees no hit"
    sending.join(10)
    assert done == [2]
    assert hub.pending_hits(floor.owner) == [("c01", "b:1", 0)]


def test_parameters_wait_for_a_reported_hit_to_be_claimed(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    hub.ingest(
        cabinet, [*contributions(1, [100]), Event(2, "jackpot_hit", {"round_id": "b:1", "box": 0}, NOW)]
    )
    assert hub.pending_hits(floor.owner) == [("c01", "b:1", 0)]
    with pytest.raises(
        ParametersError,
        match=r"only between hits, and a hit waits for its award \(cabinet c01 round b:1 box 0\)",
    ):
        hub.set_parameters(floor.owner, "someone", rate_ppm=50_000)
    hub.claim(cabinet, "b:1", 0)
    assert hub.pending_hits(floor.owner) == []
    assert hub.set_parameters(floor.owner, "someone", rate_ppm=50_000).new["rate_ppm"] == 50_000


def test_an_award_a_cabinet_was_paid_is_taken_from_the_pool_once(floor: Hub) -> None:
    """A hub restored from a backup older than an award holds the hit again and the award
    back in its pool: the cabinet's agent tells it the award its kiosk was paid
    (``hub.claim_paid``), and the pool gives it up once, keeping what was staked after it."""
    cabinet = floor.cabinet("c01")
    hub.ingest(cabinet, [*contributions(1, [5000]), hit(2, "b:1"), *contributions(3, [2000])])
    before = hub.pool(floor.owner)
    assert (before.value, before.reserve) == (1700, 70)
    with pytest.raises(UnknownHitError, match="cabinet c01 has sent no jackpot hit of round r9, box 0"):
        hub.claim_paid(cabinet, "r9", 0, 1500, at_once=False)
    award = hub.claim_paid(
        cabinet, "b:1", 0, 1500, at_once=False
    )  # paid 1 500: the 200 of round b:3 was staked after it
    assert (award.amount, award.at_once, award.reset, award.from_reserve) == (1500, False, 1000, 70)
    assert award.pool_after == 1000 + 200 + 70
    after = hub.pool(floor.owner)
    assert (after.value, after.reserve, after.hits) == (1270, 0, 1)
    assert floor.owner.execute("SELECT reported FROM hub.awards").fetchone() == (True,)
    assert hub.pending_hits(floor.owner) == []
    assert hub.claim_paid(cabinet, "b:1", 0, 1500, at_once=False) == award, "told again: the same award"
    assert hub.claim(cabinet, "b:1", 0) == award, "and claimed: the award paid"
    with pytest.raises(AwardDisagreesError, match="the hub awarded round b:1, box 0 1500, not the 1700"):
        hub.claim_paid(cabinet, "b:1", 0, 1700, at_once=False)
    assert hub.pool(floor.owner) == after
    assert hub.awards_held(cabinet) == {("b:1", 0): 1500}


def test_awards_told_after_a_restore_follow_the_hubs_answer_not_the_order_told(floor: Hub) -> None:
    """Two hits at once: c01's claim won the pool (1 700), c02's was at once (1 000, the house).
    A hub restored from before them holds both hits again and neither award; c02's agent
    happens to tell first. Told by the restored `won` count, its award at once was booked as
    winning (the pool gave up only 1 000) and c01's at once (the pool untouched): the pool
    kept the 1 700 already paid. Each award now says what the hub answered."""
    first, second = floor.cabinet("c01"), floor.cabinet("c02")
    hub.ingest(first, [*contributions(1, [3000]), hit(2, "b:1")])
    hub.ingest(second, [*contributions(1, [4000], round_prefix="s:"), hit(2, "s:1")])
    assert (hub.pool(floor.owner).value, hub.pool(floor.owner).reserve) == (1700, 70)
    later = hub.claim_paid(second, "s:1", 0, 1000, at_once=True)
    assert (later.amount, later.at_once) == (1000, True)
    assert hub.pool(floor.owner).value == 1700, "paid by the house: the pool untouched"
    winner = hub.claim_paid(first, "b:1", 0, 1700, at_once=False)
    assert (winner.amount, winner.at_once) == (1700, False)
    after = hub.pool(floor.owner)
    assert (after.value, after.reserve, after.hits) == (1000 + 70, 0, 2), "as the claims left it"
    assert reconcile.check_pool(floor.owner) == []


def test_an_award_told_is_never_more_than_a_claim_could_award(floor: Hub) -> None:
    """A cabinet's login told any award for any hit it holds, a fresh one too (and its agent's
    claim then returned it for the kiosk to credit): 10^15 on a pool of 1 500, 0 (the house
    adds the reset value, the hit takes nothing), any award at once. A told award now wins at
    most the pool's value, more than 0, and one at once is the hit's reset value."""
    cabinet, other = floor.cabinet("c01"), floor.cabinet("c02")
    hub.ingest(cabinet, [*contributions(1, [5000]), hit(2, "b:1")])
    before = hub.pool(floor.owner)
    assert before.value == 1500
    with pytest.raises(
        PoolShortError,
        match="round b:1, box 0 won the pool, which holds 1500 now, not the 1000000000000000 told",
    ):
        hub.claim_paid(cabinet, "b:1", 0, 10**15, at_once=False)
    with pytest.raises(PoolShortError, match="which holds 1500 now, not the 1501 told"):
        hub.claim_paid(cabinet, "b:1", 0, 1501, at_once=False)
    with pytest.raises(AwardDisagreesError, match="round b:1, box 0 won the pool: its award is more than 0"):
        hub.claim_paid(cabinet, "b:1", 0, 0, at_once=False)
    assert hub.pool(floor.owner) == before, "nothing moved"
    assert hub.pending_hits(floor.owner) == [("c01", "b:1", 0)]
    assert hub.claim(cabinet, "b:1", 0).amount == 1500, "the honest claim: the pool"
    hub.ingest(other, [*contributions(1, [2000], round_prefix="s:"), hit(2, "s:1")])
    hub.ingest(cabinet, [*contributions(3, [2000]), hit(4, "b:3")])
    hub.claim(other, "s:1", 0)
    with pytest.raises(
        AwardDisagreesError, match="at once with an award: its award is the reset value 1000, not 1200"
    ):
        hub.claim_paid(cabinet, "b:3", 0, 1200, at_once=True)
    assert hub.claim(cabinet, "b:3", 0).amount == 1000


def test_the_owner_names_a_pending_hit_the_parameters_need_not_wait_for(
    floor: Hub, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hit that will never be claimed (its cabinet online, so --despite-silent cannot name
    it) held the parameters for ever: the owner names it, logged; a hit not pending is refused."""
    cabinet = floor.cabinet("c01")
    hub.ingest(cabinet, [*contributions(1, [100]), hit(2, "b:1"), *contributions(3, [100]), hit(4, "b:3")])
    hub.claim(cabinet, "b:3", 0)
    with pytest.raises(ParametersError, match=r"a hit waits for its award \(cabinet c01 round b:1 box 0\)"):
        hub.set_parameters(floor.owner, "someone", rate_ppm=50_000)
    for named, refused in ((("b:3", 0), "b:3 box 0"), (("b:1", 1), "b:1 box 1"), (("b:9", 0), "b:9 box 0")):
        with pytest.raises(ParametersError, match=f"no hit of round {refused} waits for its award"):
            hub.set_parameters(floor.owner, "someone", rate_ppm=50_000, despite_hits=[named])
    dsn = ["--dsn", floor.owner_dsn]
    assert (
        main(["hub", "set-parameters", "--by", "Petr", "--rate-ppm", "5", "--despite-hit", "b:1:1", *dsn])
        == 2
    )
    assert "no hit of round b:1 box 1 waits for its award" in capsys.readouterr().err
    assert (
        main(["hub", "set-parameters", "--by", "Petr", "--rate-ppm", "5", "--despite-hit", "b:1:0", *dsn])
        == 0
    )
    assert '"despite_hits": [{"box": 0, "cabinet": "c01", "round_id": "b:1"}]' in capsys.readouterr().out
    assert hub.pending_hits(floor.owner) == [("c01", "b:1", 0)], "the hit itself is untouched"


# Logins and clear errors


def test_a_cabinets_credentials_file_is_its_own(floor: Hub) -> None:
    path = floor.directory / "c01.toml"
    credentials = access.add_cabinet(floor.owner, "c01", path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert access.read_credentials(path) == credentials
    assert credentials.user == f"{floor.dbname}_cabinet_c01"
    with pytest.raises(HubError, match="cabinet c01 exists already"):
        access.add_cabinet(floor.owner, "c01", floor.directory / "again.toml")
    assert not (floor.directory / "again.toml").exists()
    with pytest.raises(CredentialsError, match="exists already: a credentials file is never overwritten"):
        access.add_cabinet(floor.owner, "c02", path)
    assert count(floor.owner, "SELECT count(*) FROM hub.cabinets") == 1
    with pytest.raises(HubError, match="'C 3' is not a cabinet's name"):
        access.add_cabinet(floor.owner, "C 3", floor.directory / "c3.toml")
    path.chmod(0o644)
    with pytest.raises(CredentialsError, match=r"others than its owner may read it \(mode 0644\): chmod 600"):
        access.read_credentials(path)


def test_wrong_credentials_and_unknown_cabinets_are_told_clearly(floor: Hub) -> None:
    credentials = access.add_cabinet(floor.owner, "c01", floor.directory / "c01.toml")
    with pytest.raises(CredentialsError, match=f"refused the login of {credentials.user}: wrong password"):
        access.connect(replace(credentials, password="not-it"))
    with pytest.raises(
        CredentialsError, match="refused the login of nobody_here: wrong password, or no such"
    ):
        access.connect(replace(credentials, user="nobody_here"))
    with pytest.raises(HubUnavailableError, match="cannot reach the hub"):
        access.connect(replace(credentials, host="127.0.0.1", port=1))
    with pytest.raises(UnknownCabinetError, match=f"role {floor.owner_role} is not a cabinet of this hub"):
        hub.ingest(floor.owner, contributions(1, [100]))
    with pytest.raises(UnknownCabinetError, match=f"role {floor.owner_role} is not a cabinet of this hub"):
        hub.claim(floor.owner, "r1", 0)
    bad = floor.directory / "bad.toml"
    bad.write_text("[hub]\nhost = 'h'\n", encoding="utf-8")
    bad.chmod(0o600)
    with pytest.raises(CredentialsError, match=r"\[hub\] dbname must be a text"):
        access.read_credentials(bad)


def test_a_credentials_file_that_is_not_utf_8_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file saved in another encoding (or not a text at all) is told as its other errors
    are, not as a traceback."""
    latin = tmp_path / "latin.toml"
    latin.write_bytes("[hub]\nhost = 'h\u00f4te'\n".encode("latin-1"))
    latin.chmod(0o600)
    assert main(["hub", "pool", "--credentials", str(latin)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"oasis-kiosk: hub: {latin}: not UTF-8 text" in err


# The command


def test_the_hub_command(bare: Hub, capsys: pytest.CaptureFixture[str]) -> None:
    dsn = ["--dsn", bare.owner_dsn]
    assert main(["hub", "pool", *dsn]) == 2
    assert "the hub's schema is not there: run hub migrate first" in capsys.readouterr().err
    assert main(["hub", "migrate", *dsn]) == 0
    assert "applied 0001_books" in capsys.readouterr().out
    assert main(["hub", "migrate", *dsn]) == 0
    assert "nothing to apply" in capsys.readouterr().out
    out = bare.directory / "c07.toml"
    assert main(["hub", "add-cabinet", "c07", "--out", str(out), "--hub-host", "127.0.0.1", *dsn]) == 0
    assert f"role {bare.dbname}_cabinet_c07" in capsys.readouterr().out
    with access.connect(out) as cabinet:
        assert hub.held(cabinet) == 0
    assert main(["hub", "set-parameters", "--by", "Petr", "--reset", "500", "--maximum", "900", *dsn]) == 0
    assert "parameters changed by Petr" in capsys.readouterr().out
    assert main(["hub", "pool", "--json", *dsn]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["value"] == 500
    assert shown["parameters"]["maximum"] == 900
    assert shown["changes"][0]["changed_by"] == "Petr"
    assert main(["hub", "set-parameters", "--by", "Petr", "--reset", "1000", *dsn]) == 2
    assert "reset value 1000 is above the maximum 900" in capsys.readouterr().err
    with access.connect(out) as cabinet:
        hub.ingest(cabinet, [Event(1, "jackpot_contribution", {"stake": 100, "round_id": "r1"}, NOW)])
    bare.owner.execute("UPDATE hub.cabinets SET last_seen = now() - interval '1 minute'")
    assert main(["hub", "set-parameters", "--by", "Petr", "--rate-ppm", "5", *dsn]) == 2
    assert "cabinet c07 feeds the pool and has not reached the hub for 60 s" in capsys.readouterr().err
    changed = ["hub", "set-parameters", "--by", "Petr", "--rate-ppm", "5", "--despite-silent", "c07", *dsn]
    assert main(changed) == 0
    assert '"despite_silent": ["c07"]' in capsys.readouterr().out
    wrong = bare.server.conninfo(bare.dbname, bare.owner_role, "wrong")
    assert main(["hub", "pool", "--dsn", wrong]) == 2
    assert "wrong password" in capsys.readouterr().err


def logins(hub_: Hub) -> tuple[int, int]:
    """The cabinets' rows and the database's login roles."""
    rows = hub_.owner.execute("SELECT count(*) FROM hub.cabinets").fetchone()
    roles = hub_.owner.execute(
        "SELECT count(*) FROM pg_roles WHERE rolname LIKE %s", [f"{hub_.dbname}\\_%\\_%"]
    ).fetchone()
    assert rows is not None
    assert roles is not None
    return int(rows[0]), int(roles[0])


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--hub-port", "99999"], "not a port (1 to 65535): '99999'"),
        (["--hub-port", "-5"], "not a whole number from 0: '-5'"),
        (["--hub-port", "0"], "not a port (1 to 65535): '0'"),
        (["--sslmode", "bogus"], "not one of libpq's sslmode values (disable, allow, prefer, require"),
    ],
)
def test_a_login_the_cabinet_could_not_use_is_refused_before_anything_is_made(
    floor: Hub, capsys: pytest.CaptureFixture[str], given: list[str], said: str
) -> None:
    """A port or an sslmode its own file cannot connect with: said at once (exit 2), no role,
    no row, no file; not a login made and then a file refused, or an agent that loops."""
    before = logins(floor)
    for command in ("add-cabinet", "add-dashboard"):
        out = floor.directory / f"{command}.toml"
        with pytest.raises(SystemExit) as stopped:
            main(["hub", command, "c01", "--out", str(out), "--dsn", floor.owner_dsn, *given])
        assert stopped.value.code == 2
        assert said in capsys.readouterr().err
        assert not out.exists()
    assert logins(floor) == before
    for port, tls in ((0, {}), (65536, {}), (None, {"sslmode": "bogus"})):
        with pytest.raises(
            HubError, match=r"port for the new login is a number from 1 to 65535|sslmode is one"
        ):
            access.add_cabinet(floor.owner, "c01", floor.directory / "c01.toml", port=port, tls=tls)
    assert logins(floor) == before
    assert not (floor.directory / "c01.toml").exists()


def test_who_changes_the_parameters_is_a_name_without_control_characters(
    floor: Hub, capsys: pytest.CaptureFixture[str]
) -> None:
    before = hub.parameter_log(floor.owner)
    for by in ("\x00", "Petr\x00", "Petr\x1b[2J", " "):
        with pytest.raises(SystemExit) as stopped:
            main(["hub", "set-parameters", "--by", by, "--reset", "5", "--dsn", floor.owner_dsn])
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert "who makes the change: a name" in err
        assert "PostgreSQL" not in err
    assert hub.parameter_log(floor.owner) == before


def test_parameters_wait_for_a_cabinet_that_feeds_the_pool_and_fell_silent(floor: Hub) -> None:
    """A hit made just before a cabinet's link went down waits in its outbox, unseen by the
    hub: the change is refused while such a cabinet is silent, unless named."""
    feeding, local = floor.cabinet("c01"), floor.cabinet("c02")
    hub.ingest(feeding, contributions(1, [100]))
    hub.ingest(local, [Event(1, "meter", {"name": "coin_in", "value": 5}, NOW)])
    assert hub.set_parameters(floor.owner, "someone", rate_ppm=50_000).new["rate_ppm"] == 50_000
    floor.owner.execute("UPDATE hub.cabinets SET last_seen = now() - interval '5 minutes'")
    before = hub.pool(floor.owner)
    with pytest.raises(
        ParametersError,
        match=r"only between hits, and cabinet c01 feeds the pool and has not reached the hub for 300 s",
    ) as refused:
        hub.set_parameters(floor.owner, "someone", rate_ppm=60_000)
    assert "c02" not in str(refused.value), "a cabinet that never fed the pool holds no hit of it"
    assert hub.pool(floor.owner) == before
    assert hub.agents_silent(floor.owner) == [("c01", 300)]
    change = hub.set_parameters(floor.owner, "someone", rate_ppm=60_000, despite_silent=["c01"])
    assert change.new["rate_ppm"] == 60_000
    assert change.new["despite_silent"] == ["c01"], "the log says whose hits it did not wait for"
    with pytest.raises(ParametersError, match="no cabinet c09 is silent"):
        hub.set_parameters(floor.owner, "someone", rate_ppm=70_000, despite_silent=["c01", "c09"])
    hub.heartbeat(feeding)
    assert hub.agents_silent(floor.owner) == []
    assert "despite_silent" not in hub.set_parameters(floor.owner, "someone", rate_ppm=70_000).new
    # A hit the hub holds of a cabinet that fell silent before it claimed it (its books
    # cleared, the cabinet retired) waits for ever, unless the cabinet is named.
    hub.ingest(feeding, [hit(2, "b:1")])
    floor.owner.execute("UPDATE hub.cabinets SET last_seen = now() - interval '1 day'")
    with pytest.raises(ParametersError, match=r"a hit waits for its award \(cabinet c01 round b:1 box 0\)"):
        hub.set_parameters(floor.owner, "someone", rate_ppm=80_000)
    assert (
        hub.set_parameters(floor.owner, "someone", rate_ppm=80_000, despite_silent=["c01"]).new["rate_ppm"]
        == 80_000
    )


# A cabinet's login cannot stop the floor


def test_a_hit_whose_box_is_not_a_whole_number_as_written_is_refused(floor: Hub) -> None:
    cabinet = floor.cabinet("c01")
    # jsonb keeps a number's scale as written: 1.0 reads back as "1.0", not as a box number.
    for box in ("1.0", "3.00"):
        with pytest.raises(
            psycopg.Error, match=rf'"box" must be a whole number from 0, not {re.escape(box)}'
        ):
            cabinet.execute(
                "INSERT INTO hub.events (seq, kind, payload, committed_at)"
                f' VALUES (1, \'jackpot_hit\', \'{{"round_id": "x", "box": {box}}}\', now())'
            )
    assert hub.pending_hits(floor.owner) == []
    assert hub.set_parameters(floor.owner, "someone", rate_ppm=5).new["rate_ppm"] == 5


def test_a_number_no_cabinet_could_mean_is_refused_before_it_reaches_the_owners_pages(floor: Hub) -> None:
    """A number too large for the owner's pages to read back stopped the dashboard and
    ``hub reconcile``: the hub refuses it as it arrives."""
    cabinet = floor.cabinet("c01")
    for payload in ('{"name": "coin_in", "value": 1e5000}', '{"detail": {"x": [-1e16]}}'):
        with pytest.raises(psycopg.Error, match=r"cabinet c01, event 1 \(meter\): a number beyond ±10\^15"):
            cabinet.execute(
                "INSERT INTO hub.events (seq, kind, payload, committed_at) VALUES (1, 'meter', %s, now())",
                [payload],
            )
    assert hub.ingest(cabinet, [Event(1, "meter", {"name": "coin_in", "value": 10**15}, NOW)]) == 1


def test_money_a_cabinet_sends_is_whole_minor_units(floor: Hub) -> None:
    """A forged ledger row of 1.99 was kept, and the dashboard showed 1: the hub refuses money
    that is not a whole number of minor units as written, and so does ``hub.ingest`` before
    sending."""
    cabinet = floor.cabinet("c01")
    ledger = {
        "id": 1,
        "kind": "bill_in",
        "amount": 5000,
        "credits_after": 5000,
        "round_id": None,
        "detail": {},
    }
    meter = {"name": "coin_in", "value": 5000}
    for kind, payload, key, shown in (
        ("ledger", {**ledger, "amount": 1.99}, "amount", "1.99"),
        ("ledger", {**ledger, "amount": 2.0}, "amount", "2.0"),
        ("ledger", {**ledger, "credits_after": "5000"}, "credits_after", '"5000"'),
        (
            "ledger",
            {key: value for key, value in ledger.items() if key != "credits_after"},
            "credits_after",
            "missing",
        ),
        ("ledger", {**ledger, "kind": "handpaid_win", "detail": {"won": 1.5}}, "detail.won", "1.5"),
        ("meter", {**meter, "value": 2.5}, "value", "2.5"),
        ("meter", {**meter, "value": None}, "value", "null"),
    ):
        message = rf'cabinet c01, event 1 \({kind}\): "{re.escape(key)}" must be a whole number of minor units, not {re.escape(shown)}'
        with pytest.raises(psycopg.Error, match=message):
            cabinet.execute(
                "INSERT INTO hub.events (seq, kind, payload, committed_at) VALUES (1, %s, %s, now())",
                [kind, json.dumps(payload)],
            )
        with pytest.raises(BatchError, match=rf"event 1 \({kind}\): {re.escape(key)} is a whole number"):
            hub.ingest(cabinet, [Event(1, kind, payload, NOW)])
    assert hub.held(cabinet) == 0
    won = {**ledger, "kind": "handpaid_win", "amount": 0, "detail": {"won": 700}}
    assert (
        hub.ingest(cabinet, [Event(1, "ledger", won, NOW), Event(2, "meter", {**meter, "value": 0}, NOW)])
        == 2
    )


def test_money_no_cabinet_can_write_is_refused(floor: Hub) -> None:
    """A cabinet's login wrote games_played = -5 and coin_out = -999999999999999, and the
    dashboard showed them: the hub refuses a meter, a credit, a win or a stake below 0, and a
    row's amount of the wrong sign for its kind (a win taken, a wager given), as no cabinet
    writes one; and so does ``hub.ingest`` before sending."""
    cabinet = floor.cabinet("c01")
    ledger = {"id": 1, "kind": "win", "amount": 500, "credits_after": 5000, "round_id": 3, "detail": {}}
    for kind, payload, key, shown in (
        ("meter", {"name": "games_played", "value": -5}, "value", "-5"),
        ("meter", {"name": "coin_out", "value": -999999999999999}, "value", "-999999999999999"),
        ("ledger", {**ledger, "credits_after": -1}, "credits_after", "-1"),
        ("ledger", {**ledger, "amount": -500}, "amount", "-500"),
        ("ledger", {**ledger, "kind": "bill_in", "amount": -5000}, "amount", "-5000"),
        ("ledger", {**ledger, "kind": "wager", "amount": 200}, "amount", "200"),
        ("ledger", {**ledger, "kind": "cash_out", "amount": 5000}, "amount", "5000"),
        (
            "ledger",
            {**ledger, "kind": "handpaid_win", "amount": 0, "detail": {"won": -700}},
            "detail.won",
            "-700",
        ),
        (
            "ledger",
            {**ledger, "kind": "jackpot_contribution", "amount": 0, "detail": {"stake": -200}},
            "detail.stake",
            "-200",
        ),
        ("jackpot_contribution", {"stake": -5, "round_id": "b:1"}, "stake", "-5"),
    ):
        with pytest.raises(psycopg.Error, match=rf'cabinet c01, event 1 \({kind}\): "{re.escape(key)}" '):
            cabinet.execute(
                "INSERT INTO hub.events (seq, kind, payload, committed_at) VALUES (1, %s, %s, now())",
                [kind, json.dumps(payload)],
            )
        with pytest.raises(BatchError, match=rf"event 1 \({kind}\): {re.escape(key)} .*{re.escape(shown)}"):
            hub.ingest(cabinet, [Event(1, kind, payload, NOW)])
    assert hub.held(cabinet) == 0
    honest = [
        {**ledger, "kind": "bill_in", "amount": 5000, "credits_after": 5000},
        {**ledger, "kind": "wager", "amount": -200, "credits_after": 4800},
        {**ledger, "kind": "win", "amount": 0, "credits_after": 4800},
        {**ledger, "kind": "cash_out", "amount": -4800, "credits_after": 0},
        {**ledger, "kind": "jackpot_contribution", "amount": 0, "detail": {"stake": 200}},
        {**ledger, "kind": "something_new", "amount": -3},
    ]
    events = [Event(seq, "ledger", payload, NOW) for seq, payload in enumerate(honest, start=1)]
    events.append(Event(len(events) + 1, "meter", {"name": "games_played", "value": 0}, NOW))
    assert hub.ingest(cabinet, events) == len(events)


def test_a_cabinets_login_is_limited_and_cannot_hold_the_pool_idle(floor: Hub) -> None:
    floor.cabinet("c01")
    (role,) = [name for (name,) in floor.owner.execute("SELECT role_name FROM hub.cabinets")]
    row = floor.owner.execute(
        "SELECT rolconnlimit, rolconfig FROM pg_roles WHERE rolname = %s", [role]
    ).fetchone()
    assert row is not None
    limit, settings = row
    assert limit == 3
    assert "idle_in_transaction_session_timeout=10s" in settings
    stuck = floor.login("c01")
    stuck.execute("BEGIN")
    stuck.execute(
        "INSERT INTO hub.events (seq, kind, payload, committed_at)"
        ' VALUES (1, \'jackpot_contribution\', \'{"stake": 100, "round_id": "r1"}\', now())'
    )
    other = floor.cabinet("c02")
    began = time.monotonic()
    assert hub.ingest(other, contributions(1, [100])) == 1, "the stuck transaction was ended"
    assert time.monotonic() - began < 30
    with pytest.raises(psycopg.Error, match="idle-in-transaction timeout"):
        stuck.execute("SELECT 1")


def test_a_cabinets_login_cannot_hold_the_pool_busy(bare: Hub, tmp_path: Path) -> None:
    """A stake and then a long statement in one transaction held the pool's lock while busy
    (only an idle transaction was ended): every other cabinet's stake waited. A cabinet's
    login, one added before migration 0012 too, has its statements ended after 10 s."""
    migrate_up_to(11, bare, tmp_path)
    bare.cabinet("c01")
    migrate.migrate(bare.owner)
    bare.cabinet("c02")
    for (settings,) in bare.owner.execute(
        "SELECT rolconfig FROM pg_roles WHERE rolname IN (SELECT role_name FROM hub.cabinets)"
    ).fetchall():
        assert "statement_timeout=10s" in settings
    busy = bare.login("c01")
    ended: list[BaseException] = []

    def hold() -> None:
        try:
            with busy.transaction():
                hub.ingest(busy, contributions(1, [100]))
                busy.execute("SELECT pg_sleep(25)")
        except psycopg.Error as error:
            ended.append(error)

    holding = threading.Thread(target=hold)
    holding.start()
    time.sleep(1)
    honest = bare.login("c02")
    honest.execute("SET statement_timeout = '15s'")  # as a link agent's own, at most
    began = time.monotonic()
    assert hub.ingest(honest, contributions(1, [100])) == 1, "the busy transaction was ended"
    assert time.monotonic() - began < 12
    holding.join(20)
    assert [type(error) for error in ended] == [psycopg.errors.QueryCanceled]
    assert hub.held(busy) == 0, "nothing of it was kept"


def test_two_batches_each_with_a_hit_then_a_stake_do_not_deadlock(floor: Hub) -> None:
    first, second = floor.cabinet("c01"), floor.cabinet("c02")
    errors: list[BaseException] = []

    def send(connection: psycopg.Connection[Any], prefix: str) -> None:
        try:
            for round_number in range(1, 20):
                seq = 3 * round_number - 2
                round_id = f"{prefix}:{round_number}"
                hub.ingest(
                    connection,
                    [
                        *contributions(seq, [10], round_id=round_id),
                        hit(seq + 1, round_id),
                        Event(seq + 2, "jackpot_contribution", {"stake": 10, "round_id": f"{prefix}:x"}, NOW),
                    ],
                )
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=send, args=pair) for pair in ((first, "a"), (second, "b"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []


def test_a_change_of_nothing_is_refused_and_not_logged(floor: Hub) -> None:
    before = len(hub.parameter_log(floor.owner))
    pool = hub.pool(floor.owner)
    with pytest.raises(ParametersError, match="nothing to change"):
        hub.set_parameters(floor.owner, "someone")
    with pytest.raises(ParametersError, match="nothing to change"):
        hub.set_parameters(floor.owner, "someone", reset=pool.parameters.reset)
    assert len(hub.parameter_log(floor.owner)) == before
