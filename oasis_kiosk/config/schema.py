"""The schema's frame: a walk over a file (or a stored setting) that says where an error
is, the kinds of value a key takes (``kinds.py``), the keys and the TOML tables of them.

Each kind checks one value as the file has it (and, so that the loaded configuration can
be checked again, as the kind itself makes it) and returns it as the configuration keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol

from oasis_kiosk._core import OasisError


class ConfigError(ValueError, OasisError):
    """A configuration that cannot be used."""


class Walk:
    """One check of a file or a stored setting: where errors point, and the pins taken."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.pins: dict[int, str] = {}

    def fail(self, where: str, reason: str) -> NoReturn:
        raise ConfigError(f"{self.prefix}{where}: {reason}" if where else f"{self.prefix}{reason}")


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


class Kind(Protocol):
    """What a key takes: ``describe`` says it in words, ``check`` checks one value."""

    @property
    def describe(self) -> str: ...

    def check(self, value: Any, where: str, walk: Walk) -> Any: ...


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
class TomlTable:
    """A TOML table of known keys, checked in the file's order (so a pin used twice is named at
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
                    walk.fail("", f"unknown key {join(where, name)} (known: {known})")
                if not isinstance(item, dict):
                    walk.fail("", f"{name} is not in a section: settings go under one (known: {known})")
                walk.fail("", f"unknown section [{name}] (known: {known})")
            checked[name] = self.keys[name].kind.check(item, join(where, name), walk)
        for name, key in self.keys.items():
            if name not in checked:
                if key.default is REQUIRED:
                    walk.fail(join(where, name), f"missing ({key.kind.describe})")
                checked[name] = (
                    key.kind.check({}, join(where, name), walk) if key.default is EMPTY else key.default
                )
        for rule in self.rules:
            low, high = checked[rule.low], checked[rule.high]
            if high < low or (rule.strict and high == low):
                relation = "is not above" if rule.strict else "is below"
                walk.fail("", f"{join(where, rule.high)} {high} {relation} {join(where, rule.low)} {low}")
        try:
            return self.build(checked)
        except ValueError as error:
            walk.fail(where, str(error))
