"""The kiosk's window: a fixed-timestep loop that feeds input to the cabinet, and three
scenes drawn from the machine layer: the game table, the operator's menu (while the key is
turned) and the attract demo (after a while without a player).

On a desktop the keyboard and the mouse press the cabinet's buttons through its mock pins
(``hardware/keyboard.py``), so the input path is the cabinet's own; on the touchscreen a
touch is a click. The screen only reads the terminal.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pygame

from oasis_kiosk import i18n, notify
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.hardware.keyboard import PHYSICAL_KEYS, Keyboard
from oasis_kiosk.i18n import _
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.terminal import Response, Terminal
from oasis_kiosk.ui import garbage, render
from oasis_kiosk.ui.layout import TALLEST, too_tall, window_size
from oasis_kiosk.ui.scenes.attract import Attract
from oasis_kiosk.ui.scenes.game import GameScene
from oasis_kiosk.ui.scenes.operator.screen import OperatorScreen
from oasis_kiosk.ui.sound import Sounds

STEP = 1 / 60  # the fixed update step, seconds
MAX_STEPS = 5  # catch-up steps per frame at most, so that a stall never snowballs
FPS = 60
LEGEND_KEY = "l"
TYPED = {**{str(n): str(n) for n in range(10)}, "return": "enter", "backspace": "clear"}
"""Keys the operator's PIN pad takes straight from a keyboard (1-5 also reach it as the
card buttons, through the cabinet)."""


def screen_problem() -> tuple[str, str | None]:
    """SDL's video driver and, when it draws on no screen, why not: with no display SDL
    falls back to drawing nowhere, and a window nobody sees is no kiosk. The dummy and
    offscreen drivers count as a screen only when asked for by name (tests, screenshots)."""
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
    except pygame.error as error:
        return "", str(error)
    if not driver or (driver in {"dummy", "offscreen"} and os.environ.get("SDL_VIDEODRIVER") != driver):
        return driver, f"SDL found only its {driver!r} video driver"
    return driver, None


def display_problem() -> str | None:
    """Why the display cannot take the kiosk full screen (its own size, which no ``--size``
    checks), before anything is booked: a display on end."""
    width, height = pygame.display.get_desktop_sizes()[0]
    if too_tall(width, height):
        return (
            f"the display is {width}x{height}, taller for its width than {TALLEST[0]}:{TALLEST[1]}: "
            "the table is laid out on its side; turn the display"
        )
    return None


class App:
    def __init__(
        self,
        terminal: Terminal,
        size: tuple[int, int] | None = None,
        fullscreen: bool = False,
        free_play: bool = False,
        clock: Callable[[], float] = time.monotonic,
        devices: Cabinet | None = None,
    ) -> None:
        """``size``: the window's; without it, the largest layout that fits the display.
        ``free_play``: the terminal is a demo's (``--demo``): the attract mode may start
        although it holds credits. ``devices``: the cabinet's own (its buttons, acceptors,
        hopper); without them, on a desktop, the keyboard and the mouse drive mock pins."""
        pygame.display.init()
        pygame.font.init()
        render.forget()
        flags = pygame.FULLSCREEN if fullscreen else 0
        # A plain window surface: partial updates of changed rectangles need it, and SDL can
        # only wait for vsync on its renderer path; the frame clock holds the loop to 60 fps.
        if fullscreen:
            size = (0, 0)  # the display's own
        elif size is None:
            size = window_size(pygame.display.get_desktop_sizes()[0])
        self.screen = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("Oasis Stud Poker")
        i18n.use(terminal.language)
        self.terminal = terminal
        self.free_play = free_play
        self.now = clock
        self.cabinet: MockCabinet | None = None
        """The desktop's cabinet on mock pins (None on the cabinet itself)."""
        self.keyboard: Keyboard | None = None
        if devices is None:
            self.cabinet = MockCabinet(terminal)
            self.keyboard = Keyboard(self.cabinet)
            devices = self.cabinet.cabinet
        if self.keyboard is not None:  # the desktop's window says how to learn its keys
            pygame.display.set_caption(_("Oasis Stud Poker (L shows the keys)"))
        self.devices = devices
        self.sounds = Sounds(terminal.config.volume)
        self.game = GameScene(terminal, self.screen, self.sounds.play, demo=free_play)
        self.operator = OperatorScreen(terminal, devices, self.screen)
        devices.menu = self.operator.press
        self.attract: Attract | None = None
        self.idle = 0.0
        """Seconds since the last input, for the attract mode."""
        self.running = True
        self.scene = ""
        self.clock = pygame.time.Clock()
        self._lag = 0.0
        self._settings = (terminal.language, terminal.config.volume)
        self._read_at = self._terminal_read()
        garbage.defer()

    # Input.

    def key(self, name: str) -> None:
        """A key press, as pygame names it. On the cabinet, whose buttons are its own, a
        keyboard plugged in does nothing."""
        if self.keyboard is None:
            return
        name = name.lower()
        if name == "escape":
            self.running = False
            return
        if name in PHYSICAL_KEYS:  # money put in or a switch thrown: taken, never a mere wake
            self._wake()
            self._answer(self.keyboard.key(name), hurry=False)
            return
        if self._interrupt():
            return
        if name == LEGEND_KEY:
            self.game.legend = None if self.game.legend is not None else self.keyboard.legend()
            return
        if self.terminal.mode is Mode.OPERATOR and name in TYPED and not ("1" <= name <= "5"):
            self.operator.type(TYPED[name])
            return
        self._answer(self.keyboard.key(name))

    def click(self, x: int, y: int) -> None:
        """A mouse click or a touch."""
        if self._interrupt():
            return
        if self.terminal.mode is Mode.OPERATOR:
            self.operator.click(x, y)
            return
        hit = self.game.hit(x, y)
        if hit is not None:
            button, card = hit
            name = f"card{card}" if card else button
            responses = (self.cabinet or self.devices).touch(name)
            self._answer(responses[0] if responses else None)

    def _wake(self) -> bool:
        """Any input ends the attract demo (True if it ran) and starts the idle time afresh."""
        self.idle = 0.0
        if self.attract is None:
            return False
        self._end_attract()
        return True

    def _interrupt(self) -> bool:
        """A press ends the attract demo, and while the dealer's cards turn or a box's cards
        land only hurries them: it does nothing else then (the round's story is told in its
        order, and no box is played on cards not yet seen)."""
        if self._wake():
            return True
        now = self.now()
        if self.scene == "game" and self.game.telling(now):
            self.game.skip(now)
            return True
        return False

    def _end_attract(self) -> None:
        assert self.attract is not None
        self.attract.close()
        self.attract = None
        self.devices.waking = None
        self.game.invalidate()

    def _answer(self, response: Response | None, hurry: bool = True) -> None:
        """Shows what an input did; a press (``hurry``) ends the animations, money and the
        devices' own events leave the story to run."""
        if response is None:
            return
        if response.template == "help":
            self.game.next_help_page()
            self.game.message = None
        else:
            self.game.message = None if response.ok and not response.notice else response
        if hurry:
            self.game.skip(self.now())  # a press never waits for an animation (the reveal hurries)
        self.game.refresh(self.now())
        self._read_at = self._terminal_read()
        self._follow_scene()

    # The loop.

    def frame(self) -> None:
        """One frame at most 60 a second."""
        self.advance(self.clock.tick(FPS) / 1000)

    def advance(self, elapsed: float) -> None:
        """``elapsed`` seconds since the last frame: input, fixed-step updates (capped), and a
        redraw of what changed."""
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.running = False
            elif event.type == pygame.KEYDOWN:
                self.key(pygame.key.name(event.key))
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not event.touch:
                self.click(*event.pos)  # a touch comes as FINGERDOWN too: it presses once
            elif event.type == pygame.FINGERDOWN:
                width, height = self.screen.get_size()
                self.click(int(event.x * width), int(event.y * height))
            elif event.type in {pygame.WINDOWEXPOSED, pygame.VIDEORESIZE}:
                self.game.invalidate()
                self.operator.dirty = True
        self._lag = min(self._lag + elapsed, MAX_STEPS * STEP)
        if self._lag < STEP:
            self._take(self._poll(0.0))  # no step due: the buttons are still read this frame
        while self._lag >= STEP:
            self.update(STEP)
            self._lag -= STEP
        pygame.display.update(self.draw())
        if not (self.scene == "game" and self.game.busy(self.now())):
            garbage.collect_due()
        notify.frame_drawn()  # systemd: READY=1 after the first frame, then the watchdog's ping

    def update(self, seconds: float) -> None:
        """The devices' own time (pulse trains, the hopper), the menu's and the demo's."""
        self._take(self._poll(seconds))
        self.idle += seconds
        self.operator.step(seconds)
        if self.attract is not None:
            if self._quiet():
                self.attract.step(seconds, self.now())
            else:  # a tilt, the operator's key, a failing mains: the screen must say so
                self._end_attract()
        elif 0 < self.terminal.config.attract_after <= self.idle and self._quiet():
            self.terminal.forget_the_player()  # the next player finds the house's language
            self.attract = Attract(self.terminal, self.screen, self.sounds)

    def _poll(self, seconds: float) -> list[Response]:
        """The devices, ``seconds`` on: presses, money, the hopper, the power."""
        # While the attract demo runs or the dealer's reveal plays, a press only ends or hurries it.
        revealing = self.scene == "game" and self.game.telling(self.now())
        self.devices.waking = self._interrupt if self.attract is not None or revealing else None
        self.devices.revealing = revealing
        return self.cabinet.advance(seconds) if self.cabinet else self.devices.step()

    def _terminal_read(self) -> tuple[int, int | None, bool]:
        """What the screen shows of the terminal moves with: its books (each commit), and a
        linked jackpot's pool and link, which the agent moves without a commit here (the
        terminal reads the agent's file a few times a second at most; once here, for both)."""
        shown, offline = self.terminal.link_shown()
        return self.terminal.changes, shown, offline is None

    def _take(self, responses: list[Response]) -> None:
        """The devices' own events (money, the hopper, the power): a press during the story
        never gets here (``devices.waking`` takes it)."""
        if responses:
            self._wake()
            self._answer(responses[0], hurry=False)

    def _quiet(self) -> bool:
        """Nobody plays and nothing needs the screen: the attract demo may run."""
        terminal = self.terminal
        return terminal.mode is Mode.BETTING and (self.free_play or terminal.credits == 0)

    def _follow_settings(self) -> None:
        """The operator changed the language or the volume, or the player the language: the
        screen follows at once."""
        settings = (self.terminal.language, self.terminal.config.volume)
        if settings == self._settings:
            return
        self._settings = settings
        i18n.use(settings[0])
        self.sounds.set_volume(settings[1])
        self.game.invalidate()
        self.game.refresh(self.now())
        self.operator.dirty = True

    def _follow_scene(self) -> None:
        """The operator key opens the menu and closes it (logged out) when turned back."""
        scene = "operator" if self.terminal.mode is Mode.OPERATOR else "attract" if self.attract else "game"
        if scene == self.scene:
            return
        if self.scene == "operator":
            self.operator.close()
            self.game.refresh(self.now())
        self.scene = scene
        self.game.invalidate()
        self.operator.dirty = True

    def draw(self) -> list[pygame.Rect]:
        now = self.now()
        self._follow_settings()
        self._follow_scene()
        if self.scene == "operator":
            return self.operator.draw()
        read = self._terminal_read()
        if read != self._read_at:  # a device moved something (the hopper, say), or the hub's pool
            self._read_at = read
            self.game.refresh(now)
        if self.attract is not None:
            return self.attract.draw(now)
        return self.game.draw(now)

    def run(self) -> None:
        try:
            self.frame()
            garbage.settle_in()  # after the first frame: what it made lives as long as the kiosk
            while self.running:
                self.frame()
        finally:  # a frame that raised still stops the hopper and lets the devices go
            self.close()

    def close(self) -> None:
        """The screen ends, and with it the workers of the demo and of the hints; the
        cabinet's devices book what they last did and let go of their lines, whatever the
        others' ends raise."""
        with ExitStack() as closing:  # the last pushed ends first
            closing.callback(pygame.quit)
            closing.callback(garbage.restore)
            closing.callback(self.devices.shut_down)
            closing.callback(self.game.close)
            if self.attract is not None:
                self._end_attract()

    def repaint(self) -> list[pygame.Rect]:
        """Everything drawn afresh, not only what changed (a screenshot, a checked screen)."""
        self.game.invalidate()
        if self.attract is not None:
            self.attract.invalidate()
        self.operator.dirty = True
        return self.draw()

    def screenshot(self, path: Path) -> None:
        self.repaint()
        pygame.image.save(self.screen, str(path))
