"""Money in: coins and bills the player puts in (checked against the accepted values and the
credit limit), and credits the operator or free play puts on.
"""

from __future__ import annotations

from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.money_kinds import BILL, COIN, MoneyKind
from oasis_kiosk.machine.response import Amount, Response
from oasis_kiosk.machine.terminal.transactions import Transactions


def credited(kind: MoneyKind, value: int) -> Response:
    return Response(True, kind.credited, {"value": Amount(value)})


class CreditsIn(Transactions):
    """Credits money in."""

    def room_for_money(self) -> int:
        """The minor units that may still come in before the credits reach the credit limit:
        what the cabinet lets an acceptor or the validator take."""
        return max(self.config.credit_limit - self.credits, 0)

    def _on_coin(self, value: int | None) -> Response:
        return self._money_in(COIN, value)

    def _on_bill(self, value: int | None) -> Response:
        return self._money_in(BILL, value)

    def _money_in(self, kind: MoneyKind, value: int | None) -> Response:
        accepted = kind.accepted(self.config)
        if value not in accepted:
            return Response(
                False,
                kind.not_accepted,
                {
                    "value": value if value is None else Amount(value),
                    "accepted": ", ".join(map(str, accepted)),
                },
            )
        if self.credits + value > self.config.credit_limit:
            return Response(
                False,
                N_("that would take the credits above the limit of {limit}"),
                {"limit": Amount(self.config.credit_limit)},
            )
        self._credit(kind, value)
        return credited(kind, value)

    def credit_by_operator(self, amount: int, reason: str) -> None:
        """Credits put on by the operator (a refund, a test) or by free play: on the ledger,
        the meters and the log, in one transaction."""
        with self.store.transaction():
            self.store.post("operator_credit", amount, reason=reason)
            self.store.add_meter("total_in", amount)
            self.store.add_meter("operator_credits", amount)
            self.store.event("operator_credit", amount=amount, reason=reason)

    def _credit(self, kind: MoneyKind, value: int) -> None:
        self.store.post(kind.ledger_kind, value, denomination=value)
        self.store.add_meter("total_in", value)
        self.store.add_meter(kind.meter(value), 1)
