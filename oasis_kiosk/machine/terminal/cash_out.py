"""Money out: the cash-out (a hopper payout in coins, or a handpay), the hopper's reports coin
by coin, and the attendant's key, which stops a payout, pays a handpay (credits cashed out,
or a round's large win) or clears the tilts it may.
"""

from __future__ import annotations

from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.response import Amount, Response
from oasis_kiosk.machine.terminal.transactions import Transactions
from oasis_kiosk.machine.tilts import attendant_clears


class CashOut(Transactions):
    """Pays money out."""

    def _on_cashout(self, value: int | None) -> Response:
        coins = self.credits // self.config.hopper_coin if self.config.cashout == "hopper" else 0
        if coins:
            self.payout = coins
            self.store.event("payout_requested", coins=coins, coin=self.config.hopper_coin)
            return Response(
                True,
                N_("paying out {coins} coin(s) of {coin}"),
                {"coins": coins, "coin": Amount(self.config.hopper_coin)},
            )
        return self._request_handpay()

    def _request_handpay(self) -> Response:
        self.handpay = self.credits
        self.store.event("handpay_requested", amount=self.handpay)
        return self._handpay_called(self.handpay)

    @staticmethod
    def _handpay_called(amount: int) -> Response:
        return Response(True, N_("handpay of {amount}: call the attendant"), {"amount": Amount(amount)})

    def hopper_coin_out(self) -> Response:
        """One coin left the hopper: booked at once, so a payout that stops short is exact. A
        coin that falls after the hopper stopped is booked against the handpay still to be
        paid (the attendant pays that much less). A coin nothing owed (no payout, the handpay
        already paid) is paid money all the same: on the ledger at no credit, on its own
        meter, and a tilt for the attendant."""
        coin = self.config.hopper_coin

        def book() -> Response:
            cashing_out = self.payout or (self.handpay is not None and self.handpay_win is None)
            if cashing_out and self.credits >= coin:
                self.store.post("cash_out", -coin, device="hopper")
                self.store.add_meter("total_out", coin)
                self.store.add_meter("hopper_out", coin)
                if self.payout:
                    self.payout = self.payout - 1 or None
                    if self.payout is None and self.credits:
                        # The last coin owed: what is left below a coin is handpaid, called for
                        # with the coin so that a power cut before the hopper reports its end
                        # cannot leave the cash-out half done.
                        self._request_handpay()
                else:
                    self.handpay = self.credits or None
                    self.store.event("handpay_reduced", coin=coin, amount=self.handpay or 0)
                return Response(True, N_("coin {coin} paid out"), {"coin": Amount(coin)})
            self.store.post("hopper_overpaid", 0, coin=coin)
            self.store.add_meter("hopper_overpaid", coin)
            self._tilt("hopper_overpaid", f"the hopper paid a coin of {coin} it did not owe")
            return Response(False, N_("a coin the payout did not owe"))

        return self._commit(book)

    def hopper_stopped(self, short: int) -> Response:
        """The payout ended: complete (``short`` 0; what is left below a coin is handpaid),
        stopped by the attendant's key (the rest is handpaid), or short because the hopper is
        empty or jammed (a tilt; the credits stay)."""

        def stop() -> Response:
            by_attendant = self.stopping
            self.payout, self.stopping = None, False
            if short and not by_attendant:
                self._tilt("hopper_empty", f"the hopper stopped {short} coin(s) short")
                return Response(False, N_("{short} coin(s) short"), {"short": short})
            if self.credits and self.handpay is None:
                return self._request_handpay()
            if self.handpay is not None:  # called for with the last coin
                return self._handpay_called(self.handpay)
            return Response(True, N_("payout complete"))

        return self._commit(stop)

    def _on_attendant(self, value: int | None) -> Response:
        if self.payout:
            if self.stopping:  # nothing more until the hopper reports it stands
                return Response(False, N_("nothing for the attendant to clear"))
            # The motor stops first (the cabinet sees ``stopping``); the handpay is fixed only
            # once the hopper reports it has stopped, so no coin can fall on both.
            self.stopping = True
            self.store.event("payout_stop_requested", coins_owed=self.payout)
            return Response(True, N_("A payout stopped before it was complete."))
        if self.handpay is not None:
            return self._pay_handpay(self.handpay)
        cleared = sorted(kind for kind in self.tilts if attendant_clears(kind))
        if not cleared:
            return Response(False, N_("nothing for the attendant to clear"))
        for kind in cleared:
            self._clear_tilt(kind)
        return Response(True, N_("cleared: {tilts}"), {"tilts": ", ".join(cleared)})

    def _pay_handpay(self, amount: int) -> Response:
        """The attendant paid the handpay: credits cashed out leave the credits; a large win,
        which never went on them, is booked as the round's return paid out by hand."""
        won, self.handpay, self.handpay_win = self.handpay_win, None, None
        if won is None:
            self.store.post("handpay", -amount)
        else:
            # A linked jackpot's award (``linked``) came from the floor's pool, not this meter.
            linked = {"linked": True} if won.get("linked") else {}
            self.store.post(
                "handpaid_win", 0, round_id=won["round_id"], won=amount, jackpot=won["jackpot"], **linked
            )
            self.store.add_meter("coin_out", amount)
            if won["jackpot"]:
                self.store.add_meter("jackpots_paid", won["jackpot"])
        self.store.add_meter("total_out", amount)
        self.store.add_meter("handpays", amount)
        self.store.event("handpay_paid", amount=amount, round_id=won["round_id"] if won else None)
        return Response(True, N_("handpay of {amount} paid"), {"amount": Amount(amount)}, notice=True)
