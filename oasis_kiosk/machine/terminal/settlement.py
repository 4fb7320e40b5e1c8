"""Settling a round: its returns and the jackpot it hit booked on the credits, a win at or
above the handpay limit kept for the attendant, or a void round's stakes refunded; the game
meters, and the settlement stored with the round.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from oasis_kiosk._core import Round
from oasis_kiosk.machine.jackpot import contribute, hit
from oasis_kiosk.machine.outcome import round_win
from oasis_kiosk.machine.terminal.linked_jackpot import LinkedJackpot
from oasis_kiosk.machine.tilts import TiltKind
from oasis_kiosk.rules import has_jackpot

if TYPE_CHECKING:
    from oasis_kiosk._core import _BoxSettlement as BoxSettlement
    from oasis_kiosk._core import _Settlement as Settlement
    from oasis_kiosk.store.db.rounds import RoundSettlement


class RoundSettling(LinkedJackpot):
    """Pays a settled round."""

    def _settle(self, round_: Round, round_id: int) -> None:
        """Pays the settled ``round_`` and stores its settlement with it."""
        settlement = round_.settlement()
        meter_before = self.jackpot.value
        hits, linked_hits = self._jackpot_hits(settlement["boxes"])
        awards = sum(award for _, award, _ in hits)
        handpaid = self._pay_returns(round_id, settlement, awards)
        self._book_jackpot_hits(round_id, hits, handpaid=handpaid)
        if not settlement["void"]:
            self._feed_lost_antes(round_id, settlement["boxes"])
        if linked_hits and not settlement["void"]:
            self._claim_linked_jackpot(round_id, linked_hits, round_win(settlement, awards))
        self.store.add_meter("games_played", 1)
        if round_win(settlement, awards) > 0:
            self.store.add_meter("games_won", 1)
        stored: RoundSettlement = {
            # mypy cannot tell that the core's settlement carries no "jackpot_pending" of its own
            **settlement,  # type: ignore[typeddict-item]
            "jackpot_awards": awards,
            # What the screen shows: each box's award, and the meter as it stood before.
            "jackpot_hits": [{"box": box_number, "award": award} for box_number, award, _ in hits],
            "jackpot_before": meter_before,
        }
        if linked_hits:
            stored["jackpot_pending"] = linked_hits
        if handpaid:
            stored["handpaid"] = True
        self.store.update_round(round_id, round_.record(), stored)

    def _feed_lost_antes(self, round_id: int, boxes: list[BoxSettlement]) -> None:
        """The house's share of each ante the round lost (played and lost, or folded) onto
        the cabinet's own meter, where the operator adds one (``[jackpot] lost_ante_rate``)."""
        rate = self.config.jackpot.lost_ante_rate
        if not rate or not has_jackpot(self.rules) or self.linked_jackpot:
            return
        for box in boxes:
            ante = box["ante"]
            if ante["stake"] and not ante["returned"]:
                self._book_contribution(round_id, ante["stake"], rate, lost_ante=ante["stake"])

    def _book_contribution(self, round_id: int, amount: int, rate: Fraction | None, **detail: int) -> None:
        """A contribution of ``rate`` × ``amount`` (the bonus stakes' rate: None) to the
        cabinet's own meter, booked with its round; a linked cabinet's meter stands still (its
        outbox row carries the stake to the floor's pool)."""
        whole = 0
        if not self.linked_jackpot:
            self.jackpot, whole = contribute(self.jackpot, self.config.jackpot, amount, rate)
        self.store.post(
            "jackpot_contribution",
            0,
            round_id=round_id,
            to_meter=whole,
            carry=str(self.jackpot.carry),
            **detail,
        )
        self.store.add_meter("jackpot_contributions", whole)

    def _jackpot_hits(self, boxes: list[BoxSettlement]) -> tuple[list[tuple[int, int, int]], list[int]]:
        """The boxes that hit the jackpot: on the cabinet's own meter, each box with its award
        and what the house puts back on the meter (the meter moves now); on a linked cabinet,
        the boxes whose hit claims the hub's pool (the award comes later)."""
        hits: list[tuple[int, int, int]] = []
        linked_hits: list[int] = []
        for box in boxes:
            if box["jackpot"] and self.linked_jackpot:
                linked_hits.append(box["box"])
            elif box["jackpot"]:
                self.jackpot, award, house = hit(
                    self.jackpot, self.config.jackpot, Fraction(box["jackpot"]["share"])
                )
                hits.append((box["box"], award, house))
        return hits, linked_hits

    def _pay_returns(self, round_id: int, settlement: Settlement, awards: int) -> bool:
        """Books what the round returns, with the jackpot ``awards`` it won: a void round's
        stakes refunded, everything a round pays kept for the attendant (True) when its win
        reaches the handpay limit, or else the wins on the credits."""
        boxes = settlement["boxes"]
        won = settlement["paid"] + awards
        handpaid = not settlement["void"] and self._reaches_handpay_limit(round_win(settlement, awards))
        if settlement["void"]:
            self.store.post("void_refund", settlement["paid"], round_id=round_id, reason=settlement["void"])
            self._tilt(TiltKind.INTEGRITY, f"round {round_id} void: {settlement['void']}")
        elif handpaid:
            # A large win locks the terminal up until the attendant pays it by hand: it never
            # goes on the credits, and it is booked when it is paid.
            self.handpay, self.handpay_win = won, {"round_id": round_id, "jackpot": awards}
            self.store.event("handpay_win", round_id=round_id, amount=won, limit=self.config.handpay_limit)
        else:
            main = sum(
                b["ante"]["returned"] + b["play"]["returned"] + b["insurance"]["returned"] for b in boxes
            )
            bonus = sum(b["bonus"]["returned"] for b in boxes)
            if main:
                self.store.post("win", main, round_id=round_id)
            if bonus:
                self.store.post("bonus_win", bonus, round_id=round_id)
        if not handpaid:
            self.store.add_meter("coin_out", settlement["paid"])
        return handpaid

    def _book_jackpot_hits(self, round_id: int, hits: list[tuple[int, int, int]], *, handpaid: bool) -> None:
        """The cabinet's own jackpot hits: each award credited (unless the round's win is
        handpaid, award and all), and what the house put back on the meter."""
        for box_number, award, house in hits:
            if not handpaid:
                self.store.post("jackpot_hit", award, round_id=round_id, box=box_number)
                self.store.add_meter("jackpots_paid", award)
                self.store.add_meter("coin_out", award)
            if house:
                self.store.post("jackpot_reset", 0, round_id=round_id, to_meter=house)
            self.store.event("jackpot_hit", round_id=round_id, amount=award)
