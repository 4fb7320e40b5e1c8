"""The outbox: what a linked cabinet's books owe the floor's hub (docs/floor.md).

When the books are linked (``[link]`` in the configuration), every write the hub must know
appends its rows to the ``outbox`` table in the same transaction as the write itself: the
store calls ``entries`` where it seals each row it writes (``Store._seal``), so no change
can reach the books without its outbox rows, nor the outbox without its change. A rolled
back transaction leaves neither. The link agent (``oasis_kiosk/floor/agent.py``) pushes
the rows to the hub in order; books that are not linked write no outbox rows at all.

The outbox's ``seq`` is the cabinet's sequence number at the hub: 1, 2, 3… without a gap
(SQLite's AUTOINCREMENT: a rolled back row gives its number back, a committed one is never
used again, even if rows are later removed).

The rows, by kind (``payload`` is a JSON object):

- ``ledger``: a ledger row as written: ``id``, ``at``, ``kind``, ``amount``,
  ``credits_after``, ``round_id``, ``detail``;
- ``meter``: a meter's new value: ``name``, ``value`` (0 after the operator's reset);
- ``round``: a round that ended (settled or voided): ``id``, ``round_id`` (as the hub
  names it), ``state``, ``started_at``, ``finished_at``, ``deck``, ``profile`` and its
  ``settlement`` as the books keep it;
- ``event``: an event of the books: ``id``, ``at``, ``kind``, ``detail``;
- ``opening``: books that already hold what the hub never saw (they played on their own,
  then joined the floor) open their outbox with an opening record, once, in one transaction
  (``opening``): this row, ``credits`` (as the books stand) and the last ``ledger``,
  ``rounds`` and ``events`` row they held before (0: none), then a ``meter`` row of each
  meter's value, so that the hub holds the books' credits and meters from the first row on;
- with the jackpot linked (``[link] jackpot = "linked"``) also the kinds the hub's pool acts
  on: ``jackpot_contribution`` {``stake``, ``round_id``} after each ledger row of a bonus
  stake that feeds the jackpot, and after a linked jackpot hit's event a ``jackpot_hit``
  {``round_id``, ``box``} for each box that hit: each box's hit is claimed on its own. A
  hit written before hits were claimed per box names no box: it is read as box 0, the
  round's one hit, as the hub's migration 0006 made the awards of that release.

A round's id at the hub is ``<books id>:<round number>``: the books' identity makes it
unique for the cabinet even after a RAM clear starts the round numbers again.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

SCHEMA = """
    CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL CHECK (json_valid(payload) AND json_type(payload) = 'object'),
        committed_at TEXT NOT NULL
    );
"""
"""The books' migration 3 (``store/db/schema.py``)."""


@dataclass(frozen=True)
class Outbox:
    """The books are linked: they keep an outbox for the hub."""

    linked_jackpot: bool = False
    """Bonus stakes and jackpot hits go to the hub's pool too."""


@dataclass(frozen=True)
class Row:
    seq: int
    kind: str
    payload: dict[str, Any]
    committed_at: str


def hub_round_id(books_id: str, round_id: int) -> str:
    """A round's id at the hub: unique for the cabinet, across RAM clears too."""
    return f"{books_id}:{round_id}"


def _detail(text: str) -> Any:
    return json.loads(text)


def entries(
    db: sqlite3.Connection, outbox: Outbox, books_id: str, table: str, key: str
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The outbox rows (kind, payload) for the row ``key`` of ``table`` as it now stands,
    inside the transaction that wrote it."""
    if table == "ledger":
        row = db.execute(
            "SELECT id, at, kind, amount, credits_after, round_id, detail FROM ledger WHERE id = ?",
            (int(key),),
        ).fetchone()
        detail = _detail(row[6])
        yield (
            "ledger",
            {
                "id": row[0],
                "at": row[1],
                "kind": row[2],
                "amount": row[3],
                "credits_after": row[4],
                "round_id": row[5],
                "detail": detail,
            },
        )
        if outbox.linked_jackpot and row[2] == "jackpot_contribution" and row[5] is not None:
            yield (
                "jackpot_contribution",
                {"stake": int(detail["stake"]), "round_id": hub_round_id(books_id, row[5])},
            )
    elif table == "meters":
        found = db.execute("SELECT value FROM meters WHERE name = ?", (key,)).fetchone()
        yield ("meter", {"name": key, "value": int(found[0]) if found else 0})
    elif table == "rounds":
        row = db.execute(
            "SELECT id, state, started_at, finished_at, deck, profile, settlement FROM rounds WHERE id = ?",
            (int(key),),
        ).fetchone()
        if row[1] != "open":
            yield (
                "round",
                {
                    "id": row[0],
                    "round_id": hub_round_id(books_id, row[0]),
                    "state": row[1],
                    "started_at": row[2],
                    "finished_at": row[3],
                    "deck": row[4],
                    "profile": row[5],
                    "settlement": _detail(row[6]) if row[6] else None,
                },
            )
    elif table == "events":
        row = db.execute("SELECT id, at, kind, detail FROM events WHERE id = ?", (int(key),)).fetchone()
        detail = _detail(row[3])
        yield ("event", {"id": row[0], "at": row[1], "kind": row[2], "detail": detail})
        if outbox.linked_jackpot and row[2] == "jackpot_hit":
            # A hit on the cabinet's own meter (``jackpot = "local"`` before) names no boxes.
            for box in detail.get("boxes", ()):
                yield (
                    "jackpot_hit",
                    {"round_id": hub_round_id(books_id, int(detail["round_id"])), "box": box},
                )


UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""Characters the hub's ``jsonb`` cannot hold: U+0000, and surrogates (a lone one cannot be
text at all; a pair of them would come back as another character)."""


def storable(value: Any) -> Any:
    """``value`` with each character the hub cannot hold written as its JSON escape, as six
    characters of text (U+0000 as ``\\u0000``), and each number JSON cannot write (NaN,
    infinity) as the text Python writes for it (``NaN``): a value with neither is unchanged."""
    if isinstance(value, str):
        return UNSTORABLE.sub(lambda found: f"\\u{ord(found[0]):04x}", value)
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(value)
    if isinstance(value, dict):
        return {storable(key): storable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [storable(item) for item in value]
    return value


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), allow_nan=False)


def append(db: sqlite3.Connection, kind: str, payload: dict[str, Any], committed_at: str) -> None:
    """An outbox row, its payload as JSON the hub can hold: any text of the books (a tilt's
    message from a device, an error's words) may carry U+0000, which SQLite keeps and the
    hub's ``jsonb`` refuses, so that the row and every row after it would never reach the hub;
    and a device's reading may be NaN, which is no JSON at all."""
    try:
        text = _dumps(payload)
    except ValueError:  # a number JSON cannot write: rarely there
        text = _dumps(storable(payload))
    if "\\u0000" in text or "\\ud" in text:  # json.dumps escapes both so; rarely there
        text = _dumps(storable(payload))
    db.execute(
        "INSERT INTO outbox (kind, payload, committed_at) VALUES (?, ?, ?)", (kind, text, committed_at)
    )


BOX_OF_A_ROUNDS_HIT = 0
"""The box of a jackpot hit that names none: the round's one hit, from before boxes."""


def _payload(kind: str, stored: str) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads(stored)
    if kind == "jackpot_hit":
        payload.setdefault("box", BOX_OF_A_ROUNDS_HIT)
    return payload


def rows(db: sqlite3.Connection, after: int, limit: int) -> list[Row]:
    """The outbox's rows after ``after``, oldest first, at most ``limit``."""
    return [
        Row(int(seq), kind, _payload(kind, payload), committed_at)
        for seq, kind, payload, committed_at in db.execute(
            "SELECT seq, kind, payload, committed_at FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
            (after, limit),
        )
    ]


def hits(db: sqlite3.Connection, after: int, through: int) -> list[tuple[str, int]]:
    """The jackpot hits (the round's id at the hub, the box) of the rows after ``after``
    through ``through``, oldest first."""
    hits_ = db.execute(
        "SELECT kind, payload FROM outbox WHERE kind = 'jackpot_hit' AND seq > ? AND seq <= ? ORDER BY seq",
        (after, through),
    )
    return [(str(payload["round_id"]), int(payload["box"])) for payload in (_payload(*hit) for hit in hits_)]


HISTORY = ("ledger", "rounds", "events")
"""The tables whose last row an opening record names."""


def opening(db: sqlite3.Connection) -> list[tuple[str, dict[str, Any]]]:
    """The opening record (kind, payload) of books whose outbox has never had a row but which
    hold what the hub would have been told of (the credits, a meter, a round, an event): the
    books played, or were made, unlinked. None for an outbox begun already, or for books that
    hold nothing yet (made linked: the hub hears of everything as it is written)."""
    if last_seq(db) > 0:
        return []
    last = {
        table: int(db.execute(f"SELECT coalesce(max(id), 0) FROM {table}").fetchone()[0]) for table in HISTORY
    }
    meters = [
        (str(name), int(value)) for name, value in db.execute("SELECT name, value FROM meters ORDER BY name")
    ]
    if not meters and not any(last.values()):
        return []
    found = db.execute("SELECT credits_after FROM ledger ORDER BY id DESC LIMIT 1").fetchone()
    record: list[tuple[str, dict[str, Any]]] = [
        ("opening", {"credits": int(found[0]) if found else 0, **last})
    ]
    return record + [("meter", {"name": name, "value": value}) for name, value in meters]


def last_seq(db: sqlite3.Connection) -> int:
    """The outbox's last sequence number (0: none yet)."""
    row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").fetchone()
    return int(row[0]) if row else 0
