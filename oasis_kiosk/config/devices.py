"""``[devices]``: the cabinet's wiring, its buttons, lamps and money devices (BCM pins)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from oasis_kiosk.config.kinds import Counts, Names, OneOf, Pin, PinOrTable, Seconds, Tagged, Text, Whole
from oasis_kiosk.config.schema import REQUIRED, Below, ConfigError, Key, TomlTable, Walk


@dataclass(frozen=True)
class PulseTiming:
    """The window of a valid train, in milliseconds. The defaults take the 20 to 100 ms
    pulses, spaced about a pulse width apart, that common acceptors (CH-926, NRI G-13,
    Comestero RM5) send at their fast, medium and slow settings, with room for jitter."""

    pulse_min_ms: int = 10
    """Narrower than this: noise."""
    pulse_max_ms: int = 150
    """Wider than this, or the line held active this long: a fault."""
    dropout_ms: int = 5
    """The line inactive for less than this inside a pulse: bridged, still one pulse."""
    gap_min_ms: int = 10
    """The shortest gap between two pulses of a train (a longer dropout than is bridged
    but shorter than this: ambiguous)."""
    gap_max_ms: int = 150
    """The longest gap between two pulses of a train."""
    quiet_ms: int = 200
    """This long without a pulse ends the train (a gap between ``gap_max_ms`` and this:
    ambiguous)."""

    def __post_init__(self) -> None:
        for name in (f.name for f in fields(self)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name}: a whole number of milliseconds, 1 or more, not {value!r}")
        for shorter, longer, strict in WINDOW_ORDER:
            low, high = getattr(self, shorter), getattr(self, longer)
            if high < low or (strict and high == low):
                relation = "<" if strict else "<="
                raise ConfigError(
                    f"the pulse window needs {shorter} {relation} {longer}, and {shorter} {low} "
                    f"{relation} {longer} {high} is false"
                )


# The window's keys that must be shorter (True: strictly) than others.
WINDOW_ORDER = (
    ("pulse_min_ms", "pulse_max_ms", True),
    ("dropout_ms", "gap_min_ms", True),
    ("dropout_ms", "pulse_min_ms", True),
    ("gap_min_ms", "gap_max_ms", False),
    ("gap_max_ms", "quiet_ms", True),
)


@dataclass(frozen=True)
class PulseDevice:
    """A pulse-mode acceptor: its pulse and inhibit pins, its pulse table and the timing
    window of a valid train."""

    pulse: int
    inhibit: int
    pulses: dict[int, int]
    timing: PulseTiming = field(default_factory=PulseTiming)


@dataclass(frozen=True)
class EsspDevice:
    """A note validator on ITL's SSP: its serial port and its note channels."""

    port: str
    channels: dict[int, int]
    """Channel n -> its note's value."""


@dataclass(frozen=True)
class HopperDevice:
    """A hopper driven by its motor's output, counting coins on its exit sensor's input."""

    motor: int
    exit: int
    timeout: float = 2.0
    """No coin so long with the motor running: empty or jammed."""
    exit_min_ms: int = 5
    """A coin covers the exit sensor at least this long; a narrower spike is noise."""
    exit_max_ms: int = 250
    """Covered longer: a coin stuck at the exit or a failed sensor; the payout stops short."""


@dataclass(frozen=True)
class MoneyDevice:
    """A money device as ``[devices]`` wires it: its protocol (the name its table has in its
    ``MoneySlot`` and its builder in ``hardware/build.py``) and its settings, as that
    protocol's table builds them (a ``PulseDevice``, an ``EsspDevice``, a ``HopperDevice``)."""

    protocol: str
    settings: Any


@dataclass(frozen=True)
class DevicesConfig:
    """The cabinet's wiring (BCM pin numbers); empty on a desktop."""

    buttons: dict[str, int] = field(default_factory=dict)
    lamps: dict[str, int] = field(default_factory=dict)
    money: dict[str, MoneyDevice] = field(default_factory=dict)
    """The money devices wired, by their key in ``[devices]`` (one of ``MONEY_DEVICES``)."""
    power_fail: int | None = None
    """The UPS's power-fail signal: while it is active the terminal takes no money and no
    play, and its database is closed."""
    power_fail_active_high: bool = False
    """The signal is active when the line is high (pulled down); by default it is active
    low, an open-collector output pulling the line down as the cabinet's switches do."""

    @property
    def wired(self) -> bool:
        """A cabinet's wiring, of any device: the kiosk drives it, not the desktop's mock
        pins."""
        return bool(self.buttons or self.lamps or self.money or self.power_fail is not None)

    def settings(self, key: str) -> Any:
        """The settings of the money device wired under ``key``; None if none is."""
        device = self.money.get(key)
        return None if device is None else device.settings


WINDOW_DEFAULTS = PulseTiming()

MILLISECONDS = Whole("a whole number of milliseconds, 1 to 1000", 1, 1000)
WINDOW: dict[str, Key] = {
    "pulse_min_ms": Key(MILLISECONDS, WINDOW_DEFAULTS.pulse_min_ms, "narrower: noise"),
    "pulse_max_ms": Key(
        MILLISECONDS,
        WINDOW_DEFAULTS.pulse_max_ms,
        "wider, or the line held active so long: a fault (a tilt)",
    ),
    "dropout_ms": Key(
        MILLISECONDS,
        WINDOW_DEFAULTS.dropout_ms,
        "a shorter dropout inside a pulse is bridged: one pulse",
    ),
    "gap_min_ms": Key(MILLISECONDS, WINDOW_DEFAULTS.gap_min_ms, "the shortest gap inside a train"),
    "gap_max_ms": Key(MILLISECONDS, WINDOW_DEFAULTS.gap_max_ms, "the longest gap inside a train"),
    "quiet_ms": Key(
        Whole("a whole number of milliseconds, 1 to 5000", 1, 5000),
        WINDOW_DEFAULTS.quiet_ms,
        "so long without a pulse ends the train",
    ),
}


def _pulse_device(values: dict[str, Any]) -> PulseDevice:
    timing = PulseTiming(**{name: values[name] for name in WINDOW})
    return PulseDevice(values["pulse"], values["inhibit"], values["pulses"], timing)


@dataclass(frozen=True)
class DeviceProtocol:
    """One way a money device is wired: its table of keys, built into the device's settings,
    and for one that takes money in the key of its table of pulse counts or channels to the
    values taken (the settings' field of the same name), each checked by ``check_values``."""

    table: TomlTable
    values: str | None = None


def _pulse_acceptor(what: str) -> DeviceProtocol:
    keys = {
        "pulse": Key(Pin(), REQUIRED, f"the pin the {what} pulses"),
        "inhibit": Key(Pin(), REQUIRED, f"the pin that inhibits the {what}"),
        "pulses": Key(Counts("pulse count", 100), REQUIRED, "pulses per coin or note -> its value"),
    }
    return DeviceProtocol(TomlTable(keys | WINDOW, build=_pulse_device), values="pulses")


ESSP_VALIDATOR = DeviceProtocol(
    TomlTable(
        {
            "port": Key(Text("a serial port such as /dev/ttyUSB0"), REQUIRED, "the validator's serial port"),
            "channels": Key(Counts("channel", 16), REQUIRED, "channel n -> its note's value"),
        },
        build=lambda v: EsspDevice(**v),
    ),
    values="channels",
)

PULSE_HOPPER = DeviceProtocol(
    TomlTable(
        {
            "motor": Key(Pin(), REQUIRED, "the hopper motor's output"),
            "exit": Key(Pin(), REQUIRED, "the coin-exit sensor's input"),
            "timeout": Key(Seconds(0.1, 30), HopperDevice.timeout, "no coin so long: empty"),
            "exit_min_ms": Key(
                MILLISECONDS, HopperDevice.exit_min_ms, "a coin covers the exit sensor so long"
            ),
            "exit_max_ms": Key(
                MILLISECONDS,
                HopperDevice.exit_max_ms,
                "the exit sensor covered longer: a stuck coin, the payout ends short",
            ),
        },
        build=lambda v: HopperDevice(**v),
        rules=(Below("exit_min_ms", "exit_max_ms", strict=True),),
    )
)


@dataclass(frozen=True)
class MoneySlot:
    """A key of ``[devices]`` that wires one money device, its table's ``protocol`` saying
    which of ``protocols`` (``default``: the protocol of a table that names none). ``takes``:
    the list of ``[money]`` that its values are among (None: a device that pays out)."""

    description: str
    protocols: dict[str, DeviceProtocol]
    default: str | None = None
    takes: str | None = None

    @property
    def describe(self) -> str:
        return "a table of keys"

    def check(self, value: Any, where: str, walk: Walk) -> MoneyDevice:
        tables = {name: protocol.table for name, protocol in self.protocols.items()}
        protocol, settings = Tagged("protocol", tables, default=self.default).check(value, where, walk)
        return MoneyDevice(protocol, settings)


MONEY_DEVICES: dict[str, MoneySlot] = {
    "coin_acceptor": MoneySlot(
        "a coin acceptor, by its protocol ('pulse', the default)",
        {"pulse": _pulse_acceptor("coin acceptor")},
        default="pulse",
        takes="coins",
    ),
    "bill_validator": MoneySlot(
        "a bill validator on SSP ('essp') or in pulse mode",
        {"essp": ESSP_VALIDATOR, "pulse": _pulse_acceptor("bill validator")},
        takes="bills",
    ),
    "hopper": MoneySlot("the hopper that pays coins out", {"pulse": PULSE_HOPPER}, default="pulse"),
}
"""Every money device the cabinet wires, by its key in ``[devices]``, and the protocols it
may speak; ``hardware/build.py`` builds each protocol by the same name."""


def check_values(devices: DevicesConfig, taken: dict[str, tuple[int, ...]], walk: Walk) -> None:
    """Each value a money device's pulse or channel table gives is one the cabinet takes:
    ``taken`` lists them by their key in ``[money]`` (``coins``, ``bills``)."""
    for key, device in devices.money.items():
        slot = MONEY_DEVICES[key]
        values = slot.protocols[device.protocol].values
        if slot.takes is None or values is None:
            continue
        listed = taken[slot.takes]
        for count, value in getattr(device.settings, values).items():
            if value not in listed:
                walk.fail(
                    f"devices.{key}.{values}.{count}",
                    f"{value} is not one of money.{slot.takes} {list(listed)}",
                )


POWER_FAIL = TomlTable(
    {
        "pin": Key(Pin(), REQUIRED, "the UPS's power-fail line"),
        "active": Key(OneOf(("low", "high")), "low", "the line's level while the power fails"),
    },
    build=lambda v: {"power_fail": v["pin"], "power_fail_active_high": v["active"] == "high"},
)


def _devices(values: dict[str, Any]) -> DevicesConfig:
    money = {key: values[key] for key in MONEY_DEVICES if values[key] is not None}
    power_fail = values["power_fail"] or {}
    return DevicesConfig(buttons=values["buttons"], lamps=values["lamps"], money=money, **power_fail)


DEVICES: dict[str, Key] = {
    "buttons": Key(Names(), {}, "button or switch name -> the pin it pulls low"),
    "lamps": Key(Names(), {}, "button name -> the pin of its lamp"),
    **{key: Key(slot, None, slot.description) for key, slot in MONEY_DEVICES.items()},
    "power_fail": Key(PinOrTable(POWER_FAIL), None, "the UPS's power-fail line, active low unless told"),
}

DEVICES_SECTION = TomlTable(DEVICES, build=_devices)
