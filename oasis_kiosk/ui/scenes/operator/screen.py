"""The operator's screen: the PIN until it is typed, then the pages' tabs; the notice and
the hint at its foot; the cabinet's buttons, the keyboard and touches routed to the page
shown (each page's own in its module)."""

from __future__ import annotations

import pygame

from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.i18n import N_, _
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.operator import OperatorError
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import StoreError
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import text_floor
from oasis_kiosk.ui.scenes.operator.events import EventLogPage
from oasis_kiosk.ui.scenes.operator.hardware_test import HardwareTestPage
from oasis_kiosk.ui.scenes.operator.meters import MetersPages
from oasis_kiosk.ui.scenes.operator.pin import PinPage
from oasis_kiosk.ui.scenes.operator.recall import RecallPage
from oasis_kiosk.ui.scenes.operator.service import ServicePage
from oasis_kiosk.ui.scenes.operator.settings import SettingsPage

PAGES = {
    "meters": N_("METERS"),
    "recall": N_("RECALL"),
    "events": N_("EVENT LOG"),
    "jackpot": N_("JACKPOT"),
    "settings": N_("SETTINGS"),
    "service": N_("SERVICE"),
    "test": N_("HARDWARE TEST"),
}


class OperatorScreen(
    PinPage, MetersPages, RecallPage, EventLogPage, SettingsPage, ServicePage, HardwareTestPage
):
    """The menu on the screen: every page's part together, the tabs between them, and the
    buttons, keys and touches routed to the page shown."""

    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        super().__init__(terminal, cabinet, screen)
        self.page = 0

    @property
    def page_name(self) -> str:
        return list(PAGES)[self.page]

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

    def press(self, press: Press) -> None:
        """A cabinet button while the key is turned (Cabinet.menu)."""
        self.dirty = True
        if self.worker is not None:
            if press.intent == Intent.FOLD:  # the only button while the return is computed
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
        """A digit from a keyboard or the touch keypad; Enter and Backspace (CLEAR: FOLD on
        the PIN, EXCHANGE on the service page, where FOLD types 0)."""
        service = self.menu.logged_in and self.page_name == "service"
        self.press(
            Press(Intent.DEAL)
            if character == "enter"
            else Press(Intent.EXCHANGE if service else Intent.FOLD)
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
        if self.cabinet.testing:
            self._step_test(seconds)

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
        if page == "settings" and self._settings_button(press):
            return
        if press.intent == Intent.BET:
            self._go(self.page + 1)
        elif press.intent == Intent.BONUS:
            self._go(self.page - 1)
        elif press.intent == Intent.PLAY:
            self.scroll, self.box_page = self.scroll + 1, 0
        elif press.intent == Intent.FOLD:
            self.scroll, self.box_page = max(self.scroll - 1, 0), 0
            self._cancel()
        elif page == "recall" and press.intent == Intent.EXCHANGE:
            self.box_page += 1
        elif press.intent == Intent.DEAL:
            self._confirm(page)

    def _confirm(self, page: str) -> None:
        """DEAL on a page: the hardware test starts at once, the other pages' action at the
        second press."""
        if page == "test":
            self._start_test()
            return
        actions = {
            "meters": self._reset_period,
            "jackpot": self._reset_jackpot,
            "settings": lambda: self._apply_rules(self.rules_choice),
            "service": self._credit,
        }
        refusals = {
            "meters": lambda: self._refusal_of(self.menu.check_period_reset),
            "jackpot": lambda: self._refusal_of(self.menu.check_jackpot_reset),
            "settings": lambda: self._rules_refusal(self.rules_choice),
        }
        action = actions.get(page)
        if action is not None and self._confirmed(page, refusal=refusals.get(page)):
            action()

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
            _("BET/BONUS: pages · PLAY/FOLD: scroll · DEAL: confirm · turn the key back to leave")
            if self.menu.logged_in
            else _("Turn the key back to leave the menu."),  # no pages to turn before the PIN
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
            top = self._draw_tabs(width)
            getattr(self, f"_draw_{self.page_name}")(top)
        return [screen.get_rect()]

    def _draw_tabs(self, width: int) -> int:
        """The pages' tabs, each as wide as its name asks, in proportion; on two rows where
        one cannot hold the names at the floor (a narrow window in Russian). Their names at
        one size, never under the floor. Returns where the page begins."""
        size, gap = self.size, 6
        names = [_(name) for name in PAGES.values()]
        floor = text_floor(self.screen.get_height())
        label = max(size * 8 // 10, floor)
        height = size * 5 // 2 - gap

        def needs(size: int, numbers: list[int]) -> list[int]:
            return [render.font(size, True).size(names[n])[0] + 2 * render.BUTTON_PAD for n in numbers]

        every = list(range(len(names)))
        rows = [every]
        if sum(needs(floor, every)) > width - size * 2 - gap * len(names):
            half = -(-len(names) // 2)
            rows = [every[:half], every[half:]]
        placed: list[tuple[int, pygame.Rect]] = []
        y = size * 3 + size // 2
        for row in rows:
            wanted = needs(label, row)
            room = width - size * 2 - gap * len(row)
            x = size
            for number, need in zip(row, wanted, strict=True):
                placed.append((number, pygame.Rect(x, y, room * need // sum(wanted), height)))
                x += placed[-1][1].w + gap
            y += height + gap
        label = min(
            render.label_size([names[number]], label, area.w, height, floor) for number, area in placed
        )
        for number, area in placed:
            render.button(self.screen, area, names[number], number == self.page, label)
            self.hotspots.append((area, f"page:{number}"))
        return y
