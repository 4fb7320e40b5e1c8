"""The cabinet on gpiozero's mock pins, for a desktop, the tests and headless scripts.

Every button, switch, acceptor and the hopper are the same gpiozero devices the cabinet
has, wired to mock pins; pressing a key or running a script line drives those pins, so the
cabinet's whole input path (debounced buttons, pulse trains through the decoder, inhibit
lines, lamps) is what runs on a laptop and in CI. Time for the pulse trains is a virtual
clock, so a script plays the same way at any speed.
"""

from __future__ import annotations

from dataclasses import replace

from gpiozero.pins.mock import MockFactory

from oasis_kiosk.config import DevicesConfig, PulseDevice
from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.build import build_cabinet
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.names import BUTTONS, SWITCHES
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.terminal import Amount, Response, Terminal

PULSE_WIDTH = 0.05
PULSE_GAP = 0.05
AFTER_TRAIN = 0.3  # longer than the decoder's train gap: the train is complete


def desktop_wiring(coins: tuple[int, ...], bills: tuple[int, ...], hopper: bool) -> DevicesConfig:
    """A pin for every button, switch and lamp, a pulse-mode coin acceptor and bill validator
    (n pulses for the n-th smallest denomination), and a hopper if cash-out uses one."""
    pins = iter(range(54))
    wiring = DevicesConfig(
        buttons={name: next(pins) for name in (*BUTTONS, *SWITCHES)},
        lamps={name: next(pins) for name in BUTTONS},
        coin_acceptor=PulseDevice(next(pins), next(pins), {n: v for n, v in enumerate(coins, start=1)}),
        bill_pulse=PulseDevice(next(pins), next(pins), {n: v for n, v in enumerate(bills, start=1)}),
    )
    if hopper:
        wiring = replace(wiring, hopper_motor=next(pins), hopper_exit=next(pins))
    return wiring


class MockCabinet:
    def __init__(self, terminal: Terminal) -> None:
        config = terminal.config
        self.wiring = desktop_wiring(config.coins, config.bills, hopper=config.cashout == "hopper")
        # A Compute Module 3's board: 54 GPIOs, room for every button, lamp and device.
        self.factory = MockFactory(revision="a020a0")
        self.now = 0.0
        self.cabinet: Cabinet = build_cabinet(
            replace(config, devices=self.wiring),
            terminal,
            pin_factory=self.factory,
            clock=lambda: self.now,
            bounce_time=None,  # mock presses are clean edges
        )
        self.terminal = terminal

    def _step(self) -> list[Response]:
        return self.cabinet.step()

    def press(self, button: str) -> list[Response]:
        """Presses and releases a cabinet button."""
        pin = self.factory.pin(self.wiring.buttons[button])
        pin.drive_low()
        pin.drive_high()
        return self._step()

    def switch(self, name: str, closed: bool) -> list[Response]:
        pin = self.factory.pin(self.wiring.buttons[name])
        pin.drive_low() if closed else pin.drive_high()
        return self._step()

    def closed(self, switch: str) -> bool:
        """Is the switch closed (a closed switch pulls its line low)?"""
        return not self.factory.pin(self.wiring.buttons[switch]).state

    def insert(self, kind: str, value: int) -> Response:
        """Feeds a coin or a note: its pulse train on the acceptor's line. An inhibited
        acceptor, or a denomination it does not know, hands the money back."""
        device = self.cabinet.acceptor if kind == "coin" else self.cabinet.bills
        spec = self.wiring.coin_acceptor if kind == "coin" else self.wiring.bill_pulse
        assert isinstance(device, PulseAcceptor)
        assert spec is not None
        pulses = next((n for n, v in spec.pulses.items() if v == value), None)
        if pulses is None:
            template = (
                N_("a coin of {value} is not accepted: it comes back")
                if kind == "coin"
                else N_("a bill of {value} is not accepted: it comes back")
            )
            return Response(False, template, {"value": Amount(value)})
        if device.inhibited:
            return Response(
                False,
                N_("the coin acceptor is inhibited: the coin comes back")
                if kind == "coin"
                else N_("the bill acceptor is inhibited: the bill comes back"),
            )
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
        self.now += seconds
        return self._step()

    def lamp(self, button: str) -> bool:
        return bool(self.factory.pin(self.wiring.lamps[button]).state)
