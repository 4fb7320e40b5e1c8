"""What a cabinet does at the hub, and what the owner does to the pool.

A cabinet's connection (``access.connect`` with its credentials) says which cabinet it is:
the hub takes the cabinet from the role logged in, never from the data sent.

- ``ingest(connection, events, books_id=…)``: a batch of the cabinet's outbox, in one
  transaction, from the books ``books_id`` (``check_books``: the hub records the books of a
  cabinet's events and refuses other books', ``OtherBooksError``). Rows the hub holds already
  are skipped (a batch sent twice changes nothing; a row sent
  again with other contents is refused), the rest must follow the last row held without a
  gap (``GapError`` names the missing numbers). Returns the highest sequence number the hub
  then holds for the cabinet: everything up to it may leave the outbox. A
  ``jackpot_contribution`` feeds the pool as it is received, so exactly once.
- ``claim(connection, round_id, box)``: the jackpot for a box's hit in a round of the
  cabinet (``hub.claim`` in 0010_hits_at_once.sql, one transaction holding the pool FOR
  UPDATE), paid only for a ``jackpot_hit`` the cabinet sent (``UnknownHitError``
  otherwise). The award is the pool's value then; the pool starts again at its reset value
  plus its reserve. Claiming the same hit again returns the same award. Of two hits at once
  (two cabinets', or two boxes of one round: the hub received the second before the first's
  award) the first claimed wins the pool and the second is awarded the reset value, paid by
  the house (``Award.at_once``).
- ``claim_paid(connection, round_id, box, amount, at_once=…)``: the award the cabinet was paid
  for a hit the hub holds without an award (a hub restored from a backup older than the
  award), told by its agent with the hub's answer then (at once or not): recorded once and
  taken from the pool as the claim did (0012_money_of_the_floor.sql).
- ``set_parameters(connection, who, …)``: the owner's change of the pool's reset value,
  rates, maximum and least stake, only between hits (the pool's lock makes a change wait for a claim
  under way; a hit reported but not yet claimed refuses it, and so does a cabinet that
  feeds the pool and has fallen silent, unless named, or a hit named), logged with who and when.

The events a cabinet sends, by kind (any other kind is kept as it came):

- ``jackpot_contribution`` {"stake": minor units, "round_id": text}: a stake on the bet that
  feeds the linked jackpot; the hub applies its rates;
- ``jackpot_hit`` {"round_id": text, "box": whole number from 0}: that box of the round hit
  the jackpot, and the cabinet is locked up until the round's claims are answered; refused
  unless the cabinet staked that box of that round, of its own books, at least the pool's
  least stake (``Parameters.least_stake``, as it was when the stake was received);
- ``ledger`` and ``meter``: kept as they came, their money (``MONEY``) whole minor units, never
  below 0 where no cabinet's books write it so (``NEVER_NEGATIVE``, ``AMOUNT_SIGN``);
- ``opening`` {"credits": minor units, "ledger", "rounds", "events": the last row of each the
  books held}: books that joined the floor with what they had played on their own; their
  meters' values follow as ``meter`` events. Its credits whole and never below 0, and it is
  the cabinet's first event or refused (migration 0020).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from oasis_kiosk.floor.errors import (
    AwardDisagreesError,
    BatchError,
    GapError,
    HubError,
    OtherBooksError,
    ParametersError,
    PoolShortError,
    RowDiffersError,
    UnknownCabinetError,
    UnknownHitError,
)
from oasis_kiosk.machine.ledger_kinds import MONEY_IN, MONEY_OUT, WAGERED, WON

PPM = 1_000_000
KIND = re.compile(r"[a-z][a-z0-9_]{0,62}")
ROUND_ID_LENGTH = 200
BIGINT = 2**63 - 1
INTEGER = 2**31 - 1
LARGEST = 10**15
"""The largest number the hub takes in a payload (migration 0011), and as an award paid."""
MONEY = {
    "ledger": (("amount",), ("credits_after",), ("detail", "won")),
    "meter": (("value",),),
    "opening": (("credits",),),
}
"""The money in an event's payload by kind, each a whole number of minor units (migration
0012): a key of the payload itself always, one of its detail when there is one."""
NEVER_NEGATIVE = {
    "ledger": (("credits_after",), ("detail", "won"), ("detail", "stake")),
    "meter": (("value",),),
    "jackpot_contribution": (("stake",),),
    "opening": (("credits",),),
}
"""Money no cabinet's books write below 0 (migration 0016)."""
AMOUNT_SIGN = {**{kind: 1 for kind in (*MONEY_IN, *WON)}, **{kind: -1 for kind in (*WAGERED, *MONEY_OUT)}}
"""A ledger row's kind that puts credits on (1: its amount from 0) or takes them off (-1: up
to 0), as the books write it (migration 0016); another kind's amount keeps any sign."""


@dataclass(frozen=True)
class Event:
    """One row of a cabinet's outbox."""

    seq: int
    kind: str
    payload: Mapping[str, Any]
    committed_at: datetime
    """When the cabinet committed it (timezone-aware)."""


@dataclass(frozen=True)
class PoolValue:
    """What a cabinet may read of the pool."""

    value: int
    hits: int
    updated_at: datetime


@dataclass(frozen=True)
class Parameters:
    """The pool's settings: minor units, and rates in parts per million of a stake."""

    reset: int
    rate_ppm: int
    maximum: int
    reserve_rate_ppm: int
    least_stake: int = 0
    """A hit wins only on a box staked at least this (minor units; 0: any stake above 0),
    as it was when the stake was received (migration 0017)."""


@dataclass(frozen=True)
class Pool:
    """The whole pool, as its owner and the dashboard see it."""

    value: int
    carry: int
    """Millionths of a minor unit contributed, not yet on the pool."""
    reserve: int
    reserve_carry: int
    hits: int
    parameters: Parameters
    updated_at: datetime


@dataclass(frozen=True)
class Award:
    cabinet_id: int
    round_id: str
    box: int
    amount: int
    reset: int
    from_reserve: int
    pool_after: int
    claimed_at: datetime
    at_once: bool
    """The reset value, paid by the house: the hub received another hit of the same pool
    first, and that hit's claim won it (migration 0010)."""


@dataclass(frozen=True)
class ParameterChange:
    changed_at: datetime
    changed_by: str
    role_name: str
    old: dict[str, Any]
    new: dict[str, Any]


def _database_error(error: psycopg.Error) -> HubError | None:
    """The hub's own errors (SQLSTATE class OA, 0002_pool.sql) as exceptions; None for others."""
    state = error.sqlstate or ""
    message = error.diag.message_primary or str(error)
    if state == "OA001":
        numbers = re.search(r"event (\d+) cannot follow event (\d+)", message)
        first, held = (int(numbers[1]), int(numbers[2])) if numbers else (0, 0)
        return GapError(message, held=held, first=first)
    if state == "OA002":
        return UnknownCabinetError(message)
    if state == "OA006":
        return UnknownHitError(message)
    if state == "OA007":
        return OtherBooksError(message)
    if state == "OA008":
        return AwardDisagreesError(message)
    if state == "OA009":
        return PoolShortError(message)
    if state in {"OA003", "OA005"}:
        detail = error.diag.message_detail
        return (RowDiffersError if state == "OA005" else BatchError)(
            f"{message} ({detail})" if detail else message
        )
    return None


NUMBER_LIMIT = 10**15
"""The largest number, either way, a payload may hold (migration 0011)."""


def _unstorable(value: Any, where: str = "") -> str | None:
    """Why the hub's ``jsonb`` could not hold ``value`` (None: it can): U+0000 or a surrogate
    in a text, a number beyond ±10¹⁵."""
    if isinstance(value, str):
        for character in value:
            if character == "\x00" or "\ud800" <= character <= "\udfff":
                return f"{where or 'a text'} holds U+{ord(character):04X}, which the hub's jsonb cannot hold"
        return None
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = _unstorable(key, "a key") or _unstorable(item, f'"{key}"')
            if found:
                return found
        return None
    if isinstance(value, list | tuple):
        return next((found for item in value if (found := _unstorable(item, where))), None)
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > NUMBER_LIMIT:
        return f"{where or 'a number'} is {value}, beyond ±10^15"
    return None


def _check_event(event: Event) -> None:
    where = f"event {event.seq}"
    if not isinstance(event.seq, int) or isinstance(event.seq, bool) or not 0 < event.seq <= BIGINT:
        raise BatchError(f"{where}: a sequence number is a whole number from 1")
    if not isinstance(event.kind, str) or not KIND.fullmatch(event.kind):
        raise BatchError(f"{where}: kind {event.kind!r} is not lower-case letters, digits and _")
    if not isinstance(event.payload, Mapping):
        raise BatchError(f"{where} ({event.kind}): the payload is a mapping")
    if not isinstance(event.committed_at, datetime) or event.committed_at.utcoffset() is None:
        raise BatchError(f"{where} ({event.kind}): committed_at is a timezone-aware datetime")
    if event.kind in {"jackpot_contribution", "jackpot_hit"}:
        round_id = event.payload.get("round_id")
        if not isinstance(round_id, str) or not 0 < len(round_id) <= ROUND_ID_LENGTH:
            raise BatchError(
                f"{where} ({event.kind}): round_id is a text of 1 to {ROUND_ID_LENGTH} characters"
            )
    if event.kind == "jackpot_contribution":
        stake = event.payload.get("stake")
        if not isinstance(stake, int) or isinstance(stake, bool) or not 0 <= stake <= BIGINT:
            raise BatchError(f"{where} ({event.kind}): stake is a whole number of minor units, not {stake!r}")
    if event.kind == "jackpot_hit" and not _is_box(box := event.payload.get("box")):
        raise BatchError(f"{where} ({event.kind}): box is a whole number from 0, not {box!r}")
    if event.kind == "opening" and event.seq != 1:
        raise BatchError(f"{where} (opening): the opening of a cabinet's books is its first event")
    for path in MONEY.get(event.kind, ()):
        value: Any = event.payload
        for step in path:
            value = value.get(step) if isinstance(value, Mapping) else None
        if (value is not None or len(path) == 1) and not _is_money(value):
            raise BatchError(
                f"{where} ({event.kind}): {'.'.join(path)} is a whole number of minor units, not {value!r}"
            )
    _check_signs(event, where)
    unstorable = _unstorable(dict(event.payload))
    if unstorable is not None:
        raise BatchError(f"{where} ({event.kind}): {unstorable}")


def _check_signs(event: Event, where: str) -> None:
    """Money below 0 that no cabinet writes, and a ledger row's amount of the wrong sign for
    its kind (migration 0016)."""
    signed: list[tuple[tuple[str, ...], int, str]] = [
        (path, 1, "is never below 0 in a cabinet's books") for path in NEVER_NEGATIVE.get(event.kind, ())
    ]
    kind = event.payload.get("kind") if event.kind == "ledger" else None
    if isinstance(kind, str) and kind in AMOUNT_SIGN:
        sign = AMOUNT_SIGN[kind]
        what = "puts credits on: from 0" if sign > 0 else "takes credits off: up to 0"
        signed.append((("amount",), sign, f"of a {kind} row {what}"))
    for path, sign, what in signed:
        value: Any = event.payload
        for step in path:
            value = value.get(step) if isinstance(value, Mapping) else None
        if isinstance(value, int | float) and not isinstance(value, bool) and sign * value < 0:
            raise BatchError(f"{where} ({event.kind}): {'.'.join(path)} {what}, not {value!r}")


def _is_money(amount: Any) -> bool:
    return isinstance(amount, int) and not isinstance(amount, bool) and abs(amount) <= LARGEST


def _is_box(box: Any) -> bool:
    return isinstance(box, int) and not isinstance(box, bool) and 0 <= box <= INTEGER


def refusal(event: Event) -> str | None:
    """Why the hub would refuse ``event`` as it arrives, for ever (None: nothing seen here):
    its shape, or a payload its ``jsonb`` cannot hold."""
    try:
        _check_event(event)
    except BatchError as error:
        return str(error)
    return None


def check_batch(events: Sequence[Event]) -> None:
    """A batch's own shape: well-formed events with consecutive sequence numbers."""
    for event in events:
        _check_event(event)
    for before, after in pairwise(events):
        if after.seq != before.seq + 1:
            raise BatchError(
                f"a batch's events are consecutive: event {after.seq} follows event {before.seq}"
            )


def held(connection: psycopg.Connection[Any]) -> int:
    """The highest sequence number the hub holds for the connection's cabinet."""
    row = connection.execute("SELECT last_seq FROM hub.cabinets WHERE role_name = session_user").fetchone()
    if row is None:
        raise UnknownCabinetError(f"role {connection.info.user} is not a cabinet of this hub")
    return int(row[0])


@dataclass(frozen=True)
class HubHolds:
    """What the hub holds for the connection's cabinet: its events 1 to ``seq``, and the last."""

    cabinet: str
    seq: int
    last: Event | None
    """The hub's event ``seq`` (None: it holds none)."""


def held_last(connection: psycopg.Connection[Any]) -> HubHolds:
    """The highest sequence number the hub holds for the connection's cabinet, with the hub's
    event of that number: one row, read by its key."""
    row = connection.execute(
        """SELECT c.name, c.last_seq, e.kind, e.payload, e.committed_at
             FROM hub.cabinets c LEFT JOIN hub.events e ON e.cabinet_id = c.id AND e.seq = c.last_seq
            WHERE c.role_name = session_user"""
    ).fetchone()
    if row is None:
        raise UnknownCabinetError(f"role {connection.info.user} is not a cabinet of this hub")
    name, seq, kind, payload, committed_at = row
    last = None if kind is None else Event(int(seq), str(kind), payload, committed_at)
    return HubHolds(str(name), int(seq), last)


def books(connection: psycopg.Connection[Any]) -> str | None:
    """The id of the books whose events the hub holds for the connection's cabinet (None:
    not recorded yet, the first books sent are adopted)."""
    row = connection.execute("SELECT books_id FROM hub.cabinets WHERE role_name = session_user").fetchone()
    if row is None:
        raise UnknownCabinetError(f"role {connection.info.user} is not a cabinet of this hub")
    return None if row[0] is None else str(row[0])


def check_books(connection: psycopg.Connection[Any], books_id: str) -> None:
    """The connection's cabinet sends the events of the books ``books_id``: recorded at the hub
    if it recorded none yet; ``OtherBooksError`` naming both if it holds other books'."""
    try:
        connection.execute("SELECT hub.check_books(%s)", [books_id])
    except psycopg.Error as error:
        mapped = _database_error(error)
        if mapped is None:
            raise
        raise mapped from error


def ingest(
    connection: psycopg.Connection[Any], events: Sequence[Event], *, books_id: str | None = None
) -> int:
    """Sends a batch of the connection's cabinet in one transaction; returns the highest
    sequence number the hub then holds for it. With ``books_id`` (the link agent's), the
    hub checks in the same transaction that the batch is of the books it holds for the
    cabinet (``check_books``)."""
    check_batch(events)
    try:
        with connection.transaction():
            if books_id is not None:
                check_books(connection, books_id)
            last = held(connection)
            if events and events[0].seq > last + 1:
                missing = (
                    f"event {last + 1} is missing"
                    if events[0].seq == last + 2
                    else f"events {last + 1} to {events[0].seq - 1} are missing"
                )
                raise GapError(
                    f"cabinet {connection.info.user}: event {events[0].seq} cannot follow event {last}: {missing}",
                    held=last,
                    first=events[0].seq,
                )
            if events:
                with connection.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO hub.events (seq, kind, payload, committed_at) VALUES (%s, %s, %s, %s)",
                        [
                            (event.seq, event.kind, Jsonb(dict(event.payload)), event.committed_at)
                            for event in events
                        ],
                    )
            return held(connection)
    except psycopg.Error as error:
        mapped = _database_error(error)
        if mapped is None:
            raise
        raise mapped from error


def _check_hit_named(round_id: Any, box: Any) -> None:
    if not isinstance(round_id, str) or not 0 < len(round_id) <= ROUND_ID_LENGTH:
        raise BatchError(
            f"a claim names its round: a text of 1 to {ROUND_ID_LENGTH} characters, not {round_id!r}"
        )
    if not _is_box(box):
        raise BatchError(f"a claim names its box: a whole number from 0, not {box!r}")


_AWARD = "cabinet_id, round_id, box, amount, reset, from_reserve, pool_after, claimed_at, at_once"


def claim(connection: psycopg.Connection[Any], round_id: str, box: int) -> Award:
    """The jackpot's award for the hit of ``box`` in a round of the connection's cabinet (the
    same award however often it is claimed)."""
    _check_hit_named(round_id, box)
    return _award(connection, f"SELECT {_AWARD} FROM hub.claim(%s, %s)", [round_id, box])


def claim_paid(
    connection: psycopg.Connection[Any], round_id: str, box: int, amount: int, *, at_once: bool
) -> Award:
    """Tells the hub the award the connection's cabinet was paid for the hit of ``box`` in a
    round, which the hub holds without an award (a hub restored from a backup older than the
    award: ``hub.claim_paid`` in 0012_money_of_the_floor.sql), and whether the hub had
    answered it at once (``Award.at_once``). The hub records it and takes it from the pool as
    the claim did, once (an award at once, never); told again, the same award. Never more than a
    claim could award: ``AwardDisagreesError`` if the hub holds another award for that hit, for
    an award at once other than the hit's reset value, or for 0 won; ``PoolShortError`` for
    more than the pool holds (its stakes not all sent again yet: told again later)."""
    _check_hit_named(round_id, box)
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= LARGEST:
        raise BatchError(f"an award paid is a whole number of minor units from 0, not {amount!r}")
    if not isinstance(at_once, bool):
        raise BatchError(f"an award paid says whether it was at once: True or False, not {at_once!r}")
    return _award(
        connection, f"SELECT {_AWARD} FROM hub.claim_paid(%s, %s, %s, %s)", [round_id, box, amount, at_once]
    )


def awards_held(connection: psycopg.Connection[Any]) -> dict[tuple[str, int], int]:
    """The awards the hub holds for the connection's cabinet: (round, box) → amount."""
    rows = connection.execute(
        "SELECT round_id, box, amount FROM hub.awards WHERE cabinet_id = hub.session_cabinet()"
    )
    return {(str(round_id), int(box)): int(amount) for round_id, box, amount in rows}


def _award(connection: psycopg.Connection[Any], query: str, arguments: Sequence[Any]) -> Award:
    try:
        with connection.transaction(), connection.cursor(row_factory=dict_row) as cursor:
            row = cursor.execute(query.encode(), arguments).fetchone()
    except psycopg.Error as error:
        mapped = _database_error(error)
        if mapped is None:
            raise
        raise mapped from error
    assert row is not None
    return Award(**row)


def heartbeat(connection: psycopg.Connection[Any]) -> None:
    """The cabinet logged in is there (its last_seen is now), though it has nothing to send."""
    connection.execute("SELECT hub.heartbeat()")


def pool_value(connection: psycopg.Connection[Any]) -> PoolValue:
    """The pool's value, as any cabinet may read it."""
    row = connection.execute("SELECT value, hits, updated_at FROM hub.pool").fetchone()
    assert row is not None
    return PoolValue(int(row[0]), int(row[1]), row[2])


_POOL = (
    "SELECT value, carry, reserve, reserve_carry, hits, reset, rate_ppm, maximum, reserve_rate_ppm,"
    " updated_at, least_stake FROM hub.pool"
)


def _pool(row: Sequence[Any]) -> Pool:
    (
        value,
        carry,
        reserve,
        reserve_carry,
        hits,
        reset,
        rate_ppm,
        maximum,
        reserve_rate_ppm,
        updated_at,
        least,
    ) = row
    return Pool(
        value,
        carry,
        reserve,
        reserve_carry,
        hits,
        Parameters(reset, rate_ppm, maximum, reserve_rate_ppm, least),
        updated_at,
    )


def pool(connection: psycopg.Connection[Any]) -> Pool:
    """The whole pool and its parameters (the owner and the dashboard)."""
    row = connection.execute(_POOL).fetchone()
    assert row is not None
    return _pool(row)


def pending_hits(connection: psycopg.Connection[Any]) -> list[tuple[str, str, int]]:
    """(cabinet, round, box) of every hit reported and not yet claimed."""
    # A hit received before migration 0006 names no box: its round's one award is box 0.
    rows = connection.execute(
        """SELECT c.name, e.payload ->> 'round_id', coalesce((e.payload ->> 'box')::integer, 0) AS box
             FROM hub.events e JOIN hub.cabinets c ON c.id = e.cabinet_id
            WHERE e.kind = 'jackpot_hit'
              AND NOT EXISTS (SELECT 1 FROM hub.awards a
                               WHERE a.cabinet_id = e.cabinet_id AND a.round_id = e.payload ->> 'round_id'
                                 AND a.box = coalesce((e.payload ->> 'box')::integer, 0))
            ORDER BY e.received_at, c.name, box"""
    ).fetchall()
    return [(str(name), str(round_id), int(box)) for name, round_id, box in rows]


SILENT_AFTER = 6
"""Seconds after which a cabinet's agent that has not reached the hub is silent: it sends a
heartbeat every third of it when idle (``agent.HEARTBEAT``), so three missed mean its link is
down."""


def agents_silent(connection: psycopg.Connection[Any]) -> list[tuple[str, int]]:
    """(cabinet, whole seconds since it last reached the hub) of every cabinet that has fed
    the pool or reported a hit and has not reached the hub for SILENT_AFTER seconds: a hit it
    made as its link went down may wait in its outbox, unseen here."""
    rows = connection.execute(
        """SELECT c.name, floor(extract(epoch FROM now() - c.last_seen))::bigint
             FROM hub.cabinets c
            WHERE c.last_seen < now() - make_interval(secs => %s)
              AND (EXISTS (SELECT 1 FROM hub.contributions k WHERE k.cabinet_id = c.id)
                   OR EXISTS (SELECT 1 FROM hub.events e WHERE e.cabinet_id = c.id AND e.kind = 'jackpot_hit'))
            ORDER BY c.name""",
        [SILENT_AFTER],
    ).fetchall()
    return [(str(name), int(seconds)) for name, seconds in rows]


def check_parameters(parameters: Parameters, value: int) -> None:
    for name in ("reset", "maximum", "rate_ppm", "reserve_rate_ppm", "least_stake"):
        number = getattr(parameters, name)
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= BIGINT:
            raise ParametersError(f"{name} is a whole number from 0, not {number!r}")
    if parameters.rate_ppm > PPM or parameters.reserve_rate_ppm > PPM:
        raise ParametersError(f"a rate is in parts per million: from 0 to {PPM:,}")
    if parameters.rate_ppm + parameters.reserve_rate_ppm > PPM:
        raise ParametersError(
            f"rate_ppm and reserve_rate_ppm together feed at most the whole stake ({PPM:,}), "
            f"not {parameters.rate_ppm + parameters.reserve_rate_ppm:,}"
        )
    if parameters.reset > parameters.maximum:
        raise ParametersError(f"the reset value {parameters.reset} is above the maximum {parameters.maximum}")
    if value > parameters.maximum:
        raise ParametersError(
            f"the maximum {parameters.maximum} is below the pool's value {value}: lower it after the next hit"
        )


def _refuse_while_a_hit_may_wait(
    connection: psycopg.Connection[Any],
    despite_silent: Collection[str],
    despite_hits: Collection[tuple[str, int]] = (),
) -> list[tuple[str, str, int]]:
    """Parameters change only between hits: refused while the hub holds a hit not yet
    awarded, or a cabinet that feeds the pool is silent (a hit of it may wait unseen in its
    outbox), except the silent cabinets and the hits (round, box) named. Returns the hits
    named: (cabinet, round, box) of each."""
    silent = dict(agents_silent(connection))
    unknown = sorted(set(despite_silent) - set(silent))
    if unknown:
        raise ParametersError(
            f"no cabinet {', '.join(unknown)} is silent: name only the cabinets the change is "
            f"refused for ({', '.join(sorted(silent)) or 'none now'})"
        )
    pending = pending_hits(connection)
    named = [hit for hit in pending if (hit[1], hit[2]) in set(despite_hits)]
    not_pending = sorted(set(despite_hits) - {(round_id, box) for _, round_id, box in named})
    if not_pending:
        hits = ", ".join(f"round {round_id} box {box}" for round_id, box in not_pending)
        raise ParametersError(
            f"no hit of {hits} waits for its award: name only the hits the change is refused for "
            f"({', '.join(f'{round_id}:{box}' for _, round_id, box in pending) or 'none now'})"
        )
    # A silent cabinet named is not waited for, nor are the hits the hub holds of it
    # (a cabinet retired, or its books cleared, before it claimed them), nor a hit named.
    waiting = [hit for hit in pending if hit[0] not in despite_silent and hit not in named]
    if waiting:
        hits = ", ".join(f"cabinet {name} round {round_id} box {box}" for name, round_id, box in waiting)
        raise ParametersError(
            f"the pool's parameters change only between hits, and a hit waits for its award ({hits}); "
            "a hit that will never be claimed can be named (--despite-hit ROUND:BOX)"
        )
    waited_for = {name: seconds for name, seconds in silent.items() if name not in despite_silent}
    if waited_for:
        names = ", ".join(
            f"cabinet {name} feeds the pool and has not reached the hub for {seconds} s"
            for name, seconds in waited_for.items()
        )
        raise ParametersError(
            f"the pool's parameters change only between hits, and {names}: a hit it made may "
            "wait in its outbox; bring its link back, or change them despite it (--despite-silent NAME)"
        )
    return named


def set_parameters(
    connection: psycopg.Connection[Any],
    who: str,
    *,
    reset: int | None = None,
    rate_ppm: int | None = None,
    maximum: int | None = None,
    reserve_rate_ppm: int | None = None,
    least_stake: int | None = None,
    despite_silent: Collection[str] = (),
    despite_hits: Collection[tuple[str, int]] = (),
) -> ParameterChange:
    """Changes the pool's parameters between hits and logs who changed what. A reset value
    above the pool's value brings the pool up to it (the house adds the difference, logged
    as ``topped_up``); a maximum below the pool's value is refused. A hit the hub holds and
    has not awarded, or a silent cabinet (``agents_silent``) that may hold one, refuses the
    change; the cabinets named in ``despite_silent`` are not waited for, nor the pending hits
    (round, box) named in ``despite_hits`` (the log says so: a hit named and not pending is
    refused)."""
    if not isinstance(who, str) or not who.strip():
        raise ParametersError("a change of the pool's parameters says who makes it")
    asked = {
        "reset": reset,
        "rate_ppm": rate_ppm,
        "maximum": maximum,
        "reserve_rate_ppm": reserve_rate_ppm,
        "least_stake": least_stake,
    }
    try:
        with connection.transaction():
            row = connection.execute(_POOL + " FOR UPDATE").fetchone()
            assert row is not None
            before = _pool(row)
            named = _refuse_while_a_hit_may_wait(connection, despite_silent, despite_hits)
            old = before.parameters
            new = Parameters(
                **{name: getattr(old, name) if value is None else value for name, value in asked.items()}
            )
            if new == old:
                given = {name: value for name, value in asked.items() if value is not None}
                raise ParametersError(
                    f"nothing to change: the pool's parameters are already {asdict(old)} ({given or 'none given'})"
                )
            check_parameters(new, before.value)
            value = max(before.value, new.reset)
            connection.execute(
                """UPDATE hub.pool SET reset = %s, rate_ppm = %s, maximum = %s, reserve_rate_ppm = %s,
                          least_stake = %s, value = %s, updated_at = now()""",
                [new.reset, new.rate_ppm, new.maximum, new.reserve_rate_ppm, new.least_stake, value],
            )
            logged_old = {**asdict(old), "value": before.value}
            logged_new = {**asdict(new), "value": value, "topped_up": value - before.value}
            if despite_silent:
                logged_new["despite_silent"] = sorted(despite_silent)
            if named:
                logged_new["despite_hits"] = [
                    {"cabinet": name, "round_id": round_id, "box": box} for name, round_id, box in named
                ]
            logged = connection.execute(
                """INSERT INTO hub.parameter_changes (changed_by, old, new) VALUES (%s, %s, %s)
                   RETURNING changed_at, changed_by, role_name, old, new""",
                [who.strip(), Jsonb(logged_old), Jsonb(logged_new)],
            ).fetchone()
    except psycopg.errors.InsufficientPrivilege as error:
        raise ParametersError(
            f"role {connection.info.user} may not change the pool: the hub's owner does ({error})"
        ) from error
    assert logged is not None
    return ParameterChange(*logged)


def parameter_log(connection: psycopg.Connection[Any], limit: int = 25) -> list[ParameterChange]:
    """The latest changes of the pool's parameters, newest first."""
    rows = connection.execute(
        "SELECT changed_at, changed_by, role_name, old, new FROM hub.parameter_changes ORDER BY id DESC LIMIT %s",
        [limit],
    ).fetchall()
    return [ParameterChange(*row) for row in rows]
