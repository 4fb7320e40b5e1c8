"""The figures a PAR sheet gives besides its own kind's report: the return at each ante it
figures, the main game's return for the other ways of betting and playing a box, and the most
the side bet returns to any player. The books compute the same figures (``oasis_kiosk.returns``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, TypeAlias, TypedDict

from oasis_kiosk._core import MIN_ROUNDS, Profile, exact_analysis, side_bet_bound, simulate

if TYPE_CHECKING:
    # The core's results are typed in its stub alone (``_core.pyi``): there is nothing to
    # import at run time, so what extends them here is for the type checker too.
    from typing_extensions import TypeIs

    from oasis_kiosk._core import _ExactAnalysis as ExactAnalysis
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk._core import _Simulation as Simulation

    Computed: TypeAlias = ExactAnalysis | Simulation
    """One ante's figures of a way of playing a box, counted or simulated (``figures_at``)."""

BoxPlay = Literal["standard", "without_bonus", "for_main", "blind"]
"""How a box is bet and played (``_core.exact_analysis``'s ``play``)."""

# Written as a sheet's JSON writes them: ``return`` is a key, so not in class syntax.
SideAtAnte = TypedDict("SideAtAnte", {"stake": int, "return": float, "ci95": float})
"""The side bet at its standard stake: its return per unit staked, as a fraction."""
AtAnte = TypedDict(
    "AtAnte", {"ante": int, "return": float, "ci95": float, "cap_binds": list[str], "side": SideAtAnte | None}
)
"""One ante's main game (``by_ante``): its return per ante, as a fraction (ci95 0: exact)."""
OtherBet = TypedDict(
    "OtherBet", {"play": BoxPlay, "ante": int, "return": float, "ci95": float, "exact": bool}
)
"""The main game's return at one ante for another way of betting and playing the box."""
SideBound = TypedDict("SideBound", {"stake": int, "return": float, "jackpot_frequency": float})
"""The most the side bet returns to any player (``side_bound``)."""


class SheetFigures(TypedDict):
    """What a PAR sheet's JSON holds besides the figures at its highest ante."""

    by_ante: list[AtAnte]
    other_bets: list[OtherBet]
    side_bound: SideBound | None


if TYPE_CHECKING:

    class ExactSheet(ExactAnalysis, SheetFigures):
        """An exact sheet's JSON: the analysis at the highest ante, and the rest."""

    class SimulatedSheet(Simulation, SheetFigures):
        """A simulated sheet's JSON: the simulation at the highest ante, and the rest."""

    Sheet: TypeAlias = ExactSheet | SimulatedSheet

OTHER_BETS_SHARE = 4
"""The other ways of betting the bonus are simulated with this share of the rounds: their
figures bound what a player can get, and the standard bet's are the headline."""


def table_antes(profile: Profile, ante: int | None) -> list[int]:
    """The antes a PAR sheet gives figures at: the one asked for, else every ante where the
    return may be at its least or greatest (``Profile.extreme_antes``: the table's least and
    greatest ante, each ante with a fee of its own, and the least ante priced in proportion)."""
    return [ante] if ante is not None else profile.extreme_antes()


def counted(figures: Computed) -> TypeIs[ExactAnalysis]:
    """Whether the figures are the exact analysis's, not a simulation's."""
    return "total_combinations" in figures


def by_ante(figures: Computed) -> AtAnte:
    """One ante's main-game and side-bet figures, from an exact analysis or a simulation: the
    return per ante and per unit staked as fractions, with their 95 % half-intervals (0 where
    exact)."""
    side: SideAtAnte | None = None
    if counted(figures):
        stake_return, ci95 = figures["bonus_return_per_stake"], 0.0
        if stake_return is not None:
            side = {"stake": figures["bonus_stake"], "return": 1 + stake_return, "ci95": 0.0}
    else:
        bonus, ci95 = figures["bonus"], figures["house_edge_ci95"]
        if bonus is not None and bonus["kind"] != "privilege":
            estimate = bonus["return_per_stake"]
            side = {"stake": bonus["stake"], "return": 1 + estimate["value"], "ci95": estimate["ci95"]}
    return {
        "ante": figures["ante"],
        "return": 1 - figures["house_edge"],
        "ci95": ci95,
        "cap_binds": list(figures["cap_binds"]),
        "side": side,
    }


def other_plays(rules: ProfileRules) -> list[BoxPlay]:
    """The ways of betting and playing a box whose main-game return a sheet gives besides the
    standard bet: without the bonus, and (a fixed or odds bonus) with it but weighed in no
    decision, the most the main game gives a box that bets it at any stake; and a blind box
    where the table has one. A bonus that folding or an exchange forfeits keeps some hands
    playing, and a profile may price its options otherwise for a box with the bonus, so each
    may return more than the standard bet."""
    bonus = rules.get("bonus")
    kind = bonus["kind"] if bonus is not None else None
    plays: list[BoxPlay] = []
    if kind is not None:
        plays += ["without_bonus"] if kind == "privilege" else ["without_bonus", "for_main"]
    if rules["boxes"]["looked_at"] < rules["boxes"]["max"]:
        plays.append("blind")
    return plays


def other_rounds(rounds: int) -> int:
    """The rounds of a simulation of another way of betting the bonus."""
    return max(rounds // OTHER_BETS_SHARE, MIN_ROUNDS)


def figures_at(
    profile: Profile,
    ante: int,
    play: BoxPlay,
    *,
    rounds: int | None,
    seed: bytes | None,
    progress: Callable[[int, int], object] | None,
) -> Computed:
    """One ante's figures of a box played so: exact where ``rounds`` is None and for a blind
    box (it takes no decision), else simulated (``other_rounds`` but for the standard bet)."""
    if rounds is None or play == "blind":
        return exact_analysis(profile, ante=ante, play=play, progress=progress)
    played = rounds if play == "standard" else other_rounds(rounds)
    return simulate(profile, played, seed=seed, ante=ante, play=play, progress=progress)


def other_bet(figures: Computed) -> OtherBet:
    """One ante's main-game figure for another way of betting and playing the box."""
    row = by_ante(figures)
    return {
        "play": figures["play"],
        "ante": row["ante"],
        "return": row["return"],
        "ci95": row["ci95"],
        "exact": counted(figures),
    }


def side_bound(profile: Profile) -> SideBound | None:
    """The most the side bet returns to any player (``_core.side_bet_bound``) as a sheet holds
    it: its return per unit staked as a fraction; None where it is not bounded or there is none."""
    bound = side_bet_bound(profile)
    if bound is None:
        return None
    return {
        "stake": bound["stake"],
        "return": 1 + bound["return_per_stake"],
        "jackpot_frequency": bound["jackpot_frequency"],
    }
