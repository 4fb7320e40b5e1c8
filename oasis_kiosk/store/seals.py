"""The seal chain: every row the books hold is sealed, in the order it was written.

Each write to a sealed table (a ledger row, a meter's new value, a round's record, an event,
a piece of terminal state) appends one entry to ``seals``: the table, the row's key, the
SHA-256 digest of the row as stored, and an HMAC-SHA256, under a key kept outside the
database, of the previous entry's seal and this entry. Whoever edits, adds or deletes a row
without the key cannot make a chain that verifies:

- an edited row no longer matches the digest of its latest entry;
- a row added by hand (a forged bill, say) has no entry, or an entry whose seal is wrong;
- a deleted row still has its entry, whose digest says it should be there;
- an edited, removed or reordered entry breaks the chain from there on.

What the chain cannot see is a cut of its own tail together with the rows of those entries:
the books mark beside the database (``store/books.py``) holds the last sequence number for that.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import sqlite3
from collections.abc import Iterator
from typing import Any

SEALED: dict[str, tuple[str, str]] = {
    "books": ("id", "created_at, currency, test"),
    "ledger": ("id", "at, kind, amount, credits_after, round_id, detail"),
    "meters": ("name", "value"),
    "profiles": ("digest", "id, data"),
    "rounds": ("id", "started_at, finished_at, profile, record, settlement, state, deck"),
    "events": ("id", "at, kind, detail"),
    "state": ("key", "value"),
}
"""Each sealed table: the column that names a row, and the columns its digest covers."""

GENESIS = ""
"""The seal before the first entry."""

TAIL = 5000
"""How many of the latest entries the start-up check verifies (the audit verifies all)."""
TAIL_ROWS = 500
"""And how many of the latest ledger rows, rounds and events it compares with their seals."""


def digest(table: str, key: str, content: tuple[Any, ...] | None) -> str:
    """The digest of a row as stored; ``None``: the row is gone (a meter reset)."""
    text = json.dumps([table, key, content], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def seal(secret: bytes, previous: str, seq: int, table: str, key: str, row_digest: str) -> str:
    message = f"{previous}\n{seq}\n{table}\n{key}\n{row_digest}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def row_content(db: sqlite3.Connection, table: str, key: str) -> tuple[Any, ...] | None:
    key_column, columns = SEALED[table]
    row = db.execute(
        f"SELECT {columns} FROM {table} WHERE {key_column} = ?", (_typed(table, key),)
    ).fetchone()
    return tuple(row) if row is not None else None


def _typed(table: str, key: str) -> Any:
    return int(key) if table in {"ledger", "rounds", "events"} else key


def last_entry(db: sqlite3.Connection) -> tuple[int, str]:
    row = db.execute("SELECT seq, seal FROM seals ORDER BY seq DESC LIMIT 1").fetchone()
    return (int(row[0]), str(row[1])) if row else (0, GENESIS)


def append(
    db: sqlite3.Connection, secret: bytes, chain: tuple[int, str], table: str, key: str
) -> tuple[int, str]:
    """Seals the row ``key`` of ``table`` as it now stands; returns the chain's new end."""
    seq, previous = chain[0] + 1, chain[1]
    row_digest = digest(table, key, row_content(db, table, key))
    new_seal = seal(secret, previous, seq, table, key, row_digest)
    db.execute(
        "INSERT INTO seals (seq, tbl, row_key, digest, seal) VALUES (?, ?, ?, ?, ?)",
        (seq, table, key, row_digest, new_seal),
    )
    return seq, new_seal


def seal_every_row(db: sqlite3.Connection, secret: bytes, chain: tuple[int, str]) -> tuple[int, str]:
    """Seals every row the tables hold (books taken over from before sealing)."""
    for table, (key_column, _) in SEALED.items():
        for (key,) in db.execute(f"SELECT {key_column} FROM {table} ORDER BY {key_column}").fetchall():
            chain = append(db, secret, chain, table, str(key))
    return chain


def _entries(db: sqlite3.Connection, after: int) -> Iterator[tuple[int, str, str, str, str]]:
    yield from db.execute(
        "SELECT seq, tbl, row_key, digest, seal FROM seals WHERE seq > ? ORDER BY seq", (after,)
    )


def _latest_digest(db: sqlite3.Connection, table: str, key: str) -> str | None:
    row = db.execute(
        "SELECT digest FROM seals WHERE tbl = ? AND row_key = ? ORDER BY seq DESC LIMIT 1", (table, key)
    ).fetchone()
    return str(row[0]) if row else None


def _row_problem(table: str, key: str, expected: str | None, content: tuple[Any, ...] | None) -> str | None:
    """What is wrong with one row against the latest entry that sealed it."""
    noun = f"{table} row {key}"
    if expected is None:
        return f"{noun} has no seal: it was written outside the terminal" if content is not None else None
    if digest(table, key, content) == expected:
        return None
    if content is None:
        return f"{noun} was deleted after it was sealed"
    if expected == digest(table, key, None):
        return f"{noun} was put back after it was removed"
    return f"{noun} was changed after it was sealed"


def verify(db: sqlite3.Connection, secret: bytes, *, full: bool, limit: int = 20) -> list[str]:
    """What is wrong with the chain and the rows it seals (empty: sound), at most ``limit``
    findings. ``full`` walks every entry and compares every row; otherwise the last ``TAIL``
    entries, the rows they name, and every meter, piece of state and the books' identity:
    enough to see a change since the last start, in a time that does not grow with the books."""
    return list(itertools.islice(_findings(db, secret, full), limit))


def _findings(db: sqlite3.Connection, secret: bytes, full: bool) -> Iterator[str]:
    end, _ = last_entry(db)
    start = 0 if full else max(end - TAIL, 0)
    previous = GENESIS
    if start:
        anchor = db.execute("SELECT seal FROM seals WHERE seq = ?", (start,)).fetchone()
        if anchor is None:
            yield f"seal {start} is missing: the chain was cut"
            return
        previous = str(anchor[0])
    latest: dict[tuple[str, str], str] = {}
    expected_seq = start + 1
    for seq, table, key, row_digest, stored_seal in _entries(db, start):
        if seq != expected_seq:
            yield f"seals {expected_seq} to {seq - 1} are missing: the chain was cut"
        if table not in SEALED or stored_seal != seal(secret, previous, seq, table, key, row_digest):
            yield f"seal {seq} ({table} row {key}) does not verify: the chain was altered there"
        latest[(table, key)] = row_digest
        previous, expected_seq = stored_seal, seq + 1
    if full:
        for table, (key_column, columns) in SEALED.items():
            for row in db.execute(f"SELECT {key_column}, {columns} FROM {table}").fetchall():
                key = str(row[0])
                problem = _row_problem(table, key, latest.pop((table, key), None), tuple(row[1:]))
                if problem:
                    yield problem
        for (table, key), expected in sorted(latest.items()):
            problem = _row_problem(table, key, expected, None)
            if problem:
                yield problem
        return
    named = set(latest)
    for table in ("books", "meters", "state"):
        key_column = SEALED[table][0]
        named |= {(table, str(key)) for (key,) in db.execute(f"SELECT {key_column} FROM {table}").fetchall()}
    for table in ("ledger", "rounds", "events"):  # the latest rows, sealed or slipped in
        rows = db.execute(f"SELECT id FROM {table} ORDER BY id DESC LIMIT ?", (TAIL_ROWS,)).fetchall()
        named |= {(table, str(key)) for (key,) in rows}
    for table, key in sorted(named):
        sealed = latest.get((table, key)) or _latest_digest(db, table, key)
        finding = _row_problem(table, key, sealed, row_content(db, table, key))
        if finding:
            yield finding
