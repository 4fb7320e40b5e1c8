"""The meters page (every meter, lifetime and this period) and the jackpot page (the meter,
its settings and its last hits); DEAL twice starts a new period or brings the jackpot
meter up to its base."""

from __future__ import annotations

from collections.abc import Callable

from oasis_kiosk import i18n
from oasis_kiosk.i18n import _
from oasis_kiosk.machine.meters import METERS, denomination, every_meter
from oasis_kiosk.ui import render
from oasis_kiosk.ui.scenes.operator.page import OperatorPage
from oasis_kiosk.ui.view import cash_for


class MetersPages(OperatorPage):
    """The meters page and the jackpot page, and what DEAL confirms on each."""

    def _draw_meters(self, top: int) -> None:
        """Every meter, with its lifetime and this period's value side by side, PLAY and
        FOLD scrolling where they do not fit."""
        config, cash = self.terminal.config, cash_for(self.terminal)
        lifetime = every_meter(self.menu.meters(), config)
        period = every_meter(self.menu.period_meters(), config)
        rows = [
            (*meter_row(name, value, cash), meter_row(name, period[name], cash)[1])
            for name, value in lifetime.items()
        ]
        fit = self._rows_fit(top) - 2  # between the columns' titles and the line saying there are more
        self.scroll = min(self.scroll, max(len(rows) - fit, 0))
        size, width = self.size, self.screen.get_width()
        column = width // 5
        titles = (_("DEAL twice: new period"), _("LIFETIME"), _("THIS PERIOD"))
        for number, (name, *values) in enumerate([titles, *rows[self.scroll : self.scroll + fit]]):
            y = top + number * self.line_height
            colour = render.GOLD if number == 0 else render.WHITE
            self.screen.blit(self._fitted(name, colour, width - column * 2 - size * 3), (size, y))
            for right, value in zip((width - column - size, width - size), values, strict=True):
                words = self._fitted(value, colour, column - size)
                self.screen.blit(words, (right - words.get_width(), y))
        self._more(top + (fit + 1) * self.line_height, len(rows) - self.scroll - fit)

    def _draw_jackpot(self, top: int) -> None:
        cash = cash_for(self.terminal)
        settings = self.terminal.config.jackpot
        lines = [
            (_("Meter"), cash(self.terminal.jackpot.value)),
            (_("Base"), cash(settings.base)),
            (_("Share of each bonus stake"), str(settings.rate)),
            (_("Maximum"), cash(settings.maximum)),
        ]
        if settings.lost_ante_rate:
            lines.insert(3, (_("Share of each lost ante"), str(settings.lost_ante_rate)))
        if self.terminal.jackpot.value < settings.base:  # else only a hit lowers it: nothing to offer
            lines.append((_("DEAL twice: bring the meter up to its base"), ""))
        hits = [
            (f"{i18n.local_time(hit['at'])}  #{hit['round']}", cash(hit["amount"]))
            for hit in reversed(self.menu.jackpot_hits())
        ]
        lines += [(_("Last hits"), ""), *hits] if hits else [(_("Last hits"), _("none"))]
        self._lines(top, lines)

    def _reset_period(self) -> None:
        self.menu.reset_period()
        self.notice = _("A new period starts.")

    def _reset_jackpot(self) -> None:
        self.menu.reset_jackpot()
        self.notice = _("The jackpot meter is at its base.")


def meter_row(name: str, value: int, cash: Callable[[int], str]) -> tuple[str, str]:
    """A meter as the menu lists it: its name in the active language, its value as money
    or as a count (coins and notes of each denomination are counts)."""
    counted = denomination(name)
    if counted is not None:
        label, coin = counted
        return _(label).format(value=cash(coin)), i18n.number(value)
    meter = METERS.get(name)
    if meter is not None:
        return _(meter.label), i18n.number(value) if meter.count else cash(value)
    return name, i18n.number(value)
