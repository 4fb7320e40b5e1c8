"""The one protocol and event vocabulary of the devices that take money in.

A coin acceptor or a bill validator, whatever its wire (a pulse line, SSP on a serial
port, and next ccTalk), reports what happened as these events, and the cabinet acts on them
the same way for every device: a ``Credit`` is booked, an item ``Held`` in escrow is taken
or refused, a ``Rejected`` item and line noise (``Glitch``) are logged and counted, a
``Report`` is logged, a ``Fault`` tilts the terminal. A new device is one module that
implements ``MoneyIn`` and one configuration key that builds it (``hardware/build.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from oasis_kiosk._core import OasisError


class DeviceError(OasisError):
    """A command to a device failed: the cabinet tilts the terminal with its reason."""


@dataclass(frozen=True)
class Credit:
    """Money taken in for good (in the cashbox, stacked): the terminal credits it."""

    value: int


@dataclass(frozen=True)
class Held:
    """An item read and held in escrow: the next poll takes it, unless the cabinet gives
    it back first (``MoneyIn.refuse_held``)."""

    value: int
    event: str
    """The log's name for the read."""
    item: str
    """What the item is called in the log ("note")."""
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Rejected:
    """An item the device refused and gave back: never credited, logged and counted."""

    event: str
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Glitch:
    """Noise on the device's line: never money, logged and counted."""

    event: str
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    """Something the device says that moves no money (a note stacking, a cashbox put
    back): logged."""

    event: str
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Fault:
    """The device cannot be trusted to take money: the terminal tilts with this kind."""

    tilt: str
    reason: str


MoneyEvent = Credit | Held | Rejected | Glitch | Report | Fault


class MoneyIn(Protocol):
    """A device that takes coins or notes in. ``kind`` is what the cabinet wired it as
    ("coin" or "bill"): what the terminal credits it as and its events are named after."""

    def money_events(self, kind: str) -> list[MoneyEvent]:
        """What happened since the last call, in order (called every frame)."""
        ...

    @property
    def largest(self) -> int | None:
        """The most one item it takes straight in is worth, so that it is opened only while
        that fits under the credit limit; None: it holds each item in escrow, and the
        cabinet takes or refuses it by its value."""
        ...

    @property
    def held(self) -> Held | None:
        """The item it holds in escrow now, if any."""
        ...

    def refuse_held(self) -> None:
        """Gives the item held in escrow back to the customer (DeviceError if it cannot)."""
        ...

    def set_accepting(self, accepting: bool) -> None:
        """Opens or closes the device to money (DeviceError if it cannot)."""
        ...

    def fault_tilt(self, kind: str) -> str:
        """The tilt a failed command to this device raises."""
        ...
