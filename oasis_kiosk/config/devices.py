"""``[devices]``: the cabinet's wiring, its buttons, lamps and money devices (BCM pins)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from oasis_kiosk.config.kinds import Counts, Names, OneOf, Pin, PinOrTable, Seconds, Tagged, Text, Whole
from oasis_kiosk.config.schema import REQUIRED, Below, ConfigError, Key, TomlTable


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
class DevicesConfig:
    """The cabinet's wiring (BCM pin numbers); empty on a desktop."""

    buttons: dict[str, int] = field(default_factory=dict)
    lamps: dict[str, int] = field(default_factory=dict)
    coin_acceptor: PulseDevice | None = None
    bill_pulse: PulseDevice | None = None
    """A bill validator in pulse mode, or:"""
    bill_port: str | None = None
    """a bill validator on ITL SSP at this serial port, with:"""
    bill_channels: dict[int, int] = field(default_factory=dict)
    hopper_motor: int | None = None
    hopper_exit: int | None = None
    hopper_timeout: float = 2.0
    hopper_exit_min_ms: int = 5
    """A coin covers the exit sensor at least this long; a narrower spike is noise."""
    hopper_exit_max_ms: int = 250
    """Covered longer: a coin stuck at the exit or a failed sensor; the payout stops short."""
    power_fail: int | None = None
    """The UPS's power-fail signal: while it is active the terminal takes no money and no
    play, and its database is closed."""
    power_fail_active_high: bool = False
    """The signal is active when the line is high (pulled down); by default it is active
    low, an open-collector output pulling the line down as the cabinet's switches do."""


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


def _pulse_acceptor(what: str) -> TomlTable:
    keys = {
        "pulse": Key(Pin(), REQUIRED, f"the pin the {what} pulses"),
        "inhibit": Key(Pin(), REQUIRED, f"the pin that inhibits the {what}"),
        "pulses": Key(Counts("pulse count", 100), REQUIRED, "pulses per coin or note -> its value"),
    }
    return TomlTable(keys | WINDOW, build=_pulse_device)


POWER_FAIL = TomlTable(
    {
        "pin": Key(Pin(), REQUIRED, "the UPS's power-fail line"),
        "active": Key(OneOf(("low", "high")), "low", "the line's level while the power fails"),
    },
    build=lambda v: {"power_fail": v["pin"], "power_fail_active_high": v["active"] == "high"},
)


BILL_VALIDATOR = Tagged(
    "protocol",
    {
        "essp": TomlTable(
            {
                "port": Key(
                    Text("a serial port such as /dev/ttyUSB0"), REQUIRED, "the validator's serial port"
                ),
                "channels": Key(Counts("channel", 16), REQUIRED, "channel n -> its note's value"),
            },
            build=lambda v: {"bill_port": v["port"], "bill_channels": v["channels"]},
        ),
        "pulse": _pulse_acceptor("bill validator"),
    },
)


COIN_ACCEPTOR = Tagged("protocol", {"pulse": _pulse_acceptor("coin acceptor")}, default="pulse")


def _devices(values: dict[str, Any]) -> DevicesConfig:
    wired: dict[str, Any] = {"buttons": values["buttons"], "lamps": values["lamps"]}
    if values["coin_acceptor"] is not None:
        _protocol, wired["coin_acceptor"] = values["coin_acceptor"]
    if values["bill_validator"] is not None:
        protocol, bill = values["bill_validator"]
        wired |= {"bill_pulse": bill} if protocol == "pulse" else bill
    if values["hopper"] is not None:
        wired |= values["hopper"]
    if values["power_fail"] is not None:
        wired |= values["power_fail"]
    return DevicesConfig(**wired)


DEVICES: dict[str, Key] = {
    "buttons": Key(Names(), {}, "button or switch name -> the pin it pulls low"),
    "lamps": Key(Names(), {}, "button name -> the pin of its lamp"),
    "coin_acceptor": Key(COIN_ACCEPTOR, None, "a coin acceptor, by its protocol ('pulse', the default)"),
    "bill_validator": Key(BILL_VALIDATOR, None, "a bill validator on SSP ('essp') or in pulse mode"),
    "hopper": Key(
        TomlTable(
            {
                "motor": Key(Pin(), REQUIRED, "the hopper motor's output"),
                "exit": Key(Pin(), REQUIRED, "the coin-exit sensor's input"),
                "timeout": Key(Seconds(0.1, 30), DevicesConfig().hopper_timeout, "no coin so long: empty"),
                "exit_min_ms": Key(
                    MILLISECONDS, DevicesConfig().hopper_exit_min_ms, "a coin covers the exit sensor so long"
                ),
                "exit_max_ms": Key(
                    MILLISECONDS,
                    DevicesConfig().hopper_exit_max_ms,
                    "the exit sensor covered longer: a stuck coin, the payout ends short",
                ),
            },
            build=lambda v: {
                "hopper_motor": v["motor"],
                "hopper_exit": v["exit"],
                "hopper_timeout": v["timeout"],
                "hopper_exit_min_ms": v["exit_min_ms"],
                "hopper_exit_max_ms": v["exit_max_ms"],
            },
            rules=(Below("exit_min_ms", "exit_max_ms", strict=True),),
        ),
        None,
        "the hopper that pays coins out",
    ),
    "power_fail": Key(PinOrTable(POWER_FAIL), None, "the UPS's power-fail line, active low unless told"),
}

DEVICES_SECTION = TomlTable(DEVICES, build=_devices)
