"""``oasis-kiosk hub watchdog``: ends a cabinet's session that holds the pool too long.

A cabinet's stake and hit take the pool's row FOR UPDATE in the transaction of its batch, so
a login that keeps such a transaction open holds every other cabinet's intake and every
claim. The login's own limits (migrations 0011, 0012) are settings its client may turn off
for its session, and PostgreSQL 15 has no limit on a whole transaction: only a process
outside the session can bound it. The watchdog, as the hub's owner, looks at the server's
locks every ``look_every`` seconds and ends (``pg_terminate_backend``) the session of any
cabinet's login whose transaction it has seen holding a lock on ``hub.pool`` for
``hold_seconds``; each is logged and recorded in ``hub.sessions_ended`` (migration 0013).

A session's clock runs from the first look that finds it holding the lock and not queued
for the pool, and starts again at any look that finds it queued: a batch that waits behind
another login's hold of the pool already holds the pool's table lock (taken before the
row's) but stops no one, and an honest agent's batch holds the row for well under a second
once it has it. Only cabinets' logins are ended
(their roles are ``hub.cabinets``' own): never the owner's, a dashboard's or a superuser's.
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

from oasis_kiosk.floor import migrate
from oasis_kiosk.floor.errors import HubError

log = logging.getLogger("oasis_kiosk.hub.watchdog")

HOLD_SECONDS = 5.0
"""The longest a cabinet's transaction may hold the pool's lock: an honest batch holds it
well under a second, and the link agent's own statements give up after 30 s
(``agent.STATEMENT_TIMEOUT``), so a batch waiting behind a stolen login is freed in time."""
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

# Every cabinet's session that holds a lock on the pool; "queued" when it waits for a lock
# that other logins' sessions hold (its turn at the pool, behind another holder). A login
# cannot pass for queued: what it may lock, only its own sessions hold (row-level security
# keeps it to its own rows), besides advisory locks, which any login takes and so never count.
HOLDERS = """
WITH holders AS (
    SELECT DISTINCT l.pid FROM pg_locks l
     WHERE l.granted AND l.locktype = 'relation' AND l.relation = 'hub.pool'::regclass
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
)
SELECT a.pid, c.id, c.name, a.usename, a.xact_start, a.state, left(coalesce(a.query, ''), 200),
       cardinality(pg_blocking_pids(a.pid)) > 0
       AND NOT EXISTS (SELECT 1 FROM pg_locks w WHERE w.pid = a.pid AND NOT w.granted AND w.locktype = 'advisory')
       AND NOT EXISTS (
           SELECT 1 FROM unnest(pg_blocking_pids(a.pid)) AS blocker(pid)
             JOIN pg_stat_activity b ON b.pid = blocker.pid WHERE b.usename = a.usename)
  FROM pg_stat_activity a
  JOIN hub.cabinets c ON c.role_name = a.usename
  JOIN pg_roles r ON r.oid = a.usesysid
 WHERE a.pid IN (SELECT pid FROM holders)
   AND NOT r.rolsuper
   AND a.usesysid <> (SELECT datdba FROM pg_database WHERE datname = current_database())
"""
# Ended only if it is still that transaction, holding the pool: it may have ended meanwhile.
TERMINATE = """
SELECT pg_terminate_backend(a.pid, 2000) FROM pg_stat_activity a
 WHERE a.pid = %s AND a.xact_start = %s
   AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.granted AND l.locktype = 'relation'
                  AND l.relation = 'hub.pool'::regclass)
"""


@dataclass(frozen=True)
class Holder:
    pid: int
    cabinet_id: int
    cabinet: str
    role: str
    transaction_began: datetime | None  # None: the owner may not see its session (no membership)
    state: str | None
    query: str | None
    queued: bool


@dataclass(frozen=True)
class Ended:
    """A session the watchdog ended, as ``hub.sessions_ended`` keeps it."""

    cabinet: str
    role: str
    pid: int
    held_seconds: float
    transaction_began: datetime
    state: str
    ended_at: datetime

    def sentence(self) -> str:
        return (
            f"cabinet {self.cabinet}: its session (role {self.role}, pid {self.pid}) was ended at "
            f"{self.ended_at:%Y-%m-%d %H:%M:%S %Z}: its transaction, open since "
            f"{self.transaction_began:%H:%M:%S}, held the pool's lock for {self.held_seconds:.1f} s "
            f"({self.state}): a login used by something other than its link agent gets new credentials"
        )


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
        # (pid, transaction's start) -> when first seen holding the pool, not queued for it
        self._holding_since: dict[tuple[int, datetime], float] = {}
        self._unseen: set[int] = set()  # the sessions said to be out of the owner's sight

    def look(self) -> list[Ended]:
        """One look at the pool's holders; ends those held too long and returns them."""
        connection = self._connection()
        holders = [Holder(*row) for row in connection.execute(HOLDERS).fetchall()]
        now = self.clock()
        seen: dict[tuple[int, datetime], float] = {}
        for holder in holders:
            if holder.transaction_began is None:
                self._cannot_see(holder)
                continue
            # Waiting its turn starts its clock again: a look can fall in the instant a queued
            # batch is between two of its waits (granted the row's tuple lock, not yet
            # waiting for the holder's commit), and a queue of 50 batches lasts over 5 s.
            if not holder.queued:
                key = (holder.pid, holder.transaction_began)
                seen[key] = self._holding_since.get(key, now)
        self._holding_since = seen
        ended = []
        for holder in holders:
            began = holder.transaction_began
            since = None if began is None else seen.get((holder.pid, began))
            if began is not None and since is not None and now - since >= self.hold_seconds:
                record = self._end(connection, holder, began, now - since)
                if record is not None:
                    ended.append(record)
        return ended

    def _cannot_see(self, holder: Holder) -> None:
        if holder.pid not in self._unseen:
            self._unseen.add(holder.pid)
            log.error(
                "cabinet %s (role %s, pid %d) holds the pool's lock and the owner may not see or end its "
                "session: it is not a member of the cabinet's login (hub migrate gives it to every cabinet)",
                holder.cabinet,
                holder.role,
                holder.pid,
            )

    def _end(
        self, connection: psycopg.Connection[Any], holder: Holder, began: datetime, held: float
    ) -> Ended | None:
        row = connection.execute(TERMINATE, [holder.pid, began]).fetchone()
        if row is None or not row[0]:
            return None  # its transaction ended by itself meanwhile
        stored = connection.execute(
            """INSERT INTO hub.sessions_ended
                   (cabinet_id, role_name, pid, transaction_began, held_ms, state, query)
               VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING ended_at""",
            [
                holder.cabinet_id,
                holder.role,
                holder.pid,
                began,
                round(held * 1000),
                holder.state or "",
                holder.query or "",
            ],
        ).fetchone()
        assert stored is not None
        ended = Ended(holder.cabinet, holder.role, holder.pid, held, began, holder.state or "", stored[0])
        log.warning("%s; it was running: %s", ended.sentence(), holder.query or "(nothing)")
        return ended

    def _connection(self) -> psycopg.Connection[Any]:
        if self._hub is None or self._hub.closed:
            self._hub = self.connect()
            self._holding_since = {}  # a new server's processes are not the old one's
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
                log.info("the hub is reached again; watching the pool's lock")
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


def recent(connection: psycopg.Connection[Any], since: datetime | None) -> list[Ended]:
    """The sessions the watchdog ended after ``since`` (all, without it), oldest first."""
    rows = connection.execute(
        """SELECT c.name, e.role_name, e.pid, e.held_ms, e.transaction_began, e.state, e.ended_at
             FROM hub.sessions_ended e JOIN hub.cabinets c ON c.id = e.cabinet_id
            WHERE %s::timestamptz IS NULL OR e.ended_at > %s ORDER BY e.id""",
        [since, since],
    ).fetchall()
    return [
        Ended(name, role, pid, held / 1000, began, state, at)
        for name, role, pid, held, began, state, at in rows
    ]


def last_reconciliation(connection: psycopg.Connection[Any]) -> datetime | None:
    row = connection.execute("SELECT max(checked_at) FROM hub.reconciliations").fetchone()
    return None if row is None else row[0]
