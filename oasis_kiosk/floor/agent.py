"""The link agent: pushes a linked cabinet's outbox to the floor's hub (docs/floor.md).

It runs as a process of its own, ``oasis-kiosk link`` (the ``oasis-kiosk-link`` service),
never inside the kiosk: the kiosk's frame loop and its money transactions share nothing
with it but the books' file, which the agent only reads (SQLite's write-ahead log lets it
read while the kiosk writes, without waiting for it or making it wait). The kiosk keeps no
network at all (its unit denies every IP address); only this service reaches the hub.

Each pass reads the outbox rows after what the hub holds and sends them as one batch
(``hub.ingest``, one transaction at the hub, as the cabinet's own role). The hub's answer,
the highest sequence number it then holds, is recorded in the agent's own SQLite file
(``[link] agent_file``, by default beside the books: ``<database>.link``): the hub is the truth, and at every (re)connection
the agent asks it again and goes on from there, so a batch cut off before its answer, or an
agent killed between the hub's commit and its own record, is sent again from the hub's
number and nothing is lost or doubled (a row the hub holds is skipped, and a row sent
again with other contents is refused). While the hub cannot be reached (stopped,
restarting, the network cut) the agent waits and tries again, the wait doubling from
``FIRST_WAIT`` up to ``[link] retry_max``; the kiosk plays on and its outbox grows. One
agent pushes a books' outbox: a second on the same books refuses to start
(``kiosk.db.link.lock`` beside its own file, held with ``flock`` as the kiosk holds the
books' own lock).

The hub's numbers are those of one set of books: new books (``oasis-kiosk init
--ram-clear`` moves the old ones aside) number their outbox from 1 again. The agent notices
new books at the next pass (the file at ``database`` is another file: its device and inode,
one ``stat`` a pass), stops reading the old file, and goes on with the new books only if the
hub holds no other books' events for this cabinet: the hub records the books id of the
cabinet's events (adopted from the first batch) and checks it with every batch. Other books
stop the agent (``BooksRefusedError``, exit ``EXIT_OTHER_BOOKS``) until the operator adds them
to the hub as a new cabinet (``hub add-cabinet``) and points ``[link] credentials`` at it.
Books of the same id that are not the hub's history (restored from a backup, or a copy of
the card on a second machine) stop it the same way: at each connection and before each
batch the hub's last event must be the outbox's row of that number (``_check_history``),
and a row the hub holds sent again with other contents is refused by the hub itself.

For a cabinet whose jackpot is linked, the agent is also the kiosk's only way to the hub's
pool (``oasis_kiosk/machine/linked.py``): at every pass it claims each jackpot hit (a box of
a round) the hub holds and has not answered here (``hub.claim``: the same award however
often it is asked),
writes the award in its file, then the pool's value and the time of this contact, which the
kiosk reads for its meter and to know that the link is up: the value when it changes, the
time at most every ``CONTACT_EVERY`` seconds while it does not (idle passes would otherwise
write the cabinet's card five times a second). The agent of a cabinet whose jackpot is local
(``[link] jackpot``) writes nothing of the pool.

The outbox's rows are kept after the hub confirms them, as the books keep their ledger and
their seal chain: the books can feed a hub restored from an older backup again, and
``hub reconcile`` compares them. A hub restored from a backup older than an award holds the hit
again without it: the agent tells it the award its file holds (``hub.claim_paid``), so that
the pool does not pay it twice. (They cost about as much room as the seal chain; pruning
confirmed rows is left for when a cabinet's card needs it.)
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

import psycopg

from oasis_kiosk import OasisError
from oasis_kiosk.floor import access, hub
from oasis_kiosk.floor.errors import (
    CredentialsError,
    HubError,
    HubUnavailableError,
    OtherBooksError,
    PoolShortError,
    RowDiffersError,
)
from oasis_kiosk.machine import linked
from oasis_kiosk.store import outbox as outboxes
from oasis_kiosk.store.books import LockHeldError, acquire_lock, release_lock

log = logging.getLogger("oasis_kiosk.link")

FIRST_WAIT = 0.1
"""Seconds before the first retry; each failure doubles it, up to ``retry_max``."""
POLL = 0.2
"""Seconds between looks at the outbox when the hub holds all of it."""
CONTACT_EVERY = 1.0
"""The longest, in seconds, between the agent's records of its contact with the hub while
the pool stands still (less with an ``offline_after`` under 5 s): enough for the kiosk to see
the link up, and a write of the cabinet's card a second rather than one at every pass."""
HEARTBEAT = hub.SILENT_AFTER / 3
"""Seconds between the hub's reminders that an idle cabinet is there (``hub.heartbeat``): three
missed and the hub counts the cabinet silent (``hub.SILENT_AFTER``), and the pool's
parameters wait for it."""
STATEMENT_TIMEOUT = 30
"""Seconds the agent's own statements may run or wait: longer than the owner's watchdog takes
to end a login that holds the pool (``watchdog.HOLD_SECONDS`` and a look), so a batch waiting
behind one is freed first and completes."""
CONNECTION_OPTIONS: dict[str, Any] = {
    # A cut network is noticed in seconds, not when the kernel gives up on the connection.
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    "tcp_user_timeout": 15_000,
    "options": f"-c statement_timeout={STATEMENT_TIMEOUT * 1000}",
}
EXIT_OTHER_BOOKS = 4
"""``oasis-kiosk link``'s exit status when the hub holds another books' events for the cabinet."""


class LinkError(OasisError):
    """The link cannot go on as configured (the books and the hub disagree): it says why."""


class BooksRefusedError(LinkError):
    """These books are not those whose events the hub holds for the cabinet: the agent stops
    (no retry can mend it) until the operator adds them to the hub as a new cabinet."""


def _refused(books: str, error: OtherBooksError) -> BooksRefusedError:
    return BooksRefusedError(
        f"{books}: {error}: new books (a RAM clear) are added to the hub as a new cabinet "
        "(hub add-cabinet NAME --out FILE) and [link] credentials pointed at its file"
    )


def _open_confirmations(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, timeout=10)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute(
        """CREATE TABLE IF NOT EXISTS confirmed (
               books TEXT PRIMARY KEY,
               seq INTEGER NOT NULL CHECK (seq >= 0),
               at TEXT NOT NULL
           )"""
    )
    linked.create(db)
    return db


def confirmed(database: Path, books: str | None = None, agent_file: Path | None = None) -> int:
    """The highest sequence number the hub confirmed for the books at ``database`` (0: none
    yet, or no agent ran), from the agent's own file (``[link] agent_file``)."""
    path = linked.link_path(database, agent_file)
    if not path.exists():
        return 0
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        if books is None:
            row = db.execute("SELECT seq FROM confirmed ORDER BY at DESC LIMIT 1").fetchone()
        else:
            row = db.execute("SELECT seq FROM confirmed WHERE books = ?", (books,)).fetchone()
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()
    return int(row[0]) if row else 0


def outbox_last(database: Path) -> int:
    """The last sequence number of the outbox of the books at ``database`` (0: none)."""
    db = sqlite3.connect(f"{Path(database).resolve().as_uri()}?mode=ro", uri=True)
    try:
        return outboxes.last_seq(db)
    finally:
        db.close()


@dataclass
class Status:
    held: int = 0
    """The highest sequence number the hub confirmed."""
    waiting: int = 0
    """Outbox rows the hub does not hold yet (at the last look)."""
    connected: bool = False
    last_error: str | None = None


class Agent:
    """Pushes the outbox of the books at ``database`` to the hub the credentials reach."""

    def __init__(
        self,
        database: Path,
        credentials: Path | access.Credentials,
        *,
        batch: int = 500,
        retry_max: float = 30.0,
        poll: float = POLL,
        heartbeat: float = HEARTBEAT,
        sleep: Callable[[float], bool] | None = None,
        linked_jackpot: bool = True,
        offline_after: float = 5.0,
        clock: Callable[[], float] = time.time,
        agent_file: Path | None = None,
    ) -> None:
        self.database = Path(database)
        self.agent_file = linked.link_path(self.database, agent_file)
        """The agent's own file (``[link] agent_file``), which the kiosk reads."""
        self.credentials = credentials
        self.batch = batch
        self.retry_max = retry_max
        self.poll = poll
        self.heartbeat = heartbeat
        self.linked_jackpot = linked_jackpot
        """The cabinet's jackpot is the hub's pool (``[link] jackpot``): the agent follows it."""
        self.contact_every = min(CONTACT_EVERY, offline_after / 5)
        self._clock = clock
        self._pool_written: tuple[int, float] | None = None
        """The pool's value and the contact time this agent last wrote for the kiosk."""
        self._seen_at = 0.0
        """When the hub last heard from this agent (a batch or a heartbeat), monotonic."""
        self.stop_event = threading.Event()
        self._sleep = sleep or self.stop_event.wait
        self.status = Status()
        self._hub: psycopg.Connection[Any] | None = None
        self._books: sqlite3.Connection | None = None
        self._books_id: str | None = None
        self._books_file: tuple[int, int] | None = None
        """The device and inode of the books' file the agent opened."""
        self._confirm_db: sqlite3.Connection | None = None
        self._hits_after = 0
        """The outbox's jackpot hits up to this number are claimed and answered."""
        self._paid_told = False
        """The hub holds every award this agent wrote down for these books (checked once a
        connection, after a hub restored from an older backup: ``_tell_paid``)."""
        self.refused: str | None = None
        """Why ``run`` stopped at books the hub refuses (None: it did not)."""

    # The books, read only.

    def _open_books(self) -> sqlite3.Connection:
        if self._books is None:
            if not self.database.exists():
                raise LinkError(f"{self.database}: there are no books here yet")
            books_file = _file_identity(self.database)
            uri = f"{self.database.resolve().as_uri()}?mode=ro"
            books = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
            try:
                tables = {
                    name for (name,) in books.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                }
                if "outbox" not in tables:
                    raise LinkError(f"{self.database}: the books have no outbox yet: start the kiosk once")
                row = books.execute("SELECT id FROM books").fetchone()
                if row is None:
                    raise LinkError(f"{self.database}: the books have no identity")
            except sqlite3.OperationalError as error:
                books.close()
                if "readonly" not in str(error):
                    raise
                # An agent that may only read the books (a user of its own) reads SQLite's
                # write-ahead log through the kiosk's shared-memory file, which the kiosk
                # removes when it stops; the kiosk's rows wait in the outbox until it runs.
                raise LinkError(
                    f"{self.database}: the books can be read only while the kiosk has them open "
                    f"(the agent may not make their {self.database.name}-shm file): waiting for the kiosk"
                ) from error
            except BaseException:
                books.close()
                raise
            self._books, self._books_id, self._books_file = books, str(row[0]), books_file
        return self._books

    def _notice_new_books(self) -> None:
        """Stops reading books that are no longer at ``database`` (moved aside by a RAM clear):
        the books there now are opened, and checked with the hub, at the next connection."""
        if self._books is None:
            return
        try:
            now = _file_identity(self.database)
        except FileNotFoundError:
            now = None
        if now == self._books_file:
            return
        log.warning(
            "the books %s are no longer at %s (a RAM clear?): the agent stops reading them",
            self._books_id,
            self.database,
        )
        self._disconnect()
        self._close_books()
        self._hits_after = 0
        self.status.held = 0  # the old books' number: the new ones' comes with the connection

    def _read_outbox(self, after: int) -> tuple[list[outboxes.Row], int]:
        books = self._open_books()
        books.execute("BEGIN")
        try:
            rows = outboxes.rows(books, after, self.batch)
            last = outboxes.last_seq(books)
        finally:
            books.execute("COMMIT")
        return rows, last

    # The agent's own record.

    def _record(self, held: int) -> None:
        if self._confirm_db is None:
            self._confirm_db = _open_confirmations(self.agent_file)
        assert self._books_id is not None
        self._confirm_db.execute(
            """INSERT INTO confirmed (books, seq, at) VALUES (?, ?, ?)
               ON CONFLICT (books) DO UPDATE SET seq = excluded.seq, at = excluded.at""",
            (self._books_id, held, datetime.now(UTC).isoformat(timespec="milliseconds")),
        )
        self.status.held = held

    # The hub.

    def _connect(self) -> psycopg.Connection[Any]:
        if self._hub is None or self._hub.closed:
            self._hub = access.connect(self.credentials, **CONNECTION_OPTIONS)
            self.status.connected = True
            try:
                held = self._check_books_at_hub(self._hub)
                recorded = confirmed(self.database, self._books_id, self.agent_file)
            except BaseException:
                self._disconnect()
                raise
            if held < recorded:
                log.warning(
                    "the hub holds %d events of this cabinet, it had confirmed %d: sending them again "
                    "(a hub restored from an older backup?)",
                    held,
                    recorded,
                )
            self._record(held)
            self._paid_told = False
        return self._hub

    def _check_books_at_hub(self, connection: psycopg.Connection[Any]) -> int:
        """The hub's number for the cabinet, once the hub has these books as the cabinet's
        (adopting them if it recorded none yet) and its last event is these books' event of
        that number (``_check_history``); ``BooksRefusedError`` for other books."""
        held = hub.held(connection)
        hub_books = hub.books(connection)
        last = outboxes.last_seq(self._open_books())
        assert self._books_id is not None
        if held > last and hub_books is None:  # books the hub never recorded: new ones, or another cabinet's
            raise BooksRefusedError(
                f"{self.database}: the hub holds {held} events of this cabinet but the outbox of books "
                f"{self._books_id} has {last}: these are other books (a RAM clear, or another cabinet's "
                "credentials): new books are added to the hub as a new cabinet (hub add-cabinet NAME --out FILE)"
            )
        try:
            hub.check_books(connection, self._books_id)
        except OtherBooksError as error:
            raise _refused(str(self.database), error) from error
        return self._check_history(connection)

    def _check_history(self, connection: psycopg.Connection[Any]) -> int:
        """The hub's number for the cabinet, once the hub's event of that number is the
        outbox's row of the same number, as these books wrote it: books of the same id that
        are not the hub's history (restored from a backup, a copy of the card on another
        machine) part from it there, or are shorter than it. ``BooksRefusedError`` names the
        row: sending on would splice their rows after the hub's, and stakes the hub holds other
        rows for would never reach the pool. One row read by its key, at each connection and
        before each batch."""
        held = hub.held_last(connection)
        if held.seq == 0:
            return 0
        books = self._open_books()
        found = outboxes.rows(books, held.seq - 1, 1)
        mine = found[0] if found and found[0].seq == held.seq else None
        if mine is not None and held.last is not None and _same_event(mine, held.last):
            return held.seq
        theirs = (
            "none"
            if held.last is None
            else _figure(held.last.kind, held.last.payload, held.last.committed_at)
        )
        wrote = (
            _figure(mine.kind, mine.payload, mine.committed_at)
            if mine is not None
            else f"none (their outbox ends at {outboxes.last_seq(books)})"
        )
        raise BooksRefusedError(
            f"{self.database}: cabinet {held.cabinet}: the hub's event {held.seq} is not event {held.seq} "
            f"of books {self._books_id}: the hub holds {theirs}; the books wrote {wrote}: these are not the "
            "books whose events the hub holds (restored from a backup, or a copy of another cabinet's card), "
            "and nothing more of them is sent: hub reconcile shows where they part; books that go on are "
            "new books (init --ram-clear), added to the hub as a new cabinet (hub add-cabinet NAME --out FILE)"
        )

    def _disconnect(self) -> None:
        hub_connection, self._hub = self._hub, None
        self.status.connected = False
        if hub_connection is not None:
            with contextlib.suppress(psycopg.Error):
                hub_connection.close()

    def push_once(self) -> int:
        """Sends one batch of what the hub does not hold; returns how many rows were sent."""
        self._notice_new_books()
        connection = self._connect()
        rows, last = self._read_outbox(self.status.held)
        self.status.waiting = last - self.status.held
        if not rows:
            if time.monotonic() - self._seen_at >= self.heartbeat:
                hub.heartbeat(connection)  # idle, not gone: the dashboard shows it online
                self._seen_at = time.monotonic()
            self._follow_jackpot(connection)
            return 0
        # Before each batch: the hub's last event is still these books' (another machine with
        # the same credentials may have sent since), and the batch starts after it.
        held = self._check_history(connection)
        if held != self.status.held:
            self._record(held)
            rows, last = self._read_outbox(held)
            self.status.waiting = last - held
            if not rows:
                return 0
        events = _sendable([_event(row) for row in rows])
        try:
            held = hub.ingest(connection, events, books_id=self._books_id)
        except OtherBooksError as error:
            raise _refused(str(self.database), error) from error
        except RowDiffersError as error:  # the hub took other rows of these numbers meanwhile
            raise BooksRefusedError(
                f"{self.database}: books {self._books_id}: {error}: these are not the books whose events "
                "the hub holds (a copy of the cabinet's card sends beside them?), and nothing more of them is sent"
            ) from error
        self._seen_at = time.monotonic()
        self._record(held)
        self.status.waiting = last - held
        self._follow_jackpot(connection)
        return len(rows)

    def _follow_jackpot(self, connection: psycopg.Connection[Any]) -> None:
        """The linked jackpot, for the kiosk: claims each hit (a box of a round) the hub holds
        and has not answered here yet, records each award, then the pool's value and the time
        of this contact (the kiosk's sign that the link is up). A claim made again (the agent
        killed before its record) gets the same award from the hub. Nothing for a cabinet
        whose jackpot is its own."""
        if not self.linked_jackpot:
            return
        if self._confirm_db is None:
            self._confirm_db = _open_confirmations(self.agent_file)
        books = self._open_books()
        if not self._paid_told:
            self._paid_told = self._tell_paid(connection, books)
        answered = linked.awarded(self._confirm_db)
        for round_id, box in outboxes.hits(books, self._hits_after, self.status.held):
            if (round_id, box) not in answered:
                award = hub.claim(connection, round_id, box)
                linked.write_award(
                    self._confirm_db,
                    round_id,
                    box,
                    int(award.amount),
                    datetime.now(UTC).isoformat(timespec="milliseconds"),
                    at_once=bool(award.at_once),
                )
                log.info("jackpot hit %s box %d: the hub awarded %d", round_id, box, award.amount)
        self._hits_after = self.status.held
        self._write_pool(self._confirm_db, hub.pool_value(connection).value)

    def _tell_paid(self, connection: psycopg.Connection[Any], books: sqlite3.Connection) -> bool:
        """The awards this agent wrote down (so the kiosk was, or will be, paid them) for hits
        the hub holds without an award, a hub restored from a backup older than the award,
        told to the hub with the hub's answer then, at once or not (``hub.claim_paid``): it
        records each and takes from the pool each that won it,
        which would otherwise pay it again, and the hit no longer waits. True once the hub
        holds all of these books' awards; until then each pass looks again (the hits not yet
        sent again, or a pool short of an award: the stakes before it, of other cabinets too,
        not all sent again yet)."""
        assert self._confirm_db is not None
        own = {
            hit: award
            for hit, award in linked.awards(self._confirm_db).items()
            if hit[0].startswith(f"{self._books_id}:")
        }
        if not own:
            return True
        at_hub = hub.awards_held(connection)
        missing = {hit: award for hit, award in own.items() if hit not in at_hub}
        held_hits = set(outboxes.hits(books, 0, self.status.held)) if missing else set()
        told = True
        for (round_id, box), (amount, at_once) in missing.items():
            if (round_id, box) in held_hits:
                log.warning(
                    "jackpot hit %s box %d: the hub holds it without the award of %d this cabinet was "
                    "paid (a hub restored from an older backup?): telling it",
                    round_id,
                    box,
                    amount,
                )
                try:
                    hub.claim_paid(connection, round_id, box, amount, at_once=at_once)
                except PoolShortError as error:  # not a stop: told again at the next pass
                    log.warning("jackpot hit %s box %d: %s", round_id, box, error)
                    told = False
        return told and missing.keys() <= held_hits

    def _write_pool(self, own: sqlite3.Connection, value: int) -> None:
        """The pool's value and the time of this contact, written only when the kiosk would
        otherwise miss something: a new value, or a contact time ``contact_every`` old (the
        kiosk counts the link up for ``offline_after`` after it), so that idle passes do not
        wear the card."""
        now = self._clock()
        written = self._pool_written
        if written is not None and written[0] == value and 0 <= now - written[1] < self.contact_every:
            return
        linked.write_pool(own, value, now)
        self._pool_written = (value, now)

    def push_all(self) -> int:
        """Sends batches until the hub holds the whole outbox; returns the rows sent."""
        sent = 0
        while True:
            count = self.push_once()
            sent += count
            if count == 0:
                return sent

    def run(self) -> None:
        """Pushes until ``stop()``: a batch whenever there are rows, a look every ``poll``
        seconds when there are none, a growing wait after each failure; stops at books the hub
        refuses (``refused`` says why)."""
        wait = FIRST_WAIT
        while not self.stop_event.is_set():
            try:
                sent = self.push_once()
            except (
                HubUnavailableError,
                CredentialsError,
                psycopg.OperationalError,
                psycopg.InterfaceError,
            ) as error:
                self._failed(f"the hub cannot be reached: {error}")
            except BooksRefusedError as error:
                self._failed(str(error), error=True)
                self.refused = str(error)
                break
            except HubError as error:
                self._failed(f"the hub refused the outbox: {error}", error=True)
                wait = self.retry_max
            except LinkError as error:
                self._failed(str(error), error=True)
                wait = self.retry_max
            except (sqlite3.Error, psycopg.Error) as error:
                self._failed(f"{type(error).__name__}: {error}", error=True)
            else:
                if self.status.last_error is not None:
                    log.info("the hub is reached again; it holds %d events of this cabinet", self.status.held)
                    self.status.last_error = None
                wait = FIRST_WAIT
                if sent == 0:
                    self._sleep(self.poll)
                continue
            self._sleep(wait)
            wait = min(wait * 2, self.retry_max)
        self.close()

    def _failed(self, message: str, *, error: bool = False) -> None:
        self._disconnect()
        self._count_waiting()
        self._close_books()
        if message != self.status.last_error:
            (log.error if error else log.warning)(
                "%s; %d rows wait in the outbox", message, self.status.waiting
            )
        self.status.last_error = message

    def stop(self) -> None:
        self.stop_event.set()

    def _count_waiting(self) -> None:
        """The rows the hub does not hold, as far as this side knows, when the hub cannot be
        asked: the books' outbox beyond what this agent (or its own record) saw confirmed."""
        try:
            last = outboxes.last_seq(self._open_books())
            held = max(self.status.held, confirmed(self.database, self._books_id, self.agent_file))
        except (LinkError, sqlite3.Error, OSError):
            return  # books that cannot be read say so in the message itself
        self.status.waiting = max(last - held, 0)

    def _close_books(self) -> None:
        books, self._books = self._books, None
        if books is not None:
            books.close()

    def close(self) -> None:
        self._disconnect()
        self._close_books()
        if self._confirm_db is not None:
            self._confirm_db.close()
            self._confirm_db = None


def _event(row: outboxes.Row) -> hub.Event:
    """The outbox's row as the hub is sent it: its payload as the hub can hold it
    (``outboxes.storable``), as rows are written now: a row of a release before that wrote a
    text with U+0000 as it was, which the hub refused, with every row after it, for ever."""
    return hub.Event(
        row.seq, row.kind, outboxes.storable(row.payload), datetime.fromisoformat(row.committed_at)
    )


def _sendable(events: list[hub.Event]) -> list[hub.Event]:
    """The batch up to the first row the hub would refuse for ever (``hub.refusal``): the rows
    before it are sent; a batch that starts with it is sent whole, for the hub to say why."""
    refused = next((index for index, event in enumerate(events) if hub.refusal(event) is not None), None)
    if refused is None or refused == 0:
        return events
    log.error(
        "event %d (%s): %s: the rows before it are sent, it and the rows after it wait",
        events[refused].seq,
        events[refused].kind,
        hub.refusal(events[refused]),
    )
    return events[:refused]


def _same_event(row: outboxes.Row, event: hub.Event) -> bool:
    """The outbox's row is the hub's event of its number: kind, payload (as the hub can hold
    it, ``outboxes.storable``) and the time the cabinet committed it (a hit the hub holds from
    before boxes names none: box 0)."""
    payload = dict(event.payload)
    if event.kind == "jackpot_hit":
        payload.setdefault("box", outboxes.BOX_OF_A_ROUNDS_HIT)
    try:
        at = datetime.fromisoformat(row.committed_at)
    except ValueError:
        return False
    return row.kind == event.kind and outboxes.storable(row.payload) == payload and at == event.committed_at


def _figure(kind: str, payload: Any, committed_at: datetime | str) -> str:
    at = committed_at if isinstance(committed_at, str) else committed_at.isoformat(timespec="milliseconds")
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return f"{kind} {text if len(text) <= 200 else text[:200] + '…'} committed {at}"


def _file_identity(path: Path) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_dev, status.st_ino


def lock_path(agent_file: Path) -> Path:
    """The lock the agent holds while it runs, beside its own file itself (a symbolic link
    followed, as the books' lock is): one agent per books, whichever path names them."""
    own_file = Path(os.path.realpath(agent_file))
    return own_file.with_name(own_file.name + ".lock")


def run_agent(
    database: Path,
    credentials: Path,
    *,
    batch: int,
    retry_max: float,
    linked_jackpot: bool,
    offline_after: float,
    agent_file: Path | None = None,
) -> int:
    """``oasis-kiosk link``: runs until SIGTERM or SIGINT; refuses to start while another
    agent pushes the same books (two would send the same batches and write the same file
    side by side); stops with ``EXIT_OTHER_BOOKS`` at books the hub refuses."""
    try:
        access.read_credentials(credentials)  # a bad file is said at once, not retried
    except CredentialsError as error:
        log.error("%s", error)
        return 2
    own_file = linked.link_path(database, agent_file)
    if not os.access(own_file.parent, os.W_OK | os.X_OK):
        log.error(
            "%s: the link agent may not write its own file here (%s): set [link] agent_file to a "
            "file in a directory the agent's user may write",
            own_file.parent,
            own_file.name,
        )
        return 2
    lock = lock_path(own_file)
    try:
        acquire_lock(lock)
    except LockHeldError as held:
        log.error(
            "%s: the books' outbox is pushed by another link agent (pid %s): one link agent per books",
            database,
            held.holder,
        )
        return 3
    except OSError as error:
        log.error("%s: cannot take the link agent's lock: %s", lock, error)
        return 2
    agent = Agent(
        database,
        credentials,
        batch=batch,
        retry_max=retry_max,
        linked_jackpot=linked_jackpot,
        offline_after=offline_after,
        agent_file=own_file,
    )

    def stop(signum: int, frame: FrameType | None) -> None:
        agent.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log.info("pushing the outbox of %s to the hub (%s)", database, credentials)
    try:
        agent.run()
    finally:
        release_lock(lock)
    return 0 if agent.refused is None else EXIT_OTHER_BOOKS
