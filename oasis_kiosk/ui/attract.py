"""The attract mode: real rounds played by the strategy on a free-play terminal of its own
(an in-memory database, so the books never see it), with the paytable, the cabinet's real
jackpot meter and "insert coins" in the active language. The App ends it at the first
input or coin."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.machine.demo import DemoPlayer, free_play_terminal
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import render
from oasis_kiosk.ui.render import rect
from oasis_kiosk.ui.table import Table

PACE = 0.9  # seconds between the demo's inputs once the table is still
BETWEEN_ROUNDS = 2.5  # seconds a settled round stays before the next deal


class Attract:
    def __init__(
        self, cabinet_terminal: Terminal, screen: pygame.Surface, play_sound: Callable[[str], None]
    ) -> None:
        self.cabinet_terminal = cabinet_terminal
        self.terminal = free_play_terminal(cabinet_terminal.config)
        self.player = DemoPlayer(self.terminal)
        self.table = Table(self.terminal, screen, lambda name: None, demo=True)  # the demo is quiet
        self.screen = screen
        self.wait = PACE
        self._banner_key: object = None
        self._follow_jackpot()

    def close(self) -> None:
        """The demo is over: its strategy's worker ends."""
        self.player.advisor.close()
        self.table.close()

    def _follow_jackpot(self) -> None:
        """The meter on show is the cabinet's own, not the demo's."""
        self.terminal.jackpot = self.cabinet_terminal.jackpot

    def step(self, seconds: float, now: float) -> None:
        if self.table.busy(now):
            return
        self.wait -= seconds
        if self.wait > 0:
            return
        press = self.player.next_input()
        if press is None:
            return  # the strategy is still thinking: the frames go on meanwhile
        intent, value = press
        self.terminal.handle(intent, value)
        self._follow_jackpot()
        self.table.refresh(now)
        self.wait = BETWEEN_ROUNDS if self.terminal.round is None and intent != "deal" else PACE

    def draw(self, now: float) -> list[pygame.Rect]:
        dirty = self.table.draw(now)
        lay = self.table.layout
        blink = int(now * 1.5) % 2
        if dirty or self._banner_key != blink:
            self._banner_key = blink
            area = rect(lay.message)
            pygame.draw.rect(self.screen, render.PANEL, area)
            words = render.fitted(
                _("INSERT COINS TO PLAY  ·  DEMO"),
                lay.large,
                render.GOLD if blink else render.WHITE,
                area.w - lay.medium,
                True,
                lay.floor,
            )
            self.screen.blit(words, words.get_rect(center=area.center))
            dirty.append(area)
        return dirty
