"""The terminal's SQLite database: ledger, meters, rounds, events, terminal state.

One file, WAL journal, ``synchronous=FULL``: a transaction that returned is on disk. Every
change of money is a ledger row written in the same transaction as the round action or
device event that caused it, together with the meters it moves, so that after a power cut
at any instant the database holds either all of a change or none of it.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import uuid
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from oasis_kiosk._core import OasisError, Profile
from oasis_kiosk.store import outbox as outboxes
from oasis_kiosk.store import seals
from oasis_kiosk.store.books import (
    KEY_BYTES,
    BooksError,
    BooksFiles,
    LockHeldError,
    Mark,
    acquire_lock,
    create_key,
    read_key,
    read_mark,
    release_lock,
    write_mark,
)

if TYPE_CHECKING:
    from oasis_kiosk._core import _RoundRecord as RoundRecord
    from oasis_kiosk._core import _Settlement as Settlement

    class JackpotShown(TypedDict):
        """A box's jackpot award, as the table shows it."""

        box: int
        award: int

    class RoundSettlement(Settlement):
        """A settled round's: the core's settlement and the jackpot the terminal paid on it."""

        jackpot_awards: int
        # What the screen shows (none in books of an earlier release): each box's award and
        # the meter before the hit.
        jackpot_hits: NotRequired[list[JackpotShown]]
        jackpot_before: NotRequired[int]
        jackpot_pending: NotRequired[list[int]]
        """A linked hit's boxes, their awards the floor's to pay."""

    class VoidSettlement(TypedDict):
        """A round closed before its end (``Store.void_round``): why, its stakes refunded."""

        void: str

    class OpenRound(TypedDict):
        id: int
        started_at: str
        finished_at: None
        profile: str
        record: RoundRecord
        settlement: None
        state: Literal["open"]
        deck: str

    class SettledRound(TypedDict):
        id: int
        started_at: str
        finished_at: str
        profile: str
        record: RoundRecord
        settlement: RoundSettlement
        state: Literal["settled"]
        deck: str

    class VoidedRound(TypedDict):
        id: int
        started_at: str
        finished_at: str
        profile: str
        record: RoundRecord
        settlement: VoidSettlement
        state: Literal["voided"]
        deck: str

    StoredRound = OpenRound | SettledRound | VoidedRound

# Each entry upgrades the schema by one version (PRAGMA user_version); never edit a
# released entry, append a new one.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE ledger (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        amount INTEGER NOT NULL,
        credits_after INTEGER NOT NULL CHECK (credits_after >= 0),
        round_id INTEGER REFERENCES rounds (id),
        detail TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE meters (name TEXT PRIMARY KEY, value INTEGER NOT NULL CHECK (value >= 0));
    CREATE TABLE profiles (digest TEXT PRIMARY KEY, id TEXT NOT NULL, data TEXT NOT NULL);
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        profile TEXT NOT NULL REFERENCES profiles (digest),
        record TEXT NOT NULL,
        settlement TEXT,
        state TEXT NOT NULL CHECK (state IN ('open', 'settled', 'voided'))
    );
    CREATE TABLE events (id INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL);
    CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE INDEX ledger_round ON ledger (round_id);
    """,
    # Sealed books (store/seals.py): their identity, currency and kind, the chain of seals,
    # and where each round's deck came from.
    """
    CREATE TABLE books (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        currency TEXT NOT NULL,
        test INTEGER NOT NULL CHECK (test IN (0, 1))
    );
    CREATE TABLE seals (
        seq INTEGER PRIMARY KEY,
        tbl TEXT NOT NULL,
        row_key TEXT NOT NULL,
        digest TEXT NOT NULL,
        seal TEXT NOT NULL
    );
    CREATE INDEX seals_row ON seals (tbl, row_key, seq);
    ALTER TABLE rounds ADD COLUMN deck TEXT NOT NULL DEFAULT 'shuffled'
        CHECK (deck IN ('shuffled', 'derived', 'stacked'));
    """,
    # A linked cabinet's outbox for the floor's hub (store/outbox.py); empty when not linked.
    outboxes.SCHEMA,
]


BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another process's (a command reading the meters)."""

MEMORY = ":memory:"


class StoreError(OasisError):
    """The database cannot be opened, read or written: the terminal tilts on it."""


LEDGER_COLUMNS = "id, at, kind, amount, credits_after, round_id, detail"
"""The ledger's columns in the order of LedgerRow's fields."""


@dataclass(frozen=True)
class LedgerRow:
    id: int
    at: str
    kind: str
    amount: int
    credits_after: int
    round_id: int | None
    detail: dict[str, Any]


@dataclass(frozen=True)
class Books:
    """Which books these are: made once, by ``oasis-kiosk init``."""

    id: str
    created_at: str
    currency: str
    test: bool
    """Test books: only they may be played from stacked or derived decks."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _json(text: str, where: str) -> Any:
    """A JSON value the database holds; a damaged one is a StoreError naming its place."""
    try:
        return json.loads(text)
    except (TypeError, ValueError) as error:
        raise StoreError(f"{where} is damaged: not JSON ({error})") from None


def _init_hint(path: Path) -> str:
    return f"create the books with `oasis-kiosk init --db {path}`"


def _apply_migrations(db: sqlite3.Connection, path: Path) -> None:
    """Brings the schema up to this terminal's version, one migration per transaction."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > len(MIGRATIONS):
        raise StoreError(f"{path}: schema version {version} is newer than this terminal's {len(MIGRATIONS)}")
    for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in script.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
            db.execute("COMMIT")
        except sqlite3.Error:
            db.execute("ROLLBACK")
            raise


def _start_books(
    db: sqlite3.Connection, chain: tuple[int, str], secret: bytes, currency: str, test: bool
) -> tuple[int, str]:
    """Gives the books their identity and seals every row they hold (inside a transaction)."""
    db.execute(
        "INSERT INTO books (id, created_at, currency, test) VALUES (?, ?, ?, ?)",
        (uuid.uuid4().hex, now(), currency, int(test)),
    )
    return seals.seal_every_row(db, secret, chain)


def _seal_new_books(path: Path, secret: bytes, currency: str, test: bool) -> None:
    """Makes (or takes over) the database at ``path`` as sealed books, then their mark."""
    try:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            _apply_migrations(db, path)
            db.execute("BEGIN IMMEDIATE")
            chain = _start_books(db, seals.last_entry(db), secret, currency, test)
            db.execute("COMMIT")
            books = db.execute("SELECT id FROM books").fetchone()[0]
        finally:
            db.close()
        write_mark(BooksFiles(path), Mark(books, *chain))
    except (sqlite3.Error, OSError) as error:
        raise StoreError(f"{path}: cannot create the books: {error}") from None


class Store:
    """The open books. Write only inside ``transaction()``; read-only stores never write."""

    writable: bool
    """False after ``close()`` (and for a read-only store): every write is refused."""

    def __init__(
        self,
        path: Path | str,
        *,
        read_only: bool = False,
        outbox: outboxes.Outbox | None = None,
        _secret: bytes | None = None,
    ) -> None:
        """Opens existing books: never a fresh database in place of a missing one (only
        ``create`` makes books). ``read_only`` (the meters, the audit, the recall while the
        kiosk runs, or a copy of the books) takes no lock and writes nothing. ``outbox``:
        the books are linked to a floor's hub (``[link]``), and every write the hub must
        know appends its outbox rows in its own transaction (store/outbox.py); None, as for
        a cabinet on its own: no outbox rows."""
        self.path = Path(path)
        self.outbox = outbox
        self._books_id: str | None = None
        self.files = BooksFiles(self.path)
        self.read_only = read_only
        self._in_transaction = False
        self._chain = (0, seals.GENESIS)
        self._secret = _secret
        self.writable = False
        self._locked = False
        if self.path == Path(MEMORY):
            self._db = sqlite3.connect(MEMORY, isolation_level=None)
            self._migrate()
            self.writable = True
            return
        self._check_present()
        if read_only:
            self._open_read_only()
        else:
            self._take_lock()
            try:
                self._open()
            except BaseException:
                self._drop_lock()
                raise

    @classmethod
    def create(cls, path: Path | str, *, currency: str, test: bool = False) -> Store:
        """New books (``oasis-kiosk init``): the database, its seal key and its mark. Never
        over anything that is there: books are replaced only by a RAM clear (``init``)."""
        path = Path(path)
        if path == Path(MEMORY):
            store = cls(MEMORY, _secret=secrets.token_bytes(KEY_BYTES))
            with store.transaction():
                store._chain = _start_books(store._db, store._chain, store._secret or b"", currency, test)
            return store
        files = BooksFiles(path)
        present = [p for p in (path, files.key, files.mark, *files.journal) if p.exists()]
        if present:
            raise StoreError(f"{present[0]}: already there: new books are made only where none are")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            secret = create_key(files)
        except (OSError, BooksError) as error:
            raise StoreError(f"{path}: cannot create the books: {error}") from None
        _seal_new_books(path, secret, currency, test)
        return cls(path)

    @classmethod
    def in_memory(cls, *, currency: str, test: bool = False) -> Store:
        """Books that live only as long as the process (free play, the attract demo)."""
        return cls.create(MEMORY, currency=currency, test=test)

    @classmethod
    def seal_existing(cls, path: Path | str) -> Store:
        """Takes books of schema 1 (written before sealing) into the chain as they stand."""
        path = Path(path)
        files = BooksFiles(path)
        if files.key.exists() or files.mark.exists():
            raise StoreError(f"{path}: these books already have a seal key or a mark")
        probe = cls(path, read_only=True)
        try:
            version, currency = probe.schema_version, probe._first_currency()
        finally:
            probe.close()
        if version != 1:
            raise StoreError(f"{path}: schema {version}: only books of schema 1 are sealed afterwards")
        try:
            secret = create_key(files)
        except BooksError as error:
            raise StoreError(str(error)) from None
        _seal_new_books(path, secret, currency, test=False)
        return cls(path)

    def _first_currency(self) -> str:
        rows = self._read("SELECT data FROM profiles LIMIT 1")
        if not rows:
            raise StoreError(f"{self.path}: no round was played: nothing tells the books' currency")
        return str(_json(rows[0][0], "a stored profile")["table"]["currency"])

    # Opening.

    def _check_present(self) -> None:
        mark = self._mark_or_error()
        if not self.path.exists():
            if mark is not None:
                raise StoreError(
                    f"{self.path}: the database is missing, but its books mark says it held "
                    f"{mark.seq} sealed changes: restore it, or clear the books on purpose "
                    f"(`oasis-kiosk init --ram-clear --db {self.path}`)"
                )
            raise StoreError(f"{self.path}: there are no books here: {_init_hint(self.path)}")
        if self.path.stat().st_size == 0:
            raise StoreError(
                f"{self.path}: the database file is empty (0 bytes): restore it, or clear the books "
                f"on purpose (`oasis-kiosk init --ram-clear --db {self.path}`)"
            )

    def _mark_or_error(self) -> Mark | None:
        try:
            return read_mark(self.files)
        except BooksError as error:
            raise StoreError(str(error)) from None

    def _take_lock(self) -> None:
        try:
            acquire_lock(self.files.lock)
        except LockHeldError as held:
            raise StoreError(
                f"{self.files.database}: the books are in use by another process (pid {held.holder}): "
                "one terminal at a time"
            ) from None
        except (BooksError, OSError) as error:
            raise StoreError(str(error)) from None
        self._locked = True

    def __del__(self) -> None:
        # A store dropped without close() gives its share of the lock back all the same.
        if getattr(self, "_locked", False):
            self._drop_lock()

    def _drop_lock(self) -> None:
        if self._locked:
            release_lock(self.files.lock)
            self._locked = False

    def _connect(self) -> None:
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot open the database: {error}") from None

    def _read_key(self) -> bytes:
        try:
            return read_key(self.files)
        except BooksError as error:
            raise StoreError(str(error)) from None

    def _open(self) -> None:
        self._connect()
        try:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            check = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"{self.path}: the database is damaged: {check}")
            if self.schema_version < 2:
                raise StoreError(
                    f"{self.path}: these books were written before sealing: seal them once with "
                    f"`oasis-kiosk init --seal-existing --db {self.path}`"
                )
            self._secret = self._read_key()
            self._migrate()
            self._check_mark()
        except sqlite3.Error as error:
            self._db.close()
            raise StoreError(f"{self.path}: cannot open the database: {error}") from None
        except BaseException:
            self._db.close()
            raise
        self.writable = True

    def _open_read_only(self) -> None:
        uri = self.path.resolve().as_uri()
        try:
            self._db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)
            self._db.execute("PRAGMA schema_version").fetchone()
        except sqlite3.Error:
            # A copy where SQLite may not make its shared-memory file (a read-only folder,
            # another user's files): read the file as it is, with no log and no lock.
            try:
                self._db = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None)
                self._db.execute("PRAGMA schema_version").fetchone()
            except sqlite3.Error as error:
                raise StoreError(f"{self.path}: cannot open the database to read: {error}") from None
        if self.schema_version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path}: schema version {self.schema_version} is newer than this terminal's "
                f"{len(MIGRATIONS)}"
            )

    def _check_mark(self) -> None:
        """The database reaches the books mark: same books, nothing committed lost since."""
        mark = self._mark_or_error()
        books = self.books
        if books is None:
            raise StoreError(f"{self.path}: the books have no identity: {_init_hint(self.path)}")
        seq, last_seal = seals.last_entry(self._db)
        if mark is None:
            raise StoreError(
                f"{self.files.mark}: the books mark is missing: the books cannot show that nothing "
                f"committed was lost; restore it, or clear the books on purpose "
                f"(`oasis-kiosk init --ram-clear --db {self.path}`)"
            )
        if mark.books != books.id:
            raise StoreError(
                f"{self.path}: these are books {books.id}, but the mark beside them is of books "
                f"{mark.books}: the database was replaced"
            )
        if seq < mark.seq:
            raise StoreError(
                f"{self.path}: the database ends at seal {seq} but the books committed up to seal "
                f"{mark.seq}: committed transactions were lost (a deleted write-ahead log, or an "
                "older copy put back)"
            )
        at_mark = self._db.execute("SELECT seal FROM seals WHERE seq = ?", (mark.seq,)).fetchone()
        if mark.seq and (at_mark is None or at_mark[0] != mark.seal):
            raise StoreError(f"{self.path}: seal {mark.seq} is not the one the books mark holds")
        self._chain = (seq, last_seal)
        if seq != mark.seq:
            write_mark(self.files, Mark(books.id, seq, last_seal))

    @property
    def books(self) -> Books | None:
        if self.schema_version < 2:
            return None
        rows = self._read("SELECT id, created_at, currency, test FROM books")
        return Books(rows[0][0], rows[0][1], rows[0][2], bool(rows[0][3])) if rows else None

    def verify_seals(self, *, full: bool) -> list[str]:
        """What the seal chain finds wrong (``store/seals.py``); ``full``: every row."""
        if self._secret is None:
            try:
                self._secret = self._read_key()
            except StoreError as error:
                return [f"the seals cannot be checked: {error}"]
        try:
            return seals.verify(self._db, self._secret, full=full)
        except sqlite3.Error as error:
            return [f"the seals cannot be read: {error}"]

    def start_problems(self) -> list[str]:
        """What the check before a start finds (empty: the books may be written): the tail
        of the seal chain and the rows it names, and the running credit against the ledger."""
        problems = self.verify_seals(full=False)
        total, last = self._read(
            "SELECT COALESCE(SUM(amount), 0), (SELECT credits_after FROM ledger ORDER BY id DESC LIMIT 1) FROM ledger"
        )[0]
        if (last or 0) != total:
            problems.append(f"the credit on the ledger is {last or 0}, its amounts add up to {total}")
        return problems

    def mark_problems(self) -> list[str]:
        """For a read-only look (the audit): does the database reach its books mark?"""
        if self.path == Path(MEMORY):
            return []
        try:
            mark = read_mark(self.files)
        except BooksError as error:
            return [str(error)]
        if mark is None:
            return [f"{self.files.mark}: the books mark is missing"]
        seq, _ = seals.last_entry(self._db)
        if seq < mark.seq:
            return [
                f"the database ends at seal {seq}, the books committed up to seal {mark.seq}: transactions lost"
            ]
        return []

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one committed state, whatever the kiosk commits meanwhile."""
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def checkpoint(self) -> bool:
        """Copies the write-ahead log into the database file and empties it; False when a
        reader elsewhere (``oasis-kiosk meters`` at that moment) held part of it back. Either
        way every committed transaction is on disk: this only leaves nothing for a restart
        to replay. It never waits for that reader: the power may be failing."""
        try:
            self._db.execute("PRAGMA busy_timeout = 0")
            try:
                busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            finally:
                self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot checkpoint: {error}") from None
        return not busy

    def close(self, *, keep_reading: bool = False) -> bool:
        """Ends writing cleanly: the log checkpointed into the database file, the file closed,
        the lock given back. ``keep_reading`` (the power is failing) opens the file again
        read-only and immutable, with no log, so the screen can go on showing the last
        committed state while nothing can write to the card, and keeps the lock for
        ``reopen()``. Returns whether the checkpoint was complete. Never inside a transaction."""
        if self._in_transaction:
            raise RuntimeError("the database cannot close inside a transaction")
        if keep_reading and self.path == Path(MEMORY):
            raise StoreError("an in-memory database cannot be closed and still be read")
        checkpointed = False
        if self.writable and not self.read_only:
            try:
                checkpointed = self.checkpoint()
            finally:
                self._db.close()
                self.writable = False
        else:
            self._db.close()
        if keep_reading:
            uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
            try:
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None)
            except sqlite3.Error as error:
                raise StoreError(f"{self.path}: cannot open the database to read: {error}") from None
        else:
            self._drop_lock()
        return checkpointed

    def reopen(self) -> None:
        """Opens the database for writing again after ``close()``, checked as at start-up."""
        if self.writable or self.read_only:
            return
        self._db.close()
        if not self._locked:
            self._take_lock()
        self._open()

    def _migrate(self) -> None:
        _apply_migrations(self._db, self.path)

    def integrity_problems(self, limit: int = 10) -> list[str]:
        """What a full check finds wrong, at most ``limit`` findings (none: sound). Slower than
        the quick check every opening makes: it also compares every index with its table
        (``PRAGMA integrity_check``) and every reference between rows with the row it names
        (``PRAGMA foreign_key_check``)."""
        problems = [row[0] for row in self._read(f"PRAGMA integrity_check({int(limit)})") if row[0] != "ok"]
        for table, rowid, parent, _ in self._read("PRAGMA foreign_key_check"):
            problems.append(f"{table} row {rowid} refers to a {parent} row that is not there")
        if self.schema_version != len(MIGRATIONS):
            problems.append(f"schema version {self.schema_version}, this terminal's is {len(MIGRATIONS)}")
        return problems[:limit]

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside commit together, or none of them does; the books mark follows
        every commit."""
        if self._in_transaction:
            raise RuntimeError("transactions do not nest")
        if not self.writable:
            raise StoreError(f"{self.path}: cannot write: the database is closed")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._chain = seals.last_entry(self._db)
        except sqlite3.Error as error:
            self._rollback()
            raise StoreError(f"{self.path}: cannot write: {error}") from None
        self._in_transaction = True
        try:
            yield
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            self._rollback()
            raise StoreError(f"{self.path}: cannot write: {error}") from None
        except BaseException:
            self._rollback()
            raise
        finally:
            self._in_transaction = False
        self._write_mark()

    def _write_mark(self) -> None:
        if self.path == Path(MEMORY):
            return
        books = self.books
        if books is None:
            return
        try:
            write_mark(self.files, Mark(books.id, *self._chain))
        except OSError as error:
            raise StoreError(f"{self.files.mark}: cannot write the books mark: {error.strerror}") from None

    def _rollback(self) -> None:
        # SQLite has already rolled back after a full disk or an I/O error.
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error as error:
                raise StoreError(f"{self.path}: cannot roll back: {error}") from None

    def _write(self, sql: str, parameters: tuple[Any, ...]) -> sqlite3.Cursor:
        if not self._in_transaction:
            raise RuntimeError("writes go inside a transaction")
        return self._db.execute(sql, parameters)

    def _seal(self, table: str, key: object) -> None:
        """Seals the row just written (inside the transaction that wrote it)."""
        if self._secret is None:
            raise StoreError(f"{self.path}: cannot write: no seal key")
        self._chain = seals.append(self._db, self._secret, self._chain, table, str(key))
        if self.outbox is not None:
            self._to_outbox(self.outbox, table, str(key))

    def _to_outbox(self, outbox: outboxes.Outbox, table: str, key: str) -> None:
        """The outbox rows of the row just written and sealed, in the same transaction: every
        write of the books passes here, so none reaches them without its rows for the hub."""
        if self._books_id is None:
            books = self.books
            if books is None:
                return  # the books' own identity is being written: nothing the hub needs
            self._books_id = books.id
        at = now()
        for kind, payload in outboxes.entries(self._db, outbox, self._books_id, table, key):
            outboxes.append(self._db, kind, payload, at)

    def outbox_rows(self, after: int = 0, limit: int = 1000) -> list[outboxes.Row]:
        """The outbox's rows after ``after`` (oldest first, at most ``limit``)."""
        try:
            return outboxes.rows(self._db, after, limit)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot read: {error}") from None

    def _read(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot read: {error}") from None

    # The ledger and the meters.

    def credits(self) -> int:
        rows = self._read("SELECT credits_after FROM ledger ORDER BY id DESC LIMIT 1")
        return int(rows[0][0]) if rows else 0

    def post(self, kind: str, amount: int, *, round_id: int | None = None, **detail: Any) -> int:
        """Appends a ledger row changing the credits by ``amount``; returns the new credits."""
        credits = self.credits() + amount
        if credits < 0:
            raise ValueError(f"{kind} of {amount} would take the credits below zero")
        cursor = self._write(
            "INSERT INTO ledger (at, kind, amount, credits_after, round_id, detail) VALUES (?, ?, ?, ?, ?, ?)",
            (now(), kind, amount, credits, round_id, json.dumps(detail, sort_keys=True)),
        )
        self._seal("ledger", cursor.lastrowid)
        return credits

    def ledger(self, since_id: int = 0) -> list[LedgerRow]:
        return self._ledger_rows(f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE id > ? ORDER BY id", (since_id,))

    def ledger_tail(self, kinds: Collection[str], last: int) -> list[LedgerRow]:
        """The last ``last`` rows of these kinds, oldest first."""
        marks = ", ".join("?" * len(kinds))
        sql = f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE kind IN ({marks}) ORDER BY id DESC LIMIT ?"
        return self._ledger_rows(sql, (*kinds, last))[::-1]

    def _ledger_rows(self, sql: str, parameters: tuple[Any, ...]) -> list[LedgerRow]:
        return [
            LedgerRow(r[0], r[1], r[2], r[3], r[4], r[5], _json(r[6], f"ledger row {r[0]}'s detail"))
            for r in self._read(sql, parameters)
        ]

    def add_meter(self, name: str, delta: int) -> None:
        if delta < 0:
            raise ValueError(f"meter {name} cannot go down by {-delta}")
        self._write(
            "INSERT INTO meters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + ?",
            (name, delta, delta),
        )
        self._seal("meters", name)

    def reset_meters(self) -> None:
        """Only for the operator's logged reset."""
        names = [name for (name,) in self._read("SELECT name FROM meters")]
        self._write("DELETE FROM meters", ())
        for name in names:
            self._seal("meters", name)

    def meters(self) -> dict[str, int]:
        return {
            name: int(value) for name, value in self._read("SELECT name, value FROM meters ORDER BY name")
        }

    # Rounds, each with the rules it was played under.

    def open_round(self, profile: Profile, record: RoundRecord, deck: str = "shuffled") -> int:
        """A new round; ``deck`` says where its cards came from: ``shuffled`` (the OS),
        ``derived`` (from a base seed) or ``stacked`` (test books only)."""
        stored = self._write(
            "INSERT OR IGNORE INTO profiles (digest, id, data) VALUES (?, ?, ?)",
            (profile.digest, profile.id, json.dumps(profile.to_dict())),
        )
        if stored.rowcount:
            self._seal("profiles", profile.digest)
        cursor = self._write(
            "INSERT INTO rounds (started_at, profile, record, state, deck) VALUES (?, ?, ?, 'open', ?)",
            (now(), profile.digest, json.dumps(record), deck),
        )
        round_id = int(cursor.lastrowid or 0)
        self._seal("rounds", round_id)
        return round_id

    def profile(self, digest: str) -> Profile:
        """The rules a round was played under, as stored with it."""
        rows = self._read("SELECT id, data FROM profiles WHERE digest = ?", (digest,))
        if not rows:
            raise StoreError(f"{self.path}: no stored profile {digest}")
        where = f"stored profile {rows[0][0]} ({digest})"
        return Profile.from_toml("", where, _json(rows[0][1], where))

    def next_round_id(self) -> int:
        return int(self._read("SELECT COALESCE(MAX(id), 0) + 1 FROM rounds")[0][0])

    def update_round(self, round_id: int, record: RoundRecord, settlement: RoundSettlement | None) -> None:
        if settlement is None:
            self._write("UPDATE rounds SET record = ? WHERE id = ?", (json.dumps(record), round_id))
        else:
            self._write(
                "UPDATE rounds SET record = ?, settlement = ?, state = 'settled', finished_at = ? WHERE id = ?",
                (json.dumps(record), json.dumps(settlement), now(), round_id),
            )
        self._seal("rounds", round_id)

    def void_round(self, round_id: int, reason: str) -> None:
        """Closes an open round that cannot be played on (its refund is on the ledger)."""
        self._write(
            "UPDATE rounds SET state = 'voided', settlement = ?, finished_at = ? WHERE id = ? AND state = 'open'",
            (json.dumps({"void": reason}), now(), round_id),
        )
        self._seal("rounds", round_id)

    def unfinished_round(self) -> tuple[int, str, RoundRecord] | None:
        """The round left open by a power cut: its id, profile digest and record."""
        rows = self._read("SELECT id, profile, record FROM rounds WHERE state = 'open' ORDER BY id")
        if len(rows) > 1:
            raise StoreError(f"{self.path}: {len(rows)} rounds are open at once")
        if not rows:
            return None
        return int(rows[0][0]), rows[0][1], _json(rows[0][2], f"round {rows[0][0]}'s record")

    def rounds(self, last: int | None = None) -> list[StoredRound]:
        """Rounds, oldest first; ``last`` keeps only the most recent ones."""
        sql = "SELECT id, started_at, finished_at, profile, record, settlement, state, deck FROM rounds ORDER BY id DESC"
        rows = self._read(sql + (" LIMIT ?" if last is not None else ""), (last,) if last is not None else ())
        # Each state comes with its settlement (update_round, void_round): none while open.
        return [
            {
                "id": r[0],
                "started_at": r[1],
                "finished_at": r[2],
                "profile": r[3],
                "record": _json(r[4], f"round {r[0]}'s record"),
                "settlement": _json(r[5], f"round {r[0]}'s settlement") if r[5] else None,
                "state": r[6],
                "deck": r[7],
            }
            for r in reversed(rows)
        ]

    # Events and terminal state.

    def event(self, name: str, **detail: Any) -> None:
        cursor = self._write(
            "INSERT INTO events (at, kind, detail) VALUES (?, ?, ?)",
            (now(), name, json.dumps(detail, sort_keys=True)),
        )
        self._seal("events", cursor.lastrowid)

    def events(self, last: int = 100) -> list[dict[str, Any]]:
        rows = self._read("SELECT id, at, kind, detail FROM events ORDER BY id DESC LIMIT ?", (last,))
        return [
            {"id": r[0], "at": r[1], "kind": r[2], "detail": _json(r[3], f"event {r[0]}'s detail")}
            for r in reversed(rows)
        ]

    def set_state(self, key: str, value: Any) -> None:
        self._write(
            "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )
        self._seal("state", key)

    def get_state(self, key: str, default: Any = None) -> Any:
        rows = self._read("SELECT value FROM state WHERE key = ?", (key,))
        return _json(rows[0][0], f"the stored {key!r} state") if rows else default
