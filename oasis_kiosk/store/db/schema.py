"""The books' schema: its migrations, one per version, and how they are applied."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from oasis_kiosk.store import outbox as outboxes
from oasis_kiosk.store.db.values import StoreError

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


def apply_migrations(db: sqlite3.Connection, path: Path) -> None:
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
