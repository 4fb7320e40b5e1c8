"""The service page: an operator credit typed and credited, and the void of a round that
cannot resume."""

from __future__ import annotations

import pygame

from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.i18n import _
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import render
from oasis_kiosk.ui.scenes.operator.page import KEY_GAP, OperatorPage
from oasis_kiosk.ui.view import cash_for

MAX_AMOUNT_DIGITS = 9
KEYS = [*"123456789", "clear", "0", "enter"]
"""The service page's keypad, as a telephone's: every digit a credit may need."""


class ServicePage(OperatorPage):
    """The service page: its digits (FOLD types 0), EXCHANGE and PLAY, what DEAL and PLAY
    confirm, its lines and its keypad."""

    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        super().__init__(terminal, cabinet, screen)
        self.amount = ""
        """An operator credit being typed, in minor units."""

    def _service_button(self, press: Press) -> bool:
        """The service page's own buttons: digits type an operator credit (the card buttons
        type 1 to 5, and FOLD 0, unless it cancels an action asked to confirm), EXCHANGE
        clears it, PLAY (twice) voids a round that cannot resume. True if the press was one."""
        zero = press.intent == Intent.FOLD and self.confirming is None
        if (press.intent in {Intent.CARD, "digit"} or zero) and len(self.amount) < MAX_AMOUNT_DIGITS:
            self.amount += str(press.value or 0)
            self._cancel()
        elif press.intent == Intent.EXCHANGE:
            self.amount = ""
            self._cancel()
        elif press.intent == Intent.PLAY:
            if self._confirmed("void", Intent.PLAY):
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
        """The credit typed and the credits now at the left, the keypad at the right, as
        tall as the room above the notice allows."""
        size, width = self.size, self.screen.get_width()
        rows = -(-len(KEYS) // 3)
        top += size // 2  # clear of the tabs
        key = min(width // 8, self.screen.get_height() // 8, (self.foot - top) // rows - KEY_GAP)
        keypad = self._keypad(KEYS, 3, key, (width - size, top), right=True)
        room = keypad - size * 3
        cash = cash_for(self.terminal)
        said = _(
            "Type the credit in minor units (100 is {one}): the keypad, or the card buttons 1-5 "
            "and FOLD for 0. EXCHANGE clears, DEAL twice credits."
        ).format(one=cash(100))
        below = self._paragraph(said, render.WHITE, top, room)
        lines = [
            (_("Operator credit"), cash(int(self.amount or 0))),
            (_("Credits now"), cash(self.terminal.credits)),
        ]
        self._lines(below + size // 2, lines, width=room)
        void = (
            _("A round cannot resume: PLAY twice voids it and refunds its stakes.")
            if self.menu.round_to_void
            else _("No round waits to be voided.")
        )
        self._paragraph(void, render.GOLD, below + size // 2 + self.line_height * 3, room)
