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
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args, get_origin, get_type_hints

from oasis_kiosk._core import AnalysisError, OasisError, Profile
from oasis_kiosk.config import JackpotConfig, ReturnBounds
from oasis_kiosk.par import (
    BoxPlay,
    by_ante,
    figures_at,
    money,
    other_bet,
    other_plays,
    play_words,
    side_bound,
    table_antes,
)
from oasis_kiosk.par.figures import AtAnte, OtherBet, SideBound
from oasis_kiosk.rules import has_jackpot, load_profile, profile_names
from oasis_kiosk.store.db import Store

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk.par.figures import Computed

ROUNDS = 1_000_000
"""Rounds simulated per ante where the exact analysis does not apply (the menu, the
``returns`` command)."""
SHIPPED = resources.files("oasis_kiosk") / "returns.json"
SIDE_BETS = ("fixed", "odds")
"""Bonus kinds that are a bet of their own; a privilege bonus is a fee of the main game."""
PROGRESS_STEPS = 1000
"""``compute`` reports progress as thousandths of the whole work."""

Progress = Callable[[int, int], object]


class FiguresError(ValueError, OasisError):
    """Figures that cannot be read: names the entry, the field and what is wrong."""


BOX_PLAYS = get_args(BoxPlay)


@dataclass(frozen=True)
class MainReturn:
    """The main game's return at one ante: ante, play bet, insurance and fees."""

    ante: int
    value: float
    """Paid back per ante staked, as a fraction: 0.9478 is 94.78 %."""
    ci95: float
    """Half the 95 % interval; 0 where exact."""
    exact: bool
    play: str
    """How the box is bet and played (``par.BoxPlay``): ``standard``, ``without_bonus``,
    ``for_main`` or ``blind``."""

    def __post_init__(self) -> None:
        if self.play not in BOX_PLAYS:
            raise FiguresError(f"play: one of {', '.join(BOX_PLAYS)}, not {self.play!r}")


@dataclass(frozen=True)
class SideReturn:
    """A fixed or odds bonus, a bet of its own, at its standard stake."""

    kind: str
    stake: int
    value: float
    """Paid back per unit staked, as a fraction; a progressive jackpot's money is in no return."""
    ci95: float
    greatest: float | None
    """The most it pays back to any player, exact (``_core.side_bet_bound``); None: not known."""
    jackpot_frequency: float
    """The share of rounds in which a kept bonus wins a jackpot award, at most."""


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
    other_bets: tuple[MainReturn, ...]
    """The main game's return at the same antes for the other ways of betting the bonus."""
    side: SideReturn | None
    method: str
    """``exact``, ``simulation``, or ``exact, side bet simulated``."""
    rounds: int
    """Rounds simulated per ante (0: none)."""

    @property
    def every_ante(self) -> tuple[MainReturn, ...]:
        """The main game's return at each ante figured with the standard bonus, the least first."""
        return (self.at_min_ante, *self.between, self.at_max_ante)

    @property
    def every_main(self) -> tuple[MainReturn, ...]:
        """The main game's return at each ante and for each way of betting the bonus."""
        return (*self.every_ante, *self.other_bets)

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
    """The figures of ``profile``, as its PAR sheet would give them: exact where its only
    decision is to play or fold (its side bet included), else ``rounds`` simulated rounds at
    each ante (``par.figures.other_rounds`` for the other ways of betting the bonus).
    ``progress(done, total)`` sees the whole work once, monotone. Holds no lock and touches no
    books: it may run in a thread of its own (the core releases the GIL)."""
    rules = profile.to_dict()
    antes = table_antes(profile, None)
    jobs: list[tuple[BoxPlay, int]] = [("standard", ante) for ante in antes]
    jobs += [(play, ante) for play in other_plays(rules) for ante in antes]
    stages = _Stages(len(jobs), progress)
    # A blind box is counted exactly whatever else is simulated: first, so that a profile the
    # exact analysis cannot count it for is refused before any simulation.
    order = [i for i, (play, _) in enumerate(jobs) if play == "blind"]
    order += [i for i, (play, _) in enumerate(jobs) if play != "blind"]
    done: dict[int, Computed] = {}
    exact = True
    for step, i in enumerate(order):
        play, ante = jobs[i]
        report = stages.of(step)
        if play == "blind" or exact:
            try:
                done[i] = figures_at(profile, ante, play, rounds=None, seed=None, progress=report)
                continue
            except AnalysisError as error:
                if play == "blind":
                    raise FiguresError(f"a blind box of {profile.id} cannot be counted: {error}") from None
                if "only decision" not in str(error):
                    raise
                exact = False  # the profile has options: every other figure is simulated
        done[i] = figures_at(profile, ante, play, rounds=rounds, seed=seed, progress=report)
    results = [done[i] for i in range(len(jobs))]
    return _figures(
        profile,
        [by_ante(result) for result in results[: len(antes)]],
        [other_bet(result) for result in results[len(antes) :]],
        side_bound(profile),
        exact,
        0 if exact else rounds,
    )


def _figures(
    profile: Profile,
    by_antes: list[AtAnte],
    other_bets: list[OtherBet],
    bound: SideBound | None,
    exact: bool,
    rounds: int,
) -> Figures:
    """The figures of a sheet's ``by_ante``, ``other_bets`` and ``side_bound`` (``par``)."""
    mains = [MainReturn(row["ante"], row["return"], row["ci95"], exact, "standard") for row in by_antes]
    others = tuple(
        MainReturn(row["ante"], row["return"], row["ci95"], row["exact"], row["play"]) for row in other_bets
    )
    # The side bet's least return over the antes: a box decides otherwise at another ante.
    sides = [row["side"] for row in by_antes if row["side"] is not None]
    side_row = min(sides, key=lambda side: side["return"] - side["ci95"], default=None)
    side = None
    if side_row is not None:
        side = SideReturn(
            profile.to_dict()["bonus"]["kind"],
            side_row["stake"],
            side_row["return"],
            side_row["ci95"],
            None if bound is None else bound["return"],
            0.0 if bound is None else bound["jackpot_frequency"],
        )
    method = "exact" if exact else "simulation"
    return Figures(
        profile.id, profile.digest, mains[0], mains[-1], tuple(mains[1:-1]), others, side, method, rounds
    )


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
    """Keeps computed figures in the books (sealed), with an event: never computed again.
    Real books keep simulated figures of ``ROUNDS`` rounds per ante or more: a short run's
    interval is itself a guess, and one could be run again until its luck passes."""
    books = store.books
    if figures.rounds and figures.rounds < ROUNDS and not (books is not None and books.test):
        raise FiguresError(
            f"figures of {figures.rounds:,} simulated rounds per ante are not kept in real books: "
            f"{ROUNDS:,} or more"
        )
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
    """Shipped figures, else the books' (``store`` None: no books to look in); shipped figures
    of this digest that do not give the antes, bets and stake of this profile's table are a
    FiguresError, booked ones count as not known (``known_or_why``)."""
    return known_or_why(profile, store)[0]


def known_or_why(profile: Profile, store: Store | None) -> tuple[Figures | None, str | None]:
    """``known``'s figures, and where the books hold figures that cannot be used (of an older
    release, or not the profile's table) why: computing them again replaces them."""
    figures = shipped(profile)
    if figures is not None:
        if (wrong := mismatch(profile, figures)) is not None:
            raise FiguresError(f"the shipped figures of {profile.id} (digest {profile.digest}) are {wrong}")
        return figures, None
    if store is None:
        return None, None
    try:
        figures = booked(store, profile)
    except FiguresError as error:
        return None, str(error)
    if figures is not None and (wrong := mismatch(profile, figures)) is not None:
        return None, f"{store.path}: the stored {books_key(profile)}: the figures are {wrong}"
    return figures, None


# The bounds.


def percent(value: float) -> str:
    return f"{value * 100:.2f} %"


def precise_percent(value: float) -> str:
    """A share where hundredths of a percent would round a bound onto the figure it bounds."""
    return f"{value * 100:.3f} %"


def shown(value: float, ci95: float) -> str:
    """A return with its interval where it has one: ``94.78 % ± 0.12``."""
    return percent(value) + (f" ± {ci95 * 100:.2f}" if ci95 else "")


@dataclass(frozen=True)
class Breach:
    """A return outside its bound, or one that is not known."""

    profile: str
    side: bool
    """The side bet's return (per unit staked), else the main game's (per ante)."""
    bet: str
    """The main game: how the box is bet and played (``BOX_PLAYS``). The side bet: ``standard``
    (at its stake), ``greatest`` (kept on every hand) or ``greatest_with_jackpot`` (and every
    jackpot award at the meter's maximum)."""
    amount: int
    """The ante (main game) or the stake (side bet) of the figure."""
    value: float | None
    """None: the most the side bet returns is not known, and nothing bounds it."""
    ci95: float
    bound: float
    above: bool
    """Above the maximum (its interval reaches past it), else below the minimum."""
    lost_antes: float = 0.0
    """The most a share of lost antes put on the jackpot adds, counted in ``value`` (a main
    game's, against its maximum)."""

    def describe(self, cash: Callable[[int], str]) -> str:
        if self.bet == JACKPOT_FED:
            return (
                f"{self.profile}'s jackpot takes {precise_percent(self.value or 0.0)} of a bonus stake of "
                f"{cash(self.amount)}, more than {precise_percent(float(JACKPOT_LOAD) * self.bound)} "
                f"({percent(float(JACKPOT_LOAD))} of the {precise_percent(self.bound)} its meter can pay back between "
                "its base and its maximum): the rest would pile up above the maximum, never paid"
            )
        if self.side:
            what = f"{self.profile}'s side bet at a stake of {cash(self.amount)}"
        else:
            what = f"{self.profile} at an ante of {cash(self.amount)}"
        how = SIDE_BET_WORDS.get(self.bet, "") if self.side else MAIN_BET_WORDS.get(self.bet, "")
        if how:
            what += f" ({how})"
        if self.value is None:
            return f"{what}: the most it returns is not known (an option improves the hand it is judged on)"
        limit = (
            f"above the maximum of {percent(self.bound)}"
            if self.above
            else f"below the minimum of {percent(self.bound)}"
        )
        counted = (
            f" with up to {percent(self.lost_antes)} of lost antes on the jackpot" if self.lost_antes else ""
        )
        return f"{what} returns {shown(self.value, self.ci95)}{counted}, {limit}"


MAIN_BET_WORDS = {
    "without_bonus": "without the bonus bet",
    "for_main": "with the bonus bet, deciding for the main game alone",
    "blind": "a blind box",
}
SIDE_BET_WORDS = {
    "greatest": "kept on every hand",
    "greatest_with_jackpot": "kept on every hand, each jackpot award at the meter's maximum",
}


JACKPOT_FED = "jackpot_fed"
"""A breach of the jackpot's own: it takes more of a stake than its meter can pay back."""


JACKPOT_LOAD = Fraction(9, 10)
"""The most of what the meter can pay back that it may be fed: fed exactly that, its overflow
would still drift upwards with the luck of the hits, never paid."""


def jackpot_payable(side: SideReturn, jackpot: JackpotConfig, stake: int, share: Fraction) -> Fraction:
    """The most of a bonus ``stake`` the meter can pay back, per unit staked, as often as a
    kept bonus wins an award at most, each award ``share`` of the meter (the least share a
    hand wins). An award of the whole meter pays back what it rose above its base; an award
    of a part leaves the rest on the meter, which pays back at most that part of its maximum.
    A meter fed more than this by every stake piles the rest up above its maximum, never paid."""
    per_hit = min(Fraction(jackpot.maximum - jackpot.base), share * jackpot.maximum)
    return per_hit * Fraction(side.jackpot_frequency) / stake


def least_jackpot_share(rules: ProfileRules) -> Fraction:
    """The least share of the meter a hand wins (1 where the profile names no award)."""
    bonus = rules.get("bonus")
    shares = [Fraction(award["share"]) for award in bonus["jackpot"]] if bonus is not None else []
    return min(shares, default=Fraction(1))


def largest_side_stake(profile: Profile) -> int:
    """The greatest bonus stake a box may make at any ante, as the core allows it (0: the
    profile has no side bet)."""
    bonus = profile.to_dict().get("bonus")
    if bonus is None or bonus["kind"] not in SIDE_BETS:
        return 0
    return max((stake for ante in profile.allowed_antes() for stake in profile.bonus_stakes(ante)), default=0)


def jackpot_most(side: SideReturn, jackpot: JackpotConfig) -> float:
    """The most the progressive jackpot adds to the side bet's return per unit staked, for a
    box at the least stake: an award is a share of the meter, never above its ``maximum``,
    whatever the stake (and however the meter was fed). Nothing where no hand wins an award."""
    return jackpot.maximum * side.jackpot_frequency / side.stake


def breaches(
    figures: Figures, bounds: ReturnBounds, jackpot: JackpotConfig, profile: Profile
) -> list[Breach]:
    """Each return outside the bounds: where its 95 % interval (an exact figure has none)
    reaches past the maximum or below the minimum, so that no draw of a simulation's luck
    passes what a longer one would refuse. The main game is bounded for every way of betting
    and playing a box; the side bet at its stake by both bounds (the jackpot's money left out:
    how much of it comes back to a box depends on the meter and the other boxes' stakes), and
    at the most any player gets from it, every award at the meter's maximum, by the greatest.
    And the jackpot (``profile``'s, for its greatest bonus stake) may take no more
    of a stake than its meter can ever pay back; a share of lost antes it is fed counts in
    the main game's return."""
    found: list[Breach] = []
    rules = profile.to_dict()
    largest = largest_side_stake(profile)
    if figures.side is not None and figures.side.jackpot_frequency and largest:
        payable = jackpot_payable(figures.side, jackpot, largest, least_jackpot_share(rules))
        if jackpot.rate > JACKPOT_LOAD * payable:
            rate, bound = float(jackpot.rate), float(payable)
            found.append(Breach(figures.profile, True, JACKPOT_FED, largest, rate, 0.0, bound, True))
    share = lost_antes_share(jackpot, rules)
    found += [
        breach
        for main in figures.every_main
        if (breach := _main_breach(figures.profile, main, bounds, share)) is not None
    ]
    side = figures.side
    if side is None:
        return found
    low, high = bounds.side_return_min, bounds.side_return_max
    if side.value + side.ci95 > high:
        found.append(Breach(figures.profile, True, "standard", side.stake, side.value, side.ci95, high, True))
    elif side.value - side.ci95 < low:
        found.append(Breach(figures.profile, True, "standard", side.stake, side.value, side.ci95, low, False))
    most_of_all = None if side.greatest is None else side.greatest + jackpot_most(side, jackpot)
    bet = "greatest_with_jackpot" if side.jackpot_frequency else "greatest"
    if most_of_all is None:
        found.append(Breach(figures.profile, True, bet, side.stake, None, 0.0, high, True))
    elif most_of_all > high:
        found.append(Breach(figures.profile, True, bet, side.stake, most_of_all, 0.0, high, True))
    return found


def lost_antes_share(jackpot: JackpotConfig, rules: ProfileRules) -> float:
    """The most a share of lost antes on the jackpot adds to a box's return: the whole share,
    as if every ante were lost (at most one ante is lost per ante staked); none where the
    profile has no jackpot."""
    return float(jackpot.lost_ante_rate) if has_jackpot(rules) else 0.0


def _main_breach(profile: str, main: MainReturn, bounds: ReturnBounds, lost_antes: float) -> Breach | None:
    """A way of playing a box whose return is outside the bounds. The share of lost antes on
    the jackpot counts against the maximum only, and only for a box with the bonus bet (the
    jackpot's money comes back to no other): never towards the minimum, which it would lift
    with money that comes back to few."""
    with_share = 0.0 if main.play == "without_bonus" else lost_antes
    if main.value + with_share + main.ci95 > bounds.return_max:
        return Breach(
            profile,
            False,
            main.play,
            main.ante,
            main.value + with_share,
            main.ci95,
            bounds.return_max,
            True,
            with_share,
        )
    if main.value - main.ci95 < bounds.return_min:
        return Breach(profile, False, main.play, main.ante, main.value, main.ci95, bounds.return_min, False)
    return None


def mismatch(profile: Profile, figures: Figures) -> str | None:
    """Why figures are not of this profile's table, beyond its digest: the antes, the ways of
    betting the bonus and the side bet's stake a sheet of it gives."""
    rules = profile.to_dict()
    antes = table_antes(profile, None)
    wanted = [("standard", ante) for ante in antes] + [
        (p, ante) for p in other_plays(rules) for ante in antes
    ]
    held = [(main.play, main.ante) for main in figures.every_main]
    if held != wanted:
        return f"of the antes and bets {held}, not the table's {wanted}"
    bonus = rules.get("bonus")
    if (figures.side is None) == (bonus is not None and bonus["kind"] in SIDE_BETS):
        return "with a side bet where the profile has none, or without its side bet"
    if bonus is not None and figures.side is not None and figures.side.stake != bonus["stake_min"]:
        return f"at a side stake of {figures.side.stake}, not the least stake {bonus['stake_min']}"
    return None


def problems(
    profile: Profile, store: Store | None, bounds: ReturnBounds, jackpot: JackpotConfig
) -> list[str]:
    """What keeps this configuration from being played: a return outside the bounds, or
    figures that are not known (nothing is computed here)."""
    try:
        figures, unusable = known_or_why(profile, store)
    except FiguresError as error:
        return [str(error)]
    if figures is None:
        return [
            f"the return of {profile.id} (digest {profile.digest[:12]}) is not known"
            + (f" ({unusable})" if unusable else "")
            + ": apply these rules in the operator menu, which computes it, or run `oasis-kiosk returns` "
            "with the kiosk stopped; then restart"
        ]
    rules = profile.to_dict()
    found = breaches(figures, bounds, jackpot, profile)
    return [breach.describe(lambda amount: money(amount, rules)) for breach in found]


def report(
    profile: Profile, figures: Figures, bounds: ReturnBounds, jackpot: JackpotConfig, source: str
) -> tuple[str, bool]:
    """The figures and the bounds' verdict, for the command line; True if accepted."""
    rules = profile.to_dict()

    def cash(amount: int) -> str:
        return money(amount, rules)

    lines = [f"{rules['name']} ({profile.id}, digest {profile.digest})"]
    for main in figures.every_main:
        how = f" ({play_words(main.play, rules)})" if main.play != "standard" else ""
        lines.append(
            f"  {'main game at an ante of ' + cash(main.ante) + how:<44}  {shown(main.value, main.ci95)}"
        )
    if figures.side is not None:
        side = figures.side
        label = f"side bet ({side.kind}) at a stake of {cash(side.stake)}"
        lines.append(f"  {label:<44}  {shown(side.value, side.ci95)}")
        most = jackpot_most(side, jackpot)
        greatest = "not known" if side.greatest is None else percent(side.greatest + most)
        with_jackpot = " (jackpot awards at the meter's maximum included)" if most else ""
        lines.append(f"  {'  at most, kept on every hand':<44}  {greatest}{with_jackpot}")
    share = lost_antes_share(jackpot, rules)
    if share:
        lines.append(f"  {'  lost antes on the jackpot, at most':<44}  +{percent(share)} with the bonus bet")
    how = figures.method + (f", {figures.rounds:,} rounds per ante" if figures.rounds else "")
    lines.append(f"  figures {source} ({how})")
    lines.append(
        f"  bounds: main game {percent(bounds.return_min)} to {percent(bounds.return_max)}, side bet "
        f"{percent(bounds.side_return_min)} to {percent(bounds.side_return_max)}"
    )
    found = breaches(figures, bounds, jackpot, profile)
    lines += [f"  REFUSED: {breach.describe(cash)}" for breach in found] or ["  accepted"]
    return "\n".join(lines), not found


# The shipped file.


def from_sheet(sheet: dict[str, Any], where: str) -> Figures:
    """The figures a PAR sheet's JSON holds (``oasis-kiosk par --out``: ``by_ante``, at the
    table's least and greatest ante, ``other_bets`` and ``side_bound``)."""
    try:
        exact = "total_combinations" in sheet
        profile = load_profile(sheet["profile"])
        rounds = 0 if exact else sheet["rounds"]
        figures = _figures(profile, sheet["by_ante"], sheet["other_bets"], sheet["side_bound"], exact, rounds)
    except (KeyError, IndexError, TypeError) as error:
        raise FiguresError(
            f"{where}: not a PAR sheet's figures at both antes ({error!r} is missing)"
        ) from None
    if figures.digest != sheet["profile_digest"]:
        raise FiguresError(
            f"{where}: of rules with digest {sheet['profile_digest']}, not {figures.profile}'s {figures.digest}: "
            "run make par"
        )
    return figures


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
