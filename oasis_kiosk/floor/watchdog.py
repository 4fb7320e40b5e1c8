"""``oasis-kiosk hub watchdog``: ends a cabinet's session that holds anything at the hub too
long, and shuts its login out.

A cabinet's stake and hit take the pool's row FOR UPDATE in the transaction of its batch, so
a login that keeps such a transaction open holds every other cabinet's intake and every
claim; any open transaction holds back vacuum and makes ``hub migrate``'s DDL wait; an
advisory lock held by the session outlives its transactions; and a session that LISTENs and
never reads fills the server's NOTIFY queue for every session. The login's own limits
(migrations 0011, 0012) are settings its client may turn off for its session, and PostgreSQL
15 has no limit on a whole transaction: only a process outside the session can bound it.
The watchdog, as the hub's owner, looks at the server's sessions and locks every
``look_every`` seconds and ends (``pg_terminate_backend``) the session of any cabinet's login
it has seen, for ``hold_seconds``:

- in a transaction (whatever it locks; ``pool held`` when it holds the pool's lock when
  ended, ``transaction held`` otherwise): an honest batch commits well under a second after
  it has the pool;
- holding an advisory lock (``advisory lock held``): the link agent takes none;
- idle after a LISTEN (``listening``): the link agent never listens. PostgreSQL 15 shows no
  session which channels another listens on (``pg_listening_channels()`` is a session's
  own), so a listener is seen only by its last statement as ``pg_stat_activity`` keeps it:
  one that names LISTEN, the session idle since. A listener that runs any other statement
  after its LISTEN, or listens from inside a function, cannot be told from an idle session.

It then disables the login (``ALTER ROLE … NOLOGIN``) and ends the login's other sessions, so
that a stolen login cannot take its turn again (several rotating kept every honest stake
waiting); the owner lets it in again with ``hub enable-cabinet NAME --by WHO``, which puts
the hub's settings back on it too. Each is logged and recorded in ``hub.sessions_ended``
(migrations 0013 and 0015).

At each look it also puts the hub's settings back on any of the hub's logins, a cabinet's or
a dashboard's, whose settings the server keeps are not the hub's: any role may change its
own (``ALTER ROLE itself SET statement_timeout = 0``) for its sessions to come, and no right
takes that away (``access.restore_settings``, migration 0018; logged and recorded in
``hub.login_settings_restored``).

A transaction's clock runs from the first look that finds it open and not queued, and starts
again at any look that finds it queued: a batch that waits behind another login's hold of
the pool already holds the pool's table lock (taken before the row's) but stops no one, and
an honest agent's batch holds the row for well under a second once it has it. Only
cabinets' logins are ended (their roles are ``hub.cabinets``' own): never the owner's, a
dashboard's or a superuser's.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from oasis_kiosk.floor import access, migrate
from oasis_kiosk.floor.errors import HubError

log = logging.getLogger("oasis_kiosk.hub.watchdog")

HOLD_SECONDS = 5.0
"""The longest a cabinet's session may hold a transaction, an advisory lock or a LISTEN: an
honest batch holds the pool well under a second, and the link agent's own statements give
up after 30 s (``agent.STATEMENT_TIMEOUT``), so a batch waiting behind a stolen login is
freed in time."""
FIRST_WAIT = 0.1
"""Seconds before the first reconnection; each failure doubles it, up to ``RETRY_MAX``."""
RETRY_MAX = 5.0
SESSION_OPTIONS = {
    # Its own looks never wait long: it reads the server's views and writes one row.
    "options": "-c statement_timeout=5000 -c lock_timeout=2000",
    # A hub gone silent is noticed in seconds, as the link agent notices it.
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    "tcp_user_timeout": 15_000,
}

RESTORED_BY = "hub watchdog"
"""Who put a login's settings back, as ``hub.login_settings_restored`` records it."""
POOL_HELD = "pool held"
TRANSACTION_HELD = "transaction held"
ADVISORY_LOCK_HELD = "advisory lock held"
LISTENING = "listening"

# Every cabinet's session of this database, with what it holds; "queued" when it waits for a
# lock that other logins' sessions hold (its turn at the pool, behind another holder). A login
# cannot pass for queued: what it may lock, only its own sessions hold (row-level security
# keeps it to its own rows), besides advisory locks, which any login takes and so never count.
# A session the owner may not see (not a member of its login) has no state.
SESSIONS = r"""
SELECT a.pid, c.id, c.name, a.usename, a.backend_start, a.xact_start, a.state, a.state_change,
       left(coalesce(a.query, ''), 200),
       EXISTS (SELECT 1 FROM pg_locks l
                WHERE l.pid = a.pid AND l.granted AND l.locktype = 'relation'
                  AND l.database = a.datid AND l.relation = 'hub.pool'::regclass),
       EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.granted AND l.locktype = 'advisory'),
       a.state = 'idle' AND a.query ~* '\mlisten\M',
       a.wait_event_type = 'Lock'
       AND cardinality(pg_blocking_pids(a.pid)) > 0
       AND NOT EXISTS (SELECT 1 FROM pg_locks w WHERE w.pid = a.pid AND NOT w.granted AND w.locktype = 'advisory')
       AND NOT EXISTS (
           SELECT 1 FROM unnest(pg_blocking_pids(a.pid)) AS blocker(pid)
             JOIN pg_stat_activity b ON b.pid = blocker.pid WHERE b.usename = a.usename)
  FROM pg_stat_activity a
  JOIN hub.cabinets c ON c.role_name = a.usename
  JOIN pg_roles r ON r.oid = a.usesysid
 WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database())
   AND a.backend_type = 'client backend'
   AND NOT r.rolsuper
   AND a.usesysid <> (SELECT datdba FROM pg_database WHERE datname = current_database())
"""
# Ended only if it still holds what it was seen holding: it may have let go meanwhile.
STILL_HOLDING = """
SELECT EXISTS (SELECT 1 FROM pg_stat_activity a
 WHERE a.pid = %(pid)s AND a.backend_start = %(backend_start)s
   AND CASE %(kind)s
       WHEN 'transaction' THEN a.xact_start = %(since)s
       WHEN 'advisory' THEN EXISTS (
           SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.granted AND l.locktype = 'advisory')
       ELSE a.state = 'idle' AND a.state_change = %(since)s
       END)
"""


@dataclass(frozen=True)
class Session:
    """A cabinet's session as one look finds it."""

    pid: int
    cabinet_id: int
    cabinet: str
    role: str
    began: datetime | None  # None: the owner may not see its session (no membership)
    transaction_began: datetime | None
    state: str | None
    state_since: datetime | None
    query: str | None
    holds_pool: bool
    holds_advisory_lock: bool
    listening: bool
    queued: bool

    def watched(self) -> list[tuple[str, int, datetime]]:
        """What the watchdog times of it, each a clock's key: (kind, pid, since when)."""
        keys = []
        if self.transaction_began is not None and not self.queued:
            keys.append(("transaction", self.pid, self.transaction_began))
        if self.holds_advisory_lock and self.began is not None:
            keys.append(("advisory", self.pid, self.began))
        if self.listening and self.state_since is not None:
            keys.append(("listening", self.pid, self.state_since))
        return keys

    def reason(self, kind: str) -> str:
        if kind == "transaction":
            return POOL_HELD if self.holds_pool else TRANSACTION_HELD
        return ADVISORY_LOCK_HELD if kind == "advisory" else LISTENING


@dataclass(frozen=True)
class Ended:
    """A session the watchdog ended, as ``hub.sessions_ended`` keeps it."""

    cabinet: str
    role: str
    pid: int
    held_seconds: float
    transaction_began: datetime | None
    state: str
    ended_at: datetime
    reason: str
    login_disabled: bool
    other_sessions_ended: int
    still_disabled: bool | None = None
    """Whether its login may still not log in, as ``recent`` reads it (None: not read)."""

    def what_it_held(self) -> str:
        held = f"{self.held_seconds:.1f} s ({self.state})"
        since = "" if self.transaction_began is None else f", open since {self.transaction_began:%H:%M:%S},"
        if self.reason == POOL_HELD:
            return f"its transaction{since} held the pool's lock for {held}"
        if self.reason == TRANSACTION_HELD:
            return f"its transaction{since} stayed open for {held}"
        if self.reason == ADVISORY_LOCK_HELD:
            return f"it held an advisory lock for {held}"
        return f"it listened (LISTEN) and read nothing for {held}"

    def sentence(self) -> str:
        others = (
            f", and its {self.other_sessions_ended} other sessions ended" if self.other_sessions_ended else ""
        )
        shut = (
            f"its login was disabled{others}"
            if self.login_disabled
            else "its login could not be disabled (the watchdog's log says why)"
        )
        return (
            f"cabinet {self.cabinet}: its session (role {self.role}, pid {self.pid}) was ended at "
            f"{self.ended_at:%Y-%m-%d %H:%M:%S %Z}: {self.what_it_held()} [{self.reason}]: {shut}: a login "
            f"used by something other than its link agent gets new credentials (hub new-credentials "
            f"{self.cabinet} --out FILE --by WHO)"
        )

    def standing(self) -> str:
        """Whether its login may log in now, as ``recent`` read it."""
        if self.still_disabled:
            return (
                f"its login is still disabled (hub enable-cabinet {self.cabinet} --by WHO lets it in again)"
            )
        return "its login may log in"


def check_hold_seconds(seconds: float) -> float:
    if not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
        raise HubError(f"the watchdog's bound is a number of seconds above 0, not {seconds!r}")
    return float(seconds)


def check_owner(connection: psycopg.Connection[Any]) -> None:
    """The watchdog runs as the hub's owner, on a hub migrated to this version (0013 lets
    the owner end cabinets' sessions)."""
    row = connection.execute(
        "SELECT pg_get_userbyid(datdba), current_user FROM pg_database WHERE datname = current_database()"
    ).fetchone()
    assert row is not None
    if row[0] != row[1]:
        raise HubError(f"hub watchdog runs as the hub's owner, {row[0]}, not as {row[1]}")
    migrate.require_current(connection)


class Watchdog:
    def __init__(
        self,
        connect: Callable[[], psycopg.Connection[Any]],
        hold_seconds: float = HOLD_SECONDS,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.connect = connect
        self.hold_seconds = check_hold_seconds(hold_seconds)
        self.look_every = min(1.0, self.hold_seconds / 4)
        self.clock = clock
        self.stopping = threading.Event()
        self._hub: psycopg.Connection[Any] | None = None
        # (kind, pid, since when) -> when first seen so (a transaction: not queued)
        self._seen_since: dict[tuple[str, int, datetime], float] = {}
        self._unseen: set[int] = set()  # the sessions said to be out of the owner's sight
        self._unrestorable: set[str] = set()  # the logins whose settings it may not put back, said
        self.restored: list[access.SettingsRestored] = []
        """The logins whose settings its last look put back."""

    def look(self) -> list[Ended]:
        """One look at the cabinets' sessions; ends those that held too long and returns them."""
        connection = self._connection()
        sessions = [Session(*row) for row in connection.execute(SESSIONS).fetchall()]
        now = self.clock()
        seen: dict[tuple[str, int, datetime], float] = {}
        for session in sessions:
            if session.state is None:
                self._cannot_see(session)
            # Waiting its turn starts a transaction's clock again (``Session.watched``): a look
            # can fall in the instant a queued batch is between two of its waits (granted the
            # row's tuple lock, not yet waiting for the holder's commit), and a queue of 50
            # batches lasts over 5 s.
            for key in session.watched():
                seen[key] = self._seen_since.get(key, now)
        self._seen_since = seen
        ended = []
        for session in sessions:
            due = [key for key in session.watched() if now - seen[key] >= self.hold_seconds]
            if due:
                record = self._end(connection, session, due[0], now - seen[due[0]])
                if record is not None:
                    ended.append(record)
        self.restored = self._restore_settings(connection)
        return ended

    def _restore_settings(self, connection: psycopg.Connection[Any]) -> list[access.SettingsRestored]:
        """Puts the hub's settings back on each of its logins that changed its own (``ALTER ROLE
        itself SET …``, which no right takes away), recorded and logged."""
        restored = []
        for (role,) in connection.execute(access.LOGINS_ASTRAY).fetchall():
            try:
                done = access.restore_settings(connection, role, RESTORED_BY)
            except psycopg.errors.InsufficientPrivilege as error:
                if role not in self._unrestorable:
                    self._unrestorable.add(role)
                    log.error(
                        "the login %s changed its own settings, and they cannot be put back: %s", role, error
                    )
                continue
            self._unrestorable.discard(role)
            if done is not None:
                log.warning("%s", done.sentence())
                restored.append(done)
        return restored

    def _cannot_see(self, session: Session) -> None:
        if (session.holds_pool or session.holds_advisory_lock) and session.pid not in self._unseen:
            self._unseen.add(session.pid)
            log.error(
                "cabinet %s (role %s, pid %d) holds a lock at the hub and the owner may not see or end its "
                "session: it is not a member of the cabinet's login (hub migrate gives it to every cabinet)",
                session.cabinet,
                session.role,
                session.pid,
            )

    def _end(
        self,
        connection: psycopg.Connection[Any],
        session: Session,
        key: tuple[str, int, datetime],
        held: float,
    ) -> Ended | None:
        kind, _, since = key
        row = connection.execute(
            STILL_HOLDING, {"pid": session.pid, "backend_start": session.began, "kind": kind, "since": since}
        ).fetchone()
        if row is None or not row[0]:
            return None  # it let go by itself meanwhile
        # Disabled before any of its sessions is ended: a client that reconnects the moment its
        # session ends (stolen logins took turns so) finds the login shut.
        disabled = disable_login(connection, session.cabinet, session.role)
        connection.execute("SELECT pg_terminate_backend(%s, 2000)", [session.pid])
        others = end_other_sessions(connection, session.role, session.pid) if disabled else 0
        reason = session.reason(kind)
        stored = connection.execute(
            """INSERT INTO hub.sessions_ended
                   (cabinet_id, role_name, pid, transaction_began, held_ms, state, query, reason,
                    login_disabled, other_sessions_ended)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING ended_at""",
            [
                session.cabinet_id,
                session.role,
                session.pid,
                session.transaction_began,
                round(held * 1000),
                session.state or "",
                session.query or "",
                reason,
                disabled,
                others,
            ],
        ).fetchone()
        assert stored is not None
        ended = Ended(
            session.cabinet,
            session.role,
            session.pid,
            held,
            session.transaction_began,
            session.state or "",
            stored[0],
            reason,
            disabled,
            others,
        )
        log.warning("%s; it was running: %s", ended.sentence(), session.query or "(nothing)")
        return ended

    def _connection(self) -> psycopg.Connection[Any]:
        if self._hub is None or self._hub.closed:
            self._hub = self.connect()
            self._seen_since = {}  # a new server's processes are not the old one's
            check_owner(self._hub)
        return self._hub

    def run(self) -> None:
        """Looks until ``stop()``; a hub lost (restarted, unreachable) is reached again."""
        wait = FIRST_WAIT
        trouble: str | None = None
        while not self.stopping.is_set():
            try:
                self.look()
            except (HubError, psycopg.Error) as error:  # a hub restarted, unreachable, or refusing
                if str(error) != trouble:
                    log.warning("cannot watch the hub: %s; trying again", error)
                trouble = str(error)
                self.close()
                self.stopping.wait(wait)
                wait = min(wait * 2, RETRY_MAX)
                continue
            if trouble is not None:
                log.info("the hub is reached again; watching the cabinets' sessions")
                trouble = None
            wait = FIRST_WAIT
            self.stopping.wait(self.look_every)
        self.close()

    def close(self) -> None:
        connection, self._hub = self._hub, None
        if connection is not None:
            with contextlib.suppress(psycopg.Error):
                connection.close()

    def stop(self) -> None:
        self.stopping.set()


def disable_login(connection: psycopg.Connection[Any], cabinet: str, role: str) -> bool:
    """``ALTER ROLE … NOLOGIN``: whether it was done. The owner needs nothing new for it: on
    PostgreSQL 15, CREATEROLE (which it has: it made the login with it, in hub add-cabinet)
    lets it change any role that is not a superuser; from 16, CREATEROLE and the ADMIN
    OPTION on the role, which PostgreSQL gives the role that creates it. Membership in the
    login (0013) does not suffice, and a superuser's right would be far more than this."""
    try:
        connection.execute(sql.SQL("ALTER ROLE {} NOLOGIN").format(sql.Identifier(role)))
    except psycopg.errors.InsufficientPrivilege as error:
        log.error(
            "cabinet %s: its login %s cannot be disabled: the hub's owner needs CREATEROLE (and from "
            "PostgreSQL 16 the ADMIN OPTION on the login, which the role that made it has): %s",
            cabinet,
            role,
            error,
        )
        return False
    return True


def end_other_sessions(connection: psycopg.Connection[Any], role: str, pid: int) -> int:
    """Ends every other session of ``role``, in any database (disabled, it makes no new one);
    returns how many."""
    return access.end_sessions(connection, role, pid)


def recent(
    connection: psycopg.Connection[Any], since: datetime | None, until: datetime | None = None
) -> list[Ended]:
    """The sessions the watchdog ended after ``since`` (all, without it) and up to ``until``
    (all since, without it), oldest first, each with whether its login may still not log in."""
    rows = connection.execute(
        """SELECT c.name, e.role_name, e.pid, e.held_ms, e.transaction_began, e.state, e.ended_at,
                  e.reason, e.login_disabled, e.other_sessions_ended, NOT coalesce(r.rolcanlogin, false)
             FROM hub.sessions_ended e JOIN hub.cabinets c ON c.id = e.cabinet_id
             LEFT JOIN pg_roles r ON r.rolname = e.role_name
            WHERE (%(since)s::timestamptz IS NULL OR e.ended_at > %(since)s)
              AND (%(until)s::timestamptz IS NULL OR e.ended_at <= %(until)s)
            ORDER BY e.id""",
        {"since": since, "until": until},
    ).fetchall()
    return [
        Ended(name, role, pid, held / 1000, began, state, at, reason, disabled, others, still)
        for name, role, pid, held, began, state, at, reason, disabled, others, still in rows
    ]


def last_reconciliation(connection: psycopg.Connection[Any]) -> datetime | None:
    row = connection.execute("SELECT max(checked_at) FROM hub.reconciliations").fetchone()
    return None if row is None else row[0]


@dataclass(frozen=True)
class Enabled:
    cabinet: str
    role: str
    enabled_by: str
    enabled_at: datetime


def enable_cabinet(connection: psycopg.Connection[Any], name: str, by: str) -> Enabled:
    """Lets a cabinet's login disabled by the watchdog log in again (``ALTER ROLE … LOGIN``,
    the same right as ``disable_login``), recorded in ``hub.logins_enabled`` with who and when,
    with the hub's settings put back on it (``access.restore_settings``)."""
    migrate.require_current(connection)
    if not by.strip():
        raise HubError("who lets the login in again: a name, not blank")
    with connection.transaction():
        cabinet_id, role, may_log_in = access.cabinet_login(connection, name)
        if may_log_in:
            raise HubError(f"cabinet {name}: its login is not disabled: nothing was changed")
        connection.execute(sql.SQL("ALTER ROLE {} LOGIN").format(sql.Identifier(role)))
        # Its settings, which it may have changed for its sessions to come, are the hub's again.
        access.restore_settings(connection, role, by)
        stored = connection.execute(
            """INSERT INTO hub.logins_enabled (cabinet_id, role_name, enabled_by)
               VALUES (%s, %s, %s) RETURNING enabled_at""",
            [cabinet_id, role, by],
        ).fetchone()
    assert stored is not None
    log.info("cabinet %s: its login %s may log in again (enabled by %s)", name, role, by)
    return Enabled(name, role, by, stored[0])
