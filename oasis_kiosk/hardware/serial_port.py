"""A serial device's port: what its driver reads and writes, and how the port is opened.

Each serial protocol names its own line settings (ITL's SSP talks 8N2 at 9600 baud, ccTalk
8N1), so a new serial device is its driver plus its ``LineSettings``; the port is opened here
for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, cast

from oasis_kiosk._core import OasisError


class Port(Protocol):
    """What a driver needs of a serial port (a ``serial.Serial`` has it)."""

    def write(self, data: bytes, /) -> int | None: ...

    def read(self, size: int = 1, /) -> bytes: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class LineSettings:
    """A protocol's line settings: eight data bits, no parity, and these."""

    baud: int
    stop_bits: Literal[1, 2]
    read_timeout: float = 0.1
    """Seconds a read waits for a byte: the driver's poll, not its fault time-out."""


class SerialPortError(OSError, OasisError):
    """A serial device's port cannot be opened: absent, busy, or not a serial port."""


def open_serial(path: str, line: LineSettings) -> Port:
    """The port at ``path`` (``/dev/ttyUSB0``, ``/dev/serial0``) opened with ``line``;
    ``SerialPortError`` naming it if it cannot be."""
    import serial  # pyserial, only where a serial device is wired

    stop_bits = serial.STOPBITS_ONE if line.stop_bits == 1 else serial.STOPBITS_TWO
    try:
        port = serial.Serial(
            path,
            line.baud,
            bytesize=serial.EIGHTBITS,
            parity=serial.PARITY_NONE,
            stopbits=stop_bits,
            timeout=line.read_timeout,
        )
    except (serial.SerialException, ValueError) as error:
        raise SerialPortError(f"serial port {path}: {error}") from None
    return cast(Port, port)
