"""The settings the operator menu keeps in the database, checked by the configuration's
own schema when they are read back."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from oasis_kiosk.config.jackpot import MENU_JACKPOT_SECTION
from oasis_kiosk.config.kinds import Overrides
from oasis_kiosk.config.schema import REQUIRED, ConfigError, Key, Kind, TomlTable, Walk
from oasis_kiosk.config.terminal import TERMINAL
from oasis_kiosk.rules import load_profile


def _rules(values: dict[str, Any]) -> dict[str, Any]:
    load_profile(values["profile"], values["overrides"])  # checked whole, as the menu did
    return values


def _whole(table: TomlTable) -> TomlTable:
    """The table with every key required: what the menu stores is always complete."""
    return replace(table, keys={name: replace(key, default=REQUIRED) for name, key in table.keys.items()})


STORED: dict[str, Kind] = {
    "jackpot_config": _whole(MENU_JACKPOT_SECTION),
    "rules": TomlTable(
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

MENU_RULES_SOURCE = "operator menu"
"""Where rules the operator menu chose come from, as the configuration's log says it."""


def check_stored(setting: str, value: Any, database: Path) -> Any:
    """A setting the operator menu stored, checked as the configuration's own keys are:
    what the schema makes of it, or a ConfigError naming the database and the setting, and
    the way out when what it names cannot be restored (a profile file gone)."""
    try:
        return check_setting(setting, value, f"{database}: the stored setting {setting}: ")
    except ConfigError as error:
        raise ConfigError(f"{error}; restore what it names, or {forget_hint(setting, database)}") from None


def forget_hint(setting: str, database: Path) -> str:
    """The way out of a stored setting that can no longer be used, as an error says it."""
    return (
        f"play the configuration file's {setting} with `oasis-kiosk forget-setting {setting} --db {database}`"
    )


def check_setting(setting: str, value: Any, said_as: str) -> Any:
    """A setting the operator menu keeps, checked by the schema: what it makes of it, or a
    ConfigError whose message begins with ``said_as``."""
    return STORED[setting].check(value, "", Walk(said_as))
