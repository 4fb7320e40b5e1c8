"""What the link agent tells a cabinet whose jackpot is linked (docs/floor.md).

The kiosk never talks to the hub: the link agent (``oasis-kiosk link``, a process of its
own) writes what the kiosk needs into its own SQLite file (``[link] agent_file``, by default
beside the books: ``kiosk.db.link``), and the kiosk only reads it:

- ``pool``: the hub's pool as the agent last read it, and when the agent last reached the
  hub (``contact_at``, seconds since the epoch): the meter shown, and whether the link is up;
- ``awards``: the hub's answer to each jackpot hit the agent claimed (by the round's id at
  the hub, ``<books id>:<round number>``, and the box that hit): its amount, and whether it
  was at once (paid by the house, the pool untouched), which a hub restored from an older
  backup is told with it (an award written before this was kept is read as not at once).

Reading is cheap (one small file, read at most every ``REREAD`` seconds) and never touches a
money transaction: a hit's award is credited from what was read, in the books' own
transaction (``Terminal.follow_link``).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from oasis_kiosk.config import Config
from oasis_kiosk.store.outbox import BOX_OF_A_ROUNDS_HIT

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS pool (
           id INTEGER PRIMARY KEY CHECK (id = 1),
           value INTEGER NOT NULL CHECK (value >= 0),
           contact_at REAL NOT NULL
       )""",
    """CREATE TABLE IF NOT EXISTS awards (
           round_id TEXT NOT NULL,
           box INTEGER NOT NULL CHECK (box >= 0),
           amount INTEGER NOT NULL CHECK (amount >= 0),
           claimed_at TEXT NOT NULL,
           at_once INTEGER NOT NULL DEFAULT 0 CHECK (at_once IN (0, 1)),
           PRIMARY KEY (round_id, box)
       )""",
)
"""The agent's tables for the kiosk, in ``kiosk.db.link`` (beside its ``confirmed``)."""

REREAD = 0.25
"""Seconds between reads of the file: the meter follows the hub within a second."""


def link_path(database: Path, agent_file: Path | None = None) -> Path:
    """The agent's own file: ``agent_file`` as configured (``[link] agent_file``), or beside
    the books."""
    return agent_file if agent_file is not None else database.with_name(database.name + ".link")


def create(db: sqlite3.Connection) -> None:
    """The agent's tables, made or brought up to date in one transaction (by the agent, who
    alone writes the file)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        columns = {row[1] for row in db.execute("PRAGMA table_info(awards)")}
        by_round = bool(columns) and "box" not in columns
        if columns and not by_round and "at_once" not in columns:
            # Written before the hub's answer at once was kept: read as not at once.
            db.execute(
                "ALTER TABLE awards ADD COLUMN at_once INTEGER NOT NULL DEFAULT 0 CHECK (at_once IN (0, 1))"
            )
        if by_round:
            # Written before hits were claimed per box: each award is its round's one hit.
            db.execute("ALTER TABLE awards RENAME TO awards_by_round")
        for statement in SCHEMA:
            db.execute(statement)
        if by_round:
            db.execute(
                """INSERT INTO awards (round_id, box, amount, claimed_at)
                   SELECT round_id, ?, amount, claimed_at FROM awards_by_round""",
                (BOX_OF_A_ROUNDS_HIT,),
            )
            db.execute("DROP TABLE awards_by_round")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def write_pool(db: sqlite3.Connection, value: int, contact_at: float) -> None:
    db.execute(
        """INSERT INTO pool (id, value, contact_at) VALUES (1, ?, ?)
           ON CONFLICT (id) DO UPDATE SET value = excluded.value, contact_at = excluded.contact_at""",
        (value, contact_at),
    )


def write_award(
    db: sqlite3.Connection, round_id: str, box: int, amount: int, claimed_at: str, *, at_once: bool = False
) -> None:
    """The hub's award for a box's hit, and whether it was at once: the same however often it
    is claimed, so written once."""
    db.execute(
        """INSERT INTO awards (round_id, box, amount, claimed_at, at_once) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (round_id, box) DO NOTHING""",
        (round_id, box, amount, claimed_at, int(at_once)),
    )


def awarded(db: sqlite3.Connection) -> set[tuple[str, int]]:
    """The hits (round, box) whose award is written down."""
    return {(str(round_id), int(box)) for round_id, box in db.execute("SELECT round_id, box FROM awards")}


def awards(db: sqlite3.Connection) -> dict[tuple[str, int], tuple[int, bool]]:
    """The awards written down: (round, box) → (amount, at once)."""
    return {
        (str(round_id), int(box)): (int(amount), bool(at_once))
        for round_id, box, amount, at_once in db.execute("SELECT round_id, box, amount, at_once FROM awards")
    }


@dataclass
class LinkState:
    """The kiosk's reading of the agent's file: the hub's pool, the link, the awards."""

    database: Path
    offline_after: float = 5.0
    """Seconds without the agent's contact with the hub before the link counts as down."""
    clock: Callable[[], float] = time.time
    agent_file: Path | None = None
    """``[link] agent_file``: None, beside the books."""
    _read_at: float | None = field(default=None, repr=False)
    _pool: int | None = field(default=None, repr=False)
    _contact_at: float | None = field(default=None, repr=False)
    _awards: dict[tuple[str, int], int] = field(default_factory=dict, repr=False)

    def refresh(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and self._read_at is not None and now - self._read_at < REREAD:
            return
        self._read_at = now
        path = link_path(self.database, self.agent_file)
        if not path.exists():
            return
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.05)
        except sqlite3.Error:
            return
        try:
            row = db.execute("SELECT value, contact_at FROM pool WHERE id = 1").fetchone()
            if row is not None:
                self._pool, self._contact_at = int(row[0]), float(row[1])
            self._awards = {
                (str(r), int(b)): int(a) for r, b, a in db.execute("SELECT round_id, box, amount FROM awards")
            }
        except sqlite3.Error:
            pass  # the agent has not made its tables yet, or holds them a moment: read again soon
        finally:
            db.close()

    def read(self) -> tuple[int | None, bool]:
        """The pool and the link (``pool``, ``online``) from one look at the agent's file."""
        self.refresh()
        online = self._contact_at is not None and self.clock() - self._contact_at <= self.offline_after
        return self._pool, online

    @property
    def pool(self) -> int | None:
        """The hub's pool as the agent last read it (None: never yet)."""
        return self.read()[0]

    @property
    def online(self) -> bool:
        """The agent reached the hub within ``offline_after`` seconds."""
        return self.read()[1]

    def award(self, round_id: str, box: int) -> int | None:
        """The hub's award for the hit of ``box`` in the round (its id at the hub), once the
        agent has it."""
        self.refresh()
        return self._awards.get((round_id, box))


def link_state(config: Config) -> LinkState | None:
    """What the kiosk reads of the link: for a cabinet whose jackpot is linked, else None."""
    link = config.link
    if link is None or link.jackpot != "linked":
        return None
    return LinkState(config.database, link.offline_after, agent_file=link.agent_file)
