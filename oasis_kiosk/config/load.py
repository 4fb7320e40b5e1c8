"""Loading the configuration file: the whole schema over it, then the checks between its
sections; ``validate`` checks the configuration again as the terminal holds it."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from oasis_kiosk.config.devices import DEVICES, DEVICES_SECTION, check_values
from oasis_kiosk.config.jackpot import JACKPOT, JACKPOT_SECTION
from oasis_kiosk.config.kinds import Overrides
from oasis_kiosk.config.link import LINK, LINK_SECTION
from oasis_kiosk.config.rules import RULES, RULES_SECTION
from oasis_kiosk.config.schema import EMPTY, ConfigError, Key, TomlTable, Walk
from oasis_kiosk.config.terminal import MONEY, TERMINAL, Config
from oasis_kiosk.machine.money_kinds import most_credit_taken

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

SECTIONS: dict[str, TomlTable] = {
    "terminal": TomlTable(TERMINAL),
    "money": TomlTable(MONEY),
    "jackpot": JACKPOT_SECTION,
    "rules": RULES_SECTION,
    "devices": DEVICES_SECTION,
    "link": LINK_SECTION,
}
OPTIONAL_SECTIONS = ("link",)
"""Sections whose absence means something (not linked), rather than their defaults."""

FILE = TomlTable(
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
        if config.link.jackpot == "linked" and jackpot.lost_ante_rate:
            walk.fail(
                "jackpot.lost_ante_rate",
                "a linked pool is fed by the hub from bonus stakes only: a share of lost antes is for "
                "the cabinet's own meter",
            )
    if config.cashout == "hopper" and "hopper" not in config.devices.money:
        walk.fail("terminal.cashout", "'hopper' needs a hopper in [devices]")
    if config.hopper_coin not in config.coins:
        walk.fail("money.hopper_coin", f"{config.hopper_coin} is not one of money.coins {list(config.coins)}")
    check_values(config.devices, {"coins": config.coins, "bills": config.bills}, walk)
    # A cabinet that could never take a coin or deal a hand is not configured either.
    smallest = min((*config.coins, *config.bills), default=None)
    if smallest is not None and config.credit_limit < smallest:
        walk.fail(
            "terminal.credit_limit",
            f"{config.credit_limit} is below the smallest coin or note ({smallest}): no money could be taken",
        )
    try:
        profile = config.load_profile()
    except ValueError as error:
        walk.fail("terminal.profile", str(error))
    least = profile.deal_needs(profile.allowed_antes()[0])
    if config.credit_limit < least:
        walk.fail(
            "terminal.credit_limit",
            f"{config.credit_limit} is below the least a round of {profile.id} needs ({least}): no round could be dealt",
        )
    reachable = most_credit_taken(config.credit_limit, (*config.coins, *config.bills), least)
    if reachable < least:
        walk.fail(
            "terminal.credit_limit",
            f"{config.credit_limit} can be reached only up to {reachable} with money.coins and money.bills, "
            f"below the least a round of {profile.id} needs ({least}): no round could be dealt",
        )
