"""The service page: an operator credit typed and credited, and the void of a round that
cannot resume."""

from __future__ import annotations

import pygame

from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.i18n import _
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.machine.tilts import TiltKind
from oasis_kiosk.ui.scenes.operator.page import OperatorPage
from oasis_kiosk.ui.view import cash_for

MAX_AMOUNT_DIGITS = 9


class ServicePage(OperatorPage):
    """The service page: its digits, EXCHANGE and PLAY, what DEAL and PLAY confirm, and
    its lines."""

    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        super().__init__(terminal, cabinet, screen)
        self.amount = ""
        """An operator credit being typed, in minor units."""

    def _service_button(self, press: Press) -> bool:
        """The service page's own buttons: digits type an operator credit, EXCHANGE clears
        it, PLAY (twice) voids a round that cannot resume. True if the press was one."""
        if press.intent in {Intent.CARD, "digit"} and len(self.amount) < MAX_AMOUNT_DIGITS:
            self.amount += str(press.value or 0)
            self.confirming = None
        elif press.intent == Intent.EXCHANGE:
            self.amount, self.confirming = "", None
        elif press.intent == Intent.PLAY:
            if self._confirmed("void"):
                self._void()
        else:
            return False
        return True

    def _credit(self) -> None:
        amount, self.amount = int(self.amount or 0), ""
        self.menu.add_credit(amount, "operator credit at the cabinet")
        self.notice = _("{amount} credited.").format(amount=cash_for(self.terminal)(amount))

    def _void(self) -> None:
        self.menu.void_open_round("voided at the cabinet: it could not resume")
        self.notice = _("The round is void; its stakes are refunded.")

    def _draw_service(self, top: int) -> None:
        cash = cash_for(self.terminal)
        unresumable = TiltKind.RESUME in self.terminal.tilts
        lines = [
            (_("Operator credit (digits; EXCHANGE clears; DEAL twice credits)"), cash(int(self.amount or 0))),
            (_("Credits now"), cash(self.terminal.credits)),
            ("", ""),
            (
                _("A round cannot resume: PLAY twice voids it and refunds its stakes.")
                if unresumable
                else _("No round waits to be voided."),
                "",
            ),
        ]
        self._lines(top, lines, width=self.screen.get_width() - self.size * 2)
