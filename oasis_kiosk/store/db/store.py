"""The Store: the books' tables in one class (``connection.py`` opens and writes them,
``ledger.py``, ``rounds.py`` and ``events.py`` hold each table's reads and writes), and how
new books are made."""

from __future__ import annotations

import secrets
import sqlite3
import uuid
from pathlib import Path

from oasis_kiosk.store import seals
from oasis_kiosk.store.books import (
    KEY_BYTES,
    BooksError,
    BooksFiles,
    Mark,
    create_database,
    create_key,
    write_mark,
)
from oasis_kiosk.store.db.connection import MEMORY
from oasis_kiosk.store.db.events import EventAndStateTables
from oasis_kiosk.store.db.ledger import LedgerTables
from oasis_kiosk.store.db.rounds import RoundTables
from oasis_kiosk.store.db.schema import apply_migrations
from oasis_kiosk.store.db.values import StoreError, now
from oasis_kiosk.store.outbox import Outbox


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
            apply_migrations(db, path)
            db.execute("BEGIN IMMEDIATE")
            chain = _start_books(db, seals.last_entry(db), secret, currency, test)
            db.execute("COMMIT")
            books = db.execute("SELECT id FROM books").fetchone()[0]
        finally:
            db.close()
        write_mark(BooksFiles(path), Mark(books, *chain))
    except (sqlite3.Error, OSError) as error:
        raise StoreError(f"{path}: cannot create the books: {error}") from None


class Store(LedgerTables, RoundTables, EventAndStateTables):
    """The open books. Write only inside ``transaction()``; read-only stores never write."""

    @classmethod
    def create(
        cls, path: Path | str, *, currency: str, test: bool = False, outbox: Outbox | None = None
    ) -> Store:
        """New books (``oasis-kiosk init``): the database, its seal key and its mark. Never
        over anything that is there: books are replaced only by a RAM clear (``init``).
        ``outbox``: made linked, the books' first writes go to the hub as every later one."""
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
            create_database(files)
        except (OSError, BooksError) as error:
            raise StoreError(f"{path}: cannot create the books: {error}") from None
        _seal_new_books(path, secret, currency, test)
        return cls(path, outbox=outbox)

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
