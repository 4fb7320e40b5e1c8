"""The hardware test page: every button, switch, coin and note the cabinet reports, in
the screen's language, each pressed button's lamp lit; it ends by END TEST, by leaving the
page, or by itself when the buttons rest."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from oasis_kiosk.hardware.cabinet import Cabinet, Reported, Seen, Taken
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.i18n import _, ngettext
from oasis_kiosk.machine.events import sentence
from oasis_kiosk.machine.intents import BUTTON_LABELS, BUTTONS, Intent
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import render
from oasis_kiosk.ui.scenes.operator.page import OperatorPage
from oasis_kiosk.ui.view import cash_for

TEST_TIMEOUT = 20.0  # seconds without a press that end the hardware test
BUTTON_NAMES = {Press(intent, value): name for name, (intent, value) in BUTTONS.items()}
"""Each button by the press it makes: the name of its lamp."""


class HardwareTestPage(OperatorPage):
    """The hardware test: its start, its following of the cabinet's reports, its end, and
    its page."""

    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        super().__init__(terminal, cabinet, screen)
        self.test_idle = 0.0
        self._seen = 0
        """How many reports of the hardware test are on screen."""

    def _start_test(self) -> None:
        self.cabinet.start_test()
        self._seen, self.test_idle = 0, 0.0

    def _step_test(self, seconds: float) -> None:
        """The test follows what the cabinet saw; it ends when the buttons rest."""
        if len(self.cabinet.seen) != self._seen:
            self._seen, self.test_idle = len(self.cabinet.seen), 0.0
            self._light_tested()
            self.dirty = True
        else:
            self.test_idle += seconds
        if self.test_idle >= TEST_TIMEOUT:
            self._end_test()
            self.dirty = True

    def _light_tested(self) -> None:
        """Each button pressed during the test lights its own lamp: the lamp works too."""
        pressed = {seen for seen in self.cabinet.seen if isinstance(seen, Press)}
        self.cabinet.light({BUTTON_NAMES[press] for press in pressed if press in BUTTON_NAMES})

    def _end_test(self) -> None:
        seen = self.cabinet.end_test()
        self.notice = ngettext(
            "Test over: {count} input seen.", "Test over: {count} inputs seen.", len(seen)
        ).format(count=len(seen))

    def _draw_test(self, top: int) -> None:
        """What the test saw, newest first, in the screen's language, beside END TEST."""
        size = self.size
        if not self.cabinet.testing:
            self._paragraph(
                _("DEAL starts the test: every button, switch and coin is reported."), render.GOLD, top
            )
            return
        area = pygame.Rect(self.screen.get_width() - size * 12, top, size * 10, size * 3)
        render.button(self.screen, area, _("END TEST"), True, size)
        self.hotspots.append((area, "end_test"))
        room = area.x - size * 2
        said = _("Press each button and insert money: each is listed, a pressed button's lamp lights.")
        top = self._paragraph(said, render.GOLD, top, room)
        cash = cash_for(self.terminal)
        for seen in reversed(self.cabinet.seen[-self._rows_fit(top) :]):
            self.screen.blit(self._shortened(seen_said(seen, cash), render.WHITE, room), (size, top))
            top += self.line_height


def seen_said(seen: Seen, cash: Callable[[int], str]) -> str:
    """An input of the hardware test in the screen's language: a button by the name on it,
    money as money, a switch or a device's report as the event log says it."""
    match seen:
        case Taken(kind=kind, value=value):
            return _(kind.said).format(amount=cash(value))
        case Press(intent=Intent.CARD, value=number):
            return _("CARD {number}").format(number=number)
        case Press(intent=intent) if intent in BUTTON_LABELS:
            return _(BUTTON_LABELS[Intent(intent)])
        case Press(intent=switch):
            return sentence({"kind": switch, "detail": {}}, cash)
        case Reported(kind=kind, detail=detail):
            return sentence({"kind": kind, "detail": detail}, cash)
