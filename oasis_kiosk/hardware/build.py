"""Builds the cabinet's devices from the configuration's wiring.

Each money device is built by its protocol's builder, listed here under the name its table
has in ``config/devices.py`` (``MONEY_DEVICES``): a device that takes money in among
``ACCEPTORS``, one that pays out among ``PAYOUTS``."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from gpiozero.pins import Factory

from oasis_kiosk.config import Config
from oasis_kiosk.hardware.acceptor import build_pulse_acceptor
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.essp import build_validator
from oasis_kiosk.hardware.hopper import build_hopper
from oasis_kiosk.hardware.money import MoneyIn, MoneyOut
from oasis_kiosk.hardware.panel import Panel
from oasis_kiosk.hardware.power import PowerFailInput
from oasis_kiosk.hardware.serial_port import LineSettings, Port, open_serial
from oasis_kiosk.hardware.wires import Wires
from oasis_kiosk.machine.terminal import Terminal

Device = TypeVar("Device", MoneyIn, MoneyOut)

ACCEPTORS: dict[str, Callable[[Any, Wires], MoneyIn]] = {
    "pulse": build_pulse_acceptor,
    "essp": build_validator,
}
"""The builders of the devices that take money in, by protocol."""
PAYOUTS: dict[str, Callable[[Any, Wires], MoneyOut]] = {"pulse": build_hopper}
"""The builders of the devices that pay out, by protocol."""


def _money_device(
    wires: Wires, key: str, builders: Mapping[str, Callable[[Any, Wires], Device]]
) -> Device | None:
    """The money device wired under ``key`` in ``[devices]``, built by its protocol's builder."""
    wired = wires.config.devices.money.get(key)
    if wired is None:
        return None
    return builders[wired.protocol](wired.settings, replace(wires, key=key))


def build_cabinet(
    config: Config,
    terminal: Terminal,
    *,
    pin_factory: Factory | None = None,
    lamp_factory: Factory | None = None,
    serial_opener: Callable[[str, LineSettings], Port] = open_serial,
    clock: Callable[[], float] = time.monotonic,
    wait: Callable[[float], None] = time.sleep,
    bounce_time: float | None = 0.02,
) -> Cabinet:
    """The devices of ``config.devices`` on ``pin_factory`` (the real pins by default), the
    lamps on ``lamp_factory`` if given; ``clock`` times the pulse trains and the hopper, and
    ``wait`` lets it pass (virtual ones for mock pins)."""
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
    wires = Wires(config, "", pin_factory, serial_opener, clock)
    acceptor = _money_device(wires, "coin_acceptor", ACCEPTORS)
    bills = _money_device(wires, "bill_validator", ACCEPTORS)
    hopper = _money_device(wires, "hopper", PAYOUTS)
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
    return Cabinet(
        terminal,
        panel=panel,
        acceptor=acceptor,
        bills=bills,
        hopper=hopper,
        power=power,
        clock=clock,
        wait=wait,
    )
