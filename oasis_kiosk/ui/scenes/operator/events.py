"""The event log page: the newest entries first, each its local time and a sentence."""

from __future__ import annotations

from oasis_kiosk import i18n
from oasis_kiosk.machine.events import sentence
from oasis_kiosk.ui import render
from oasis_kiosk.ui.scenes.operator.page import OperatorPage
from oasis_kiosk.ui.view import cash_for


class EventLogPage(OperatorPage):
    """The event log page, scrolled by PLAY and FOLD."""

    def _draw_events(self, top: int) -> None:
        """The log, newest first, each entry its local time and a sentence; PLAY scrolls to
        older entries."""
        events = self.menu.events(200)
        fit = self._rows_fit(top) - 1  # above the line saying there are more
        self.scroll = min(self.scroll, max(len(events) - fit, 0))
        end = len(events) - self.scroll
        size, width = self.size, self.screen.get_width()
        cash = cash_for(self.terminal)
        for number, event in enumerate(reversed(events[max(end - fit, 0) : end])):
            y = top + number * self.line_height
            when = render.text(i18n.local_time(event["at"]), size, render.DIM)
            self.screen.blit(when, (size, y))
            said = self._shortened(sentence(event, cash), render.WHITE, width - when.get_width() - size * 3)
            self.screen.blit(said, (size * 2 + when.get_width(), y))
        self._more(top + fit * self.line_height, max(end - fit, 0))
