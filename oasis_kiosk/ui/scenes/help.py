"""The HELP scene: the rules of the active profile in the active language, then the
player's last rounds, a page a press; the paytables in their column, or beside the rules on
a compact screen where there is room, else on a first page of their own. It is drawn over the game's table, whose regions,
meters and buttons stay: the game scene shows it while the player pages through it."""

from __future__ import annotations

from collections.abc import Hashable, Iterator

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
        self._history: tuple[Hashable, list[str]] | None = None
        """The last rounds' sentences, and what they were written from (``written``): a
        press and its frame need them, not two replays."""
        self._rounds_read: tuple[int, int] | None = None
        """The terminal's change count, and the next round's number the books gave then."""
        self._paged: tuple[tuple[Hashable, Layout], tuple[int, int, rulebook.Pages]] | None = None
        """The rules paged for a screen, and what they were written from."""

    def written(self) -> tuple[Hashable, ...]:
        """What the pages are written from: the rules and the ante (the prices), the language,
        and the rounds the books have closed, which change only as a round opens or closes
        (the next round's number and the open one's), not at each input: a HELP press is a
        commit too, and the last rounds' sentences replay ten rounds."""
        terminal = self.terminal
        if self._rounds_read is None or self._rounds_read[0] != terminal.changes:
            self._rounds_read = (terminal.changes, terminal.store.next_round_id())
        rounds = (self._rounds_read[1], terminal.round_id)
        return terminal.profile.digest, terminal.ante, i18n.active(), rounds

    def _rules(self, lay: Layout) -> tuple[int, int, rulebook.Pages]:
        """The rules, paged for this screen."""
        written = self.written()[:3]
        if self._paged is not None and self._paged[0] == (written, lay):
            return self._paged[1]
        self._paged = ((written, lay), rulebook.pages(*self._rules_lines(lay)))
        return self._paged[1]

    def _rules_lines(self, lay: Layout) -> tuple[tuple[str, ...], Layout, bool]:
        """The rules' sentences, the layout and whether the paytables fit beside them."""
        rules, cash = self.terminal.rules, cash_for(self.terminal)
        lines = rules_text.rules_lines(rules, cash, self.terminal.profile, self.terminal.ante)
        beside = paytable.both_fit(
            lay.table.h, rules_text.paytable_rows(rules), rules_text.bonus_rows(rules, cash), lay.floor
        )
        return tuple(lines), lay, beside

    def drawing_ahead(self, lay: Layout) -> Iterator[None]:
        """The rules' first page laid out and its lines rendered, a step at a time (in
        frames with nothing to paint): HELP's first opening then paints with them kept."""
        yield
        yield from rulebook.paging(*self._rules_lines(lay))

    def _rounds(self, lay: Layout) -> tuple[int, int, rulebook.Pages]:
        """The player's last rounds (``ui/history.py``), paged for this screen; none before
        the first round."""
        written_at = self.written()
        if self._history is None or self._history[0] != written_at:
            self._history = (written_at, history.history_lines(self.terminal, cash_for(self.terminal)))
        lines = self._history[1]
        return rulebook.pages(tuple(lines), lay, False) if len(lines) > 1 else (lay.small, lay.table.w, ())

    @staticmethod
    def _tables_page(lay: Layout, rules_width: int) -> bool:
        """Whether both paytables have a page of their own: on a compact screen whose
        paytable is a strip of a few rows, where the rules (``rules_width`` wide) leave them
        no room beside."""
        return lay.compact and rules_width >= lay.table.w

    def pages(self, lay: Layout) -> list[tuple[str, ...]]:
        """Every page HELP steps through: both paytables where they have a page of their
        own, the rules, then the last rounds."""
        _size, width, rules = self._rules(lay)
        tables = [(_("PAYTABLE (play bet)"),)] if self._tables_page(lay, width) else []
        return [*tables, *rules, *self._rounds(lay)[2]]

    def draw(self, surface: pygame.Surface, lay: Layout, page: int) -> None:
        """Page ``page`` over the table (and its number, when there is more than one)."""
        table = lay.table
        pygame.draw.rect(surface, render.FELT_DARK, render.rect(table))
        rule_pages, round_pages = self._rules(lay), self._rounds(lay)
        tables = int(self._tables_page(lay, rule_pages[1]))
        count = len(rule_pages[2])
        total = tables + count + len(round_pages[2])
        page = min(page, total - 1)
        rules, cash = self.terminal.rules, cash_for(self.terminal)
        rows, bonus = rules_text.paytable_rows(rules), rules_text.bonus_rows(rules, cash)
        if page < tables:  # the page number goes under the tables, not over their last rows
            size, area = lay.small, Box(table.x, table.y, table.w, table.h)
            tables_area = Box(table.x, table.y, table.w, table.h - lay.small * 2).shrink(lay.small)
            paytable.side_by_side(surface, tables_area, rows, bonus, lay.medium, lay.floor)
        else:
            at = page - tables
            (size, width, pages), first = (rule_pages, at) if at < count else (round_pages, at - count)
            area = Box(table.x, table.y, width, table.h)
            rulebook.sentences(surface, area, pages[first], size, lay.small, titled=first == 0)
            if width < table.w:
                beside = Box(table.x + width, table.y, table.w - width, table.h)
                paytable.both(surface, beside, rows, bonus, lay.small, lay.floor)
        if total > 1:
            turn = _("HELP: next page") if page + 1 < total else _("HELP: back to the game")
            said = _("page {page} of {pages}").format(page=page + 1, pages=total)
            number = render.text(f"{said} · {turn}", size, render.GOLD)
            surface.blit(
                number, number.get_rect(bottomright=(area.right - lay.small, area.bottom - lay.small // 2))
            )
