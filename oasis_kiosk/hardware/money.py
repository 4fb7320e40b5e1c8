"""The protocols and the one event vocabulary of the cabinet's money devices.

A coin acceptor or a bill validator, whatever its wire (a pulse line, SSP on a serial
port, and next ccTalk), and the coin hopper that pays out, report what happened as these
events, and the cabinet acts on them the same way for every device: a ``Credit`` is booked
in, a ``Paid`` item booked out at once, an item ``Held`` in escrow is taken or refused, a
payout's end (``PayoutEnded``) settles what it still owes, a ``Rejected`` item and line
noise (``Glitch``) are logged and counted, a ``Report`` is logged, a ``Fault`` tilts the
terminal. A new device that takes money in is one module that implements ``MoneyIn`` and one
configuration key that builds it (``hardware/build.py``). A ``MoneyOut`` is started with the
amount a payout owes and reports each item by the value that left, so it may pay in coins
(the hopper) or in one item (a ticket printer); the terminal knows what each device pays,
and what it says of it, from ``machine/cash_out_kinds.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from oasis_kiosk._core import OasisError
from oasis_kiosk.errors import InputError


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


@dataclass(frozen=True)
class Paid:
    """One item of a payout (a coin, a ticket) left the cabinet: the terminal books its value
    at once, so that a payout that ends short is booked exactly."""

    value: int
    """What it is worth (minor units)."""

    def __post_init__(self) -> None:
        if self.value < 1:
            raise InputError(f"an item paid out is worth at least 1 minor unit, not {self.value}")


@dataclass(frozen=True)
class PayoutEnded:
    """The payout device stopped: complete (``short`` 0), stopped by the attendant's key, or
    empty or jammed (no item came out in time)."""

    paid: int
    """The amount paid out (minor units)."""
    short: int
    """The amount still owed (minor units)."""
    tilt: str | None = None
    """The tilt an end short calls for when the device knows its cause (its exit sensor
    covered too long); None: empty or jammed."""


MoneyEvent = Credit | Held | Rejected | Glitch | Report | Fault | Paid | PayoutEnded


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

    def close(self) -> None:
        """Lets go of its lines or its port (the kiosk ends)."""
        ...


class MoneyOut(Protocol):
    """A device that pays an amount out an item at a time (a coin hopper: coins of its coin;
    a ticket printer would pay it in one ticket)."""

    @property
    def running(self) -> bool:
        """Paying out now."""
        ...

    def start(self, amount: int) -> None:
        """Pays ``amount`` (minor units) out (ValueError for an amount it cannot pay in its
        items, RuntimeError while running)."""
        ...

    def stop(self) -> None:
        """Stops paying at once (the attendant's key): the payout ends short."""
        ...

    def money_events(self) -> list[MoneyEvent]:
        """What happened since the last call, in order (called every frame)."""
        ...

    def close(self) -> None: ...
