"""What every part of the database shares: its errors, the time a row is stamped with, and
the JSON a column holds."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

from oasis_kiosk._core import OasisError


class StoreError(OasisError):
    """The database cannot be opened, read or written: the terminal tilts on it."""


class BooksDamagedError(StoreError):
    """The database's file is there but damaged: SQLite finds its pages malformed. An audit
    fails on it; everything else refuses it as it refuses any books it cannot open."""


def read_error(path: object, error: sqlite3.Error, doing: str = "read") -> StoreError:
    """A failed read (or ``doing``: opening to read) as the books' error: a damaged file
    says so, whichever extended code SQLite gives (its low byte is the primary code)."""
    code = getattr(error, "sqlite_errorcode", None)
    damaged = code is not None and code & 0xFF in {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
    kind = BooksDamagedError if damaged else StoreError
    return kind(f"{path}: cannot {doing}: {error}")


class LedgerRefusedError(OasisError, ValueError):
    """A write the books refuse because it would break them (credits below zero, a meter
    going down). The terminal checks first: reaching it is a fault, rolled back whole."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def read_json(text: str, where: str) -> Any:
    """A JSON value the database holds; a damaged one is a StoreError naming its place."""
    try:
        return json.loads(text)
    except (TypeError, ValueError) as error:
        raise StoreError(f"{where} is damaged: not JSON ({error})") from None
