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
  ``held`` with the hub's ``hub.contributions`` (its round and stake), both ways;
- **the linked jackpot's awards**: each of the hub's ``hub.awards`` (round, box, amount)
  with what the books booked for that hit (``LinkedBooks``), both ways.

Rows after ``held`` are **in flight** (the link agent has not sent them yet, or the hub has
not answered): not a difference, unless the hub would refuse one (it and every row after it
would wait for ever) or the hub has heard nothing from the cabinet (``cabinets.last_seen``: a
row received, or a heartbeat) for longer than ``in_flight_for`` seconds, by the hub's own
clock (a cabinet's clock, behind after a power cut without a real-time clock, made an honest
cabinet's rows look old). So is a linked hit the cabinet still shows pending (its
terminal state's ``jackpot_pending``: the kiosk has not taken the hub's award yet). The hub's
awards are read after the books, so that every award the books credited was made by then.
The pool itself is checked against the hub's records of what moved it (``check_pool``).
Books that cannot be read get a verdict of their own (``unreadable``) and the others are
still compared. The verdict on each cabinet is kept in ``hub.reconciliations`` (migration
0004): a cabinet whose latest reconciliation found a difference, or whose books could not
be read, is faulty, and the dashboard shows it so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, LiteralString

import psycopg
from psycopg.types.json import Jsonb

from oasis_kiosk.floor import hub, migrate
from oasis_kiosk.floor.errors import HubError, UnknownCabinetError
from oasis_kiosk.machine.ledger_kinds import PAID_BY_HAND
from oasis_kiosk.store.db import Store, StoreError
from oasis_kiosk.store.outbox import Row, hub_round_id, storable

IN_FLIGHT_FOR = 600
"""Seconds a row may stay in flight (written by the books, not yet held by the hub) before it
is a difference: the link agent is stopped, cut off, or refused (``--in-flight-for``)."""
PAGE = 5000
"""Outbox rows and hub events compared at a time."""
LISTED = 20
"""Differences of one kind listed one by one for a cabinet; the rest are counted."""


class BooksUnreadableError(HubError):
    """A cabinet's books cannot be read, or are not a linked cabinet's."""

    def __init__(self, cabinet: str, reason: str) -> None:
        super().__init__(f"cabinet {cabinet}: {reason}")
        self.cabinet, self.reason = cabinet, reason


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
    hits_pending: int = 0
    """Linked jackpot hits the cabinet still shows pending: their awards are in flight."""
    unreadable: str | None = None
    """Why the books could not be read (then nothing of them was compared)."""
    path: Path | None = None

    @property
    def in_flight(self) -> int:
        return max(self.written - self.held, 0)

    @property
    def agrees(self) -> bool:
        return not self.differences and self.unreadable is None

    def sentences(self) -> list[str]:
        """What was found, each a sentence naming the cabinet (none: the books agree)."""
        if self.unreadable is not None:
            return [
                f"cabinet {self.cabinet}: its books {self.path} cannot be read ({self.unreadable}): "
                "nothing of them was compared; give a readable copy of the cabinet's books and reconcile again"
            ]
        return [difference.sentence() for difference in self.differences]


@dataclass
class LinkedBooks:
    """What the books booked of the linked jackpot, by the round's id at the hub."""

    hits: set[tuple[str, int]] = field(default_factory=set)
    """(round, box) of each ``jackpot_hit`` row of the outbox, sent or in flight."""
    credited: dict[tuple[str, int], int] = field(default_factory=dict)
    """Each box's award credited (the ledger's ``jackpot_hit`` rows marked ``linked``)."""
    accepted: dict[tuple[str, int], int] = field(default_factory=dict)
    """Each box's award as the kiosk took it from the agent (its ``jackpot_awarded`` event)."""
    handpaid: dict[str, int] = field(default_factory=dict)
    """A round's linked awards paid by hand, all boxes together (``handpaid_win`` rows)."""
    pending: set[str] = field(default_factory=set)
    """Rounds whose hits the terminal still waits on (its state's ``jackpot_pending``)."""
    owed_by_hand: set[str] = field(default_factory=set)
    """Rounds whose awards wait for the attendant (its state's ``handpay_win``, linked)."""


@dataclass
class _Hub:
    """What the hub holds for one cabinet (read in the hub's snapshot)."""

    cabinet_id: int
    held: int
    meters: dict[str, int]
    contributions: dict[int, tuple[str, int]]
    now: datetime
    """The hub's time of the snapshot."""
    last_seen: datetime | None
    """When the hub last heard from the cabinet (a row received, or a heartbeat), by its clock."""


@dataclass
class _InFlight:
    """The books' rows after what the hub holds: the oldest, and the first the hub would refuse
    (every row after it waits behind it for ever)."""

    first: Row | None = None
    refused: tuple[Row, str] | None = None

    def note(self, row: Row) -> None:
        if self.first is None:
            self.first = row
        if self.refused is None:
            reason = _refusal(row)
            if reason is not None:
                self.refused = (row, reason)


def _refusal(row: Row) -> str | None:
    try:
        at = datetime.fromisoformat(row.committed_at)
    except ValueError:
        return f"event {row.seq} ({row.kind}): committed_at {row.committed_at!r} is not a time"
    return hub.refusal(hub.Event(row.seq, row.kind, storable(row.payload), at))


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
    row = connection.execute(
        "SELECT id, last_seq, now(), last_seen FROM hub.cabinets WHERE name = %s", [name]
    ).fetchone()
    if row is None:
        raise UnknownCabinetError(f"the hub has no cabinet {name!r} (hub add-cabinet makes one)")
    cabinet_id, held, now, last_seen = int(row[0]), int(row[1]), row[2], row[3]
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
    return _Hub(cabinet_id, held, meters, contributions, now, last_seen)


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


def _reason(path: Path, error: StoreError) -> str:
    text = str(error)
    return text.removeprefix(f"{path}: ")


@contextmanager
def _books(name: str, path: Path) -> Iterator[Store]:
    """The books, read-only; whatever stops reading them is a ``BooksUnreadableError``."""
    if not path.is_file():
        raise BooksUnreadableError(name, "there is no file there" if not path.exists() else "not a file")
    try:
        store = Store(path, read_only=True)
    except StoreError as error:
        raise BooksUnreadableError(name, _reason(path, error)) from error
    try:
        yield store
    except StoreError as error:
        raise BooksUnreadableError(name, _reason(path, error)) from error
    finally:
        store.close()


def compare(
    connection: psycopg.Connection[Any], name: str, books: Path, *, in_flight_for: float = IN_FLIGHT_FOR
) -> Verdict:
    """One cabinet's books (read-only) against the hub (``connection``, the owner's or a
    dashboard's): the verdict, not yet recorded. Rows in flight longer than ``in_flight_for``
    seconds, or that the hub would refuse, are differences."""
    with connection.transaction():
        connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        hub_side = _hub_side(connection, name)
        with _books(name, books) as store, store.snapshot():
            verdict, linked = _compare(connection, name, hub_side, store, in_flight_for)
    # Read after the books: an award they credited was made by then, and one made since finds
    # them still showing the hit pending (in flight).
    _compare_awards(verdict, linked, _hub_awards(connection, hub_side.cabinet_id))
    return verdict


def _unreadable(connection: psycopg.Connection[Any], error: BooksUnreadableError, path: Path) -> Verdict:
    """The verdict on a cabinet whose books could not be read: faulty, with the reason."""
    held = _hub_side(connection, error.cabinet).held
    return Verdict(error.cabinet, "", held, 0, unreadable=error.reason, path=path)


# Long: one pass over the outbox beside the hub's events, each row compared or counted in flight.
def _compare(
    connection: psycopg.Connection[Any], name: str, hub_side: _Hub, store: Store, in_flight_for: float
) -> tuple[Verdict, LinkedBooks]:
    identity = store.books
    if identity is None:
        raise BooksUnreadableError(name, "the books have no identity")
    try:
        store.outbox_rows(0, 1)
    except StoreError as error:
        if "no such table" not in str(error):
            raise
        raise BooksUnreadableError(
            name, "these books keep no outbox: they were never opened linked ([link])"
        ) from error
    held = hub_side.held
    verdict = Verdict(name, identity.id, held, 0)
    linked = _linked_state(store, identity.id)
    events = _Limited(verdict, "events")
    hub_rows = _hub_events(connection, hub_side.cabinet_id, 0, held)
    sent_meters: dict[str, int] = {}
    in_flight_meters: set[str] = set()
    contributions: dict[int, tuple[str, int]] = {}
    in_flight = _InFlight()
    for row in _books_rows(store):
        verdict.written = row.seq
        _note_linked(linked, identity.id, row)
        if row.seq > held:
            in_flight.note(row)
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
        # The payload as the agent sends it: a text a release before wrote with U+0000 as it was
        # is sent, and held, with it escaped.
        if (
            kind != row.kind
            or payload != storable(row.payload)
            or not _same_time(row.committed_at, committed_at)
        ):
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
    _compare_in_flight(verdict, in_flight, hub_side.now, hub_side.last_seen, in_flight_for)
    _compare_meters(verdict, store.meters(), sent_meters, in_flight_meters, hub_side.meters)
    _compare_contributions(verdict, contributions, hub_side.contributions)
    return verdict, linked


def _compare_in_flight(
    verdict: Verdict, in_flight: _InFlight, now: datetime, last_seen: datetime | None, bound: float
) -> None:
    """Rows in flight are no difference while the agent is on its way: a row the hub would
    refuse waits for ever, with every row after it, and so do rows while the hub has heard
    nothing from the cabinet for over ``bound`` seconds (by the hub's clock alone: the rows'
    own times are the cabinet's clock's, which may be far behind or ahead)."""
    if in_flight.refused is not None:
        row, reason = in_flight.refused
        verdict.differences.append(
            Difference(
                verdict.cabinet,
                f"event {row.seq} ({row.kind}), in flight",
                _event_figure(row.kind, row.payload, row.committed_at),
                f"none: the hub refuses it ({reason}), and the {verdict.written - row.seq} rows "
                "after it wait behind it",
            )
        )
    first = in_flight.first
    if first is None:
        return
    silent = None if last_seen is None else (now - last_seen).total_seconds()
    if silent is None or silent > bound:
        heard = (
            "it never heard from the cabinet"
            if silent is None
            else f"it last heard from the cabinet {_duration(silent)} before its {now:%Y-%m-%d %H:%M:%S %Z}"
        )
        verdict.differences.append(
            Difference(
                verdict.cabinet,
                f"events {first.seq} to {verdict.written} in flight",
                f"the oldest committed {first.committed_at} (by the cabinet's clock)",
                f"none of them, and {heard}: in flight longer than {_duration(bound)} (--in-flight-for): "
                "the link agent is stopped, cut off from the hub, or refused (its log says why)",
            )
        )


def _duration(seconds: float) -> str:
    whole = int(seconds)
    if whole < 120:
        return f"{whole} s"
    if whole < 7200:
        return f"{whole // 60} min"
    if whole < 172800:
        return f"{whole // 3600} h"
    return f"{whole // 86400} days"


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


def _linked_state(store: Store, books_id: str) -> LinkedBooks:
    """The terminal's own marks of a linked hit still open: waiting for the hub's award
    (``jackpot_pending``), or awarded and waiting for the attendant (``handpay_win``)."""
    linked = LinkedBooks()
    terminal = store.get_state("terminal", {})
    if not isinstance(terminal, dict):
        return linked
    pending = terminal.get("jackpot_pending")
    if isinstance(pending, dict) and pending.get("hub_round_id") is not None:
        linked.pending.add(str(pending["hub_round_id"]))
    elif isinstance(pending, dict) and _is_whole(pending.get("round_id")):
        linked.pending.add(hub_round_id(books_id, pending["round_id"]))
    won = terminal.get("handpay_win")
    if isinstance(won, dict) and won.get("linked") and _is_whole(won.get("round_id")):
        linked.owed_by_hand.add(hub_round_id(books_id, won["round_id"]))
    return linked


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _note_linked(linked: LinkedBooks, books_id: str, row: Row) -> None:
    """What an outbox row books of the linked jackpot, if anything."""
    payload = row.payload
    detail = payload.get("detail")
    if row.kind == "jackpot_hit":
        linked.hits.add((str(payload.get("round_id")), _whole(payload.get("box"))))
    elif row.kind == "ledger" and isinstance(detail, dict) and detail.get("linked"):
        if not _is_whole(payload.get("round_id")):
            return
        round_id = hub_round_id(books_id, payload["round_id"])
        if payload.get("kind") == "jackpot_hit":
            key = (round_id, _whole(detail.get("box")))
            linked.credited[key] = linked.credited.get(key, 0) + _whole(payload.get("amount"))
        elif payload.get("kind") == PAID_BY_HAND:
            linked.handpaid[round_id] = linked.handpaid.get(round_id, 0) + _whole(detail.get("jackpot"))
    elif row.kind == "event" and payload.get("kind") == "jackpot_awarded" and isinstance(detail, dict):
        for award in detail.get("boxes") or ():
            if isinstance(award, dict):
                key = (str(detail.get("hub_round_id")), _whole(award.get("box")))
                linked.accepted[key] = _whole(award.get("award"))


def _hub_awards(connection: psycopg.Connection[Any], cabinet_id: int) -> dict[tuple[str, int], int]:
    with connection.transaction():
        return {
            (str(round_id), int(box)): int(amount)
            for round_id, box, amount in connection.execute(
                "SELECT round_id, box, amount FROM hub.awards WHERE cabinet_id = %s", [cabinet_id]
            )
        }


def _booked(linked: LinkedBooks, hit: tuple[str, int]) -> tuple[int | None, str]:
    """What the books booked for a box's hit: the amount (None: nothing) and how, said."""
    if hit in linked.credited:
        return linked.credited[hit], f"{linked.credited[hit]} credited"
    if hit in linked.accepted and hit[0] in linked.owed_by_hand:
        return linked.accepted[hit], f"{linked.accepted[hit]} awarded, to be paid by hand"
    if linked.accepted.get(hit) == 0:
        return 0, "an award of 0 taken, nothing to credit"
    if hit in linked.hits:
        return None, "a hit, neither pending nor credited"
    return None, "no hit and nothing credited"


def _compare_awards(verdict: Verdict, linked: LinkedBooks, awards: dict[tuple[str, int], int]) -> None:
    """Each of the hub's awards with what the books booked for that hit, and each hit or
    linked award of the books with the hub's; a hit the cabinet still shows pending is in flight."""
    listed = _Limited(verdict, "linked jackpot awards")
    hits = set(awards) | linked.hits | set(linked.credited) | set(linked.accepted)
    verdict.hits_pending = len({hit for hit in linked.hits if hit[0] in linked.pending})
    for round_id in sorted({round_id for round_id, _ in hits} | set(linked.handpaid)):
        if round_id in linked.pending:
            continue
        if round_id in linked.handpaid:
            # Paid by hand, a round's boxes are booked as one sum.
            awarded = sum(amount for (their_round, _), amount in awards.items() if their_round == round_id)
            if awarded != linked.handpaid[round_id]:
                listed.add(
                    Difference(
                        verdict.cabinet,
                        f"linked jackpot of round {round_id}",
                        f"{linked.handpaid[round_id]} paid by hand",
                        f"awards of {awarded} in all",
                    )
                )
            continue
        for hit in sorted(hit for hit in hits if hit[0] == round_id):
            amount, said = _booked(linked, hit)
            if hit in awards and amount == awards[hit]:
                continue
            listed.add(
                Difference(
                    verdict.cabinet,
                    f"linked jackpot award of round {round_id} box {hit[1]}",
                    said,
                    f"an award of {awards[hit]}" if hit in awards else "no award",
                )
            )
    listed.close()


@dataclass(frozen=True)
class PoolDifference:
    """The pool against the hub's own records of what moved it."""

    what: str
    records: str
    """The figure the records make, and how."""
    pool: str
    """What the pool holds."""

    def sentence(self) -> str:
        return f"the pool: {self.what}: the hub's records make it {self.records}, the pool holds {self.pool}"


def _one(connection: psycopg.Connection[Any], query: LiteralString) -> tuple[Any, ...]:
    row = connection.execute(query).fetchone()
    assert row is not None
    return tuple(row)


def _signed(amount: int) -> str:
    return f"+ {amount}" if amount >= 0 else f"- {-amount}"


# Long: the pool's four figures, each against the sum of the records that moved it, said in full.
def check_pool(connection: psycopg.Connection[Any]) -> list[PoolDifference]:
    """The pool's arithmetic from the hub's own records, in one snapshot: it starts at 0 with
    no reserve (migration 0001); each contribution adds its ``to_pool`` to the value and its
    ``overflow`` and ``to_reserve`` to the reserve; each parameter change tops the value up by
    its logged ``new.value - old.value``; each award that won the pool sets the value from
    its ``amount`` to its ``pool_after`` (the reset value plus ``from_reserve``, taken from
    the reserve), or, an award its cabinet told the hub it had paid (``hub.claim_paid``,
    after a restore), from its ``pool_before`` (the award and stakes since, which stay), what
    could not stay under the maximum going ``to_reserve``; and an award at once (paid by the
    house) moves neither.
    The pool's ``hits`` counts every award, ``won`` those that won it. (The carries, parts of
    a minor unit, depend on each contribution's rates at the time and are not checked.)"""
    with connection.transaction():
        connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        pool = _one(connection, "SELECT value, reserve, hits, won FROM hub.pool")
        fed = _one(
            connection,
            "SELECT count(*), coalesce(sum(to_pool), 0), coalesce(sum(overflow + to_reserve), 0)"
            " FROM hub.contributions",
        )
        awarded = _one(
            connection,
            """SELECT count(*), count(*) FILTER (WHERE NOT at_once),
                      coalesce(sum(pool_after - coalesce(pool_before, amount)) FILTER (WHERE NOT at_once), 0),
                      coalesce(sum(from_reserve - to_reserve) FILTER (WHERE NOT at_once), 0)
                 FROM hub.awards""",
        )
        topped = _one(
            connection,
            """SELECT count(*) FILTER (WHERE (new ->> 'value')::numeric <> (old ->> 'value')::numeric),
                      coalesce(sum((new ->> 'value')::numeric - (old ->> 'value')::numeric), 0)
                 FROM hub.parameter_changes""",
        )
        odd = connection.execute(
            """SELECT id, round_id, box, amount, reset, from_reserve, pool_after, at_once FROM hub.awards
                WHERE (NOT at_once AND NOT reported AND pool_after <> reset + from_reserve)
                   OR (at_once AND from_reserve <> 0)
                ORDER BY id LIMIT %s""",
            [LISTED],
        ).fetchall()
    value, reserve, hits, won = (int(figure) for figure in pool)
    contributions, to_pool, to_reserve = (int(figure) for figure in fed)
    awards, wins, restarted, refilled = (int(figure) for figure in awarded)
    changes, top_ups = int(topped[0]), int(topped[1])
    differences = []
    expected = to_pool + top_ups + restarted
    if expected != value:
        differences.append(
            PoolDifference(
                "value",
                f"{expected} (0 at the start + {to_pool} fed by {contributions} contributions "
                f"{_signed(top_ups)} topped up by {changes} parameter changes {_signed(restarted)} "
                f"as {wins} awards that won it set it to their pool after)",
                str(value),
            )
        )
    expected = to_reserve - refilled
    if expected != reserve:
        differences.append(
            PoolDifference(
                "reserve",
                f"{expected} ({to_reserve} fed by {contributions} contributions - {refilled} taken by "
                f"{wins} awards that won the pool)",
                str(reserve),
            )
        )
    if (hits, won) != (awards, wins):
        differences.append(
            PoolDifference(
                "hits",
                f"{awards} awards, {wins} of them winning the pool",
                f"{hits} hits, {won} of them won",
            )
        )
    for award_id, round_id, box, amount, reset, from_reserve, pool_after, at_once in odd:
        differences.append(
            PoolDifference(
                f"award {award_id} (round {round_id} box {box}, {'at once' if at_once else 'won the pool'})",
                "an award the house paid, nothing from the reserve"
                if at_once
                else f"a pool after of the reset value {reset} + {from_reserve} from the reserve",
                f"an award of {amount}, {from_reserve} from the reserve, the pool after {pool_after}",
            )
        )
    return differences


def record(connection: psycopg.Connection[Any], verdicts: Sequence[Verdict]) -> None:
    """Keeps the verdicts at the hub (the owner's connection), in one transaction: a cabinet
    whose latest verdict found a difference, or could not read its books, is faulty."""
    with connection.transaction():
        for verdict in verdicts:
            connection.execute(
                """INSERT INTO hub.reconciliations (cabinet_id, books_id, held, written, differences)
                   SELECT id, %s, %s, %s, %s FROM hub.cabinets WHERE name = %s""",
                [
                    verdict.books_id,
                    verdict.held,
                    verdict.written,
                    Jsonb(verdict.sentences()),
                    verdict.cabinet,
                ],
            )


def cabinets(connection: psycopg.Connection[Any]) -> list[str]:
    return [str(name) for (name,) in connection.execute("SELECT name FROM hub.cabinets ORDER BY name")]


def require_cabinets(connection: psycopg.Connection[Any], names: Sequence[str]) -> None:
    known = set(cabinets(connection))
    for name in names:
        if name not in known:
            raise UnknownCabinetError(f"the hub has no cabinet {name!r} (hub add-cabinet makes one)")


def reconcile(
    connection: psycopg.Connection[Any], books: dict[str, Path], *, in_flight_for: float = IN_FLIGHT_FOR
) -> list[Verdict]:
    """Compares each cabinet's books (name -> books file) with the hub and records the
    verdicts; returns them, in the order given. Books that cannot be read make their
    cabinet's verdict faulty, with the reason; the others are compared all the same."""
    migrate.require_current(connection)
    require_cabinets(connection, list(books))
    verdicts = []
    for name, path in books.items():
        try:
            verdicts.append(compare(connection, name, path, in_flight_for=in_flight_for))
        except BooksUnreadableError as error:
            verdicts.append(_unreadable(connection, error, path))
    record(connection, verdicts)
    return verdicts
