"""Builds the cabinet's devices from the configuration's wiring."""

from __future__ import annotations

import time
from collections.abc import Callable

from gpiozero.pins import Factory

from oasis_kiosk.config import Config
from oasis_kiosk.hardware import essp
from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.hopper import Hopper
from oasis_kiosk.hardware.money import MoneyIn
from oasis_kiosk.hardware.panel import Panel
from oasis_kiosk.hardware.power import PowerFailInput
from oasis_kiosk.hardware.serial_port import LineSettings, Port, SerialPortError, open_serial
from oasis_kiosk.machine.terminal import Terminal


def build_cabinet(
    config: Config,
    terminal: Terminal,
    *,
    pin_factory: Factory | None = None,
    lamp_factory: Factory | None = None,
    serial_opener: Callable[[str, LineSettings], Port] = open_serial,
    clock: Callable[[], float] = time.monotonic,
    bounce_time: float | None = 0.02,
) -> Cabinet:
    """The devices of ``config.devices`` on ``pin_factory`` (the real pins by default), the
    lamps on ``lamp_factory`` if given; ``clock`` times the pulse trains and the hopper (a virtual one for mock pins)."""
    wiring = config.devices
    panel = (
        Panel(
            wiring.buttons,
            wiring.lamps,
            bounce_time=bounce_time,
            pin_factory=pin_factory,
            lamp_factory=lamp_factory,
        )
        if wiring.buttons or wiring.lamps
        else None
    )
    coin = wiring.coin_acceptor
    acceptor = (
        PulseAcceptor(
            coin.pulse, coin.inhibit, coin.pulses, coin.timing, pin_factory=pin_factory, clock=clock
        )
        if coin
        else None
    )
    bills: MoneyIn | None = None
    if wiring.bill_pulse is not None:
        b = wiring.bill_pulse
        bills = PulseAcceptor(b.pulse, b.inhibit, b.pulses, b.timing, pin_factory=pin_factory, clock=clock)
    elif wiring.bill_port is not None:
        try:
            port = serial_opener(wiring.bill_port, essp.LINE)
        except SerialPortError as error:
            raise SerialPortError(f"devices.bill_validator.port: {error}") from None
        validator = essp.EsspValidator(port, wiring.bill_channels)
        validator.start()
        bills = validator
    hopper = None
    if wiring.hopper_motor is not None and wiring.hopper_exit is not None:
        hopper = Hopper(
            wiring.hopper_motor,
            wiring.hopper_exit,
            coin=config.hopper_coin,
            timeout=wiring.hopper_timeout,
            exit_min_ms=wiring.hopper_exit_min_ms,
            exit_max_ms=wiring.hopper_exit_max_ms,
            pin_factory=pin_factory,
            clock=clock,
        )
    power = (
        PowerFailInput(
            wiring.power_fail,
            active_high=wiring.power_fail_active_high,
            pin_factory=pin_factory,
            clock=clock,
        )
        if wiring.power_fail is not None
        else None
    )
    return Cabinet(terminal, panel=panel, acceptor=acceptor, bills=bills, hopper=hopper, power=power)
