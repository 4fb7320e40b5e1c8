"""The open database: finding, locking and opening the books (checked against their mark),
the transaction every write goes inside, each written row sealed (and put in the hub's
outbox on a linked cabinet), the checks of the books, and closing.

One file, WAL journal, ``synchronous=FULL``: a transaction that returned is on disk. Every
change of money is a ledger row written in the same transaction as the round action or
device event that caused it, together with the meters it moves, so that after a power cut
at any instant the database holds either all of a change or none of it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oasis_kiosk.store import outbox as outboxes
from oasis_kiosk.store import seals
from oasis_kiosk.store.books import (
    BooksError,
    BooksFiles,
    LockHeldError,
    Mark,
    acquire_lock,
    keep_private,
    read_key,
    read_mark,
    release_lock,
    write_mark,
)
from oasis_kiosk.store.db.schema import MIGRATIONS, apply_migrations
from oasis_kiosk.store.db.values import BooksDamagedError, StoreError, now, read_error

BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another process's (a command reading the meters)."""

MEMORY = ":memory:"


@dataclass(frozen=True)
class Books:
    """Which books these are: made once, by ``oasis-kiosk init``."""

    id: str
    created_at: str
    currency: str
    test: bool
    """Test books: only they may be played from stacked or derived decks."""


def _init_hint(path: Path) -> str:
    return f"create the books with `oasis-kiosk init --db {path}`"


def take_books_lock(files: BooksFiles) -> None:
    """Takes the books' lock (``release_lock(files.lock)`` gives it back), or a StoreError
    naming the process that holds it: one writer of the books at a time."""
    try:
        acquire_lock(files.lock)
    except LockHeldError as held:
        raise StoreError(
            f"{files.database}: the books are in use by another process (pid {held.holder}): "
            "one terminal at a time"
        ) from None
    except BooksError as error:
        raise StoreError(str(error)) from None
    except OSError as error:
        raise StoreError(
            f"{files.lock}: the books' lock cannot be taken: {error.strerror or error}"
        ) from None


@contextmanager
def books_held(files: BooksFiles) -> Iterator[None]:
    """The books' lock held while what is inside moves or makes their files (``oasis-kiosk
    init``): a running kiosk's books are never touched under it."""
    take_books_lock(files)
    try:
        yield
    finally:
        release_lock(files.lock)


class Connection:
    """The books' database, open: the tables' classes (``ledger.py``, ``rounds.py``,
    ``events.py``) read and write through it."""

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
        self.start_findings: list[str] = []
        """What the check before a start (``start_problems``) found as the books were opened
        to write: books that fail it take no write, as the terminal stands still on them."""
        self.floor_refusal: str | None = None
        """Why these books take no write opened without their floor's [link]
        (``_check_the_floor``): a command says so before it asks for anything."""
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
            try:
                self.start_findings = self.start_problems()
                if outbox is None:
                    self._check_the_floor()
                else:
                    self._open_the_outbox()
            except BaseException:
                with suppress(StoreError):
                    self.close()
                raise

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
        take_books_lock(self.files)
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
        keep_private(self.files)
        self._connect()
        try:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            check = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise BooksDamagedError(f"{self.path}: the database is damaged: {check}")
            if self.schema_version < 2:
                raise StoreError(self._unsealed())
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
                raise read_error(self.path, error, "open the database to read") from None
        # As the kiosk's own opening does: a reader (the meters, the audit, the recall) must
        # not print from a file whose pages SQLite finds malformed.
        try:
            checked = self._read("PRAGMA quick_check")
        except StoreError:
            self._db.close()
            raise
        if checked[0][0] != "ok":
            self._db.close()
            raise BooksDamagedError(f"{self.path}: the database is damaged: {checked[0][0]}")
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
        if mark is None:
            raise StoreError(
                f"{self.files.mark}: the books mark is missing: the books cannot show that nothing "
                f"committed was lost; restore it, or clear the books on purpose "
                f"(`oasis-kiosk init --ram-clear --db {self.path}`)"
            )
        disagreements = self._against_the_mark(mark, books)
        if disagreements:
            raise StoreError(disagreements[0])
        seq, last_seal = seals.last_entry(self._db)
        self._chain = (seq, last_seal)
        if seq != mark.seq:
            write_mark(self.files, Mark(books.id, seq, last_seal))

    def _against_the_mark(self, mark: Mark, books: Books | None) -> list[str]:
        """Where the database disagrees with its books mark (empty: it reaches it): other
        books, fewer seals than were committed, or another seal where the mark's stands. The
        start refuses the first; the audit reports them all."""
        found = []
        if books is not None and mark.books != books.id:
            found.append(
                f"{self.path}: these are books {books.id}, but the mark beside them is of books "
                f"{mark.books}: the database was replaced"
            )
        seq, _ = seals.last_entry(self._db)
        if seq < mark.seq:
            found.append(
                f"{self.path}: the database ends at seal {seq} but the books committed up to seal "
                f"{mark.seq}: committed transactions were lost (a deleted write-ahead log, or an "
                "older copy put back)"
            )
            return found
        at_mark = self._db.execute("SELECT seal FROM seals WHERE seq = ?", (mark.seq,)).fetchone()
        if mark.seq and (at_mark is None or at_mark[0] != mark.seal):
            found.append(f"{self.path}: seal {mark.seq} is not the one the books mark holds")
        return found

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
        of the seal chain and the rows it names, the running credit against the ledger, and
        at most one round open."""
        problems = self.verify_seals(full=False)
        total, last = self._read(
            "SELECT COALESCE(SUM(amount), 0), (SELECT credits_after FROM ledger ORDER BY id DESC LIMIT 1) FROM ledger"
        )[0]
        if (last or 0) != total:
            problems.append(f"the credit on the ledger is {last or 0}, its amounts add up to {total}")
        (open_rounds,) = self._read("SELECT COUNT(*) FROM rounds WHERE state = 'open'")[0]
        if open_rounds > 1:
            problems.append(f"{open_rounds} rounds are open at once")
        return problems

    def _unsealed(self) -> str:
        return (
            f"{self.path}: these books were written before sealing: seal them once with "
            f"`oasis-kiosk init --seal-existing --db {self.path}`"
        )

    def mark_problems(self) -> list[str]:
        """For a read-only look (the audit): are these sealed books that reach their books
        mark, as the start checks them? A file that cannot say (a foreign database, a table
        gone) is a problem found, never an error of the look."""
        if self.path == Path(MEMORY):
            return []
        if self.schema_version < 2:
            return [self._unsealed()]
        try:
            mark = read_mark(self.files)
        except BooksError as error:
            return [str(error)]
        if mark is None:
            return [f"{self.files.mark}: the books mark is missing"]
        try:
            books = self.books
            if books is None:
                return [f"{self.path}: the books have no identity"]
            return self._against_the_mark(mark, books)
        except StoreError as error:
            return [str(error)]
        except sqlite3.Error as error:
            return [str(read_error(self.path, error))]

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one committed state, whatever the kiosk commits meanwhile. A
        damaged page may fail even the end of reading: that is a StoreError too."""
        try:
            self._db.execute("BEGIN")
        except sqlite3.Error as error:
            raise read_error(self.path, error) from None
        try:
            yield
        except BaseException:
            # The reads' own error is the one to tell: ending the transaction cannot hide it.
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            raise read_error(self.path, error) from None

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
        apply_migrations(self._db, self.path)

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
        if self.write_refusal is not None:
            raise StoreError(f"{self.path}: cannot write: {self.write_refusal}")
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

    @property
    def write_refusal(self) -> str | None:
        """Why these books take no write at all, if they take none."""
        if self.start_findings:
            return f"the books fail their check: {'; '.join(self.start_findings)}"
        return self.floor_refusal

    def _open_the_outbox(self) -> None:
        """Books opened linked for the first time that already hold what the hub never saw
        (they played on their own, then joined the floor) write their opening record, in one
        transaction: the hub then holds their credits and meters as they stand. Once only:
        an outbox that has had a row (a later start, after a power cut too) writes nothing.
        Books that fail their check (``start_problems``) open no record, as they take no
        write: the hub would take their figures as the truth."""
        opening = outboxes.opening(self._db)
        if not opening or self.start_findings:
            return
        with self.transaction():
            at = now()
            for kind, payload in opening:
                outboxes.append(self._db, kind, payload, at)

    def _check_the_floor(self) -> None:
        """Books that have sent to a floor's hub (their outbox begun) take no write opened
        without it: the hub would never hear of it, and would disagree with the books for
        good. Read, they are as any books."""
        if outboxes.last_seq(self._db) > 0:
            self.floor_refusal = (
                "these books send to a floor's hub (their outbox has begun), and opened without "
                "its [link] section a write would never reach it: restore the section"
            )

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
            raise read_error(self.path, error) from None
