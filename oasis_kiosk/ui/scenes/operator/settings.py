"""The settings page: the rules (with their return, computed where it is not known, in a
thread of its own, when they are applied), the language, hints, volumes and speed."""

from __future__ import annotations

import threading
from typing import Any

import pygame

from oasis_kiosk import i18n, profile_names, returns
from oasis_kiosk._core import Profile
from oasis_kiosk.config import MAX_VOLUME, SPEEDS
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.i18n import N_, _
from oasis_kiosk.machine.events import SETTING_WORDS
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.operator import OperatorError, ReturnsRefusedError, ReturnsUnknownError
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import StoreError
from oasis_kiosk.ui import render
from oasis_kiosk.ui.scenes.operator.page import OperatorPage
from oasis_kiosk.ui.view import cash_for

Rules = tuple[str, dict[str, Any] | None]
"""A profile (a shipped id or a file) and the overrides merged over it."""


class CancelledError(Exception):
    """The operator left the menu or cancelled while the return was being computed."""


class ReturnsWorker:
    """Computes the return of rules being applied in a thread of its own: the core releases
    the GIL, so the frame loop keeps drawing (its progress among the rest)."""

    def __init__(self, rules: Rules, profile: Profile, rounds: int) -> None:
        self.rules = rules
        self.done = 0.0
        """The share of the work done, 0 to 1."""
        self.figures: returns.Figures | None = None
        self.error: str | None = None
        self.cancelled = False
        self.thread = threading.Thread(target=self._run, args=(profile, rounds), name="returns", daemon=True)
        self.thread.start()

    def _run(self, profile: Profile, rounds: int) -> None:
        try:
            self.figures = returns.compute(profile, rounds=rounds, progress=self._progress)
        except Exception as error:  # reported on the screen, never lost in the thread
            self.error = None if self.cancelled else str(error)

    def _progress(self, done: int, total: int) -> None:
        if self.cancelled:
            raise CancelledError  # the core stops at an exception in its progress callback
        self.done = done / total

    def cancel(self) -> None:
        self.cancelled = True

    @property
    def finished(self) -> bool:
        return not self.thread.is_alive()


class SettingsPage(OperatorPage):
    """The settings page: the rules chosen and their return being computed, the other
    settings stepped by the card buttons, and its lines."""

    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        super().__init__(terminal, cabinet, screen)
        config = terminal.config
        running: Rules = (config.profile, config.profile_overrides)
        shipped: list[Rules] = [(name, None) for name in profile_names()]
        self.rules_choices = shipped if running in shipped else [running, *shipped]
        """The rules CARD 1 picks from: the shipped profiles, and the rules the terminal
        started with where they are another (an override, a profile file)."""
        self.rules_choice = self._running_rules()
        self.rounds = returns.ROUNDS
        """Rounds per ante simulated where rules being applied have no known return."""
        self.worker: ReturnsWorker | None = None
        self._drawn_done = 0
        """The percentage of the return being computed on screen: the bar redraws when it moves."""

    def _running_rules(self) -> Rules:
        config = self.terminal.config
        running: Rules = (config.profile, config.profile_overrides)
        return running if running in self.rules_choices else (self.terminal.profile.id, None)

    def _settings_button(self, press: Press) -> bool:
        """The settings page's own buttons: the card buttons step a setting, EXCHANGE the
        attract mode's volume. True if the press was one."""
        if press.intent == Intent.CARD:
            self._setting(press.value or 0)
        elif press.intent == Intent.EXCHANGE:
            # The card buttons run out at five: the attract mode's volume is on EXCHANGE.
            attract = self.terminal.config.attract_volume
            self.menu.set_attract_volume((attract + 1) % (MAX_VOLUME + 1))
        else:
            return False
        return True

    def _setting(self, card: int) -> None:
        config = self.terminal.config
        if card == 1:
            choices = self.rules_choices
            current = choices.index(self.rules_choice) if self.rules_choice in choices else -1
            self.rules_choice = choices[(current + 1) % len(choices)]
            self.notice = self._rules_refusal(self.rules_choice) or _(
                "Press DEAL twice to play {profile} from the next round."
            ).format(profile=self._rules_name(self.rules_choice))
        elif card == 2:
            languages = list(i18n.LANGUAGES)
            self.menu.set_language(languages[(languages.index(config.language) + 1) % len(languages)])
        elif card == 3:
            self.menu.set_hints(not self.terminal.hints)
        elif card == 4:
            self.menu.set_volume((config.volume + 1) % (MAX_VOLUME + 1))
        elif card == 5:
            self.menu.set_speed(SPEEDS[(SPEEDS.index(config.speed) + 1) % len(SPEEDS)])

    def _apply_rules(self, rules: Rules) -> None:
        """Applies the rules, or says why not; rules whose return is not known yet start
        its computation, and are applied (or refused) once it is known."""
        try:
            self.menu.set_rules(*rules)
        except ReturnsUnknownError as unknown:
            self.worker = ReturnsWorker(rules, unknown.profile, self.rounds)
            self.notice = ""
        except ReturnsRefusedError as refused:
            self.notice = self._refusal(refused.breaches[0])  # one line: the first return outside
        else:
            self.notice = _("The rules are now {name}.").format(name=self.terminal.rules["name"])

    def _follow_worker(self, worker: ReturnsWorker) -> None:
        if not worker.finished:
            self.dirty = self.dirty or int(worker.done * 100) != self._drawn_done
            return
        self.worker, self.dirty = None, True
        if worker.figures is None:
            self.notice = _("The return could not be computed: {reason}").format(reason=worker.error)
            return
        try:
            self.menu.book_returns(worker.figures)
            self._apply_rules(worker.rules)
        except (OperatorError, StoreError) as error:
            self.notice = self._refused(error)

    def _rules_refusal(self, rules: Rules) -> str | None:
        """Why the machine would refuse these rules now (None: it would not; a return not
        known yet is computed once they are applied)."""
        try:
            self.menu.check_rules(*rules)
        except ReturnsUnknownError:
            return None
        except ReturnsRefusedError as refused:
            return self._refusal(refused.breaches[0])
        except OperatorError as error:
            return self._refused(error)
        return None

    def _refusal(self, breach: returns.Breach) -> str:
        """A return outside its bound, or not known, in the screen's language."""
        cash = cash_for(self.terminal)
        how = {
            "without_bonus": N_("without the bonus bet"),
            "blind": N_("a blind box"),
            "for_main": N_("with the bonus bet, deciding for the main game alone"),
            "greatest": N_("kept on every hand"),
            "greatest_with_jackpot": N_("kept on every hand, each jackpot award at the meter's maximum"),
        }
        profile = breach.profile
        if breach.bet in how:
            profile += f" ({_(how[breach.bet])})"
        if breach.value is None:
            return _(
                "The side bet of {profile} at a stake of {amount}: the most it returns is not known."
            ).format(profile=profile, amount=cash(breach.amount))
        said = {
            (False, True): N_(
                "{profile} at an ante of {amount} returns {figure}, above the maximum of {bound}."
            ),
            (False, False): N_(
                "{profile} at an ante of {amount} returns {figure}, below the minimum of {bound}."
            ),
            (True, True): N_(
                "The side bet of {profile} at a stake of {amount} returns {figure}, above the maximum of {bound}."
            ),
            (True, False): N_(
                "The side bet of {profile} at a stake of {amount} returns {figure}, below the minimum of {bound}."
            ),
        }[breach.side, breach.above]
        figure = _figure(breach.value, breach.ci95)
        if breach.lost_antes:
            figure = _("{figure} with up to {share} of lost antes on the jackpot").format(
                figure=figure, share=i18n.percent(breach.lost_antes)
            )
        return _(said).format(
            profile=profile, amount=cash(breach.amount), figure=figure, bound=i18n.percent(breach.bound)
        )

    def _rules_name(self, rules: Rules) -> str:
        profile, overrides = rules
        configured = overrides is not None or profile not in profile_names()
        return _("{profile} as configured").format(profile=profile) if configured else profile

    def _draw_settings(self, top: int) -> None:
        config = self.terminal.config
        hints = self.terminal.hints
        lines = [
            (_("CARD 1  Rules (DEAL twice applies)"), self._rules_name(self.rules_choice)),
            *self._return_lines(self.rules_choice),
            (_("CARD 2  Language"), i18n.LANGUAGES[config.language]),
            (_("CARD 3  Hints"), _("on") if hints else _("off")),
            (_("CARD 4  Volume"), f"{config.volume}/{MAX_VOLUME}"),
            (_("CARD 5  Speed"), _(SETTING_WORDS[config.speed])),
            (_("EXCHANGE  Attract mode volume"), f"{config.attract_volume}/{MAX_VOLUME}"),
            (_("Playing now"), self.terminal.rules["name"]),
        ]
        width = self.screen.get_width() - self.size * 2
        self._lines(top, lines, width=width)
        if self.worker is not None:
            self._draw_progress(self.worker, top + (len(lines) + 1) * self.line_height, width)

    def _return_lines(self, rules: Rules) -> list[tuple[str, str]]:
        """The return of the rules being chosen, beside them, and the approved range."""
        bounds = self.terminal.config.return_bounds
        approved = _("{low} to {high}; side bet {side_low} to {side_high}").format(
            low=i18n.percent(bounds.return_min),
            high=i18n.percent(bounds.return_max),
            side_low=i18n.percent(bounds.side_return_min),
            side_high=i18n.percent(bounds.side_return_max),
        )
        try:
            figures = self.menu.returns_of(*rules)
        except OperatorError as error:
            return [(_("Return"), self._refused(error))]
        if figures is None:
            return [
                (_("Return"), _("not known yet: computed when applied")),
                (_("Approved return"), approved),
            ]
        cash = cash_for(self.terminal)
        lines = [
            (
                _("Return at an ante of {ante}").format(ante=cash(main.ante)),
                _figure(main.value, main.ci95),
            )
            for main in figures.every_ante
        ]
        if figures.other_bets:
            best = max(figures.other_bets, key=lambda main: main.value + main.ci95)
            lines.append((_("Other ways of playing a box, at most"), _figure(best.value, best.ci95)))
        if figures.side is not None:
            side = figures.side
            most = returns.jackpot_most(side, self.terminal.config.jackpot)
            label = _("Side bet at a stake of {stake}").format(stake=cash(side.stake))
            lines.append((label, _figure(side.value, side.ci95)))
            greatest = _("not known") if side.greatest is None else _figure(side.greatest + most, 0.0)
            lines.append((_("Side bet at most"), greatest))
        return [*lines, (_("Approved return"), approved)]

    def _draw_progress(self, worker: ReturnsWorker, top: int, width: int) -> None:
        """The bar of a return being computed, with what it is and how to cancel it."""
        size = self.size
        self._drawn_done = int(worker.done * 100)
        said = _("Computing the return of {rules}: {done} (FOLD cancels)").format(
            rules=self._rules_name(worker.rules), done=i18n.percent(worker.done)
        )
        self.screen.blit(self._fitted(said, render.GOLD, width), (size, top))
        bar = pygame.Rect(size, top + size * 3 // 2, width, size)
        pygame.draw.rect(self.screen, render.DIM, bar, width=2)
        pygame.draw.rect(self.screen, render.LIVE, (bar.x, bar.y, int(bar.width * worker.done), bar.height))


def _figure(value: float, ci95: float) -> str:
    """A return with its 95 % interval where it has one (simulated)."""
    return f"{i18n.percent(value)} ± {i18n.percent(ci95)}" if ci95 else i18n.percent(value)
