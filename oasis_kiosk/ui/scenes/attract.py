"""The attract mode draws people in, in turn: a real round played by the strategy on a
free-play terminal of its own (an in-memory database, so the books never see it; its meters
marked DEMO), then the game's title, the paytable large and, for a profile with one, the
progressive jackpot large (the cabinet's own meter), each card for a few seconds, then the
next round. Every part calls for money in the active language. The round's sounds play at
the operator's attract volume, never louder than the game's. The App ends it at the first
input or coin."""

from __future__ import annotations

import functools

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.machine.demo import DemoPlayer, free_play_terminal
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.rules import has_jackpot
from oasis_kiosk.ui import cards, render, rules_text
from oasis_kiosk.ui.layout import Box
from oasis_kiosk.ui.render import rect
from oasis_kiosk.ui.scenes.game import GameScene
from oasis_kiosk.ui.sound import Sounds
from oasis_kiosk.ui.view import cash_for
from oasis_kiosk.ui.widgets import jackpot, paytable

PACE = 0.9  # seconds between the demo's inputs once the table is still
BETWEEN_ROUNDS = 2.5  # seconds a settled round stays before the cards
ROUND = "round"
CARD_SECONDS = {"title": 4.0, "paytable": 6.0, "jackpot": 4.0}
"""The cards that follow a demo round, in their order, and how long each shows: the paytable
longest, since it is read."""
BLINK_RATE = 1.5
"""Times a second the call for money changes colour."""
TITLE = "OASIS STUD POKER"
"""The game's name, as the cabinet's glass has it: a name, the same in every language."""
ROYAL_FLUSH = ("Ts", "Js", "Qs", "Ks", "As")
FAN_DEGREES = 7
"""The turn between neighbouring cards of the title card's fan."""


def _play_quietly(sounds: Sounds, cabinet_terminal: Terminal, name: str) -> None:
    """A sound of the demo, at the operator's attract volume."""
    sounds.play(name, volume=cabinet_terminal.config.attract_volume)


class Attract:
    def __init__(self, cabinet_terminal: Terminal, screen: pygame.Surface, sounds: Sounds) -> None:
        self.cabinet_terminal = cabinet_terminal
        self.terminal = free_play_terminal(cabinet_terminal.config)
        self._follow_jackpot()  # before the table reads it: the meter must not roll up from the demo's
        self.player = DemoPlayer(self.terminal)
        self.sounds = sounds
        # Not a method of its own: the table would hold the demo, the demo the table, and
        # both (with the table's kept surfaces) would wait for a full collection.
        self.game = GameScene(
            self.terminal,
            screen,
            functools.partial(_play_quietly, sounds, cabinet_terminal),
            demo=True,
            played_by_itself=True,
        )
        self.screen = screen
        jackpot = has_jackpot(self.terminal.rules)
        self.parts = (ROUND, *(card for card in CARD_SECONDS if card != "jackpot" or jackpot))
        """The cycle: a demo round, then the cards (no jackpot card without a jackpot)."""
        self.part = ROUND
        self.part_ends = 0.0
        """When the card on show gives way to the next part."""
        self.dealt = False
        """This turn's demo round has been dealt: once it is over, the cards follow."""
        self.wait = PACE
        self._painted: str | None = None
        """The part whose whole picture is on the screen."""
        self._call_key: object = None

    def close(self) -> None:
        """The demo is over: its strategy's worker ends."""
        self.player.advisor.close()
        self.game.close()

    def _follow_jackpot(self) -> None:
        """The meter on show is the cabinet's own, not the demo's."""
        self.terminal.jackpot = self.cabinet_terminal.jackpot

    def turn(self, now: float) -> None:
        """The next part of the cycle, from ``now``."""
        self.part = self.parts[(self.parts.index(self.part) + 1) % len(self.parts)]
        self.part_ends = now + CARD_SECONDS.get(self.part, 0.0)
        self.dealt = False
        self.wait = PACE

    def step(self, seconds: float, now: float) -> None:
        if self.part != ROUND:
            if now >= self.part_ends:
                self.turn(now)
            return
        if self.game.busy(now):
            return
        self.wait -= seconds
        if self.wait > 0:
            return
        if self.dealt and self.terminal.round is None:
            self.turn(now)  # the round was played to its end and its outcome seen
            return
        press = self.player.next_input()
        if press is None:
            return  # the strategy is still thinking: the frames go on meanwhile
        intent, value = press
        self.terminal.handle(intent, value)
        self.dealt = self.dealt or intent is Intent.DEAL
        self._follow_jackpot()
        self.game.refresh(now)
        self.wait = BETWEEN_ROUNDS if self.terminal.round is None and intent is not Intent.DEAL else PACE

    # Drawing.

    def invalidate(self) -> None:
        """Everything is drawn again (a screenshot, a checked screen)."""
        self.game.invalidate()
        self._painted = None

    def draw(self, now: float) -> list[pygame.Rect]:
        whole = self._painted != self.part
        if whole:
            self._painted = self.part
            self._call_key = None
            self.game.invalidate()
        dirty = self._round(now) if self.part == ROUND else self._card(now, whole)
        return [self.screen.get_rect()] if whole else dirty

    def _round(self, now: float) -> list[pygame.Rect]:
        """The demo's table, its message line a call for money that says DEMO."""
        dirty = self.game.draw(now)
        lay = self.game.layout
        blink = int(now * BLINK_RATE) % 2
        if dirty or self._call_key != blink:
            self._call_key = blink
            area = rect(lay.message)
            pygame.draw.rect(self.screen, render.PANEL, area)
            self._call(_("INSERT MONEY TO PLAY  ·  DEMO"), area, lay.large, blink)
            dirty.append(area)
        return dirty

    def _call(self, words: str, area: pygame.Rect, size: int, blink: int) -> None:
        shown = render.fitted(
            words, size, render.GOLD if blink else render.WHITE, area.w - size, True, self.game.layout.floor
        )
        self.screen.blit(shown, shown.get_rect(center=area.center))

    def _card(self, now: float, whole: bool) -> list[pygame.Rect]:
        """A card over the whole screen, the call for money along its foot; after the first
        frame only the call is drawn again, as it blinks."""
        width, height = self.screen.get_size()
        band = rect(Box(0, height - height * 14 // 100, width, height * 14 // 100))
        if whole:
            self.screen.fill(render.FELT_DARK)
            body = Box(0, 0, width, band.y)
            {"title": self._title, "paytable": self._paytable, "jackpot": self._jackpot}[self.part](body)
        blink = int(now * BLINK_RATE) % 2
        if self._call_key == blink:
            return []
        self._call_key = blink
        pygame.draw.rect(self.screen, render.PANEL, band)
        self._call(_("INSERT MONEY TO PLAY"), band, band.h * 55 // 100, blink)
        return [band]

    def _title(self, body: Box) -> None:
        """The game's name, a royal flush fanned out, and the rules' name."""
        floor = self.game.layout.floor
        name = render.fitted(TITLE, body.h * 15 // 100, render.GOLD, body.w * 9 // 10, True, floor)
        self.screen.blit(name, name.get_rect(center=(body.w // 2, body.h * 16 // 100)))
        card_h = body.h * 40 // 100
        card_w = card_h * 5 // 7
        middle = len(ROYAL_FLUSH) // 2
        for position, card in enumerate(ROYAL_FLUSH):
            turned = pygame.transform.rotozoom(
                cards.card(card, card_w, card_h), (middle - position) * FAN_DEGREES, 1.0
            )
            centre = (
                body.w // 2 + (position - middle) * card_w * 3 // 4,
                body.h * 54 // 100 + abs(position - middle) * card_h // 20,
            )
            self.screen.blit(turned, turned.get_rect(center=centre))
        rules = render.fitted(
            self.terminal.rules["name"], body.h * 7 // 100, render.WHITE, body.w * 9 // 10, least=floor
        )
        self.screen.blit(rules, rules.get_rect(center=(body.w // 2, body.h * 88 // 100)))

    def _paytable(self, body: Box) -> None:
        """Both paytables, large."""
        rules = self.terminal.rules
        margin = body.h // 20
        paytable.side_by_side(
            self.screen,
            body.shrink(margin),
            rules_text.paytable_rows(rules),
            rules_text.bonus_rows(rules, cash_for(self.terminal)),
            body.h * 8 // 100,
            self.game.layout.floor,
        )

    def _jackpot(self, body: Box) -> None:
        """The cabinet's progressive jackpot meter, large, under its name."""
        floor = self.game.layout.floor
        title = render.fitted(
            _("PROGRESSIVE JACKPOT"), body.h * 10 // 100, render.GOLD, body.w * 9 // 10, True, floor
        )
        self.screen.blit(title, title.get_rect(center=(body.w // 2, body.h * 28 // 100)))
        amount = cash_for(self.cabinet_terminal)(self.cabinet_terminal.jackpot.value)
        size = body.h * 22 // 100
        while jackpot.meter_width(amount, size) > body.w * 9 // 10 and size > floor:
            size -= 1
        left = (body.w - jackpot.meter_width(amount, size)) // 2
        jackpot.cells(self.screen, amount, size, left, body.h * 60 // 100 - size * 5 // 8)
