"""``hub reconcile``: each cabinet's own books against what the hub holds for it.

The books are read read-only with the store's own reader (``Store(path, read_only=True)``:
no lock, no write, the kiosk may be running), the hub as its owner. The hub is read first,
in one REPEATABLE READ transaction, and the books after it in one snapshot of their own, so
the books have always written at least what the hub then held.

What is compared, for a cabinet whose hub holds its events 1..``held``:

- **every event**: each outbox row up to ``held`` with the hub's row of the same number
  (kind, payload and the time the cabinet committed it): a hub row changed, removed, or one
  the books never wrote is a difference;
- **the meters**: the books' meters as they stand with the hub's latest ``meter`` event of
  each (a meter missing on either side counts as 0); a meter whose newer value is still in
  the outbox (a row after ``held``) is compared at the value the books sent last;
- **the jackpot contributions**: each ``jackpot_contribution`` row of the outbox up to
  ``held`` with the hub's ``hub.contributions`` (its round and stake), both ways.

Rows after ``held`` are **in flight** (the link agent has not sent them yet, or the hub has
not answered): not a difference. The verdict on each cabinet is kept in
``hub.reconciliations`` (migration 0004): a cabinet whose latest reconciliation found a
difference is faulty, and the dashboard shows it so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from oasis_kiosk.floor import migrate
from oasis_kiosk.floor.errors import HubError, UnknownCabinetError
from oasis_kiosk.store.db import Store, StoreError
from oasis_kiosk.store.outbox import Row

PAGE = 5000
"""Outbox rows and hub events compared at a time."""
LISTED = 20
"""Differences of one kind listed one by one for a cabinet; the rest are counted."""


class BooksUnreadableError(HubError):
    """A cabinet's books cannot be read, or are not a linked cabinet's."""


@dataclass(frozen=True)
class Difference:
    cabinet: str
    what: str
    books: str
    """The cabinet's figure, as its books say it."""
    hub: str
    """The hub's figure."""

    def sentence(self) -> str:
        return f"cabinet {self.cabinet}: {self.what}: the cabinet's books say {self.books}, the hub holds {self.hub}"


@dataclass
class Verdict:
    """One cabinet's books against the hub."""

    cabinet: str
    books_id: str
    held: int
    """The highest sequence number the hub held for the cabinet."""
    written: int
    """The books' last outbox row."""
    differences: list[Difference] = field(default_factory=list)

    @property
    def in_flight(self) -> int:
        return max(self.written - self.held, 0)

    @property
    def agrees(self) -> bool:
        return not self.differences


@dataclass
class _Hub:
    """What the hub holds for one cabinet (read in the hub's snapshot)."""

    cabinet_id: int
    held: int
    meters: dict[str, int]
    contributions: dict[int, tuple[str, int]]


def _figure(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _whole(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _event_figure(kind: str, payload: Any, committed_at: datetime | str) -> str:
    at = committed_at if isinstance(committed_at, str) else committed_at.isoformat(timespec="milliseconds")
    return f"{kind} {_figure(payload)} committed {at}"


def _same_time(books: str, hub: datetime) -> bool:
    try:
        return datetime.fromisoformat(books) == hub
    except ValueError:
        return False


class _Limited:
    """Differences of one kind: the first ``LISTED`` one by one, then how many more."""

    def __init__(self, verdict: Verdict, kind: str) -> None:
        self.verdict, self.kind, self.count = verdict, kind, 0

    def add(self, difference: Difference) -> None:
        self.count += 1
        if self.count <= LISTED:
            self.verdict.differences.append(difference)

    def close(self) -> None:
        if self.count > LISTED:
            self.verdict.differences.append(
                Difference(
                    self.verdict.cabinet,
                    f"{self.count - LISTED} more {self.kind} differ",
                    "other figures",
                    "others (run again after a fix to see them)",
                )
            )


def _hub_side(connection: psycopg.Connection[Any], name: str) -> _Hub:
    row = connection.execute("SELECT id, last_seq FROM hub.cabinets WHERE name = %s", [name]).fetchone()
    if row is None:
        raise UnknownCabinetError(f"the hub has no cabinet {name!r} (hub add-cabinet makes one)")
    cabinet_id, held = int(row[0]), int(row[1])
    meters = {
        str(meter): _whole(value)
        for meter, value in connection.execute(
            """SELECT DISTINCT ON (payload ->> 'name') payload ->> 'name', payload -> 'value'
                 FROM hub.events WHERE cabinet_id = %s AND kind = 'meter'
                ORDER BY payload ->> 'name', seq DESC""",
            [cabinet_id],
        )
    }
    contributions = {
        int(seq): (str(round_id), int(stake))
        for seq, round_id, stake in connection.execute(
            "SELECT seq, round_id, stake FROM hub.contributions WHERE cabinet_id = %s", [cabinet_id]
        )
    }
    return _Hub(cabinet_id, held, meters, contributions)


def _hub_events(
    connection: psycopg.Connection[Any], cabinet_id: int, after: int, upto: int
) -> Iterator[tuple[int, str, Any, datetime]]:
    while after < upto:
        rows = connection.execute(
            """SELECT seq, kind, payload, committed_at FROM hub.events
                WHERE cabinet_id = %s AND seq > %s AND seq <= %s ORDER BY seq LIMIT %s""",
            [cabinet_id, after, upto, PAGE],
        ).fetchall()
        if not rows:
            return
        for seq, kind, payload, committed_at in rows:
            yield int(seq), str(kind), payload, committed_at
        after = int(rows[-1][0])


def _books_rows(store: Store) -> Iterator[Row]:
    after = 0
    while True:
        rows = store.outbox_rows(after, PAGE)
        if not rows:
            return
        yield from rows
        after = rows[-1].seq


def compare(connection: psycopg.Connection[Any], name: str, books: Path) -> Verdict:
    """One cabinet's books (read-only) against the hub (``connection``, the owner's or a
    dashboard's): the verdict, not yet recorded."""
    with connection.transaction():
        connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        hub_side = _hub_side(connection, name)
        try:
            store = Store(books, read_only=True)
        except StoreError as error:
            raise BooksUnreadableError(f"cabinet {name}: {error}") from error
        try:
            with store.snapshot():
                return _compare(connection, name, books, hub_side, store)
        except StoreError as error:
            raise BooksUnreadableError(f"cabinet {name}: {error}") from error
        finally:
            store.close()


def _compare(
    connection: psycopg.Connection[Any], name: str, path: Path, hub_side: _Hub, store: Store
) -> Verdict:
    identity = store.books
    if identity is None:
        raise BooksUnreadableError(f"cabinet {name}: {path}: the books have no identity")
    try:
        store.outbox_rows(0, 1)
    except StoreError as error:
        if "no such table" not in str(error):
            raise
        raise BooksUnreadableError(
            f"cabinet {name}: {path}: these books keep no outbox: they were never opened linked ([link])"
        ) from error
    held = hub_side.held
    verdict = Verdict(name, identity.id, held, 0)
    events = _Limited(verdict, "events")
    hub_rows = _hub_events(connection, hub_side.cabinet_id, 0, held)
    sent_meters: dict[str, int] = {}
    in_flight_meters: set[str] = set()
    contributions: dict[int, tuple[str, int]] = {}
    for row in _books_rows(store):
        verdict.written = row.seq
        if row.seq > held:
            if row.kind == "meter":
                in_flight_meters.add(str(row.payload.get("name")))
            continue
        if row.kind == "meter":
            sent_meters[str(row.payload.get("name"))] = _whole(row.payload.get("value"))
        elif row.kind == "jackpot_contribution":
            contributions[row.seq] = (str(row.payload.get("round_id")), _whole(row.payload.get("stake")))
        held_row = next(hub_rows, None)
        while held_row is not None and held_row[0] < row.seq:  # a hub row the books never wrote
            events.add(_unwritten(name, *held_row))
            held_row = next(hub_rows, None)
        what = f"event {row.seq} ({row.kind})"
        if held_row is None or held_row[0] != row.seq:
            events.add(Difference(name, what, _event_figure(row.kind, row.payload, row.committed_at), "none"))
            if held_row is not None:
                events.add(_unwritten(name, *held_row))
            continue
        _, kind, payload, committed_at = held_row
        if kind != row.kind or payload != row.payload or not _same_time(row.committed_at, committed_at):
            events.add(
                Difference(
                    name,
                    what,
                    _event_figure(row.kind, row.payload, row.committed_at),
                    _event_figure(kind, payload, committed_at),
                )
            )
    for held_row in hub_rows:
        events.add(_unwritten(name, *held_row))
    events.close()
    if verdict.written < held:
        verdict.differences.append(
            Difference(
                name,
                "events sent",
                f"{verdict.written} written",
                f"{held} received: more than these books wrote (other books, or books cleared since)",
            )
        )
    _compare_meters(verdict, store.meters(), sent_meters, in_flight_meters, hub_side.meters)
    _compare_contributions(verdict, contributions, hub_side.contributions)
    return verdict


def _unwritten(name: str, seq: int, kind: str, payload: Any, committed_at: datetime) -> Difference:
    return Difference(name, f"event {seq} ({kind})", "none", _event_figure(kind, payload, committed_at))


def _compare_meters(
    verdict: Verdict,
    books: dict[str, int],
    sent: dict[str, int],
    in_flight: set[str],
    hub_meters: dict[str, int],
) -> None:
    meters = _Limited(verdict, "meters")
    for meter in sorted(set(books) | set(hub_meters) | in_flight):
        # A meter changed by a row still in flight is compared as the books last sent it.
        figure = sent.get(meter, 0) if meter in in_flight else books.get(meter, 0)
        held = hub_meters.get(meter, 0)
        if figure != held:
            meters.add(Difference(verdict.cabinet, f"meter {meter}", str(figure), str(held)))
    meters.close()


def _compare_contributions(
    verdict: Verdict, books: dict[int, tuple[str, int]], hub_side: dict[int, tuple[str, int]]
) -> None:
    listed = _Limited(verdict, "jackpot contributions")
    for seq in sorted(set(books) | set(hub_side)):
        mine, theirs = books.get(seq), hub_side.get(seq)
        if mine == theirs:
            continue
        round_id = (mine or theirs or ("?", 0))[0]
        listed.add(
            Difference(
                verdict.cabinet,
                f"jackpot contribution of round {round_id} (event {seq})",
                f"a stake of {mine[1]}" if mine else "none",
                f"a stake of {theirs[1]}" if theirs else "none",
            )
        )
    listed.close()
    total_books = sum(stake for _, stake in books.values())
    total_hub = sum(stake for _, stake in hub_side.values())
    if total_books != total_hub or len(books) != len(hub_side):
        verdict.differences.append(
            Difference(
                verdict.cabinet,
                "jackpot contributions in all",
                f"{len(books)} stakes of {total_books}",
                f"{len(hub_side)} stakes of {total_hub}",
            )
        )


def record(connection: psycopg.Connection[Any], verdicts: Sequence[Verdict]) -> None:
    """Keeps the verdicts at the hub (the owner's connection), in one transaction: a cabinet
    whose latest verdict found a difference is faulty."""
    with connection.transaction():
        for verdict in verdicts:
            connection.execute(
                """INSERT INTO hub.reconciliations (cabinet_id, books_id, held, written, differences)
                   SELECT id, %s, %s, %s, %s FROM hub.cabinets WHERE name = %s""",
                [
                    verdict.books_id,
                    verdict.held,
                    verdict.written,
                    Jsonb([difference.sentence() for difference in verdict.differences]),
                    verdict.cabinet,
                ],
            )


def cabinets(connection: psycopg.Connection[Any]) -> list[str]:
    return [str(name) for (name,) in connection.execute("SELECT name FROM hub.cabinets ORDER BY name")]


def reconcile(connection: psycopg.Connection[Any], books: dict[str, Path]) -> list[Verdict]:
    """Compares each cabinet's books (name -> books file) with the hub and records the
    verdicts; returns them, in the order given."""
    migrate.require_current(connection)
    verdicts = [compare(connection, name, path) for name, path in books.items()]
    record(connection, verdicts)
    return verdicts
