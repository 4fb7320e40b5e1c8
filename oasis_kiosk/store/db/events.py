"""The event log and the terminal's stored state (a JSON value per key)."""

from __future__ import annotations

import json
from typing import Any

from oasis_kiosk.store.db.connection import Connection
from oasis_kiosk.store.db.values import now, read_json


class EventAndStateTables(Connection):
    """The books' events and state tables."""

    def event(self, name: str, **detail: Any) -> None:
        cursor = self._write(
            "INSERT INTO events (at, kind, detail) VALUES (?, ?, ?)",
            (now(), name, json.dumps(detail, sort_keys=True)),
        )
        self._seal("events", cursor.lastrowid)

    def events(self, last: int = 100) -> list[dict[str, Any]]:
        rows = self._read("SELECT id, at, kind, detail FROM events ORDER BY id DESC LIMIT ?", (last,))
        return [
            {"id": r[0], "at": r[1], "kind": r[2], "detail": read_json(r[3], f"event {r[0]}'s detail")}
            for r in reversed(rows)
        ]

    def set_state(self, key: str, value: Any) -> None:
        self._write(
            "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )
        self._seal("state", key)

    def get_state(self, key: str, default: Any = None) -> Any:
        rows = self._read("SELECT value FROM state WHERE key = ?", (key,))
        return read_json(rows[0][0], f"the stored {key!r} state") if rows else default
