"""The PIN that opens the menu: typed on the card buttons, the keypad drawn on the screen
or a keyboard, DEAL trying it."""

from __future__ import annotations

import pygame

from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.i18n import _
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.operator import MAX_PIN_LENGTH, PIN_DIGITS
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import render
from oasis_kiosk.ui.scenes.operator.page import OperatorPage


class PinPage(OperatorPage):
    """The PIN being typed, and its page: the keypad under the dots typed so far."""

    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        super().__init__(terminal, cabinet, screen)
        self.pin = ""

    def _pin_button(self, press: Press) -> None:
        if not self.menu.pin_is_set:
            return  # the page says so: no PIN typed would open the menu
        if (
            press.intent in {Intent.CARD, "digit"}
            and press.value is not None
            and len(self.pin) < MAX_PIN_LENGTH
        ):
            self.pin += str(press.value)
        elif press.intent == Intent.FOLD:
            self.pin = ""
        elif press.intent == Intent.DEAL:
            pin, self.pin = self.pin, ""
            self.menu.login(pin)
            self.notice = ""

    def _draw_pin(self, width: int, height: int) -> None:
        size = self.size
        if not self.menu.pin_is_set:  # said at once: no PIN typed would open the menu
            missing = _("No PIN is set: stop the kiosk and set one with oasis-kiosk set-pin.")
            self._paragraph(missing, render.GOLD, size * 4)
            return
        prompt = _("Enter the PIN (card buttons 1-5 or the keypad), then DEAL.")
        below = self._paragraph(prompt, render.WHITE, size * 4)
        shown = render.text("•" * len(self.pin) or "_", size * 2, render.GOLD, True)
        self.screen.blit(shown, (size, below + size // 2))
        key = min(width // 8, height // 8)
        self._keypad([*PIN_DIGITS, "clear", "enter"], 4, key, (size, below + size * 4))
