"""The rounds, each journalled with its record as it is played and stored with the rules
(profile) it was played under, and the shapes a stored round takes."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from oasis_kiosk._core import Profile
from oasis_kiosk.store.db.connection import Connection
from oasis_kiosk.store.db.values import StoreError, now, read_json

if TYPE_CHECKING:
    from oasis_kiosk._core import _RoundRecord as RoundRecord
    from oasis_kiosk._core import _Settlement as Settlement

    class JackpotShown(TypedDict):
        """A box's jackpot award, as the table shows it."""

        box: int
        award: int

    class RoundSettlement(Settlement):
        """A settled round's: the core's settlement and the jackpot the terminal paid on it."""

        jackpot_awards: int
        # What the screen shows (none in books of an earlier release): each box's award and
        # the meter before the hit.
        jackpot_hits: NotRequired[list[JackpotShown]]
        jackpot_before: NotRequired[int]
        jackpot_pending: NotRequired[list[int]]
        """A linked hit's boxes, their awards the floor's to pay."""
        handpaid: NotRequired[bool]
        """The round's win (its jackpots too) is the attendant's to pay: none of it went on
        the credits."""

    class VoidSettlement(TypedDict):
        """A round closed before its end (``Store.void_round``): why, its stakes refunded."""

        void: str

    class OpenRound(TypedDict):
        id: int
        started_at: str
        finished_at: None
        profile: str
        record: RoundRecord
        settlement: None
        state: Literal["open"]
        deck: str

    class SettledRound(TypedDict):
        id: int
        started_at: str
        finished_at: str
        profile: str
        record: RoundRecord
        settlement: RoundSettlement
        state: Literal["settled"]
        deck: str

    class VoidedRound(TypedDict):
        id: int
        started_at: str
        finished_at: str
        profile: str
        record: RoundRecord
        settlement: VoidSettlement
        state: Literal["voided"]
        deck: str

    StoredRound = OpenRound | SettledRound | VoidedRound


class RoundTables(Connection):
    """The books' rounds and profiles tables."""

    def open_round(self, profile: Profile, record: RoundRecord, deck: str = "shuffled") -> int:
        """A new round; ``deck`` says where its cards came from: ``shuffled`` (the OS),
        ``derived`` (from a base seed) or ``stacked`` (test books only). Never over a round
        still open: it is resumed, settled or voided first."""
        still_open = self._read("SELECT id FROM rounds WHERE state = 'open' LIMIT 1")
        if still_open:
            raise StoreError(
                f"{self.path}: round {still_open[0][0]} is still open: no round is opened over it"
            )
        stored = self._write(
            "INSERT OR IGNORE INTO profiles (digest, id, data) VALUES (?, ?, ?)",
            (profile.digest, profile.id, json.dumps(profile.to_dict())),
        )
        if stored.rowcount:
            self._seal("profiles", profile.digest)
        cursor = self._write(
            "INSERT INTO rounds (started_at, profile, record, state, deck) VALUES (?, ?, ?, 'open', ?)",
            (now(), profile.digest, json.dumps(record), deck),
        )
        round_id = int(cursor.lastrowid or 0)
        self._seal("rounds", round_id)
        return round_id

    def profile(self, digest: str) -> Profile:
        """The rules a round was played under, as stored with it."""
        rows = self._read("SELECT id, data FROM profiles WHERE digest = ?", (digest,))
        if not rows:
            raise StoreError(f"{self.path}: no stored profile {digest}")
        where = f"stored profile {rows[0][0]} ({digest})"
        return Profile.from_toml("", where, read_json(rows[0][1], where))

    def first_played_table(self) -> dict[str, Any] | None:
        """The table (currency, minor units, limits) of the first profile a round was played
        under; None before any round."""
        rows = self._read("SELECT data FROM profiles LIMIT 1")
        return dict(read_json(rows[0][0], "a stored profile")["table"]) if rows else None

    def _first_currency(self) -> str:
        """The currency of the first profile a round was played under (books of schema 1
        keep it nowhere else)."""
        table = self.first_played_table()
        if table is None:
            raise StoreError(f"{self.path}: no round was played: nothing tells the books' currency")
        return str(table["currency"])

    def next_round_id(self) -> int:
        return int(self._read("SELECT COALESCE(MAX(id), 0) + 1 FROM rounds")[0][0])

    def update_round(self, round_id: int, record: RoundRecord, settlement: RoundSettlement | None) -> None:
        if settlement is None:
            self._write("UPDATE rounds SET record = ? WHERE id = ?", (json.dumps(record), round_id))
        else:
            self._write(
                "UPDATE rounds SET record = ?, settlement = ?, state = 'settled', finished_at = ? WHERE id = ?",
                (json.dumps(record), json.dumps(settlement), now(), round_id),
            )
        self._seal("rounds", round_id)

    def void_round(self, round_id: int, reason: str) -> None:
        """Closes an open round that cannot be played on (its refund is on the ledger)."""
        self._write(
            "UPDATE rounds SET state = 'voided', settlement = ?, finished_at = ? WHERE id = ? AND state = 'open'",
            (json.dumps({"void": reason}), now(), round_id),
        )
        self._seal("rounds", round_id)

    def unfinished_round(self) -> tuple[int, str, RoundRecord] | None:
        """The round left open by a power cut: its id, profile digest and record."""
        rows = self._read("SELECT id, profile, record FROM rounds WHERE state = 'open' ORDER BY id")
        if len(rows) > 1:
            raise StoreError(f"{self.path}: {len(rows)} rounds are open at once")
        if not rows:
            return None
        return int(rows[0][0]), rows[0][1], read_json(rows[0][2], f"round {rows[0][0]}'s record")

    def rounds(self, last: int | None = None) -> list[StoredRound]:
        """Rounds, oldest first; ``last`` keeps only the most recent ones."""
        sql = "SELECT id, started_at, finished_at, profile, record, settlement, state, deck FROM rounds ORDER BY id DESC"
        rows = self._read(sql + (" LIMIT ?" if last is not None else ""), (last,) if last is not None else ())
        # Each state comes with its settlement (update_round, void_round): none while open.
        return [
            {
                "id": r[0],
                "started_at": r[1],
                "finished_at": r[2],
                "profile": r[3],
                "record": read_json(r[4], f"round {r[0]}'s record"),
                "settlement": read_json(r[5], f"round {r[0]}'s settlement") if r[5] else None,
                "state": r[6],
                "deck": r[7],
            }
            for r in reversed(rows)
        ]
