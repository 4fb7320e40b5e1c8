"""The operator's screens, shown while the operator key is turned: PIN, meters, recall
(the cards drawn as they were dealt), the event log, the jackpot, the settings and the
hardware test. Everything they show and change goes through the machine's OperatorMenu,
which checks and logs it; this module only draws and routes the buttons.

The cabinet's buttons work the menu: the card buttons type the PIN (its digits are 1 to 5,
as on the touch keypad; a keyboard types them too) and pick settings, DEAL confirms, FOLD
clears or goes back, BET and BONUS turn the pages, PLAY and FOLD scroll.

The settings page shows the return of the rules being chosen; rules whose return is not
known yet are computed when applied, in a thread of its own (the core releases the GIL),
while the frame loop draws its progress.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import pygame

from oasis_kiosk import i18n, profile_names, returns
from oasis_kiosk._core import Profile
from oasis_kiosk.config import MAX_VOLUME, SPEEDS
from oasis_kiosk.hardware.cabinet import Cabinet, Reported, Seen, Taken
from oasis_kiosk.hardware.names import BUTTONS
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.i18n import N_, _
from oasis_kiosk.machine.events import SETTING_WORDS, sentence
from oasis_kiosk.machine.intents import ACTION_INTENTS, BUTTON_LABELS
from oasis_kiosk.machine.meters import METERS, denomination, every_meter
from oasis_kiosk.machine.operator import (
    MAX_PIN_LENGTH,
    PIN_DIGITS,
    OperatorError,
    OperatorMenu,
    ReturnsRefusedError,
    ReturnsUnknownError,
)
from oasis_kiosk.machine.recall import RecalledHand, Step
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import StoreError
from oasis_kiosk.ui import render
from oasis_kiosk.ui.help import hand_name
from oasis_kiosk.ui.layout import text_floor
from oasis_kiosk.ui.view import box_result, cash_for, jackpot_awards

if TYPE_CHECKING:
    from oasis_kiosk._core import _RecordedAction as RecordedAction
    from oasis_kiosk.store.db import StoredRound

PAGES = {
    "meters": N_("METERS"),
    "recall": N_("RECALL"),
    "events": N_("EVENT LOG"),
    "jackpot": N_("JACKPOT"),
    "settings": N_("SETTINGS"),
    "service": N_("SERVICE"),
    "test": N_("HARDWARE TEST"),
}
ROUND_STATES = {"open": N_("open"), "settled": N_("settled"), "voided": N_("voided")}
MAX_AMOUNT_DIGITS = 9
TEST_TIMEOUT = 20.0  # seconds without a press that end the hardware test
BUTTON_NAMES = {Press(intent, value): name for name, (intent, value) in BUTTONS.items()}
"""Each button by the press it makes: the name of its lamp."""

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


class OperatorScreen:
    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        self.terminal = terminal
        self.cabinet = cabinet
        self.screen = screen
        self.menu = OperatorMenu(terminal)
        self.pin = ""
        self.page = 0
        self.scroll = 0
        self.box_page = 0
        """Which of the recalled round's pages of boxes is shown."""
        self.notice = ""
        self.confirming: str | None = None
        """An action waiting for a second DEAL (reset the period, the jackpot, new rules)."""
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
        self.amount = ""
        """An operator credit being typed, in minor units."""
        self.test_idle = 0.0
        self._seen = 0
        """How many reports of the hardware test are on screen."""
        self.hotspots: list[tuple[pygame.Rect, str]] = []
        self._drawn_done = 0
        """The percentage of the return being computed on screen: the bar redraws when it moves."""
        self.dirty = True

    @property
    def page_name(self) -> str:
        return list(PAGES)[self.page]

    def _running_rules(self) -> Rules:
        config = self.terminal.config
        running: Rules = (config.profile, config.profile_overrides)
        return running if running in self.rules_choices else (self.terminal.profile.id, None)

    def close(self) -> None:
        """The key was turned back."""
        if self.cabinet.testing:
            self.cabinet.end_test()
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None
        self.menu.logout()
        self.pin, self.page, self.scroll, self.notice, self.confirming = "", 0, 0, "", None
        self.dirty = True

    # Input.

    def press(self, press: Press) -> None:
        """A cabinet button while the key is turned (Cabinet.menu)."""
        self.dirty = True
        if self.worker is not None:
            if press.intent == "fold":  # the only button while the return is computed
                self.worker.cancel()
                self.worker = None
                self.notice = _("Cancelled: the rules are unchanged.")
            return
        try:
            if not self.menu.logged_in:
                self._pin_button(press)
            else:
                self._menu_button(press)
        except (OperatorError, StoreError) as error:  # a refused change, or the books closed
            self.notice = self._refused(error)
            self.confirming = None

    def type(self, character: str) -> None:
        """A digit from a keyboard or the touch keypad; Enter and Backspace."""
        self.press(
            Press("deal")
            if character == "enter"
            else Press("fold")
            if character == "clear"
            else Press("digit", int(character))
        )

    def click(self, x: int, y: int) -> None:
        if self.worker is not None:
            return  # nothing to touch while the return is computed; FOLD cancels it
        for area, name in self.hotspots:
            if area.collidepoint(x, y):
                if name.startswith("page:"):
                    self._go(int(name[5:]))
                elif name == "end_test":
                    self._end_test()
                elif name == "boxes":
                    self.box_page += 1
                else:
                    self.type(name)
                self.dirty = True
                return

    def step(self, seconds: float) -> None:
        """Time passing: the hardware test ends by itself when the buttons rest; a return
        being computed moves on, and its rules are applied once it is known."""
        if self.worker is not None:
            self._follow_worker(self.worker)
        if not self.cabinet.testing:
            return
        if len(self.cabinet.seen) != self._seen:
            self._seen, self.test_idle = len(self.cabinet.seen), 0.0
            self._light_tested()
            self.dirty = True
        else:
            self.test_idle += seconds
        if self.test_idle >= TEST_TIMEOUT:
            self._end_test()
            self.dirty = True

    def _pin_button(self, press: Press) -> None:
        if not self.menu.pin_is_set:
            return  # the page says so: no PIN typed would open the menu
        if press.intent in {"card", "digit"} and press.value is not None and len(self.pin) < MAX_PIN_LENGTH:
            self.pin += str(press.value)
        elif press.intent == "fold":
            self.pin = ""
        elif press.intent == "deal":
            pin, self.pin = self.pin, ""
            self.menu.login(pin)
            self.notice = ""

    def _go(self, page: int) -> None:
        if self.cabinet.testing:
            self._end_test()
        self.page, self.scroll, self.confirming, self.notice = page % len(PAGES), 0, None, ""
        self.box_page = 0
        self.rules_choice = self._running_rules()

    def _menu_button(self, press: Press) -> None:
        page = self.page_name
        if page == "service" and self._service_button(press):
            return
        if press.intent == "bet":
            self._go(self.page + 1)
        elif press.intent == "bonus":
            self._go(self.page - 1)
        elif press.intent == "play":
            self.scroll, self.box_page = self.scroll + 1, 0
        elif press.intent == "fold":
            self.scroll, self.box_page = max(self.scroll - 1, 0), 0
            self.confirming = None
        elif page == "recall" and press.intent == "exchange":
            self.box_page += 1
        elif page == "settings" and press.intent == "card":
            self._setting(press.value or 0)
        elif page == "settings" and press.intent == "exchange":
            # The card buttons run out at five: the attract mode's volume is on EXCHANGE.
            attract = self.terminal.config.attract_volume
            self.menu.set_attract_volume((attract + 1) % (MAX_VOLUME + 1))
        elif press.intent == "deal":
            self._confirm(page)

    def _service_button(self, press: Press) -> bool:
        """The service page's own buttons: digits type an operator credit, EXCHANGE clears
        it, PLAY (twice) voids a round that cannot resume. True if the press was one."""
        if press.intent in {"card", "digit"} and len(self.amount) < MAX_AMOUNT_DIGITS:
            self.amount += str(press.value or 0)
            self.confirming = None
        elif press.intent == "exchange":
            self.amount, self.confirming = "", None
        elif press.intent == "play":
            self._confirm("void")
        else:
            return False
        return True

    def _confirm(self, page: str) -> None:
        actions = {
            "meters": "reset_period",
            "jackpot": "reset_jackpot",
            "settings": "set_rules",
            "service": "credit",
            "void": "void",
            "test": "test",
        }
        action = actions.get(page)
        if action == "test":
            self.cabinet.start_test()
            self._seen, self.test_idle = 0, 0.0
            return
        if action is None:
            return
        if self.confirming != action:
            self.confirming = action
            self.notice = _("Press DEAL again to confirm, FOLD to cancel.")
            return
        self.confirming = None
        if action == "reset_period":
            self.menu.reset_period()
            self.notice = _("A new period starts.")
        elif action == "reset_jackpot":
            self.menu.reset_jackpot()
            self.notice = _("The jackpot meter is at its base.")
        elif action == "credit":
            amount, self.amount = int(self.amount or 0), ""
            self.menu.add_credit(amount, "operator credit at the cabinet")
            self.notice = _("{amount} credited.").format(amount=cash_for(self.terminal)(amount))
        elif action == "void":
            self.menu.void_open_round("voided at the cabinet: it could not resume")
            self.notice = _("The round is void; its stakes are refunded.")
        else:
            self._apply_rules(self.rules_choice)

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

    def _refused(self, error: OperatorError | StoreError) -> str:
        """Why the machine refused, in the screen's language (the books' own errors are
        the store's words)."""
        return error.text(cash_for(self.terminal)) if isinstance(error, OperatorError) else str(error)

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
        return _(said).format(
            profile=profile,
            amount=cash(breach.amount),
            figure=_figure(breach.value, breach.ci95),
            bound=i18n.percent(breach.bound),
        )

    def _setting(self, card: int) -> None:
        config = self.terminal.config
        if card == 1:
            choices = self.rules_choices
            current = choices.index(self.rules_choice) if self.rules_choice in choices else -1
            self.rules_choice = choices[(current + 1) % len(choices)]
            self.notice = _("Press DEAL twice to play {profile} from the next round.").format(
                profile=self._rules_name(self.rules_choice)
            )
        elif card == 2:
            languages = list(i18n.LANGUAGES)
            self.menu.set_language(languages[(languages.index(config.language) + 1) % len(languages)])
        elif card == 3:
            self.menu.set_hints(not self.terminal.store.get_state("hints", False))
        elif card == 4:
            self.menu.set_volume((config.volume + 1) % (MAX_VOLUME + 1))
        elif card == 5:
            self.menu.set_speed(SPEEDS[(SPEEDS.index(config.speed) + 1) % len(SPEEDS)])

    def _light_tested(self) -> None:
        """Each button pressed during the test lights its own lamp: the lamp works too."""
        pressed = {seen for seen in self.cabinet.seen if isinstance(seen, Press)}
        self.cabinet.light({BUTTON_NAMES[press] for press in pressed if press in BUTTON_NAMES})

    def _end_test(self) -> None:
        seen = self.cabinet.end_test()
        self.notice = _("Test over: {count} input(s) seen.").format(count=len(seen))

    # Drawing.

    def draw(self) -> list[pygame.Rect]:
        if not self.dirty:
            return []
        self.dirty = False
        screen = self.screen
        width, height = screen.get_size()
        screen.fill(render.PANEL)
        self.hotspots = []
        self.floor = text_floor(height)
        self.size = max(height // 40, self.floor)
        self.line_height = self.size + self.size // 3
        # The foot first: the hint, and the notice over it, take what lines they need at
        # the floor, and the page is drawn above them (``self.foot``).
        hint_size = max(self.size * 8 // 10, self.floor)
        hint = render.wrap(
            _("BET/BONUS: pages · PLAY/FOLD: scroll · DEAL: confirm · turn the key back to leave"),
            hint_size,
            width - self.size * 2,
        )
        hint_step = render.font(hint_size).get_linesize()
        hint_top = height - self.size // 2 - hint_step * len(hint)
        notice = render.wrap(self.notice, self.size, width - self.size * 2)
        self.foot = hint_top - self.line_height * max(len(notice), 1)
        for number, piece in enumerate(notice):
            screen.blit(
                render.text(piece, self.size, render.LIVE), (self.size, self.foot + number * self.line_height)
            )
        for number, piece in enumerate(hint):
            screen.blit(render.text(piece, hint_size, render.DIM), (self.size, hint_top + number * hint_step))
        title = render.text(_("OPERATOR MENU"), self.size * 2, render.GOLD, True)
        screen.blit(title, (self.size, self.size // 2))
        if not self.menu.logged_in:
            self._draw_pin(width, height)
        else:
            self._draw_tabs(width)
            top = self.size * 6
            getattr(self, f"_draw_{self.page_name}")(top)
        return [screen.get_rect()]

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
        labels = {digit: digit for digit in PIN_DIGITS} | {"clear": _("CLEAR"), "enter": _("OK")}
        key = min(width // 8, height // 8)
        widest = max(render.font(size, True).size(words)[0] for words in labels.values())
        key_w = max(key, widest + 2 * render.BUTTON_PAD)  # a word on a key stays inside it
        left, top = size, below + size * 4
        for number, (label, words) in enumerate(labels.items()):
            row, column = divmod(number, 4)
            area = pygame.Rect(left + column * (key_w + 8), top + row * (key + 8), key_w, key)
            render.button(self.screen, area, words, True, size)
            self.hotspots.append((area, label))

    def _paragraph(self, said: str, colour: render.Colour, top: int, width: int | None = None) -> int:
        """A sentence across the page (or ``width``) at the menu's size, on as many lines as
        it needs; the y under it."""
        width = self.screen.get_width() - self.size * 2 if width is None else width
        for piece in render.wrap(said, self.size, width):
            self.screen.blit(render.text(piece, self.size, colour), (self.size, top))
            top += self.line_height
        return top

    def _draw_tabs(self, width: int) -> None:
        """The pages' tabs, each as wide as its name asks, in proportion, down to where the
        page begins; their names at one size, never under the floor."""
        size, gap = self.size, 6
        names = [_(name) for name in PAGES.values()]
        floor = text_floor(self.screen.get_height())
        label = max(size * 8 // 10, floor)
        height = size * 5 // 2 - gap
        needs = [render.font(label, True).size(name)[0] + 2 * render.BUTTON_PAD for name in names]
        room = width - size * 2 - gap * len(names)
        widths = [room * need // sum(needs) for need in needs]
        label = min(
            render.label_size([name], label, tab_w, height, floor)
            for name, tab_w in zip(names, widths, strict=True)
        )
        x = size
        for number, (name, tab_w) in enumerate(zip(names, widths, strict=True)):
            area = pygame.Rect(x, size * 3 + size // 2, tab_w, height)
            render.button(self.screen, area, name, number == self.page, label)
            self.hotspots.append((area, f"page:{number}"))
            x += tab_w + gap

    def _lines(self, top: int, lines: list[tuple[str, str]], width: int | None = None) -> None:
        """Names with their values at the right of ``width``, as many as fit; a name without
        a value is a heading (gold) across the width."""
        size = self.size
        width = self.screen.get_width() // 2 - size * 2 if width is None else width
        for name, value in lines[: self._rows_fit(top)]:
            if not value:
                self.screen.blit(self._fitted(name, render.GOLD, width), (size, top))
                top += self.line_height
                continue
            # The name gives way to its value, down to half the width.
            room = width - render.font(size).size(value)[0] - size
            label = self._fitted(name, render.WHITE, max(room, width // 2))
            self.screen.blit(label, (size, top))
            words = self._fitted(value, render.WHITE, width - label.get_width() - size)
            self.screen.blit(words, (size + width - words.get_width(), top))
            top += self.line_height

    def _fitted(self, said: str, colour: render.Colour, width: int, bold: bool = False) -> pygame.Surface:
        """The text at the menu's size, or smaller to fit ``width``, never under the floor."""
        return render.fitted(said, self.size, colour, width, bold, least=self.floor)

    def _shortened(self, said: str, colour: render.Colour, width: int) -> pygame.Surface:
        """The text fitted to ``width``, cut short with "…" where even at the floor it is wider."""
        shown = self._fitted(said, colour, width)
        while shown.get_width() > width and len(said) > 1:
            said = said[:-2] + "…"
            shown = self._fitted(said, colour, width)
        return shown

    def _rows_fit(self, top: int) -> int:
        """How many lines fit from ``top`` down to the notice."""
        return max((self.foot - top) // self.line_height, 1)

    def _draw_meters(self, top: int) -> None:
        """Every meter, with its lifetime and this period's value side by side, PLAY and
        FOLD scrolling where they do not fit."""
        config, cash = self.terminal.config, cash_for(self.terminal)
        lifetime = every_meter(self.menu.meters(), config.coins, config.bills)
        period = every_meter(self.menu.period_meters(), config.coins, config.bills)
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

    def _more(self, y: int, count: int) -> None:
        """Says how many lines PLAY scrolls to, below the last one shown."""
        if count > 0:
            said = _("▼ {count} more (PLAY)").format(count=count)
            self.screen.blit(render.text(said, self.size, render.DIM), (self.size, y))

    def _draw_recall(self, top: int) -> None:
        """A round of the last 25 (PLAY: older, FOLD: newer): the dealer's hand and each
        box's, as dealt and after each exchange or draw, the boxes paged (EXCHANGE) where they
        do not fit together; under them the actions and the money."""
        rounds = self.menu.recall(25)
        if not rounds:
            self._lines(top, [(_("No rounds yet."), "")])
            return
        self.scroll = min(self.scroll, len(rounds) - 1)
        shown = rounds[-1 - self.scroll]
        cash = cash_for(self.terminal)
        size, width, height = self.size, self.screen.get_width(), self.screen.get_height()
        header = _("Round {number} of the last {count} (PLAY: older, FOLD: newer)   {when}   {state}").format(
            number=shown["id"],
            count=len(rounds),
            when=i18n.local_time(shown["started_at"]),
            state=_(ROUND_STATES[shown["state"]]),
        )
        self.screen.blit(self._fitted(header, render.GOLD, width - size * 2), (size, top))
        footer = self.foot - size * 3 - self.line_height  # the actions, then the money and the boxes' pages
        hands = self.menu.recalled_hands(shown)
        said = _hands_said(shown, len(hands), cash)
        if hands:
            dealer, *boxes = hands
            pages, card_w, card_h = _box_pages(
                len(dealer.steps),
                [len(box.steps) for box in boxes],
                footer - top - size * 2,
                size,
                width,
                height,
            )
            self.box_page %= len(pages)
            y = self._draw_hand(top + size * 2, _("Dealer"), dealer, said[0], card_w, card_h)
            for box in pages[self.box_page]:
                name = _("Box {number}").format(number=box + 1)
                y = self._draw_hand(y, name, boxes[box], said[box + 1], card_w, card_h)
            if len(pages) > 1:
                self._draw_box_pages(len(pages), footer + self.line_height)
        actions = _("Actions: {actions}").format(actions=_actions_said(shown["record"]["actions"], cash))
        self.screen.blit(self._shortened(actions, render.WHITE, width - size * 2), (size, footer))
        money = self._shortened(_money_said(shown, cash), render.WHITE, width // 2 - size)
        self.screen.blit(money, (size, footer + self.line_height + (size * 2 - money.get_height()) // 2))

    def _draw_hand(self, y: int, name: str, hand: RecalledHand, said: str, card_w: int, card_h: int) -> int:
        """A hand's steps one under another, the cards a step changed framed, what made
        each step beside it, and under the last what the hand came to; the y under it."""
        size, width = self.size, self.screen.get_width()
        cards_x = size * 7
        for number, step in enumerate(hand.steps):
            middle = y + card_h // 2
            if number == 0:
                label = self._fitted(name, render.WHITE, cards_x - size * 2, bold=True)
                self.screen.blit(label, (size, middle - label.get_height() // 2))
            before = hand.steps[number - 1].cards if number else step.cards
            for position, card in enumerate(step.cards):
                x = cards_x + position * (card_w + size // 3)
                self.screen.blit(render.card(card, card_w, card_h), (x, y))
                if position >= len(before) or before[position] != card:
                    pygame.draw.rect(
                        self.screen, render.GOLD, (x - 2, y - 2, card_w + 4, card_h + 4), width=2
                    )
            x = cards_x + len(step.cards) * (card_w + size // 3) + size
            lines = [(_step_said(step), render.DIM)]
            if number == len(hand.steps) - 1 and said:
                lines.append((said, render.WHITE))
            for line, (words, colour) in enumerate(lines):
                shown = self._shortened(words, colour, width - x - size)
                self.screen.blit(shown, (x, middle + (line * 2 - len(lines)) * shown.get_height() // 2))
            y += card_h + size // 2
        return y

    def _draw_box_pages(self, pages: int, y: int) -> None:
        """The button to the next page of boxes (as EXCHANGE), saying which is shown."""
        width = self.screen.get_width()
        area = pygame.Rect(width // 2 + self.size, y, width // 2 - self.size * 2, self.size * 2)
        label = _("Page {page} of {pages} (EXCHANGE: more boxes)").format(page=self.box_page + 1, pages=pages)
        render.button(self.screen, area, label, True, self.size)
        self.hotspots.append((area, "boxes"))

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

    def _draw_jackpot(self, top: int) -> None:
        cash = cash_for(self.terminal)
        settings = self.terminal.config.jackpot
        lines = [
            (_("Meter"), cash(self.terminal.jackpot.value)),
            (_("Base"), cash(settings.base)),
            (_("Share of each bonus stake"), str(settings.rate)),
            (_("Maximum"), cash(settings.maximum)),
            (_("DEAL twice: bring the meter up to its base"), ""),
        ]
        hits = [
            (f"{i18n.local_time(hit['at'])}  #{hit['round']}", cash(hit["amount"]))
            for hit in reversed(self.menu.jackpot_hits())
        ]
        lines += [(_("Last hits"), ""), *hits] if hits else [(_("Last hits"), _("none"))]
        self._lines(top, lines)

    def _rules_name(self, rules: Rules) -> str:
        profile, overrides = rules
        configured = overrides is not None or profile not in profile_names()
        return _("{profile} as configured").format(profile=profile) if configured else profile

    def _draw_settings(self, top: int) -> None:
        config = self.terminal.config
        hints = self.terminal.store.get_state("hints", False)
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

    def _draw_service(self, top: int) -> None:
        cash = cash_for(self.terminal)
        unresumable = "resume" in self.terminal.tilts
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
        case Taken(kind="coin", value=value):
            return _("coin {amount}").format(amount=cash(value))
        case Taken(value=value):
            return _("note {amount}").format(amount=cash(value))
        case Press(intent="card", value=number):
            return _("CARD {number}").format(number=number)
        case Press(intent=intent) if intent in BUTTON_LABELS:
            return _(BUTTON_LABELS[intent])
        case Press(intent=switch):
            return sentence({"kind": switch, "detail": {}}, cash)
        case Reported(kind=kind, detail=detail):
            return sentence({"kind": kind, "detail": detail}, cash)


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


def _figure(value: float, ci95: float) -> str:
    """A return with its 95 % interval where it has one (simulated)."""
    return f"{i18n.percent(value)} ± {i18n.percent(ci95)}" if ci95 else i18n.percent(value)


def _box_pages(
    dealer_steps: int, box_steps: list[int], room: int, size: int, width: int, height: int
) -> tuple[list[list[int]], int, int]:
    """The boxes on each page of the recall, and the cards' width and height to fit
    ``room``: as large as the screen allows, smaller (down to a size still read at a glance)
    to fit every box on one page, and always the dealer's hand and the longest box's
    together; then as many boxes on a page as fit under the dealer's."""
    gap = size // 2
    largest = min(width // 18, height // 11) * 7 // 5
    smallest = min(largest, size * 4)
    every = dealer_steps + sum(box_steps)
    longest = dealer_steps + max(box_steps, default=0)
    card_h = min(largest, max(room // every - gap, smallest), room // longest - gap)
    rows = room // (card_h + gap) - dealer_steps
    pages: list[list[int]] = [[]]
    used = 0
    for box, steps in enumerate(box_steps):
        if pages[-1] and used + steps > rows:
            pages.append([])
            used = 0
        pages[-1].append(box)
        used += steps
    return pages, card_h * 5 // 7, card_h


def _hands_said(round_: StoredRound, hands: int, cash: Callable[[int], str]) -> list[str]:
    """What the dealer's hand and each box's came to, as settled (a box's hand, outcome and
    net, its jackpot award included, in the words the table said it: ``view.box_result``);
    nothing before."""
    if round_["state"] != "settled" or round_["settlement"]["void"]:
        return [""] * hands
    settlement = round_["settlement"]
    awards = jackpot_awards(settlement)
    boxes = [box_result(box, awards.get(box["box"], 0), cash) for box in settlement["boxes"]]
    return [hand_name(settlement["dealer_hand"]["category"]), *boxes]


def _money_said(round_: StoredRound, cash: Callable[[int], str]) -> str:
    if round_["state"] == "open":
        return _("Open round: it resumes at its decision.")
    if round_["state"] == "voided" or round_["settlement"]["void"]:
        return _("Voided: {reason}").format(reason=round_["settlement"]["void"])
    settlement = round_["settlement"]
    paid = settlement["paid"] + settlement.get("jackpot_awards", 0)
    return _("Collected {collected}, paid {paid}").format(
        collected=cash(settlement["collected"]), paid=cash(paid)
    )


def _step_said(step: Step) -> str:
    """What made a hand's step: the deal, an exchange (its cards 1 to 5), a draw bought, or
    the hand the settlement judged."""
    if step.action == "exchange":
        return _("Cards {positions} exchanged").format(positions=_positions(step.positions))
    said = {"dealt": N_("As dealt"), "settled": N_("Final hand")}.get(step.action)
    return _(said) if said else _action_name(step.action)


def _actions_said(actions: list[RecordedAction], cash: Callable[[int], str]) -> str:
    """A round's actions from its record, box by box: the button, and the cards exchanged
    (1 to 5) or the amount insured."""
    by_box: dict[int, list[str]] = {}
    for action in actions:
        said = _action_name(action["action"])
        if action["action"] == "exchange" and action["positions"]:
            said += " " + _positions(action["positions"])
        if action["action"] == "insure" and action["amount"]:
            said += " " + cash(action["amount"])
        by_box.setdefault(action["box"], []).append(said)
    boxes = [
        _("Box {number}: {actions}").format(number=box + 1, actions=", ".join(said))
        for box, said in by_box.items()
    ]
    return "; ".join(boxes) or "-"


def _action_name(action: str) -> str:
    """A round's action by the name of the button that takes it."""
    label = BUTTON_LABELS.get(ACTION_INTENTS.get(action, ""))
    return _(label) if label else action.replace("_", " ")


def _positions(positions: Iterable[int]) -> str:
    """Card positions as the player counts them, 1 to 5 from the left."""
    return ", ".join(str(position + 1) for position in positions)
