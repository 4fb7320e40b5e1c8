"""The theoretical return of a configuration, known before it is played and held to bounds.

A cabinet owner must know what a configuration returns before a player sees it, and a
gaming lab requires that none outside the approved range (``[rules]`` of the configuration)
can be played. The figures of a configuration (its rule profile with any overrides, named
by the profile's digest) are the main game's return per ante at the table's minimum and
maximum ante, and a fixed or odds bonus's return per unit staked. They come from

- ``returns.json``, shipped with the package: every profile of ``profiles/*.toml``, taken
  from the PAR sheets that ``make par`` writes (``python -m oasis_kiosk.returns write``);
- the books, for the configurations the operator computed (the operator menu,
  ``oasis-kiosk returns``): sealed state under ``returns:<digest>``, so they outlive
  restarts;
- ``compute``: the exact analysis where the only decision is to play or fold, else the
  simulation.

No pygame and no GPIO here: the self-test, the operator menu and the command line use it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields, is_dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

from oasis_kiosk._core import AnalysisError, Profile, exact_analysis, simulate
from oasis_kiosk.config import ReturnBounds
from oasis_kiosk.par import money, table_antes
from oasis_kiosk.rules import load_profile, profile_names
from oasis_kiosk.store.db import Store

ROUNDS = 1_000_000
"""Rounds simulated per ante where the exact analysis does not apply (the menu, the
``returns`` command)."""
SHIPPED = resources.files("oasis_kiosk") / "returns.json"
SIDE_BETS = ("fixed", "odds")
"""Bonus kinds that are a bet of their own; a privilege bonus is a fee of the main game."""
PROGRESS_STEPS = 1000
"""``compute`` reports progress as thousandths of the whole work."""

Progress = Callable[[int, int], object]


class FiguresError(ValueError):
    """Figures that cannot be read: names the entry, the field and what is wrong."""


@dataclass(frozen=True)
class MainReturn:
    """The main game's return at one ante: ante, play bet, insurance and fees."""

    ante: int
    value: float
    """Paid back per ante staked, as a fraction: 0.9478 is 94.78 %."""
    ci95: float
    """Half the 95 % interval; 0 where exact."""
    exact: bool


@dataclass(frozen=True)
class SideReturn:
    """A fixed or odds bonus, a bet of its own, at its standard stake."""

    kind: str
    stake: int
    value: float
    """Paid back per unit staked, as a fraction; a progressive jackpot's money is in no return."""
    ci95: float


@dataclass(frozen=True)
class Figures:
    """The theoretical return of one configuration."""

    profile: str
    digest: str
    """The profile's digest, overrides included: the configuration these figures are of."""
    at_min_ante: MainReturn
    at_max_ante: MainReturn
    between: tuple[MainReturn, ...]
    """Antes between them where the return may be extreme too (``par.table_antes``: a fee set
    for one ante, and the least ante without one)."""
    side: SideReturn | None
    method: str
    """``exact``, ``simulation``, or ``exact, side bet simulated``."""
    rounds: int
    """Rounds simulated per ante (0: none)."""

    @property
    def every_ante(self) -> tuple[MainReturn, ...]:
        """The main game's return at each ante figured, the least first."""
        return (self.at_min_ante, *self.between, self.at_max_ante)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, where: str) -> Figures:
        """The figures of a JSON entry; a FiguresError names ``where`` and the field."""
        figures: Figures = _read(cls, data, where)
        return figures


def _read(kind: Any, data: Any, where: str) -> Any:
    """One value of ``kind`` (a figures dataclass, a number, text, ...) checked."""
    if get_origin(kind) is tuple:  # tuple[X, ...]: a list of X
        if not isinstance(data, list | tuple):  # JSON's lists, and to_json's own tuples
            raise FiguresError(f"{where}: a list, not {data!r}")
        return tuple(_read(get_args(kind)[0], item, f"{where}[{i}]") for i, item in enumerate(data))
    options = [option for option in get_args(kind) if option is not type(None)]
    if options:  # an optional value
        return None if data is None else _read(options[0], data, where)
    if isinstance(kind, type) and is_dataclass(kind):
        if not isinstance(data, dict):
            raise FiguresError(f"{where}: a table of {', '.join(f.name for f in fields(kind))}, not {data!r}")
        names = [f.name for f in fields(kind)]
        unknown, missing = sorted(set(data) - set(names)), [name for name in names if name not in data]
        if unknown or missing:
            wrong = ", ".join(
                [f"unknown {name}" for name in unknown] + [f"missing {name}" for name in missing]
            )
            raise FiguresError(f"{where}: {wrong}")
        hints = get_type_hints(kind)
        return kind(**{name: _read(hints[name], data[name], f"{where}.{name}") for name in names})
    if kind is bool:
        valid = isinstance(data, bool)
    elif kind is int:
        valid = isinstance(data, int) and not isinstance(data, bool) and data >= 0
    elif kind is float:
        valid = (
            isinstance(data, int | float) and not isinstance(data, bool) and math.isfinite(data) and data >= 0
        )
    else:
        valid = isinstance(data, str) and bool(data)
    if not valid:
        wanted = {bool: "true or false", int: "a whole number, 0 or more", float: "a number, 0 or more"}
        raise FiguresError(f"{where}: {wanted.get(kind, 'text')}, not {data!r}")
    return float(data) if kind is float else data


# Computing.


class _Stages:
    """The core's progress of each run (an ante, the side bet) as one monotone fraction."""

    def __init__(self, count: int, progress: Progress | None) -> None:
        self.count = count
        self.progress = progress
        self.reached = 0

    def of(self, stage: int) -> Progress:
        def report(done: int, total: int) -> None:
            share = done / total if total else 0.0  # total 0: the counting tables are being built
            reached = int((stage + min(share, 1.0)) / self.count * PROGRESS_STEPS)
            if self.progress is not None and reached >= self.reached:
                self.reached = reached
                self.progress(reached, PROGRESS_STEPS)

        return report


def compute(
    profile: Profile, *, rounds: int, seed: bytes | None = None, progress: Progress | None = None
) -> Figures:
    """The figures of ``profile``: exact where its only decision is to play or fold (its side
    bet included), else ``rounds`` simulated rounds at each ante. ``progress(done,
    total)`` sees the whole work once, monotone. Holds no lock and touches no books: it may
    run in a thread of its own (the core releases the GIL)."""
    antes = table_antes(profile.to_dict(), None)
    bonus = profile.to_dict().get("bonus") or {}
    side_kind = bonus.get("kind") if bonus.get("kind") in SIDE_BETS else None
    stages = _Stages(len(antes), progress)
    try:
        first = exact_analysis(profile, ante=antes[0], progress=stages.of(0))
    except AnalysisError as error:
        if "only decision" not in str(error):
            raise
        runs = [
            simulate(profile, rounds, seed=seed, ante=a, progress=stages.of(i)) for i, a in enumerate(antes)
        ]
        side = _side(side_kind, bonus, runs[0]) if side_kind else None
        mains = [_simulated(run) for run in runs]
        return Figures(
            profile.id, profile.digest, mains[0], mains[-1], tuple(mains[1:-1]), side, "simulation", rounds
        )
    rest = [exact_analysis(profile, ante=a, progress=stages.of(i)) for i, a in enumerate(antes) if i > 0]
    mains = [MainReturn(result["ante"], 1 - result["house_edge"], 0.0, True) for result in [first, *rest]]
    side = None
    if side_kind is not None:
        side = SideReturn(side_kind, first["bonus_stake"], 1 + first["bonus_return_per_stake"], 0.0)
    return Figures(profile.id, profile.digest, mains[0], mains[-1], tuple(mains[1:-1]), side, "exact", 0)


def _simulated(result: dict[str, Any]) -> MainReturn:
    figure = result["return_per_ante"]
    return MainReturn(result["ante"], 1 + figure["value"], figure["ci95"], False)


def _side(kind: str, bonus: dict[str, Any], result: dict[str, Any]) -> SideReturn:
    """The bonus at its standard stake (the least), from a simulation at the minimum ante."""
    figure = result["bonus"]["return_per_stake"]
    return SideReturn(kind, bonus["stake_min"], 1 + figure["value"], figure["ci95"])


# Where figures are kept.


@cache
def _shipped() -> dict[str, Figures]:
    try:
        entries = json.loads(SHIPPED.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise FiguresError(f"{SHIPPED}: cannot be read: {error}") from None
    if not isinstance(entries, dict):
        raise FiguresError(f"{SHIPPED}: a table of digest -> figures, not {type(entries).__name__}")
    shipped = {digest: Figures.from_json(entry, f"{SHIPPED}: {digest}") for digest, entry in entries.items()}
    for digest, figures in shipped.items():
        if figures.digest != digest:
            raise FiguresError(f"{SHIPPED}: {digest}: the figures are of digest {figures.digest}")
    return shipped


def shipped(profile: Profile) -> Figures | None:
    """The figures shipped with the package for exactly this profile, if any."""
    return _shipped().get(profile.digest)


def books_key(profile: Profile | Figures) -> str:
    return f"returns:{profile.digest}"


def booked(store: Store, profile: Profile) -> Figures | None:
    """The figures the operator computed for this profile, from the books."""
    key = books_key(profile)
    entry = store.get_state(key)
    if entry is None:
        return None
    figures = Figures.from_json(entry, f"{store.path}: the stored {key}")
    if figures.digest != profile.digest:
        raise FiguresError(f"{store.path}: the stored {key}: the figures are of digest {figures.digest}")
    return figures


def book(store: Store, figures: Figures) -> None:
    """Keeps computed figures in the books (sealed), with an event: never computed again."""
    with store.transaction():
        store.set_state(books_key(figures), figures.to_json())
        store.event(
            "returns_computed",
            profile=figures.profile,
            digest=figures.digest,
            method=figures.method,
            rounds=figures.rounds,
        )


def known(profile: Profile, store: Store | None) -> Figures | None:
    """Shipped figures, else the books' (``store`` None: no books to look in)."""
    return shipped(profile) or (booked(store, profile) if store is not None else None)


# The bounds.


def percent(value: float) -> str:
    return f"{value * 100:.2f} %"


def shown(value: float, ci95: float) -> str:
    """A return with its interval where it has one: ``94.78 % ± 0.12``."""
    return percent(value) + (f" ± {ci95 * 100:.2f}" if ci95 else "")


@dataclass(frozen=True)
class Breach:
    """A return outside its bound."""

    profile: str
    side: bool
    """The side bet's return (per unit staked), else the main game's (per ante)."""
    amount: int
    """The ante (main game) or the stake (side bet) of the figure."""
    value: float
    ci95: float
    bound: float
    above: bool
    """Above the maximum (its interval reaches past it), else below the minimum."""

    def describe(self, cash: Callable[[int], str]) -> str:
        what = (
            f"{self.profile}'s side bet at a stake of {cash(self.amount)}"
            if self.side
            else f"{self.profile} at an ante of {cash(self.amount)}"
        )
        limit = (
            f"above the maximum of {percent(self.bound)}"
            if self.above
            else f"below the minimum of {percent(self.bound)}"
        )
        return f"{what} returns {shown(self.value, self.ci95)}, {limit}"


def breaches(figures: Figures, bounds: ReturnBounds) -> list[Breach]:
    """Each return outside the bounds: where its 95 % interval (an exact figure has none)
    reaches past the maximum or below the minimum, so that no draw of a simulation's luck
    passes what a longer one would refuse."""
    checked: list[tuple[bool, int, float, float, float, float]] = [
        (False, main.ante, main.value, main.ci95, bounds.return_min, bounds.return_max)
        for main in figures.every_ante
    ]
    if figures.side is not None:
        side = figures.side
        checked.append(
            (True, side.stake, side.value, side.ci95, bounds.side_return_min, bounds.side_return_max)
        )
    found = []
    for is_side, amount, value, ci95, low, high in checked:
        if value + ci95 > high:
            found.append(Breach(figures.profile, is_side, amount, value, ci95, high, True))
        elif value - ci95 < low:
            found.append(Breach(figures.profile, is_side, amount, value, ci95, low, False))
    return found


def problems(profile: Profile, store: Store | None, bounds: ReturnBounds) -> list[str]:
    """What keeps this configuration from being played: a return outside the bounds, or
    figures that are not known (nothing is computed here)."""
    try:
        figures = known(profile, store)
    except FiguresError as error:
        return [str(error)]
    if figures is None:
        return [
            f"the return of {profile.id} (digest {profile.digest[:12]}) is not known: apply these rules "
            "in the operator menu, which computes it, or run `oasis-kiosk returns` with the kiosk "
            "stopped; then restart"
        ]
    rules = profile.to_dict()
    return [breach.describe(lambda amount: money(amount, rules)) for breach in breaches(figures, bounds)]


def report(profile: Profile, figures: Figures, bounds: ReturnBounds, source: str) -> tuple[str, bool]:
    """The figures and the bounds' verdict, for the command line; True if accepted."""
    rules = profile.to_dict()

    def cash(amount: int) -> str:
        return money(amount, rules)

    lines = [f"{rules['name']} ({profile.id}, digest {profile.digest})"]
    for main in figures.every_ante:
        lines.append(f"  {'main game at an ante of ' + cash(main.ante):<44}{shown(main.value, main.ci95)}")
    if figures.side is not None:
        side = figures.side
        label = f"side bet ({side.kind}) at a stake of {cash(side.stake)}"
        lines.append(f"  {label:<44}{shown(side.value, side.ci95)}")
    how = figures.method + (f", {figures.rounds:,} rounds per ante" if figures.rounds else "")
    lines.append(f"  figures {source} ({how})")
    lines.append(
        f"  bounds: main game {percent(bounds.return_min)} to {percent(bounds.return_max)}, side bet "
        f"{percent(bounds.side_return_min)} to {percent(bounds.side_return_max)}"
    )
    found = breaches(figures, bounds)
    lines += [f"  REFUSED: {breach.describe(cash)}" for breach in found] or ["  accepted"]
    return "\n".join(lines), not found


# The shipped file.


def from_sheet(sheet: dict[str, Any], where: str) -> Figures:
    """The figures a PAR sheet's JSON holds (``oasis-kiosk par --out``: ``by_ante``, at the
    table's least and greatest ante, the side bet at its stake)."""
    try:
        rows, exact = sheet["by_ante"], "total_combinations" in sheet
        bonus = load_profile(sheet["profile"]).to_dict().get("bonus") or {}
        mains = [MainReturn(row["ante"], row["return"], row["ci95"], exact) for row in rows]
        side_row = rows[0]["side"]
        side = None
        if side_row is not None:
            side = SideReturn(bonus["kind"], side_row["stake"], side_row["return"], side_row["ci95"])
        rounds = 0 if exact else sheet["rounds"]
        method = "exact" if exact else "simulation"
        return Figures(
            sheet["profile"],
            sheet["profile_digest"],
            mains[0],
            mains[-1],
            tuple(mains[1:-1]),
            side,
            method,
            rounds,
        )
    except (KeyError, IndexError, TypeError) as error:
        raise FiguresError(
            f"{where}: not a PAR sheet's figures at both antes ({error!r} is missing)"
        ) from None


def write_shipped(path: Path | str, sheets: Path) -> dict[str, Figures]:
    """Writes the figures of every shipped profile (``profiles/*.toml``) to ``path``, keyed by
    digest, from their PAR sheets in ``sheets``; a sheet of other rules than the profile's
    now (another digest) or a missing one is a FiguresError."""
    written: dict[str, Figures] = {}
    for name in profile_names():
        where = sheets / f"{name}.json"
        try:
            sheet = json.loads(where.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise FiguresError(f"{where}: cannot be read: {error}") from None
        figures = from_sheet(sheet, str(where))
        digest = load_profile(name).digest
        if figures.digest != digest:
            raise FiguresError(
                f"{where}: of rules with digest {figures.digest}, not {name}'s {digest}: run make par"
            )
        written[digest] = figures
    entries = {digest: written[digest].to_json() for digest in sorted(written)}
    Path(path).write_text(json.dumps(entries, indent=2) + "\n", encoding="utf-8")
    _shipped.cache_clear()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    command = argparse.ArgumentParser(
        prog="python -m oasis_kiosk.returns", description="The returns shipped with the package."
    )
    actions = command.add_subparsers(dest="action", required=True)
    write = actions.add_parser("write", help="write the shipped file from the PAR sheets (make par)")
    write.add_argument("sheets", type=Path, help="the folder of the PAR sheets (docs/par)")
    write.add_argument("--out", type=Path, default=Path(str(SHIPPED)), help="the file (the package's own)")
    arguments = command.parse_args(argv)
    try:
        written = write_shipped(arguments.out, arguments.sheets)
    except FiguresError as error:
        print(f"oasis-kiosk: {error}", file=sys.stderr)
        return 2
    for figures in written.values():
        print(f"{figures.profile:<20}{figures.digest[:16]}  {figures.method}")
    print(f"written {arguments.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
