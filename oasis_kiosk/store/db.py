"""The terminal's SQLite database: ledger, meters, rounds, events, terminal state.

One file, WAL journal, ``synchronous=FULL``: a transaction that returned is on disk. Every
change of money is a ledger row written in the same transaction as the round action or
device event that caused it, together with the meters it moves, so that after a power cut
at any instant the database holds either all of a change or none of it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oasis_kiosk._core import Profile

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
]


BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another process's (a command reading the meters)."""


class StoreError(Exception):
    """The database cannot be opened, read or written: the terminal tilts on it."""


@dataclass(frozen=True)
class LedgerRow:
    id: int
    at: str
    kind: str
    amount: int
    credits_after: int
    round_id: int | None
    detail: dict[str, Any]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    """The open database. Write only inside ``transaction()``."""

    writable: bool
    """False after ``close()``: every write is refused until ``reopen()``."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._in_transaction = False
        self._open()

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            check = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"{self.path}: the database is damaged: {check}")
            self._migrate()
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot open the database: {error}") from None
        except OSError as error:
            raise StoreError(f"{self.path}: cannot open the database: {error.strerror}") from None
        self.writable = True

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
        """Ends writing cleanly: the log checkpointed into the database file, the file closed.
        ``keep_reading`` (the power is failing) opens the file again read-only and immutable,
        with no lock and no log, so the screen can go on showing the last committed state
        while nothing can write to the card; ``reopen()`` makes it writable again. Returns
        whether the checkpoint was complete. Never inside a transaction."""
        if self._in_transaction:
            raise RuntimeError("the database cannot close inside a transaction")
        if keep_reading and str(self.path) == ":memory:":
            raise StoreError("an in-memory database cannot be closed and still be read")
        checkpointed = False
        if self.writable:
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
        return checkpointed

    def reopen(self) -> None:
        """Opens the database for writing again after ``close()``, checked as at start-up."""
        if self.writable:
            return
        self._db.close()
        self._open()

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path}: schema version {version} is newer than this terminal's {len(MIGRATIONS)}"
            )
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in script.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {number}")
                self._db.execute("COMMIT")
            except sqlite3.Error:
                self._db.execute("ROLLBACK")
                raise

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
        """All writes inside commit together, or none of them does."""
        if self._in_transaction:
            raise RuntimeError("transactions do not nest")
        if not self.writable:
            raise StoreError(f"{self.path}: cannot write: the database is closed")
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
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
        self._write(
            "INSERT INTO ledger (at, kind, amount, credits_after, round_id, detail) VALUES (?, ?, ?, ?, ?, ?)",
            (now(), kind, amount, credits, round_id, json.dumps(detail, sort_keys=True)),
        )
        return credits

    def ledger(self, since_id: int = 0) -> list[LedgerRow]:
        rows = self._read(
            "SELECT id, at, kind, amount, credits_after, round_id, detail FROM ledger WHERE id > ? ORDER BY id",
            (since_id,),
        )
        return [LedgerRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6])) for r in rows]

    def add_meter(self, name: str, delta: int) -> None:
        if delta < 0:
            raise ValueError(f"meter {name} cannot go down by {-delta}")
        self._write(
            "INSERT INTO meters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + ?",
            (name, delta, delta),
        )

    def reset_meters(self) -> None:
        """Only for the operator's logged reset."""
        self._write("DELETE FROM meters", ())

    def meters(self) -> dict[str, int]:
        return {
            name: int(value) for name, value in self._read("SELECT name, value FROM meters ORDER BY name")
        }

    # Rounds, each with the rules it was played under.

    def open_round(self, profile: Profile, record: dict[str, Any]) -> int:
        self._write(
            "INSERT OR IGNORE INTO profiles (digest, id, data) VALUES (?, ?, ?)",
            (profile.digest, profile.id, json.dumps(profile.to_dict())),
        )
        cursor = self._write(
            "INSERT INTO rounds (started_at, profile, record, state) VALUES (?, ?, ?, 'open')",
            (now(), profile.digest, json.dumps(record)),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def profile(self, digest: str) -> Profile:
        """The rules a round was played under, as stored with it."""
        rows = self._read("SELECT id, data FROM profiles WHERE digest = ?", (digest,))
        if not rows:
            raise StoreError(f"{self.path}: no stored profile {digest}")
        return Profile.from_toml("", f"stored profile {rows[0][0]} ({digest})", json.loads(rows[0][1]))

    def next_round_id(self) -> int:
        return int(self._read("SELECT COALESCE(MAX(id), 0) + 1 FROM rounds")[0][0])

    def update_round(self, round_id: int, record: dict[str, Any], settlement: dict[str, Any] | None) -> None:
        if settlement is None:
            self._write("UPDATE rounds SET record = ? WHERE id = ?", (json.dumps(record), round_id))
        else:
            self._write(
                "UPDATE rounds SET record = ?, settlement = ?, state = 'settled', finished_at = ? WHERE id = ?",
                (json.dumps(record), json.dumps(settlement), now(), round_id),
            )

    def void_round(self, round_id: int, reason: str) -> None:
        """Closes an open round that cannot be played on (its refund is on the ledger)."""
        self._write(
            "UPDATE rounds SET state = 'voided', settlement = ?, finished_at = ? WHERE id = ? AND state = 'open'",
            (json.dumps({"void": reason}), now(), round_id),
        )

    def unfinished_round(self) -> tuple[int, str, dict[str, Any]] | None:
        """The round left open by a power cut: its id, profile digest and record."""
        rows = self._read("SELECT id, profile, record FROM rounds WHERE state = 'open' ORDER BY id")
        if len(rows) > 1:
            raise StoreError(f"{self.path}: {len(rows)} rounds are open at once")
        return (int(rows[0][0]), rows[0][1], json.loads(rows[0][2])) if rows else None

    def rounds(self, last: int | None = None) -> list[dict[str, Any]]:
        """Rounds, oldest first; ``last`` keeps only the most recent ones."""
        sql = "SELECT id, started_at, finished_at, profile, record, settlement, state FROM rounds ORDER BY id DESC"
        rows = self._read(sql + (" LIMIT ?" if last is not None else ""), (last,) if last is not None else ())
        return [
            {
                "id": r[0],
                "started_at": r[1],
                "finished_at": r[2],
                "profile": r[3],
                "record": json.loads(r[4]),
                "settlement": json.loads(r[5]) if r[5] else None,
                "state": r[6],
            }
            for r in reversed(rows)
        ]

    # Events and terminal state.

    def event(self, name: str, **detail: Any) -> None:
        self._write(
            "INSERT INTO events (at, kind, detail) VALUES (?, ?, ?)",
            (now(), name, json.dumps(detail, sort_keys=True)),
        )

    def events(self, last: int = 100) -> list[dict[str, Any]]:
        rows = self._read("SELECT id, at, kind, detail FROM events ORDER BY id DESC LIMIT ?", (last,))
        return [{"id": r[0], "at": r[1], "kind": r[2], "detail": json.loads(r[3])} for r in reversed(rows)]

    def set_state(self, key: str, value: Any) -> None:
        self._write(
            "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )

    def get_state(self, key: str, default: Any = None) -> Any:
        rows = self._read("SELECT value FROM state WHERE key = ?", (key,))
        return json.loads(rows[0][0]) if rows else default
