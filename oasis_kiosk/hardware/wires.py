"""What a money device is built over: the cabinet's configuration, its pins, its serial
ports and its clock. Each money device's module builds its device from its settings
(``config/devices.py``) over ``Wires``; ``hardware/build.py`` lists those builders by the
protocol's name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gpiozero.pins import Factory

from oasis_kiosk.config import Config
from oasis_kiosk.hardware.serial_port import LineSettings, Port, SerialPortError


@dataclass(frozen=True)
class Wires:
    config: Config
    key: str
    """The device's key in ``[devices]``, which an error about its wiring names."""
    pin_factory: Factory | None
    """The pins (None: the real ones)."""
    serial_opener: Callable[[str, LineSettings], Port]
    clock: Callable[[], float]
    """Times the pulse trains and the payouts (a virtual one for mock pins)."""

    def open_port(self, setting: str, path: str, line: LineSettings) -> Port:
        """The serial port at ``path`` opened with ``line``; a port that cannot be is an error
        naming the setting that gave it."""
        try:
            return self.serial_opener(path, line)
        except SerialPortError as error:
            raise SerialPortError(f"devices.{self.key}.{setting}: {error}") from None
