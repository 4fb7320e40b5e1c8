"""The event log page: the newest entries first, each its local time and a sentence, a
sentence too long for one line going on to the next (at the menu's size: never cut short,
never smaller than the others)."""

from __future__ import annotations

from oasis_kiosk import i18n
from oasis_kiosk.machine.events import sentence
from oasis_kiosk.ui import render
from oasis_kiosk.ui.scenes.operator.page import OperatorPage
from oasis_kiosk.ui.view import cash_for

Entry = tuple[str, tuple[str, ...]]
"""An entry as the page draws it: its local time, and its sentence in lines."""


class EventLogPage(OperatorPage):
    """The event log page, scrolled by PLAY and FOLD an entry at a time."""

    def _draw_events(self, top: int) -> None:
        """The log, newest first, each entry its local time and a sentence on as many lines
        as it takes; PLAY scrolls to older entries."""
        entries = self._entries()
        rows = self._rows_fit(top) - 1  # above the line saying there are more
        self.scroll = min(self.scroll, len(entries) - _fitting(entries[::-1], rows))
        size = self.size
        shown = _fitting(entries[self.scroll :], rows) or 1  # one too long for the page: its start
        y = top
        for when_said, lines in entries[self.scroll : self.scroll + shown]:
            when = render.text(when_said, size, render.DIM)
            self.screen.blit(when, (size, y))
            for line in lines[: max((top + rows * self.line_height - y) // self.line_height, 1)]:
                self.screen.blit(render.text(line, size, render.WHITE), (size * 2 + when.get_width(), y))
                y += self.line_height
        self._more(top + rows * self.line_height, len(entries) - self.scroll - shown)

    def _entries(self) -> list[Entry]:
        """The log's last 200 entries, newest first, each sentence broken into the lines
        that fit beside its time."""
        size, width = self.size, self.screen.get_width()
        cash = cash_for(self.terminal)
        entries = []
        for event in reversed(self.menu.events(200)):
            when = i18n.local_time(event["at"])
            room = width - render.font(size).size(when)[0] - size * 3
            entries.append((when, render.wrap(sentence(event, cash), size, room) or ("",)))
        return entries


def _fitting(entries: list[Entry], rows: int) -> int:
    """How many of ``entries``, from the first, fit whole in ``rows`` lines."""
    count = used = 0
    for _when, lines in entries:
        used += len(lines)
        if used > rows:
            break
        count += 1
    return count
