"""The schema's kinds of value: what a key takes (a whole number, money, a pin, a table of
them...), each checked with its own words in the error."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from oasis_kiosk.config.schema import Kind, TomlTable, Walk, is_whole, join
from oasis_kiosk.machine.intents import BUTTONS, SWITCHES

MAX_AMOUNT = 10**12
"""No amount in minor units above this: far above any cabinet's money, far below overflow."""
MAX_PIN = 53


@dataclass(frozen=True)
class Whole:
    """A whole number low..high (not money: seconds, a volume, milliseconds)."""

    describe: str
    low: int
    high: int

    def check(self, value: Any, where: str, walk: Walk) -> int:
        if not is_whole(value) or not self.low <= value <= self.high:
            walk.fail(where, f"{self.describe}, not {value!r}")
        return int(value)


@dataclass(frozen=True)
class Money:
    """Money in minor units: a whole number above 0."""

    describe: str = "a whole amount in minor units"

    def check(self, value: Any, where: str, walk: Walk) -> int:
        if not is_whole(value):
            walk.fail(where, f"{self.describe}, not {value!r}")
        if not 1 <= value <= MAX_AMOUNT:
            bound = "more than 0" if value < 1 else f"at most {MAX_AMOUNT}"
            walk.fail(where, f"{self.describe}, not {value!r}: it must be {bound}")
        return int(value)


@dataclass(frozen=True)
class Denominations:
    """The coins (or notes) taken: distinct amounts in minor units, kept in order."""

    describe: str = "a list of amounts in minor units, each more than 0"

    def check(self, value: Any, where: str, walk: Walk) -> tuple[int, ...]:
        amounts = list(value) if isinstance(value, list | tuple) else None
        if not amounts or not all(is_whole(v) and 0 < v <= MAX_AMOUNT for v in amounts):
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
class OneOf:
    """One of a few words."""

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


def is_path(text: str) -> bool:
    """A path the system can open: not empty, and no NUL (which no file name holds)."""
    return bool(text) and "\x00" not in text


def path_text(describe: str) -> Text:
    """A file's path, as a ``Path``."""
    return Text(describe, valid=is_path, convert=Path)


@dataclass(frozen=True)
class Unset:
    """``kind``, or left unset (None: the key's default is to have none, as a configuration
    object built in code may say)."""

    kind: Kind

    @property
    def describe(self) -> str:
        return self.kind.describe

    def check(self, value: Any, where: str, walk: Walk) -> Any:
        return None if value is None else self.kind.check(value, where, walk)


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
        if not is_whole(value) or not 0 <= value <= MAX_PIN:
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
        return {name: Pin().check(pin, join(where, name), walk) for name, pin in value.items()}


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
                walk.fail(join(where, text), f"a {self.what} 1 to {self.high} = an amount, not {text!r}")
            table[int(text)] = Money().check(amount, join(where, text), walk)
        return table


@dataclass(frozen=True)
class Overrides:
    """Any table of profile fields: the profile checks them when it loads."""

    describe: str = "a table of profile fields"

    def check(self, value: Any, where: str, walk: Walk) -> dict[str, Any] | None:
        if value is not None and not isinstance(value, dict):
            walk.fail(where, f"{self.describe}, not {value!r}")
        return value or None


@dataclass(frozen=True)
class Tagged:
    """A table whose ``tag`` key says which table of keys it is."""

    tag: str
    variants: Mapping[str, TomlTable]
    describe: str = "a table of keys"
    default: str | None = None
    """The variant of a table without the tag (the one there was before there were more)."""

    def check(self, value: Any, where: str, walk: Walk) -> Any:
        if not isinstance(value, dict):
            walk.fail(where, f"{self.describe}, not {value!r}")
        choice = OneOf(tuple(self.variants))
        if self.tag not in value and self.default is None:
            walk.fail(join(where, self.tag), f"missing ({choice.describe})")
        variant = choice.check(value.get(self.tag, self.default), join(where, self.tag), walk)
        rest = {k: v for k, v in value.items() if k != self.tag}
        return variant, replace(self.variants[variant], also_known=(self.tag,)).check(rest, where, walk)


@dataclass(frozen=True)
class PinOrTable:
    """A pin number, or a table that gives one with more about it."""

    table: TomlTable
    describe: str = f"a BCM pin number 0 to {MAX_PIN}, or {{ pin = N, active = 'low' or 'high' }}"

    def check(self, value: Any, where: str, walk: Walk) -> Any:
        if isinstance(value, dict):
            return self.table.check(value, where, walk)
        return self.table.build({"pin": Pin().check(value, where, walk)} | {"active": "low"})
