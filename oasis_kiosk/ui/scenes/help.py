"""The HELP scene: the rules of the active profile in the active language, then the
player's last rounds, a page a press; the paytables in their column, or beside the rules on
a compact screen where there is room. It is drawn over the game's table, whose regions,
meters and buttons stay: the game scene shows it while the player pages through it."""

from __future__ import annotations

import pygame

from oasis_kiosk import i18n
from oasis_kiosk.i18n import _
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import history, render, rules_text
from oasis_kiosk.ui.layout import Box, Layout
from oasis_kiosk.ui.view import cash_for
from oasis_kiosk.ui.widgets import paytable, rulebook


class HelpPages:
    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self._history: tuple[tuple[int, str], list[str]] | None = None
        """The last rounds' sentences, and the terminal's change count and language they
        were written at: a press and its frame need them, not two replays."""

    def _rules(self, lay: Layout) -> tuple[int, int, rulebook.Pages]:
        """The rules, paged for this screen."""
        rules, cash = self.terminal.rules, cash_for(self.terminal)
        lines = rules_text.rules_lines(rules, cash, self.terminal.profile.prices(self.terminal.ante))
        beside = paytable.both_fit(
            lay.table.h, rules_text.paytable_rows(rules), rules_text.bonus_rows(rules, cash), lay.floor
        )
        return rulebook.pages(tuple(lines), lay, beside)

    def _rounds(self, lay: Layout) -> tuple[int, int, rulebook.Pages]:
        """The player's last rounds (``ui/history.py``), paged for this screen; none before
        the first round."""
        written_at = (self.terminal.changes, i18n.active())
        if self._history is None or self._history[0] != written_at:
            self._history = (written_at, history.history_lines(self.terminal, cash_for(self.terminal)))
        lines = self._history[1]
        return rulebook.pages(tuple(lines), lay, False) if len(lines) > 1 else (lay.small, lay.table.w, ())

    def pages(self, lay: Layout) -> list[tuple[str, ...]]:
        """Every page HELP steps through: the rules, then the last rounds."""
        return [*self._rules(lay)[2], *self._rounds(lay)[2]]

    def draw(self, surface: pygame.Surface, lay: Layout, page: int) -> None:
        """Page ``page`` over the table (and its number, when there is more than one)."""
        table = lay.table
        pygame.draw.rect(surface, render.FELT_DARK, render.rect(table))
        rule_pages, round_pages = self._rules(lay), self._rounds(lay)
        count = len(rule_pages[2])
        total = count + len(round_pages[2])
        page = min(page, total - 1)
        (size, width, pages), first = (rule_pages, page) if page < count else (round_pages, page - count)
        area = Box(table.x, table.y, width, table.h)
        rulebook.sentences(surface, area, pages[first], size, lay.small, titled=first == 0)
        if total > 1:
            number = render.text(
                _("page {page} of {pages}").format(page=page + 1, pages=total), size, render.GOLD
            )
            surface.blit(
                number, number.get_rect(bottomright=(area.right - lay.small, area.bottom - lay.small // 2))
            )
        if width < table.w:
            rules = self.terminal.rules
            paytable.both(
                surface,
                Box(table.x + width, table.y, table.w - width, table.h),
                rules_text.paytable_rows(rules),
                rules_text.bonus_rows(rules, cash_for(self.terminal)),
                lay.small,
                lay.floor,
            )
