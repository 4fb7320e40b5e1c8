"""The cabinet on gpiozero's mock pins, for a desktop, the tests and headless scripts.

Every button, switch, acceptor and the hopper are the same gpiozero devices the cabinet
has, wired to mock pins; pressing a key or running a script line drives those pins, so the
cabinet's whole input path (debounced buttons, pulse trains through the decoder, inhibit
lines, lamps) is what runs on a laptop and in CI. Time for the pulse trains and the hopper
is a virtual clock, so a script plays the same way at any speed: while the hopper's motor
runs, a coin passes its exit sensor every ``HOPPER_COIN_EVERY`` seconds of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from oasis_kiosk.config import DevicesConfig, HopperDevice, MoneyDevice, PulseDevice
from oasis_kiosk.errors import InputError
from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.build import build_cabinet
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.intents import BUTTONS, SWITCHES, Intent
from oasis_kiosk.machine.money_kinds import BILL, COIN, MoneyKind
from oasis_kiosk.machine.terminal import Amount, Response, Terminal
from oasis_kiosk.machine.tilts import TiltKind

PULSE_WIDTH = 0.05
PULSE_GAP = 0.05
AFTER_TRAIN = 0.3  # longer than the decoder's train gap: the train is complete
UNLIT = {Intent.ATTENDANT, Intent.HELP}
"""Buttons without a lamp on the desktop: the attendant's key has none, and HELP is lit
whenever the game is."""
COMES_BACK = {
    COIN: N_("a coin of {value} is not accepted: it comes back"),
    BILL: N_("a bill of {value} is not accepted: it comes back"),
}
"""The prompt for money the desktop's acceptor does not know (``{value}``)."""
INHIBITED = {
    COIN: N_("the coin acceptor is inhibited: the coin comes back"),
    BILL: N_("the bill acceptor is inhibited: the bill comes back"),
}
"""The prompt for money offered to an inhibited acceptor."""
HOPPER_COIN_EVERY = 0.05  # a mock hopper pays 20 coins a second, as a fast real one does
HOPPER_EXIT_PULSE = 0.02  # each coin covers the exit sensor this long, as a real one does


class SwitchPin(MockPin):  # type: ignore[misc]  # gpiozero has no type information
    """A mock input line as a real one behaves: a switch closed to ground holds it low
    whatever pull-up a device sets when it opens the pin (gpiozero's MockPin goes to the
    pull), so a switch can stand closed before the cabinet starts."""

    def __init__(self, factory: Any, info: Any) -> None:
        self.grounded = False
        super().__init__(factory, info)

    def drive_low(self) -> None:
        self.grounded = True
        super().drive_low()

    def drive_high(self) -> None:
        self.grounded = False
        super().drive_high()

    def _set_pull(self, value: str) -> None:
        grounded = self.grounded
        super()._set_pull(value)
        if grounded:
            self.drive_low()


def desktop_wiring(coins: tuple[int, ...], bills: tuple[int, ...], hopper: bool) -> DevicesConfig:
    """A pin for every button, switch and lamp, a pulse-mode coin acceptor and bill validator
    (n pulses for the n-th smallest denomination), and a hopper if cash-out uses one. The lamps
    are numbered on a board of their own: with the cards and the betting keys, one board's 46
    GPIOs cannot hold every button, lamp and device."""
    pins, lamp_pins = iter(range(46)), iter(range(46))
    buttons = {name: next(pins) for name in (*BUTTONS, *SWITCHES)}
    money = {
        key: MoneyDevice("pulse", PulseDevice(next(pins), next(pins), dict(enumerate(values, start=1))))
        for key, values in (("coin_acceptor", coins), ("bill_validator", bills))
    }
    if hopper:
        money["hopper"] = MoneyDevice("pulse", HopperDevice(next(pins), next(pins)))
    lamps = {name: next(lamp_pins) for name in BUTTONS if name not in UNLIT}
    return DevicesConfig(buttons=buttons, lamps=lamps, money=money)


class MockCabinet:
    def __init__(self, terminal: Terminal, switches: Mapping[str, bool] | None = None) -> None:
        """``switches``: which switches stand closed when the cabinet starts (the door
        open, the operator key turned); by default where the terminal last knew them, since
        a restart moves neither."""
        config = terminal.config
        self.wiring = desktop_wiring(config.coins, config.bills, hopper=config.cashout == "hopper")
        # Compute Module 3 boards (GPIO 0 to 45): one for the buttons and devices, one for the lamps.
        self.factory = MockFactory(revision="a020a0", pin_class=SwitchPin)
        self.lamp_factory = MockFactory(revision="a020a0")
        if switches is None:
            switches = {"door": TiltKind.DOOR in terminal.tilts, "operator_key": terminal.operator_key}
        for name, closed in switches.items():
            if closed:
                self.factory.pin(self.wiring.buttons[name]).drive_low()
        self.now = 0.0
        self.cabinet: Cabinet = build_cabinet(
            replace(config, devices=self.wiring),
            terminal,
            pin_factory=self.factory,
            lamp_factory=self.lamp_factory,
            clock=lambda: self.now,
            wait=self._wait,
            bounce_time=None,  # mock presses are clean edges
        )
        self.terminal = terminal

    def close(self) -> None:
        self.cabinet.close()

    def shut_down(self) -> None:
        self.cabinet.shut_down()

    def _wait(self, seconds: float) -> None:
        """The mock devices' time passes: nothing really waits."""
        self.now += seconds

    def _step(self) -> list[Response]:
        return self.cabinet.step()

    def press(self, button: str) -> list[Response]:
        """Presses and releases a cabinet button."""
        pin = self.factory.pin(self.wiring.buttons[button])
        pin.drive_low()
        pin.drive_high()
        return self._step()

    def touch(self, button: str) -> list[Response]:
        """A button clicked on the screen: a touch of the cabinet's touchscreen."""
        return self.cabinet.touch(button)

    def switch(self, name: str, closed: bool) -> list[Response]:
        pin = self.factory.pin(self.wiring.buttons[name])
        pin.drive_low() if closed else pin.drive_high()
        return self._step()

    def closed(self, switch: str) -> bool:
        """Is the switch closed (a closed switch pulls its line low)?"""
        return not self.factory.pin(self.wiring.buttons[switch]).state

    def insert(self, kind: MoneyKind, value: int) -> Response:
        """Feeds a coin or a note: its pulse train on the acceptor's line. An inhibited
        acceptor, or a denomination it does not know, hands the money back."""
        wired = {
            COIN: (self.cabinet.acceptor, self.wiring.settings("coin_acceptor")),
            BILL: (self.cabinet.bills, self.wiring.settings("bill_validator")),
        }
        device, spec = wired[kind]
        assert isinstance(device, PulseAcceptor)
        assert isinstance(spec, PulseDevice)
        pulses = next((n for n, v in spec.pulses.items() if v == value), None)
        if pulses is None:
            return Response(False, COMES_BACK[kind], {"value": Amount(value)})
        if device.inhibited:
            return Response(False, INHIBITED[kind])
        line = self.factory.pin(spec.pulse)
        for _ in range(pulses):
            line.drive_low()
            self.now += PULSE_WIDTH
            line.drive_high()
            self.now += PULSE_GAP
        self.now += AFTER_TRAIN
        responses = self._step()
        if not responses:
            return Response(False, N_("the money was not credited"))
        return responses[0]

    def advance(self, seconds: float) -> list[Response]:
        """``seconds`` pass: the hopper pays the coins its motor runs for."""
        end = self.now + seconds
        responses = []
        while self.hopper_running() and self.now + HOPPER_COIN_EVERY <= end:
            self.now += HOPPER_COIN_EVERY - HOPPER_EXIT_PULSE
            self.drop_coin()
            responses += self._step()
        self.now = end
        return responses + self._step()

    def hopper_running(self) -> bool:
        hopper = self.wiring.settings("hopper")
        return hopper is not None and bool(self.factory.pin(hopper.motor).state)

    def drop_coin(self) -> None:
        """A coin passes the hopper's exit sensor (also one the motor did not drive out),
        covering it ``HOPPER_EXIT_PULSE``."""
        hopper = self.wiring.settings("hopper")
        if hopper is None:
            raise InputError("this cabinet has no hopper")
        line = self.factory.pin(hopper.exit)
        line.drive_low()
        self.now += HOPPER_EXIT_PULSE
        line.drive_high()

    def lamp(self, button: str) -> bool:
        return bool(self.lamp_factory.pin(self.wiring.lamps[button]).state)
