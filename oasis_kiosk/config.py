"""The terminal's configuration: one TOML file (``/etc/oasis-kiosk/config.toml`` on the
cabinet), every key optional, every value checked when it loads.

One schema (``SCHEMA``: sections -> keys -> what each takes, its bounds, its default and
what it means) is walked over the file; the same walk checks the settings the operator
menu keeps in the database. An error names the file, the key and the reason in one line;
a bad configuration changes nothing. The schema is a small table of checks written here
rather than a validation library: the kiosk's few kinds of value (amounts, pins, pulse
tables) need their own words in the errors either way, and it adds no dependency to the
cabinet.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn, Protocol

from oasis_kiosk._core import OasisError, Profile
from oasis_kiosk.hardware.names import BUTTONS, SWITCHES
from oasis_kiosk.hardware.pulses import PulseTiming
from oasis_kiosk.rules import load_profile

MAX_VOLUME = 10
MAX_AMOUNT = 10**12
"""No amount in minor units above this: far above any cabinet's money, far below overflow."""
MAX_PIN = 53
LANGUAGES = ("en", "cs", "ru")
SPEEDS = ("normal", "fast")
"""How fast the cards move and a win counts up (ui/motion.py's PACES)."""


class ConfigError(ValueError, OasisError):
    """A configuration that cannot be used."""


def default_data_dir() -> Path:
    """The user's data directory (``$XDG_DATA_HOME/oasis-kiosk``); the cabinet sets
    ``/var/lib/oasis-kiosk`` in its configuration."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "oasis-kiosk"


@dataclass(frozen=True)
class JackpotConfig:
    """The progressive jackpot meter (RULES.md §3.6)."""

    base: int = 1_000_000
    """The value the meter restarts from after a full hit (minor units)."""
    rate: Fraction = Fraction(1, 10)
    """The share of every bonus stake that feeds the meter."""
    maximum: int = 6_000_000
    """Above this, contributions go to an overflow that seeds the next base."""


@dataclass(frozen=True)
class ReturnBounds:
    """The approved range of the theoretical return (a fraction of the stake: 0.95 is
    95 %); a configuration whose return lies outside it is not played."""

    return_min: float = 0.75
    """The main game's least return per ante, at the table's minimum and maximum ante."""
    return_max: float = 1.0
    """Its greatest: 1.0, the house never plays at a loss."""
    side_return_min: float = 0.40
    """The side bet's (a fixed or odds bonus) least return per unit staked."""
    side_return_max: float = 1.0


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
    power_fail: int | None = None
    """The UPS's power-fail signal: while it is active the terminal takes no money and no
    play, and its database is closed."""
    power_fail_active_high: bool = False
    """The signal is active when the line is high (pulled down); by default it is active
    low, an open-collector output pulling the line down as the cabinet's switches do."""


LINK_JACKPOTS = ("local", "linked")
LINK_OFFLINE = ("bonus", "stop")


@dataclass(frozen=True)
class LinkConfig:
    """``[link]``: the cabinet is one of a floor's, linked to its hub (docs/floor.md). Its
    books then keep an outbox of every change the hub must know, which the link agent
    (``oasis-kiosk link``) pushes to the hub; with no ``[link]`` there is no outbox."""

    credentials: Path
    """The cabinet's credentials file (``hub add-cabinet``), readable by its owner only."""
    jackpot: str = "local"
    """``local``: the cabinet's own progressive meter; ``linked``: its bonus stakes and hits
    go to the hub's pool (the outbox's ``jackpot_contribution`` and ``jackpot_hit``)."""
    batch: int = 500
    """The most outbox rows the agent sends in one transaction."""
    retry_max: float = 30.0
    """The longest wait between the agent's attempts while the hub cannot be reached (the
    wait doubles from a tenth of a second up to this)."""
    offline_after: float = 5.0
    """With the jackpot linked: seconds without the agent's contact with the hub before the
    link counts as down and the linked jackpot is not offered."""
    offline: str = "bonus"
    """With the jackpot linked and the link down: ``bonus``, the bonus bet that feeds the
    jackpot is refused and the rest plays on; ``stop``, the cabinet takes no play."""


@dataclass(frozen=True)
class Config:
    source: str = "<defaults>"
    profile: str = "standard"
    """A shipped profile's id or a profile file's path."""
    profile_overrides: dict[str, Any] | None = None
    """TOML merged over the profile: an operator's house variant."""
    database: Path = field(default_factory=lambda: default_data_dir() / "kiosk.db")
    credit_limit: int = 100_000
    """No coin or bill is accepted that would take the credits above this."""
    coins: tuple[int, ...] = (50, 100, 200, 500)
    bills: tuple[int, ...] = (500, 1000, 2000, 5000)
    cashout: str = "handpay"
    hopper_coin: int = 100
    """The coin the hopper pays out (cashout = "hopper"); what is left below it is handpaid."""
    handpay_limit: int = 1_000_000
    """A round that pays this much or more (a jackpot award included) locks the terminal up
    until the attendant pays it by hand; it never goes on the credits."""
    jackpot: JackpotConfig = field(default_factory=JackpotConfig)
    return_bounds: ReturnBounds = field(default_factory=ReturnBounds)
    """``[rules]``: the approved range of the return."""
    language: str = "en"
    volume: int = 6
    """Sound volume 0 (silent) to 10."""
    attract_volume: int = 3
    """The attract demo's sound volume, 0 (silent) to 10: softer than the game, so a cabinet
    that calls for players does not nag the room; never louder than ``volume``."""
    speed: str = "normal"
    attract_after: int = 60
    """Seconds without input, credits or a round before the attract demo starts; 0: never."""
    expected_video_driver: str = ""
    """The SDL video driver the cabinet must run on full screen (``kmsdrm``): the start-up
    self-test tilts on any other, so a kiosk drawing nowhere takes no money. Empty: any."""
    devices: DevicesConfig = field(default_factory=DevicesConfig)
    link: LinkConfig | None = None
    """``[link]``: linked to a floor's hub; None (no section): a cabinet on its own."""

    def load_profile(self) -> Profile:
        return load_profile(self.profile, self.profile_overrides)


# The schema's kinds of value. Each checks one value as the file has it (and, so that the
# loaded configuration can be checked again, as the kind itself makes it) and returns it
# as the configuration keeps it.


class Walk:
    """One check of a file or a stored setting: where errors point, and the pins taken."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.pins: dict[int, str] = {}

    def fail(self, where: str, reason: str) -> NoReturn:
        raise ConfigError(f"{self.prefix}{where}: {reason}" if where else f"{self.prefix}{reason}")


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


class Kind(Protocol):
    """What a key takes: ``describe`` says it in words, ``check`` checks one value."""

    @property
    def describe(self) -> str: ...

    def check(self, value: Any, where: str, walk: Walk) -> Any: ...


@dataclass(frozen=True)
class Whole:
    """A whole number low..high (not money: seconds, a volume, milliseconds)."""

    describe: str
    low: int
    high: int

    def check(self, value: Any, where: str, walk: Walk) -> int:
        if not _is_whole(value) or not self.low <= value <= self.high:
            walk.fail(where, f"{self.describe}, not {value!r}")
        return int(value)


@dataclass(frozen=True)
class Amount:
    """Money in minor units: a whole number above 0."""

    describe: str = "a whole amount in minor units"

    def check(self, value: Any, where: str, walk: Walk) -> int:
        if not _is_whole(value):
            walk.fail(where, f"{self.describe}, not {value!r}")
        if not 1 <= value <= MAX_AMOUNT:
            bound = "more than 0" if value < 1 else f"at most {MAX_AMOUNT}"
            walk.fail(where, f"{self.describe}, not {value!r}: it must be {bound}")
        return int(value)


@dataclass(frozen=True)
class Amounts:
    describe: str = "a list of amounts in minor units, each more than 0"

    def check(self, value: Any, where: str, walk: Walk) -> tuple[int, ...]:
        amounts = list(value) if isinstance(value, list | tuple) else None
        if not amounts or not all(_is_whole(v) and 0 < v <= MAX_AMOUNT for v in amounts):
            walk.fail(where, f"{self.describe}, not {value!r}")
        if len(set(amounts)) != len(amounts):
            walk.fail(where, f"{amounts!r} lists an amount twice")
        return tuple(sorted(amounts))


@dataclass(frozen=True)
class Share:
    describe: str = "a share from 0 to 1 as a number such as '0.1' or '3/20'"

    def check(self, value: Any, where: str, walk: Walk) -> Fraction:
        if isinstance(value, bool) or not isinstance(value, str | int | float | Fraction):
            walk.fail(where, f"{value!r} is not a number such as 0.1 or 3/20")
        try:
            share = Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            walk.fail(where, f"{value!r} is not a number such as 0.1 or 3/20")
        if not 0 <= share <= 1:
            walk.fail(where, f"{value} is not a share between 0 and 1")
        return share


@dataclass(frozen=True)
class Return:
    """A theoretical return as a fraction of the stake, 0 to 2 (0.95: 95 %)."""

    describe: str = "a return as a fraction of the stake such as 0.95 (95 %), from 0 to 2"

    def check(self, value: Any, where: str, walk: Walk) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 2:
            walk.fail(where, f"{self.describe}, not {value!r}")
        return float(value)


@dataclass(frozen=True)
class Choice:
    options: tuple[str, ...]

    @property
    def describe(self) -> str:
        quoted = [repr(option) for option in self.options]
        return f"{', '.join(quoted[:-1])} or {quoted[-1]}" if len(quoted) > 1 else quoted[0]

    def check(self, value: Any, where: str, walk: Walk) -> str:
        if not isinstance(value, str) or value not in self.options:
            walk.fail(where, f"{self.describe}, not {value!r}")
        return value


@dataclass(frozen=True)
class Text:
    describe: str
    valid: Callable[[str], bool] = bool
    """Which strings are right (by default: any but the empty one)."""
    convert: Callable[[str], Any] = str

    def check(self, value: Any, where: str, walk: Walk) -> Any:
        if isinstance(value, Path):
            value = str(value)
        if not isinstance(value, str) or not self.valid(value):
            walk.fail(where, f"{self.describe}, not {value!r}")
        return self.convert(value)


@dataclass(frozen=True)
class Seconds:
    low: float
    high: float

    @property
    def describe(self) -> str:
        return f"{self.low:g} to {self.high:g} seconds"

    def check(self, value: Any, where: str, walk: Walk) -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not self.low <= value <= self.high
        ):
            walk.fail(where, f"{self.describe}, not {value!r}")
        return float(value)


@dataclass(frozen=True)
class Pin:
    """A BCM GPIO number; no two keys may name the same pin."""

    describe: str = f"a BCM pin number 0 to {MAX_PIN}"

    def check(self, value: Any, where: str, walk: Walk) -> int:
        if not _is_whole(value) or not 0 <= value <= MAX_PIN:
            walk.fail(where, f"{self.describe}, not {value!r}")
        name = where.removeprefix("devices.")
        if value in walk.pins:
            walk.fail(where, f"pin {value} is already {walk.pins[value]}")
        walk.pins[value] = name
        return int(value)


@dataclass(frozen=True)
class Names:
    """A table of cabinet button (or switch) names, each to a pin."""

    describe: str = "a table of button = pin, such as { deal = 5, play = 6 }"

    def check(self, value: Any, where: str, walk: Walk) -> dict[str, int]:
        if not isinstance(value, dict):
            walk.fail(where, f"{self.describe}, not {value!r}")
        unknown = sorted(set(value) - set(BUTTONS) - set(SWITCHES))
        if unknown:
            walk.fail(where, f"no such button: {', '.join(unknown)}")
        return {name: Pin().check(pin, _join(where, name), walk) for name, pin in value.items()}


@dataclass(frozen=True)
class Counts:
    """A pulse table or a validator's note channels: a count (or channel) -> an amount."""

    what: str
    high: int

    @property
    def describe(self) -> str:
        return f"a table of {self.what} 1 to {self.high} = an amount, such as {{ 1 = 50, 2 = 100 }}"

    def check(self, value: Any, where: str, walk: Walk) -> dict[int, int]:
        if not isinstance(value, dict) or not value:
            walk.fail(where, f"{self.describe}, not {value!r}")
        table = {}
        for key, amount in value.items():
            text = str(key)
            if not (
                text.isascii() and text.isdigit() and str(int(text)) == text and 1 <= int(text) <= self.high
            ):
                walk.fail(_join(where, text), f"a {self.what} 1 to {self.high} = an amount, not {text!r}")
            table[int(text)] = Amount().check(amount, _join(where, text), walk)
        return table


@dataclass(frozen=True)
class Overrides:
    """Any table of profile fields: the profile checks them when it loads."""

    describe: str = "a table of profile fields"

    def check(self, value: Any, where: str, walk: Walk) -> dict[str, Any] | None:
        if value is not None and not isinstance(value, dict):
            walk.fail(where, f"{self.describe}, not {value!r}")
        return value or None


REQUIRED = object()
"""The default of a key that must be given."""
EMPTY = object()
"""The default of a table left out: the table's own defaults."""


@dataclass(frozen=True)
class Key:
    kind: Kind
    default: Any
    description: str


@dataclass(frozen=True)
class Below:
    """A rule between two keys of a table: ``low`` <= ``high`` (strict: <)."""

    low: str
    high: str
    strict: bool = False


@dataclass(frozen=True)
class Table:
    """A table of known keys, checked in the file's order (so a pin used twice is named at
    its second use); missing keys take their defaults; ``build`` makes the result."""

    keys: Mapping[str, Key]
    describe: str = "a table of keys"
    build: Callable[[dict[str, Any]], Any] = dict
    rules: tuple[Below, ...] = ()
    noun: str = "key"
    also_known: tuple[str, ...] = ()
    """Keys read before this table (a tagged table's tag), named among the known ones."""

    def check(self, value: Any, where: str, walk: Walk) -> Any:
        if not isinstance(value, dict):
            walk.fail(where, f"{self.describe}, not {value!r}")
        checked: dict[str, Any] = {}
        for name, item in value.items():
            if name not in self.keys:
                known = ", ".join((*self.also_known, *self.keys))
                if self.noun != "section":
                    walk.fail("", f"unknown key {_join(where, name)} (known: {known})")
                if not isinstance(item, dict):
                    walk.fail("", f"{name} is not in a section: settings go under one (known: {known})")
                walk.fail("", f"unknown section [{name}] (known: {known})")
            checked[name] = self.keys[name].kind.check(item, _join(where, name), walk)
        for name, key in self.keys.items():
            if name not in checked:
                if key.default is REQUIRED:
                    walk.fail(_join(where, name), f"missing ({key.kind.describe})")
                checked[name] = (
                    key.kind.check({}, _join(where, name), walk) if key.default is EMPTY else key.default
                )
        for rule in self.rules:
            low, high = checked[rule.low], checked[rule.high]
            if high < low or (rule.strict and high == low):
                relation = "is not above" if rule.strict else "is below"
                walk.fail("", f"{_join(where, rule.high)} {high} {relation} {_join(where, rule.low)} {low}")
        try:
            return self.build(checked)
        except ValueError as error:
            walk.fail(where, str(error))


@dataclass(frozen=True)
class Tagged:
    """A table whose ``tag`` key says which table of keys it is."""

    tag: str
    variants: Mapping[str, Table]
    describe: str = "a table of keys"
    default: str | None = None
    """The variant of a table without the tag (the one there was before there were more)."""

    def check(self, value: Any, where: str, walk: Walk) -> Any:
        if not isinstance(value, dict):
            walk.fail(where, f"{self.describe}, not {value!r}")
        choice = Choice(tuple(self.variants))
        if self.tag not in value and self.default is None:
            walk.fail(_join(where, self.tag), f"missing ({choice.describe})")
        variant = choice.check(value.get(self.tag, self.default), _join(where, self.tag), walk)
        rest = {k: v for k, v in value.items() if k != self.tag}
        return variant, replace(self.variants[variant], also_known=(self.tag,)).check(rest, where, walk)


@dataclass(frozen=True)
class PinOrTable:
    """A pin number, or a table that gives one with more about it."""

    table: Table
    describe: str = f"a BCM pin number 0 to {MAX_PIN}, or {{ pin = N, active = 'low' or 'high' }}"

    def check(self, value: Any, where: str, walk: Walk) -> Any:
        if isinstance(value, dict):
            return self.table.check(value, where, walk)
        return self.table.build({"pin": Pin().check(value, where, walk)} | {"active": "low"})


# The schema.

DEFAULTS = Config()
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


def _pulse_acceptor(what: str) -> Table:
    keys = {
        "pulse": Key(Pin(), REQUIRED, f"the pin the {what} pulses"),
        "inhibit": Key(Pin(), REQUIRED, f"the pin that inhibits the {what}"),
        "pulses": Key(Counts("pulse count", 100), REQUIRED, "pulses per coin or note -> its value"),
    }
    return Table(keys | WINDOW, build=_pulse_device)


TERMINAL: dict[str, Key] = {
    "profile": Key(
        Text("a shipped profile's id or a profile file's path"),
        DEFAULTS.profile,
        "the rules: a shipped profile's id or a profile file's path",
    ),
    "database": Key(
        Text("a file path", convert=Path),
        None,  # the data directory of the moment (default_data_dir), not of the import
        "the terminal's database, the only file it writes",
    ),
    "credit_limit": Key(Amount(), DEFAULTS.credit_limit, "no coin or note is taken that would pass it"),
    "cashout": Key(Choice(("handpay", "hopper")), DEFAULTS.cashout, "how credits are paid out"),
    "language": Key(Choice(LANGUAGES), DEFAULTS.language, "the screen's language"),
    "volume": Key(Whole(f"0 to {MAX_VOLUME}", 0, MAX_VOLUME), DEFAULTS.volume, "sound volume, 0: silent"),
    "attract_volume": Key(
        Whole(f"0 to {MAX_VOLUME}", 0, MAX_VOLUME),
        DEFAULTS.attract_volume,
        "the attract demo's sound volume, 0: silent; never louder than volume",
    ),
    "speed": Key(Choice(SPEEDS), DEFAULTS.speed, "how fast cards move and wins count up; fast: twice"),
    "attract_after": Key(
        Whole("a whole number of seconds, 0 to 86400", 0, 86_400),
        DEFAULTS.attract_after,
        "seconds idle before the attract demo; 0: never",
    ),
    "expected_video_driver": Key(
        Text(
            "an SDL driver name such as 'kmsdrm', or '' for any",
            valid=lambda name: name.isascii() and all(c.islower() or c.isdigit() or c == "_" for c in name),
        ),
        DEFAULTS.expected_video_driver,
        "the SDL video driver the self-test expects; '': any",
    ),
}

MONEY: dict[str, Key] = {
    "coins": Key(Amounts(), DEFAULTS.coins, "the coins taken (minor units)"),
    "bills": Key(Amounts(), DEFAULTS.bills, "the notes taken (minor units)"),
    "hopper_coin": Key(Amount(), DEFAULTS.hopper_coin, "the coin the hopper pays out, one of coins"),
    "handpay_limit": Key(Amount(), DEFAULTS.handpay_limit, "a win at or above it is paid by hand"),
}

JACKPOT: dict[str, Key] = {
    "base": Key(Amount(), DEFAULTS.jackpot.base, "the meter's value after a full hit"),
    "rate": Key(Share(), DEFAULTS.jackpot.rate, "the share of every bonus stake fed to the meter"),
    "maximum": Key(Amount(), DEFAULTS.jackpot.maximum, "above it contributions go to an overflow"),
}

BOUNDS = ReturnBounds()
RULES: dict[str, Key] = {
    "return_min": Key(Return(), BOUNDS.return_min, "the main game's least return per ante"),
    "return_max": Key(Return(), BOUNDS.return_max, "the main game's greatest return per ante"),
    "side_return_min": Key(Return(), BOUNDS.side_return_min, "the side bet's least return per stake"),
    "side_return_max": Key(Return(), BOUNDS.side_return_max, "the side bet's greatest return per stake"),
}

POWER_FAIL = Table(
    {
        "pin": Key(Pin(), REQUIRED, "the UPS's power-fail line"),
        "active": Key(Choice(("low", "high")), "low", "the line's level while the power fails"),
    },
    build=lambda v: {"power_fail": v["pin"], "power_fail_active_high": v["active"] == "high"},
)

BILL_VALIDATOR = Tagged(
    "protocol",
    {
        "essp": Table(
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
    "coin_acceptor": Key(
        COIN_ACCEPTOR, None, "a coin acceptor in pulse mode (protocol 'pulse', the default)"
    ),
    "bill_validator": Key(BILL_VALIDATOR, None, "a bill validator on SSP ('essp') or in pulse mode"),
    "hopper": Key(
        Table(
            {
                "motor": Key(Pin(), REQUIRED, "the hopper motor's output"),
                "exit": Key(Pin(), REQUIRED, "the coin-exit sensor's input"),
                "timeout": Key(Seconds(0.1, 30), DevicesConfig().hopper_timeout, "no coin so long: empty"),
            },
            build=lambda v: {
                "hopper_motor": v["motor"],
                "hopper_exit": v["exit"],
                "hopper_timeout": v["timeout"],
            },
        ),
        None,
        "the hopper that pays coins out",
    ),
    "power_fail": Key(PinOrTable(POWER_FAIL), None, "the UPS's power-fail line, active low unless told"),
}

LINK_DEFAULTS = LinkConfig(Path())
LINK: dict[str, Key] = {
    "credentials": Key(
        Text("a credentials file's path", convert=Path),
        REQUIRED,
        "the cabinet's credentials file from `hub add-cabinet` (mode 0600)",
    ),
    "jackpot": Key(
        Choice(LINK_JACKPOTS),
        LINK_DEFAULTS.jackpot,
        "'local': the cabinet's own meter; 'linked': stakes and hits go to the hub's pool",
    ),
    "batch": Key(
        Whole("a whole number of rows, 1 to 10000", 1, 10_000),
        LINK_DEFAULTS.batch,
        "the most outbox rows the link agent sends at once",
    ),
    "retry_max": Key(
        Seconds(1, 3600), LINK_DEFAULTS.retry_max, "the longest wait between attempts to reach the hub"
    ),
    "offline_after": Key(
        Seconds(1, 3600),
        LINK_DEFAULTS.offline_after,
        "seconds without contact with the hub before the linked jackpot is offline",
    ),
    "offline": Key(
        Choice(LINK_OFFLINE),
        LINK_DEFAULTS.offline,
        "the linked jackpot offline: 'bonus', the bonus bet is closed; 'stop', no play at all",
    ),
}

SCHEMA: dict[str, dict[str, Key]] = {
    "terminal": TERMINAL,
    "money": MONEY,
    "jackpot": JACKPOT,
    "rules": RULES,
    "devices": DEVICES,
    "link": LINK,
}
"""Every section and key of the configuration file (and ``[profile_overrides]``: any
profile field, checked by the profile when it loads)."""

SECTIONS: dict[str, Table] = {
    "terminal": Table(TERMINAL),
    "money": Table(MONEY),
    "jackpot": Table(
        JACKPOT,
        describe="a table of base, rate and maximum",
        build=lambda v: JackpotConfig(**v),
        rules=(Below("base", "maximum"),),
    ),
    "rules": Table(
        RULES,
        describe="a table of return_min, return_max, side_return_min and side_return_max",
        build=lambda v: ReturnBounds(**v),
        rules=(Below("return_min", "return_max"), Below("side_return_min", "side_return_max")),
    ),
    "devices": Table(DEVICES, build=_devices),
    "link": Table(
        LINK,
        describe="a table of credentials, jackpot, batch, retry_max, offline_after and offline",
        build=lambda v: LinkConfig(**v),
    ),
}
OPTIONAL_SECTIONS = ("link",)
"""Sections whose absence means something (not linked), rather than their defaults."""

FILE = Table(
    {name: Key(table, None if name in OPTIONAL_SECTIONS else EMPTY, name) for name, table in SECTIONS.items()}
    | {"profile_overrides": Key(Overrides(), None, "profile fields merged over the profile")},
    describe="a TOML file of sections",
    noun="section",
)


def _read(path: Path | str) -> dict[str, Any]:
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ConfigError(f"{source}: cannot be read: {error.strerror}") from None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ConfigError(f"{source}: line {line}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: {error}") from None


def load_config(path: Path | str | None = None, **replace_fields: Any) -> Config:
    """Reads a configuration file (defaults for anything it leaves out); ``replace_fields``
    sets fields afterwards (command-line options). The profile is loaded once to check it."""
    source = "<defaults>" if path is None else str(path)
    raw = {} if path is None else _read(path)
    sections = FILE.check(raw, "", Walk(f"{source}: "))
    terminal = {key: value for key, value in sections["terminal"].items() if value is not None}
    config = Config(
        source=source,
        **terminal,
        **sections["money"],
        jackpot=sections["jackpot"],
        return_bounds=sections["rules"],
        devices=sections["devices"],
        link=sections["link"],
        profile_overrides=sections["profile_overrides"],
    )
    config = replace(config, **{k: v for k, v in replace_fields.items() if v is not None})
    validate(config)
    return config


def _rules(values: dict[str, Any]) -> dict[str, Any]:
    load_profile(values["profile"], values["overrides"])  # checked whole, as the menu did
    return values


def _whole(table: Table) -> Table:
    """The table with every key required: what the menu stores is always complete."""
    return replace(table, keys={name: replace(key, default=REQUIRED) for name, key in table.keys.items()})


STORED: dict[str, Kind] = {
    "jackpot_config": _whole(SECTIONS["jackpot"]),
    "rules": Table(
        {
            "profile": replace(TERMINAL["profile"], default=REQUIRED),
            "overrides": Key(Overrides(), REQUIRED, "profile fields merged over the profile"),
        },
        describe="a table of profile and overrides",
        build=_rules,
    ),
    "language": TERMINAL["language"].kind,
    "volume": TERMINAL["volume"].kind,
    "attract_volume": TERMINAL["attract_volume"].kind,
    "speed": TERMINAL["speed"].kind,
}
"""The settings the operator menu keeps in the database, as the schema takes them."""


def check_stored(setting: str, value: Any, database: Path) -> Any:
    """A setting the operator menu stored, checked as the configuration's own keys are:
    what the schema makes of it, or a ConfigError naming the database and the setting."""
    return check_setting(setting, value, f"{database}: the stored setting {setting}: ")


def check_setting(setting: str, value: Any, said_as: str) -> Any:
    """A setting the operator menu keeps, checked by the schema: what it makes of it, or a
    ConfigError whose message begins with ``said_as``."""
    return STORED[setting].check(value, "", Walk(said_as))


def validate(config: Config) -> None:
    """Checks every setting again as the terminal holds it (the file with the command
    line's and the operator menu's changes over it), the settings that depend on each
    other, and loads the profile once; the start-up self-test runs it too."""
    walk = Walk(f"{config.source}: ")
    for section in ("terminal", "money"):
        SECTIONS[section].check({key: getattr(config, key) for key in SCHEMA[section]}, section, walk)
    jackpot = config.jackpot
    SECTIONS["jackpot"].check({key: getattr(jackpot, key) for key in JACKPOT}, "jackpot", walk)
    bounds = config.return_bounds
    SECTIONS["rules"].check({key: getattr(bounds, key) for key in RULES}, "rules", walk)
    if config.link is not None:
        SECTIONS["link"].check({key: getattr(config.link, key) for key in LINK}, "link", walk)
    if config.cashout == "hopper" and config.devices.hopper_motor is None:
        walk.fail("terminal.cashout", "'hopper' needs a hopper in [devices]")
    if config.hopper_coin not in config.coins:
        walk.fail("money.hopper_coin", f"{config.hopper_coin} is not one of money.coins {list(config.coins)}")
    devices = config.devices
    for where, table, listed in (
        ("coin_acceptor.pulses", devices.coin_acceptor.pulses if devices.coin_acceptor else {}, "coins"),
        ("bill_validator.pulses", devices.bill_pulse.pulses if devices.bill_pulse else {}, "bills"),
        ("bill_validator.channels", devices.bill_channels, "bills"),
    ):
        taken = config.coins if listed == "coins" else config.bills
        for count, value in table.items():
            if value not in taken:
                walk.fail(f"devices.{where}.{count}", f"{value} is not one of money.{listed} {list(taken)}")
    try:
        config.load_profile()
    except ValueError as error:
        walk.fail("terminal.profile", str(error))
