"""The terminal's configuration: one TOML file (``/etc/oasis-kiosk/config.toml`` on the
cabinet), every key optional, every value checked when it loads.

Errors name the file, the key and the reason; a bad configuration changes nothing.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from oasis_kiosk._core import Profile
from oasis_kiosk.rules import load_profile

MAX_VOLUME = 10


class ConfigError(ValueError):
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
class PulseDevice:
    """A pulse-mode acceptor: its pulse and inhibit pins and its pulse table."""

    pulse: int
    inhibit: int
    pulses: dict[int, int]


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
    language: str = "en"
    volume: int = 6
    """Sound volume 0 (silent) to 10."""
    attract_after: int = 60
    """Seconds without input, credits or a round before the attract demo starts; 0: never."""
    expected_video_driver: str = ""
    """The SDL video driver the cabinet must run on full screen (``kmsdrm``): the start-up
    self-test tilts on any other, so a kiosk drawing nowhere takes no money. Empty: any."""
    devices: DevicesConfig = field(default_factory=DevicesConfig)

    def load_profile(self) -> Profile:
        return load_profile(self.profile, self.profile_overrides)


def _fraction(text: Any, where: str) -> Fraction:
    try:
        value = Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        raise ConfigError(f"{where}: {text!r} is not a number such as 0.1 or 3/20") from None
    if not 0 <= value <= 1:
        raise ConfigError(f"{where}: {text} is not a share between 0 and 1")
    return value


def _positive_ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, int) and v > 0 for v in value):
        raise ConfigError(f"{where}: a list of positive amounts in minor units, not {value!r}")
    if len(set(value)) != len(value):
        raise ConfigError(f"{where}: {value!r} lists an amount twice")
    return tuple(sorted(value))


KNOWN = {
    "terminal": {
        "profile",
        "database",
        "credit_limit",
        "cashout",
        "language",
        "volume",
        "attract_after",
        "expected_video_driver",
    },
    "money": {"coins", "bills", "hopper_coin", "handpay_limit"},
    "jackpot": {"base", "rate", "maximum"},
    "devices": {"buttons", "lamps", "coin_acceptor", "bill_validator", "hopper", "power_fail"},
    "profile_overrides": None,  # any TOML: merged over the profile and checked by it
}


def load_config(path: Path | str | None = None, **replace_fields: Any) -> Config:
    """Reads a configuration file (defaults for anything it leaves out); ``replace_fields``
    sets fields afterwards (command-line options). The profile is loaded once to check it."""
    raw: dict[str, Any] = {}
    source = "<defaults>"
    if path is not None:
        source = str(path)
        try:
            raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise ConfigError(f"{source}: cannot be read: {error.strerror}") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{source}: {error}") from None
    for section, value in raw.items():
        if section not in KNOWN:
            raise ConfigError(f"{source}: unknown section [{section}] (known: {', '.join(sorted(KNOWN))})")
        keys = KNOWN[section]
        if keys is not None:
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: {section} must be a table")
            for key in value:
                if key not in keys:
                    raise ConfigError(
                        f"{source}: unknown key {section}.{key} (known: {', '.join(sorted(keys))})"
                    )

    terminal = raw.get("terminal", {})
    money = raw.get("money", {})
    jackpot_raw = raw.get("jackpot", {})

    def integer(table: dict[str, Any], key: str, default: int, section: str) -> int:
        value = table.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"{source}: {section}.{key}: a whole amount in minor units, not {value!r}")
        return value

    defaults = Config()
    jackpot = JackpotConfig(
        base=integer(jackpot_raw, "base", defaults.jackpot.base, "jackpot"),
        rate=_fraction(jackpot_raw.get("rate", str(defaults.jackpot.rate)), f"{source}: jackpot.rate"),
        maximum=integer(jackpot_raw, "maximum", defaults.jackpot.maximum, "jackpot"),
    )
    overrides = raw.get("profile_overrides")
    devices = _devices(raw.get("devices", {}), source)
    config = Config(
        source=source,
        profile=str(terminal.get("profile", defaults.profile)),
        profile_overrides=overrides or None,
        database=Path(terminal["database"]) if "database" in terminal else defaults.database,
        credit_limit=integer(terminal, "credit_limit", defaults.credit_limit, "terminal"),
        coins=_positive_ints(money.get("coins", list(defaults.coins)), f"{source}: money.coins"),
        bills=_positive_ints(money.get("bills", list(defaults.bills)), f"{source}: money.bills"),
        cashout=str(terminal.get("cashout", defaults.cashout)),
        hopper_coin=integer(money, "hopper_coin", defaults.hopper_coin, "money") or defaults.hopper_coin,
        handpay_limit=integer(money, "handpay_limit", defaults.handpay_limit, "money"),
        jackpot=jackpot,
        language=str(terminal.get("language", defaults.language)),
        volume=integer(terminal, "volume", defaults.volume, "terminal"),
        attract_after=integer(terminal, "attract_after", defaults.attract_after, "terminal"),
        expected_video_driver=terminal.get("expected_video_driver", defaults.expected_video_driver),
        devices=devices,
    )
    config = replace(config, **{k: v for k, v in replace_fields.items() if v is not None})
    validate(config)
    return config


def validate(config: Config) -> None:
    """Checks the settings that depend on each other and loads the profile once; the
    start-up self-test runs it again on the configuration as the operator menu left it."""
    source = config.source
    if config.cashout not in {"handpay", "hopper"}:
        raise ConfigError(f"{source}: terminal.cashout: 'handpay' or 'hopper', not {config.cashout!r}")
    if config.cashout == "hopper" and config.devices.hopper_motor is None:
        raise ConfigError(f"{source}: terminal.cashout: 'hopper' needs a hopper in [devices]")
    if not 0 <= config.volume <= MAX_VOLUME:
        raise ConfigError(f"{source}: terminal.volume: 0 to {MAX_VOLUME}, not {config.volume}")
    if config.language not in {"en", "cs", "ru"}:
        raise ConfigError(f"{source}: terminal.language: 'en', 'cs' or 'ru', not {config.language!r}")
    driver = config.expected_video_driver
    if not isinstance(driver, str) or not all(c.islower() or c.isdigit() or c == "_" for c in driver):
        raise ConfigError(
            f"{source}: terminal.expected_video_driver: an SDL driver name such as 'kmsdrm', or '' "
            f"for any, not {driver!r}"
        )
    if config.jackpot.maximum < config.jackpot.base:
        raise ConfigError(
            f"{source}: jackpot.maximum {config.jackpot.maximum} is below jackpot.base {config.jackpot.base}"
        )
    try:
        config.load_profile()
    except ValueError as error:
        raise ConfigError(f"{source}: terminal.profile: {error}") from None


def _devices(raw: dict[str, Any], source: str) -> DevicesConfig:
    """Checks the wiring: known names, whole pin numbers, no pin used twice, pulse tables
    and note channels of positive values."""
    from oasis_kiosk.hardware.names import BUTTONS, SWITCHES

    used: dict[int, str] = {}

    def pin(value: Any, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 53:
            raise ConfigError(f"{source}: devices.{where}: a BCM pin number 0 to 53, not {value!r}")
        if value in used:
            raise ConfigError(f"{source}: devices.{where}: pin {value} is already {used[value]}")
        used[value] = where
        return value

    def table(value: Any, where: str, low: int, high: int) -> dict[int, int]:
        if not isinstance(value, dict) or not value:
            raise ConfigError(f"{source}: devices.{where}: a table such as {{ 1 = 50, 2 = 100 }}")
        result = {}
        for key, amount in value.items():
            if not (
                str(key).isdigit() and low <= int(key) <= high and isinstance(amount, int) and amount > 0
            ):
                raise ConfigError(f"{source}: devices.{where}.{key}: {low} to {high} = a positive amount")
            result[int(key)] = amount
        return result

    def pulse_device(value: Any, where: str) -> PulseDevice:
        if not isinstance(value, dict) or set(value) - {"pulse", "inhibit", "pulses", "protocol"}:
            raise ConfigError(f"{source}: devices.{where}: pulse, inhibit and pulses")
        return PulseDevice(
            pin(value.get("pulse"), f"{where}.pulse"),
            pin(value.get("inhibit"), f"{where}.inhibit"),
            table(value.get("pulses"), f"{where}.pulses", 1, 100),
        )

    buttons = raw.get("buttons", {})
    lamps = raw.get("lamps", {})
    for group, names in (("buttons", buttons), ("lamps", lamps)):
        unknown = sorted(set(names) - set(BUTTONS) - set(SWITCHES))
        if unknown:
            raise ConfigError(f"{source}: devices.{group}: no such button: {', '.join(unknown)}")
    devices = DevicesConfig(
        buttons={name: pin(p, f"buttons.{name}") for name, p in buttons.items()},
        lamps={name: pin(p, f"lamps.{name}") for name, p in lamps.items()},
        coin_acceptor=pulse_device(raw["coin_acceptor"], "coin_acceptor") if "coin_acceptor" in raw else None,
    )
    bill = raw.get("bill_validator")
    if bill is not None:
        protocol = bill.get("protocol") if isinstance(bill, dict) else None
        if protocol == "pulse":
            devices = replace(devices, bill_pulse=pulse_device(bill, "bill_validator"))
        elif protocol == "essp":
            if set(bill) - {"protocol", "port", "channels"} or not isinstance(bill.get("port"), str):
                raise ConfigError(f"{source}: devices.bill_validator: protocol, port and channels")
            channels = table(bill.get("channels"), "bill_validator.channels", 1, 16)
            devices = replace(devices, bill_port=bill["port"], bill_channels=channels)
        else:
            raise ConfigError(
                f"{source}: devices.bill_validator.protocol: 'essp' or 'pulse', not {protocol!r}"
            )
    power = raw.get("power_fail")
    if isinstance(power, dict):
        active = power.get("active", "low")
        if set(power) - {"pin", "active"} or active not in {"low", "high"}:
            raise ConfigError(
                f"{source}: devices.power_fail: a pin number, or {{ pin = N, active = 'low' or 'high' }}"
            )
        devices = replace(
            devices,
            power_fail=pin(power.get("pin"), "power_fail.pin"),
            power_fail_active_high=active == "high",
        )
    elif power is not None:
        devices = replace(devices, power_fail=pin(power, "power_fail"))
    hopper = raw.get("hopper")
    if hopper is not None:
        if not isinstance(hopper, dict) or set(hopper) - {"motor", "exit", "timeout"}:
            raise ConfigError(f"{source}: devices.hopper: motor, exit and timeout")
        timeout = hopper.get("timeout", 2.0)
        if not isinstance(timeout, int | float) or not 0.1 <= timeout <= 30:
            raise ConfigError(f"{source}: devices.hopper.timeout: 0.1 to 30 seconds, not {timeout!r}")
        devices = replace(
            devices,
            hopper_motor=pin(hopper.get("motor"), "hopper.motor"),
            hopper_exit=pin(hopper.get("exit"), "hopper.exit"),
            hopper_timeout=float(timeout),
        )
    return devices
