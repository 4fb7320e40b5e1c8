"""Money out: the cash-out (a payout device's amount, such as the hopper's coins, or a
handpay), the device's reports item by item, and the attendant's key, which stops a payout,
pays a handpay (credits cashed out, or a round's large win) or clears the tilts it may.
"""

from __future__ import annotations

from oasis_kiosk.errors import InputError
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.cash_out_kinds import CASH_OUT_KINDS, payout_device
from oasis_kiosk.machine.response import Amount, Response
from oasis_kiosk.machine.terminal.transactions import Transactions
from oasis_kiosk.machine.tilts import TiltKind, attendant_clears


class CashOut(Transactions):
    """Pays money out."""

    def _on_cashout(self, value: int | None) -> Response:
        kind = CASH_OUT_KINDS[self.config.cashout]
        owed = kind.by_device(self.config, self.credits)
        if owed:
            self.payout = owed
            device = payout_device(self.config)
            coins, coin = self.payout_items, device.unit(self.config)
            self.store.event("payout_requested", coins=coins, coin=coin, device=device.name)
            return Response(True, device.words.paying, {"coins": coins, "coin": Amount(coin)})
        return self._request_handpay()

    def _request_handpay(self) -> Response:
        self.handpay = self.credits
        self.store.event("handpay_requested", amount=self.handpay)
        return self._handpay_called(self.handpay)

    @staticmethod
    def _handpay_called(amount: int) -> Response:
        return Response(True, N_("handpay of {amount}: call the attendant"), {"amount": Amount(amount)})

    def payout_item_paid(self, value: int) -> Response:
        """An item of ``value`` (a coin) left the payout device: booked at once, so a payout
        that stops short is exact. One that falls after the device stopped is booked against
        the handpay still to be paid (the attendant pays that much less), or, after a payout
        that ran and ended short (empty or jammed), against what it still owed while its tilt
        stands (``short_owed``): the jammed coin the attendant frees is the player's. One
        nothing owed (no payout, the handpay already paid, or more than any, or not whole
        items of the device) is paid money all the same: on the ledger at no credit, on its
        own meter, and a tilt for the attendant."""
        if value < 1:
            raise InputError(f"an item paid out is worth at least 1 minor unit, not {value}")
        device = payout_device(self.config)

        def book() -> Response:
            cash_out_handpay = self.handpay is not None and self.handpay_win is None
            if self.payout:
                owed = self.payout
            elif cash_out_handpay:
                owed = self.handpay or 0  # the cash-out's; money in since stays on the credits
            else:
                owed = self.short_owed or 0
            if value <= min(owed, self.credits) and device.whole_items(self.config, value) == value:
                self.store.post("cash_out", -value, device=device.name)
                self.store.add_meter("total_out", value)
                self.store.add_meter(device.meter, value)
                if self.payout:
                    self.payout = self.payout - value or None
                    if self.payout is None and self.credits:
                        # The last coin owed: what is left below a coin is handpaid, called for
                        # with the coin so that a power cut before the hopper reports its end
                        # cannot leave the cash-out half done.
                        self._request_handpay()
                elif cash_out_handpay:
                    self.handpay = owed - value or None
                    self.store.event("handpay_reduced", coin=value, amount=self.handpay or 0)
                else:
                    self.short_owed = owed - value or None
                return Response(True, device.words.paid, {"coin": Amount(value)})
            self.store.post(device.overpaid, 0, coin=value)
            self.store.add_meter(device.overpaid, value)
            self._tilt(device.overpaid, device.words.not_owed_reason.format(coin=value))
            return Response(False, device.words.not_owed)

        return self._commit(book)

    def payout_ended(self, short: int, tilt: str | None = None) -> Response:
        """The payout device stopped with ``short`` (minor units) of the payout still owed:
        complete (0; what is left below an item is handpaid), stopped by the attendant's key
        (the rest is handpaid), or short because the device is empty or jammed, or for the
        cause its ``tilt`` names (a tilt; the credits stay)."""

        def stop() -> Response:
            by_attendant = self.stopping
            self.payout, self.stopping = None, False
            if short and not by_attendant:
                device = payout_device(self.config)
                coins = device.items(self.config, short)
                if tilt is not None and tilt in device.short_for_cause:
                    cause = TiltKind(tilt)  # one of the device's own causes
                    self._tilt(cause, device.short_for_cause[cause].format(coins=coins))
                else:
                    self._tilt(device.stopped_short, device.words.short_reason.format(coins=coins))
                    self.short_owed = short  # it ran dry or jammed: a coin may yet fall
                return Response(False, device.words.short, {"short": coins})
            if self.credits and self.handpay is None:
                return self._request_handpay()
            if self.handpay is not None:  # called for with the last coin
                return self._handpay_called(self.handpay)
            return Response(True, N_("payout complete"))

        return self._commit(stop)

    def _on_attendant(self, value: int | None) -> Response:
        if self.payout:
            # The motor stops first (the cabinet sees ``stopping``); the handpay is fixed only
            # once the hopper reports it has stopped, so no coin can fall on both.
            self.stopping = True
            device = payout_device(self.config).name
            self.store.event("payout_stop_requested", coins_owed=self.payout_items, device=device)
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
