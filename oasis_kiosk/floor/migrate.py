"""The hub's schema by numbered migrations (``oasis-kiosk hub migrate``).

``migrations/NNNN_name.sql`` are applied in order, each in its own transaction, by the
hub's owner: the role that owns the database, and that alone changes the schema. Each
applied file is recorded in ``hub.schema_migrations`` with its SHA-256, so migrating again
applies only what is new, and a recorded file that has since changed, or a record this
code does not know (a newer hub's), is refused rather than guessed at.

Before the first file, ``migrate`` makes the schema ``hub``, the record table, and this
database's two group roles, ``<database>_cabinet`` and ``<database>_dashboard`` (roles
belong to the whole server, so their names carry the database's). A file names them, and
the database, as ``{{cabinets}}``, ``{{dashboard}}`` and ``{{database}}``.

A migration waits for a table's lock at most ``TABLE_LOCK_WAIT``, the floor's stakes queued
behind it meanwhile. ``server_warnings`` says what the server still lets any login do to
stop the floor, which ``SERVER_FUNCTIONS``, a superuser's step, and the server's settings
take away.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from oasis_kiosk.floor.errors import MigrationError

MIGRATIONS = Path(__file__).with_name("migrations")
# A superuser's step on the hub's database, after migrating (docs/floor.md): the server's
# functions by which any login could stop the server or the floor, taken from them.
SERVER_FUNCTIONS = Path(__file__).with_name("server_functions.sql")
FILE_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
# Any number: held by every migrating transaction so that two `hub migrate` at once take turns.
LOCK = 0x0A5151
ROLE_NAME_BYTES = 63  # PostgreSQL's NAMEDATALEN - 1


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    text: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def label(self) -> str:
        return f"{self.version:04d}_{self.name}"


def migrations(directory: Path = MIGRATIONS) -> list[Migration]:
    """The migration files in order, numbered 1, 2, 3… without a gap or a repeat."""
    found = []
    for path in sorted(directory.glob("*.sql")):
        match = FILE_NAME.fullmatch(path.name)
        if not match:
            raise MigrationError(f"{path}: a migration is named NNNN_name.sql")
        found.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    for number, migration in enumerate(found, start=1):
        if migration.version != number:
            raise MigrationError(f"{directory}: migration {number:04d} is missing before {migration.label}")
    return found


@dataclass(frozen=True)
class GroupRoles:
    cabinets: str
    dashboard: str


def group_roles(database: str) -> GroupRoles:
    roles = GroupRoles(f"{database}_cabinet", f"{database}_dashboard")
    for role in (roles.cabinets, roles.dashboard):
        if len(role.encode("utf-8")) > ROLE_NAME_BYTES:
            raise MigrationError(
                f"database name {database!r} is too long for its roles' names ({role!r}): "
                f"at most {ROLE_NAME_BYTES} bytes"
            )
    return roles


def render(migration: Migration, connection: psycopg.Connection[Any]) -> bytes:
    database = connection.info.dbname
    roles = group_roles(database)
    text = migration.text
    for token, name in (
        ("cabinets", roles.cabinets),
        ("dashboard", roles.dashboard),
        ("database", database),
    ):
        text = text.replace("{{" + token + "}}", sql.Identifier(name).as_string(connection))
    left = re.search(r"\{\{\w*\}\}", text)
    if left:
        raise MigrationError(f"{migration.label}: unknown name {left[0]}")
    return text.encode("utf-8")


def applied(connection: psycopg.Connection[Any]) -> dict[int, tuple[str, str]]:
    """The recorded migrations: version -> (name, checksum)."""
    rows = connection.execute("SELECT version, name, checksum FROM hub.schema_migrations").fetchall()
    return {int(version): (str(name), str(checksum)) for version, name, checksum in rows}


def check_history(known: list[Migration], recorded: dict[int, tuple[str, str]]) -> None:
    by_version = {migration.version: migration for migration in known}
    for version, (name, checksum) in sorted(recorded.items()):
        migration = by_version.get(version)
        if migration is None:
            raise MigrationError(
                f"the hub's schema has migration {version:04d}_{name}, which this version of "
                "oasis-kiosk does not know: migrate it with the version that made it"
            )
        if migration.checksum != checksum:
            raise MigrationError(
                f"migration {migration.label} has changed since it was applied: a migration "
                "applied is never edited; add a new one"
            )


OLDEST_SERVER = 150000
"""PostgreSQL 15: before it, every role may create objects in the schema ``public``, which
the hub's privileges (0003_privileges.sql) take for granted no cabinet can."""


def check_server(version: int) -> None:
    """``version`` as libpq gives it (``150004`` for 15.4): 15 or later, or MigrationError."""
    if version < OLDEST_SERVER:
        shown = f"{version // 10000}.{version % 10000}" if version >= 100000 else str(version)
        raise MigrationError(f"the hub needs PostgreSQL 15 or later, and this server is {shown}")


def prepare(connection: psycopg.Connection[Any]) -> None:
    """The schema, the record table and the group roles, made where missing, on a server
    the hub can trust (``check_server``)."""
    check_server(connection.info.server_version)
    owner = connection.execute(
        "SELECT pg_get_userbyid(datdba), current_user FROM pg_database WHERE datname = current_database()"
    ).fetchone()
    assert owner is not None
    if owner[0] != owner[1]:
        raise MigrationError(
            f"hub migrate runs as the database's owner, {owner[0]}, not as {owner[1]} "
            "(the owner alone changes the hub's schema)"
        )
    roles = group_roles(connection.info.dbname)
    existing = {
        str(name)
        for (name,) in connection.execute(
            "SELECT rolname FROM pg_roles WHERE rolname = ANY(%s)", [[roles.cabinets, roles.dashboard]]
        )
    }
    for role in (roles.cabinets, roles.dashboard):
        if role not in existing:
            try:
                connection.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(role)))
            except psycopg.errors.InsufficientPrivilege as error:
                raise MigrationError(
                    f"the hub's owner {owner[1]} may not create roles: it needs CREATEROLE "
                    f"(ALTER ROLE {owner[1]} CREATEROLE, as a superuser): {error}"
                ) from error
    connection.execute("CREATE SCHEMA IF NOT EXISTS hub")
    connection.execute(
        """CREATE TABLE IF NOT EXISTS hub.schema_migrations (
               version integer PRIMARY KEY,
               name text NOT NULL,
               checksum text NOT NULL,
               applied_at timestamptz NOT NULL DEFAULT now(),
               applied_by text NOT NULL DEFAULT current_user
           )"""
    )


LOCK_WAIT = 60.0
"""Seconds a migration waits for the lock another holds (a second ``hub migrate``)."""

TABLE_LOCK_WAIT = 5.0
"""Seconds a migration's statements wait for a lock on a table: while one waits, its request
(ALTER TABLE's is exclusive) queues every cabinet's stake behind it."""


def _take_lock(connection: psycopg.Connection[Any], wait: float) -> None:
    """The migrations' lock for this transaction. Any login may take an advisory lock (until
    SERVER_FUNCTIONS is run), so the wait is bounded, and a lock held too long is named."""
    connection.execute(f"SET LOCAL lock_timeout = {int(wait * 1000)}")
    try:
        with connection.transaction():  # a savepoint: the lookup below still runs
            connection.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK])
    except psycopg.errors.LockNotAvailable as error:
        holders = connection.execute(
            """SELECT a.usename, a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE l.locktype = 'advisory' AND l.granted AND l.objid = %s""",
            [LOCK],
        ).fetchall()
        named = ", ".join(f"role {role} (pid {pid})" for role, pid in holders) or "a session gone since"
        raise MigrationError(
            f"the migration lock is held by {named}, {wait:g} s and counting: another hub migrate, "
            "or a login that took it; nothing was applied"
        ) from error
    connection.execute(f"SET LOCAL lock_timeout = {int(TABLE_LOCK_WAIT * 1000)}")


def _apply(connection: psycopg.Connection[Any], migration: Migration) -> None:
    """One migration's statements, in the transaction the caller holds and rolls back on a
    MigrationError."""
    asked = connection.execute("SELECT clock_timestamp()").fetchone()
    assert asked is not None
    try:
        with connection.transaction():  # a savepoint: the holders are still looked up
            connection.execute(render(migration, connection))
    except psycopg.errors.LockNotAvailable as error:
        holders = _table_lock_holders(connection, asked[0])
        ending = "; ".join(f"SELECT pg_terminate_backend({pid})" for pid in holders)
        what_to_do = (
            f"let it finish, or end it ({ending}, as the owner or a superuser), then " if holders else ""
        )
        raise MigrationError(
            f"migration {migration.label} waited {TABLE_LOCK_WAIT:g} s for a lock on the hub's tables "
            f"held by {', '.join(holders.values()) or 'a session ended since'}; nothing of it applied: "
            f"{what_to_do}run hub migrate again"
        ) from error
    except psycopg.Error as error:
        raise MigrationError(f"migration {migration.label} failed, nothing of it applied: {error}") from error


def _table_lock_holders(connection: psycopg.Connection[Any], asked: datetime) -> dict[int, str]:
    """The other sessions holding a lock on a table of the hub in a transaction begun before
    the migration ``asked`` for its locks (one begun after queued behind it), by pid, the
    oldest first. The owner sees the cabinets' logins' state (migration 0013); others' is hidden."""
    rows = connection.execute(
        """SELECT DISTINCT a.pid, a.usename, a.state, a.xact_start
             FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.granted AND l.locktype = 'relation' AND l.pid <> pg_backend_pid()
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND l.relation IN (SELECT oid FROM pg_class WHERE relnamespace = 'hub'::regnamespace)
              AND (a.xact_start IS NULL OR a.xact_start < %s)
            ORDER BY a.xact_start NULLS LAST, a.pid""",
        [asked],
    ).fetchall()
    named = {}
    for pid, role, state, began in rows:
        since = f" since {began:%H:%M:%S}" if began is not None else ""
        named[int(pid)] = f"pid {pid} (role {role}, {state or 'state hidden'}{since})"
    return named


def migrate(
    connection: psycopg.Connection[Any], directory: Path = MIGRATIONS, *, lock_wait: float = LOCK_WAIT
) -> list[Migration]:
    """Applies the migrations the hub has not had, in order, each in one transaction; returns
    those applied (none when the schema is up to date)."""
    known = migrations(directory)
    done = []
    with connection.transaction():
        _take_lock(connection, lock_wait)
        prepare(connection)
        check_history(known, applied(connection))
    for migration in known:
        with connection.transaction():
            _take_lock(connection, lock_wait)
            recorded = applied(connection)
            check_history(known, recorded)
            if migration.version in recorded:
                continue
            _apply(connection, migration)
            connection.execute(
                "INSERT INTO hub.schema_migrations (version, name, checksum) VALUES (%s, %s, %s)",
                [migration.version, migration.name, migration.checksum],
            )
            done.append(migration)
    return done


ADVISORY_LOCKS = (
    "pg_advisory_lock",
    "pg_advisory_lock_shared",
    "pg_try_advisory_lock",
    "pg_try_advisory_lock_shared",
    "pg_advisory_xact_lock",
    "pg_advisory_xact_lock_shared",
    "pg_try_advisory_xact_lock",
    "pg_try_advisory_xact_lock_shared",
)
GUARDED_FUNCTIONS = (
    *(
        f"pg_catalog.{name}({arguments})"
        for name in ADVISORY_LOCKS
        for arguments in ("bigint", "integer, integer")
    ),
    "pg_catalog.pg_notify(text, text)",
)
"""What SERVER_FUNCTIONS takes from every login of the hub's database."""


def server_warnings(connection: psycopg.Connection[Any]) -> list[str]:
    """What the hub's server still lets any login do that could stop the floor, and what to
    do about it: none once the operator has done what docs/floor.md says."""
    warnings = []
    open_to_all = [
        str(name)
        for (name,) in connection.execute(
            "SELECT f FROM unnest(%s::text[]) f WHERE has_function_privilege('public', f, 'EXECUTE')",
            [list(GUARDED_FUNCTIONS)],
        )
    ]
    if open_to_all:
        more = f", and {len(open_to_all) - 1} more" if len(open_to_all) > 1 else ""
        warnings.append(
            f"any login of this database may call {open_to_all[0]}{more}: a cabinet's login could fill "
            "the server's lock table (then nobody, a superuser included, connects) or its NOTIFY queue; "
            f"a superuser runs psql -h {connection.info.host} -p {connection.info.port} -v ON_ERROR_STOP=1 "
            f"-U postgres -d {connection.info.dbname} "
            f"-f {SERVER_FUNCTIONS} (docs/floor.md)"
        )
    row = connection.execute("SELECT current_setting('max_prepared_transactions')::integer").fetchone()
    if row is not None and row[0] > 0:
        warnings.append(
            f"the server allows prepared transactions (max_prepared_transactions = {row[0]}): a login's "
            "prepared transaction keeps its locks, the pool's too, with no session to end, until a "
            "superuser ends it; the hub prepares none: set max_prepared_transactions = 0 and restart the server"
        )
    return warnings


def require_current(connection: psycopg.Connection[Any], directory: Path = MIGRATIONS) -> None:
    """The hub's schema is there and has every migration this version knows (any role that
    may read the hub: the owner, a dashboard)."""
    there = connection.execute("SELECT to_regclass('hub.schema_migrations') IS NOT NULL").fetchone()
    if not there or not there[0]:
        raise MigrationError("the hub's schema is not there: run hub migrate first")
    row = connection.execute("SELECT coalesce(max(version), 0) FROM hub.schema_migrations").fetchone()
    have, need = (int(row[0]) if row else 0), len(migrations(directory))
    if have < need:
        raise MigrationError(
            f"the hub's schema is at migration {have} and this version of oasis-kiosk needs {need}: "
            "run hub migrate"
        )
