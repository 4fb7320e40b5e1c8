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
    jackpot: JackpotConfig = field(default_factory=JackpotConfig)
    language: str = "en"

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
    "terminal": {"profile", "database", "credit_limit", "cashout", "language"},
    "money": {"coins", "bills", "hopper_coin"},
    "jackpot": {"base", "rate", "maximum"},
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
    if jackpot.maximum < jackpot.base:
        raise ConfigError(f"{source}: jackpot.maximum {jackpot.maximum} is below jackpot.base {jackpot.base}")
    overrides = raw.get("profile_overrides")
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
        jackpot=jackpot,
        language=str(terminal.get("language", defaults.language)),
    )
    config = replace(config, **{k: v for k, v in replace_fields.items() if v is not None})
    if config.cashout not in {"handpay", "hopper"}:
        raise ConfigError(f"{source}: terminal.cashout: 'handpay' or 'hopper', not {config.cashout!r}")
    if config.language not in {"en", "cs", "ru"}:
        raise ConfigError(f"{source}: terminal.language: 'en', 'cs' or 'ru', not {config.language!r}")
    try:
        config.load_profile()
    except ValueError as error:
        raise ConfigError(f"{source}: terminal.profile: {error}") from None
    return config
