"""The ledger and the meters: every change of the credits is a ledger row, and the meters
are counters that only go up (until the operator's logged reset)."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from oasis_kiosk.store.db.connection import Connection
from oasis_kiosk.store.db.values import LedgerRefusedError, now, read_json

LEDGER_COLUMNS = "id, at, kind, amount, credits_after, round_id, detail"
"""The ledger's columns in the order of LedgerRow's fields."""


@dataclass(frozen=True)
class LedgerRow:
    id: int
    at: str
    kind: str
    amount: int
    credits_after: int
    round_id: int | None
    detail: dict[str, Any]


class LedgerTables(Connection):
    """The books' ledger and meters tables."""

    def credits(self) -> int:
        rows = self._read("SELECT credits_after FROM ledger ORDER BY id DESC LIMIT 1")
        return int(rows[0][0]) if rows else 0

    def post(self, kind: str, amount: int, *, round_id: int | None = None, **detail: Any) -> int:
        """Appends a ledger row changing the credits by ``amount``; returns the new credits."""
        credits = self.credits() + amount
        if credits < 0:
            raise LedgerRefusedError(f"{kind} of {amount} would take the credits below zero")
        cursor = self._write(
            "INSERT INTO ledger (at, kind, amount, credits_after, round_id, detail) VALUES (?, ?, ?, ?, ?, ?)",
            (now(), kind, amount, credits, round_id, json.dumps(detail, sort_keys=True)),
        )
        self._seal("ledger", cursor.lastrowid)
        return credits

    def ledger(self, since_id: int = 0) -> list[LedgerRow]:
        return self._ledger_rows(f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE id > ? ORDER BY id", (since_id,))

    def ledger_tail(self, kinds: Collection[str], last: int) -> list[LedgerRow]:
        """The last ``last`` rows of these kinds, oldest first."""
        marks = ", ".join("?" * len(kinds))
        sql = f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE kind IN ({marks}) ORDER BY id DESC LIMIT ?"
        return self._ledger_rows(sql, (*kinds, last))[::-1]

    def _ledger_rows(self, sql: str, parameters: tuple[Any, ...]) -> list[LedgerRow]:
        return [
            LedgerRow(r[0], r[1], r[2], r[3], r[4], r[5], read_json(r[6], f"ledger row {r[0]}'s detail"))
            for r in self._read(sql, parameters)
        ]

    def add_meter(self, name: str, delta: int) -> None:
        if delta < 0:
            raise LedgerRefusedError(f"meter {name} cannot go down by {-delta}")
        self._write(
            "INSERT INTO meters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + ?",
            (name, delta, delta),
        )
        self._seal("meters", name)

    def reset_meters(self) -> None:
        """Only for the operator's logged reset."""
        names = [name for (name,) in self._read("SELECT name FROM meters")]
        self._write("DELETE FROM meters", ())
        for name in names:
            self._seal("meters", name)

    def meters(self) -> dict[str, int]:
        return {
            name: int(value) for name, value in self._read("SELECT name, value FROM meters ORDER BY name")
        }
