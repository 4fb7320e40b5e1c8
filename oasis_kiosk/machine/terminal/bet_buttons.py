"""The betting buttons: between rounds they place the bets ``machine/betting.py`` chose for a
press, REPEAT BET deals the last round's again; during a round BET and BET − choose the
amount to insure.
"""

from __future__ import annotations

from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.betting import BetChoice
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.response import Amount, Response
from oasis_kiosk.machine.terminal.inputs import Inputs


class BetButtons(Inputs):
    """Takes the betting buttons."""

    def _place_choice(self, choice: BetChoice) -> Response:
        """Places the bets a betting button chose: the screen clears the last round's chips."""
        self._place(choice.bets)
        self.bet_since_round = True
        return choice.response

    def _on_bet(self, value: int | None) -> Response:
        if self.round is not None:  # the insurance phase: BET steps the amount to insure
            amounts = self.insurance_amounts()
            current = self.insurance_amount
            self.insurance = amounts[(amounts.index(current) + 1) % len(amounts)] if current else None
            return Response(True, N_("insure {amount}"), {"amount": Amount(self.insurance or 0)})
        return self._place_choice(self.betting.bet(self.bets, self.bet_box))

    def _on_bet_down(self, value: int | None) -> Response:
        if self.round is not None:
            amounts = self.insurance_amounts()
            self.insurance = amounts[amounts.index(self.insurance_amount or amounts[0]) - 1]
            return Response(True, N_("insure {amount}"), {"amount": Amount(self.insurance)})
        return self._place_choice(self.betting.bet_down(self.bets, self.bet_box))

    def _on_max_bet(self, value: int | None) -> Response:
        return self._place_choice(self.betting.max_bet(self.bets, self.credits, self.bet_box))

    def _on_bonus(self, value: int | None) -> Response:
        return self._place_choice(self.betting.bonus(self.bets))

    def _on_boxes(self, value: int | None) -> Response:
        return self._place_choice(self.betting.boxes(self.bets))

    def _on_repeat_bet(self, value: int | None) -> Response:
        """The last round's bets dealt again in one press."""
        before, last = self.bets, self.last_bets
        if last is None:  # live only after a round: never so here
            return self.why_not(Intent.REPEAT_BET, value)
        self._place(last)
        response = self._on_deal(value)
        if not response.ok:
            self._place(before)
        return response
