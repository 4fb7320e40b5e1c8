"""The linked jackpot (docs/floor.md): the kiosk reads what the link agent wrote (the hub's
pool, whether it is online, the awards of a hit) and credits or handpays those awards.
"""

from __future__ import annotations

from dataclasses import replace

from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.response import Amount, Response
from oasis_kiosk.machine.terminal.transactions import Transactions
from oasis_kiosk.store.outbox import hub_round_id


class LinkedJackpot(Transactions):
    """The cabinet's side of the floor's linked jackpot."""

    @property
    def linked_jackpot(self) -> bool:
        """The cabinet's jackpot is the floor's linked one (``[link] jackpot = "linked"``)."""
        link = self.config.link
        return link is not None and link.jackpot == "linked"

    @property
    def jackpot_shown(self) -> int | None:
        """The meter the screen shows: the hub's pool on a linked cabinet (None while the
        link is down, or until the agent has read it: no value the hub never had or may have
        moved on from), else the cabinet's own meter."""
        return self.link_shown()[0]

    def link_offline(self) -> Response | None:
        """What the cabinet says while the linked jackpot is offline (the agent has not
        reached the hub within ``[link] offline_after``); None while it is offered."""
        return self.link_shown()[1]

    def link_shown(self) -> tuple[int | None, Response | None]:
        """``jackpot_shown`` and ``link_offline`` from one look at the agent's file: the
        screen wants both every frame."""
        if not self.linked_jackpot or self.link is None:
            return self.jackpot.value, None
        pool, online = self.link.read()
        return (pool, None) if online else (None, self._offline())

    def _bonus_closed(self) -> bool:
        """Offline, the bonus bet is closed (``[link] offline = "bonus"``) rather than all play."""
        return (
            self.link_offline() is not None
            and self.config.link is not None
            and self.config.link.offline == "bonus"
        )

    def _bonus_off(self) -> Response:
        """BONUS while the linked jackpot is offline: takes a bonus off, never puts one on."""
        if not self.bonus_stake:
            return self._offline()
        self._place(replace(self.bets, bonus_stake=0))
        return Response(True, N_("bonus off"))

    def _reaches_handpay_limit(self, win: int) -> bool:
        """A round's win (what it pays back, its jackpot awards included, less its stakes) is
        paid by hand at or above the handpay limit: stakes that merely come back never lock
        the cabinet up."""
        return win >= max(self.config.handpay_limit, 1)

    def _offline(self) -> Response:
        link = self.config.link
        if link is not None and link.offline == "stop":
            return Response(False, N_("the linked jackpot is offline: the cabinet takes no play"))
        return Response(False, N_("the linked jackpot is offline: the bonus bet is closed"))

    def _claim_linked_jackpot(self, round_id: int, boxes: list[int], round_win: int) -> None:
        """A settled round's linked hits claim the hub's pool: the cabinet is locked up until
        the link agent's answer is credited (``follow_link``), across a power cut too.
        ``round_win``: what the round won without them, which counts towards the handpay
        limit with the awards."""
        books_id = self.store.books.id if self.store.books is not None else ""
        self.jackpot_pending = {
            "round_id": round_id,
            "hub_round_id": hub_round_id(books_id, round_id),
            "boxes": boxes,
            "round_win": round_win,
        }
        self.store.event("jackpot_hit", round_id=round_id, boxes=boxes, pending=True)

    def follow_link(self) -> Response | None:
        """A pending linked jackpot's awards, once the link agent has the hub's answer for every
        box that hit: credited, or handpaid at or above the handpay limit, in one transaction
        with the end of the lock-up (a power cut before its commit leaves the hit pending, and
        the hub answers the same again). Called every frame: otherwise a look at the agent's
        file, read at most a few times a second."""
        pending = self.jackpot_pending
        if pending is None or self.link is None or self.mode is not Mode.JACKPOT_PENDING:
            return None
        awards = {}
        for box in pending["boxes"]:
            award = self.link.award(str(pending["hub_round_id"]), int(box))
            if award is None:
                return None  # the round's hits end the lock-up together
            awards[int(box)] = award
        return self._commit(lambda: self._award_linked_jackpot(awards))

    def _award_linked_jackpot(self, awards: dict[int, int]) -> Response:
        pending, self.jackpot_pending = self.jackpot_pending, None
        assert pending is not None
        round_id = int(pending["round_id"])
        total = sum(awards.values())
        self.store.event(
            "jackpot_awarded",
            round_id=round_id,
            amount=total,
            hub_round_id=pending["hub_round_id"],
            boxes=[{"box": box, "award": award} for box, award in awards.items()],
        )
        # A hit pending in books of an earlier release kept no round_win: its award alone.
        if self._reaches_handpay_limit(int(pending.get("round_win", 0)) + total):
            # The round's own pay went on the credits at its settlement, under the limit; its
            # win with the award reaches it, so the award is the attendant's to pay.
            self.handpay, self.handpay_win = total, {"round_id": round_id, "jackpot": total, "linked": True}
            self.store.event("handpay_win", round_id=round_id, amount=total, limit=self.config.handpay_limit)
            return Response(True, N_("handpay of {amount}: call the attendant"), {"amount": Amount(total)})
        for box, award in awards.items():
            if award:
                self.store.post("jackpot_hit", award, round_id=round_id, linked=True, box=box)
                self.store.add_meter("jackpots_paid", award)
                self.store.add_meter("coin_out", award)
        return Response(
            True,
            N_("Jackpot of {amount} hit in round {round_id}"),
            {"amount": Amount(total), "round_id": round_id},
        )
