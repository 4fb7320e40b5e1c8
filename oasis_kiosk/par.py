"""``oasis-kiosk par``: the return of a rule profile, for the operator and the regulator.

The exact analysis (``oasis_kiosk.exact_analysis``, Rust) counts every deal of a profile
whose only decision is to play or fold and plays each hand optimally; this module prints
its return table, writes it as JSON or as a Markdown PAR sheet, and shows progress while
it runs. Profiles with exchanges or purchases are simulated instead (``oasis_kiosk.simulate``,
``--rounds N``; ``oasis_kiosk.par_simulation`` writes their reports), and both kinds of sheet
come with a chart of the distribution of a round's net (``oasis_kiosk.par_chart``).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TextIO

from oasis_kiosk import par_simulation
from oasis_kiosk._core import (
    CATEGORIES,
    MIN_ROUNDS,
    AnalysisError,
    Profile,
    ProfileError,
    exact_analysis,
    side_bet_bound,
    simulate,
)
from oasis_kiosk.rules import load_profile

# Rounds simulated when a profile the exact analysis refuses is given without --rounds.
DEFAULT_ROUNDS = 1_000_000

SIMULATE_INSTEAD = "simulate it with --rounds N (the default for such profiles)"

BoxPlay = Literal["standard", "without_bonus", "for_main", "blind"]
"""How a box is bet and played (``_core.exact_analysis``'s ``play``)."""

OTHER_BETS_SHARE = 4
"""The other ways of betting the bonus are simulated with this share of the rounds: their
figures bound what a player can get, and the standard bet's are the headline."""


def hand_name(category: str) -> str:
    """``"ThreeOfAKind"`` -> ``"three of a kind"``, ``"AceKing"`` -> ``"ace-king"``."""
    if category == "AceKing":
        return "ace-king"
    return " ".join(word.lower() for word in re.findall(r"[A-Z][a-z]*", category))


def outcome_name(outcome: str) -> str:
    if outcome.startswith("won_"):
        return f"player wins with {hand_name(outcome.removeprefix('won_'))}"
    return {
        "dealer_not_qualified": "dealer does not qualify",
        "push": "push",
        "folded": "player folds",
        "lost": "dealer wins",
    }.get(outcome, outcome)


def antes(net: int, ante: int) -> str:
    """A net amount in antes: whole where it is whole, else to four places."""
    if net % ante == 0:
        return f"{net // ante:+,d}" if net else "0"
    return f"{net / ante:+.4f}"


def money(amount: int, rules: dict[str, Any]) -> str:
    table = rules["table"]
    places = len(str(table["minor_units"])) - 1
    return f"{amount / table['minor_units']:,.{places}f} {table['currency']}"


def rows(analysis: dict[str, Any]) -> list[tuple[str, str, int, float, float]]:
    """The return table: outcome, pays (antes), combinations, probability, return (antes)."""
    total, ante = analysis["total_combinations"], analysis["ante"]
    table = []
    for name, count in analysis["outcomes"].items():
        net, probability = analysis["net"][name], count / total
        table.append((outcome_name(name), antes(net, ante), count, probability, probability * net / ante))
    return table


def figure_lines(analysis: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        ("house edge", f"{analysis['house_edge'] * 100:.4f} % of the ante"),
        (
            "element of risk",
            f"{analysis['element_of_risk'] * 100:.4f} % of the total wagered "
            f"(average wager {analysis['average_wager']:.4f} antes)",
        ),
        ("play fraction", f"{analysis['play_fraction'] * 100:.4f} % of deals are played"),
        ("standard deviation", f"{analysis['standard_deviation']:.4f} antes per round"),
        (
            "decisions",
            f"{analysis['situations_played']:,} of {analysis['situations']:,} player hands and up "
            "cards are played",
        ),
    ]


def cap_note(analysis: dict[str, Any], rules: dict[str, Any]) -> str:
    ante = money(analysis["ante"], rules)
    if not analysis["cap_binds"]:
        return f"Payments at an ante of {ante}; the maximum payout cuts none, so they hold at every ante."
    cut = ", ".join(hand_name(category) for category in analysis["cap_binds"])
    return (
        f"Payments at an ante of {ante}, where the maximum payout of {money(rules['table']['max_payout'], rules)} "
        f"cuts the win of: {cut}. At smaller antes it cuts less and the return is higher."
    )


def text_report(analysis: dict[str, Any], rules: dict[str, Any]) -> str:
    lines = [
        f"{rules['name']} ({analysis['profile']}): exact return under optimal play",
        cap_note(analysis, rules),
        "",
        f"{'outcome':<36}{'pays':>8}{'combinations':>22}{'probability':>14}{'return':>12}",
    ]
    for name, pays, count, probability, share in rows(analysis):
        lines.append(f"{name:<36}{pays:>8}{count:>22,}{probability:>14.6f}{share:>12.6f}")
    total = analysis["total_combinations"]
    lines.append(f"{'total':<36}{'':>8}{total:>22,}{1:>14.6f}{-analysis['house_edge']:>12.6f}")
    lines.append("")
    lines += [f"{label:<20}{text}" for label, text in figure_lines(analysis)]
    lines += ["", *ante_lines(analysis["by_ante"], rules), *other_bets_lines(analysis, rules)]
    return "\n".join(lines)


def table_antes(rules: dict[str, Any], ante: int | None) -> list[int]:
    """The antes a PAR sheet gives figures at: the one asked for, else every ante where the
    return may be at its least or greatest. Every price is in antes, and the maximum payout
    cuts more as the ante grows, so the return per ante never rises with the ante, except
    where a fee is set for one ante (a privilege fee's ``fee_at_ante``): the table's least and
    greatest ante, each such ante, and the least ante with none."""
    if ante is not None:
        return [ante]
    table = rules["table"]
    least, greatest, step = table["ante_min"], table["ante_max"], table["ante_step"]
    special = {int(a) for a in (rules.get("bonus") or {}).get("fee_at_ante", {})}
    ordinary = next((a for a in range(least, greatest + 1, step) if a not in special), least)
    return sorted({least, greatest, ordinary} | special)


def by_ante(figures: dict[str, Any]) -> dict[str, Any]:
    """One ante's main-game and side-bet figures, from an exact analysis or a simulation: the
    return per ante and per unit staked as fractions, with their 95 % half-intervals (0 where
    exact)."""
    exact = "total_combinations" in figures
    side: dict[str, Any] | None = None
    if exact and figures.get("bonus_return_per_stake") is not None:
        side = {"stake": figures["bonus_stake"], "return": 1 + figures["bonus_return_per_stake"], "ci95": 0.0}
    bonus = None if exact else figures.get("bonus")
    if bonus is not None and bonus["kind"] != "privilege":
        estimate = bonus["return_per_stake"]
        side = {"stake": bonus["stake"], "return": 1 + estimate["value"], "ci95": estimate["ci95"]}
    return {
        "ante": figures["ante"],
        "return": 1 - figures["house_edge"],
        "ci95": 0.0 if exact else figures["house_edge_ci95"],
        "cap_binds": figures["cap_binds"],
        "side": side,
    }


def other_plays(rules: dict[str, Any]) -> list[BoxPlay]:
    """The ways of betting and playing a box whose main-game return a sheet gives besides the
    standard bet: without the bonus, and (a fixed or odds bonus) with it but weighed in no
    decision, the most the main game gives a box that bets it at any stake; and a blind box
    where the table has one. A bonus that folding or an exchange forfeits keeps some hands
    playing, and a profile may price its options otherwise for a box with the bonus, so each
    may return more than the standard bet."""
    kind = (rules.get("bonus") or {}).get("kind")
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
) -> dict[str, Any]:
    """One ante's figures of a box played so: exact where ``rounds`` is None and for a blind
    box (it takes no decision), else simulated (``other_rounds`` but for the standard bet)."""
    if rounds is None or play == "blind":
        return exact_analysis(profile, ante=ante, play=play, progress=progress)
    played = rounds if play == "standard" else other_rounds(rounds)
    return simulate(profile, played, seed=seed, ante=ante, play=play, progress=progress)


def other_bet(figures: dict[str, Any]) -> dict[str, Any]:
    """One ante's main-game figure for another way of betting and playing the box."""
    row = by_ante(figures)
    exact = "total_combinations" in figures
    return {
        "play": figures["play"],
        "ante": row["ante"],
        "return": row["return"],
        "ci95": row["ci95"],
        "exact": exact,
    }


def side_bound(profile: Profile) -> dict[str, Any] | None:
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


PLAY_WORDS = {
    "without_bonus": "without the bonus bet",
    "for_main": "with the bonus bet, every decision for the main game alone",
    "blind": "a blind box",
}


def play_words(play: str, rules: dict[str, Any]) -> str:
    if play == "without_bonus" and (rules.get("bonus") or {}).get("kind") == "privilege":
        return "without the privilege fee"
    return PLAY_WORDS[play]


def other_bets_lines(sheet: dict[str, Any], rules: dict[str, Any]) -> list[str]:
    """The other ways of betting the bonus and the side bet's bound, in words."""
    lines = []
    for row in sheet.get("other_bets", []):
        interval = f" ± {row['ci95'] * 100:.4f}" if row["ci95"] else " (exact)"
        lines.append(
            f"{play_words(row['play'], rules)}, at an ante of {money(row['ante'], rules)}: "
            f"the main game returns {row['return'] * 100:.4f} %{interval}"
        )
    bound = sheet.get("side_bound")
    if bound is not None:
        jackpot = bound["jackpot_frequency"]
        lines.append(
            f"the bonus bet of {money(bound['stake'], rules)} returns at most {bound['return'] * 100:.4f} % "
            "(exact, never forfeited)"
            + (f"; a kept bonus wins a jackpot award in {jackpot:.3e} of rounds" if jackpot else "")
        )
    return lines


def other_bets_section(sheet: dict[str, Any], rules: dict[str, Any]) -> list[str]:
    """A PAR sheet's return for the other ways of betting the bonus, and the side bet's bound."""
    rows = sheet.get("other_bets", [])
    bound = sheet.get("side_bound")
    if not rows and bound is None:
        return []
    out = ["## Return by how the box is bet and played", ""]
    if rows:
        out += ["| the box | ante | main game returns (of the ante) |", "|---|---:|---:|"]
        for row in rows:
            shown = f"{row['return'] * 100:.4f} %" + (
                f" ± {row['ci95'] * 100:.4f}" if row["ci95"] else " (exact)"
            )
            out.append(f"| {play_words(row['play'], rules)} | {money(row['ante'], rules)} | {shown} |")
        out += [
            "",
            "The return by ante above is of a box that bets the standard bonus and weighs it as a player who "
            "bets it would. A box without it decides for the main game alone, at its own prices; a box with it that "
            "decides for the main game alone gets the most the main game gives with the bonus bet, whatever "
            "its stake (a larger stake only weighs the bonus more). A blind box plays every hand it is dealt, "
            f"counted exactly. Simulated figures here come from 1/{OTHER_BETS_SHARE} of the rounds.",
            "",
        ]
    if bound is not None:
        jackpot = bound["jackpot_frequency"]
        out += [
            f"The bonus bet of {money(bound['stake'], rules)} returns at most {bound['return'] * 100:.4f} % of "
            "its stake to any player (exact: kept on every hand, judged as dealt; folding or an exchange can "
            "only forfeit it)."
            + (
                f" A kept bonus wins a jackpot award in {jackpot:.3e} of rounds: the jackpot returns its "
                "contribution rate plus at most its reset value times that share per unit staked (the "
                "terminal checks both against `[rules]`)."
                if jackpot
                else ""
            ),
            "",
        ]
    return out


def ante_lines(figures: list[dict[str, Any]], rules: dict[str, Any]) -> list[str]:
    """The return at each ante, in words, one line each (the side bet's after it)."""
    lines = []
    for row in figures:
        interval = f" ± {row['ci95'] * 100:.4f}" if row["ci95"] else " (exact)"
        cut = ", ".join(hand_name(c) for c in row["cap_binds"]) or "nothing"
        lines.append(
            f"at an ante of {money(row['ante'], rules)}: the main game returns {row['return'] * 100:.4f} %"
            f"{interval} of the ante (the maximum payout cuts {cut})"
        )
        if row["side"] is not None:
            side = row["side"]
            interval = f" ± {side['ci95'] * 100:.4f}" if side["ci95"] else " (exact)"
            lines.append(
                f"the bonus bet of {money(side['stake'], rules)} returns {side['return'] * 100:.4f} %{interval} "
                "of its stake (jackpot awards not included)"
            )
    return lines


def ante_cells(row: dict[str, Any]) -> tuple[str, str, str]:
    """One ante's main return with its interval, the house edge, and the side bet's return."""

    def shown(value: float, ci95: float) -> str:
        return f"{value * 100:.4f} %" + (f" ± {ci95 * 100:.4f}" if ci95 else " (exact)")

    side = row["side"]
    return (
        shown(row["return"], row["ci95"]),
        f"{(1 - row['return']) * 100:.4f} %",
        "none" if side is None else shown(side["return"], side["ci95"]),
    )


def ante_section(figures: list[dict[str, Any]], rules: dict[str, Any]) -> list[str]:
    """A PAR sheet's table of the return at the least and the greatest ante."""
    out = [
        "## Return by ante",
        "",
        "| ante | main game returns (of the ante) | house edge | the maximum payout cuts | side bet returns (of its stake) |",
        "|---:|---:|---:|---|---:|",
    ]
    for row in figures:
        cut = ", ".join(hand_name(c) for c in row["cap_binds"]) or "nothing"
        main, edge, side = ante_cells(row)
        if row["side"] is not None:
            side += f" at {money(row['side']['stake'], rules)}"
        out.append(f"| {money(row['ante'], rules)} | {main} | {edge} | {cut} | {side} |")
    out += [
        "",
        "Intervals are 95 %. The side bet is a separate bet (a fixed or odds bonus; a privilege fee is in the "
        "main game); a jackpot's award is the progressive meter's and in no return here.",
        "",
    ]
    return out


def rules_section(rules: dict[str, Any], skip: str | None = None) -> list[str]:
    """A PAR sheet's rules: the profile's summary (without lines containing ``skip``) and
    the paytable."""
    return [
        "## Rules",
        "",
        *[f"- {line}" for line in rules_summary(rules) if skip is None or skip not in line],
        "",
        "| hand | pays on the play bet |",
        "|---|---:|",
        *[
            f"| {hand_name(category)} | {odds}:1 |"
            for category, odds in sorted(rules["paytable"].items(), key=lambda row: -CATEGORIES.index(row[0]))
        ],
    ]


def rules_summary(rules: dict[str, Any]) -> list[str]:
    """The rules the figures depend on, from the profile."""
    table, game = rules["table"], rules["game"]
    ante_ladder = (
        f"Ante {money(table['ante_min'], rules)} to {money(table['ante_max'], rules)} "
        f"in steps of {money(table['ante_step'], rules)}; the play bet is {game['play_multiple']} antes."
    )
    no_qualify = "wins 1:1" if game["no_qualify_ante"] == "pays" else "is returned"
    capped = "the play bet's win" if game["cap"] == "play" else "the ante's and the play bet's wins"
    lines = [
        ante_ladder,
        f"The dealer qualifies with {hand_name(game['qualifier'])} or better; if he does not, the ante "
        f"{no_qualify} and the play bet is returned.",
        "Against a qualifying dealer the higher hand wins (a tie returns both bets): the ante wins 1:1 and "
        "the play bet by the paytable, or both are lost.",
        f"Maximum payout per box {money(table['max_payout'], rules)}, counting {capped}.",
    ]
    boxes = rules["boxes"]
    if boxes["max"] > 1:
        lines.append(
            f"Up to {boxes['max']} boxes; the figures are per box, for a box looked at and decided on its own."
        )
    if rules.get("bonus"):
        lines.append(f"The {rules['bonus']['kind']} bonus bet is a separate bet, not in these figures.")
    return lines


def markdown_report(
    analysis: dict[str, Any],
    rules: dict[str, Any],
    seconds: float,
    command: str | None = None,
    chart: str | None = None,
) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        f"# PAR sheet: {rules['name']} (`{analysis['profile']}`)",
        "",
        *([f"Regenerate: `{command}`", ""] if command else []),
        f"Rule profile `{analysis['profile']}`, digest `{analysis['profile_digest']}`"
        + (f", from {rules['source']}" if rules.get("source") else "")
        + f". Exact analysis by oasis-kiosk, {when}, computed in {seconds:.1f} s.",
        "",
        *rules_section(rules),
        "",
        *ante_section(analysis["by_ante"], rules),
        *other_bets_section(analysis, rules),
        "## Return table (optimal strategy)",
        "",
        "Every deal is counted: the player's five cards, the dealer's up card and his four hole cards, "
        f"{analysis['total_combinations']:,} combinations. The player plays a hand against an up card "
        "exactly when playing is worth at least folding over the dealer's possible hole cards. "
        + cap_note(analysis, rules),
        "",
        "| outcome | pays (antes) | combinations | probability | return |",
        "|---|---:|---:|---:|---:|",
        *[
            f"| {name} | {pays} | {count:,} | {probability:.6f} | {share:.6f} |"
            for name, pays, count, probability, share in rows(analysis)
        ],
        f"| **total** | | {analysis['total_combinations']:,} | 1.000000 | {-analysis['house_edge']:.6f} |",
        "",
        "## Figures",
        "",
        *[f"- **{label}**: {text}" for label, text in figure_lines(analysis)],
        f"- **player's net over all combinations**: {antes(analysis['player_net'], analysis['ante'])} antes",
        "",
        "House edge: the house's expected win per ante. Element of risk: the same per unit wagered, "
        "ante plus the expected play bet. The method and its checks: docs/analysis.md of oasis-kiosk.",
        "",
    ]
    out += chart_section(chart)
    return "\n".join(out)


def exact_distribution(analysis: dict[str, Any]) -> list[tuple[float, int]]:
    """(net in antes, combinations) per outcome of the exact analysis, equal nets merged."""
    merged: dict[float, int] = {}
    for name, count in analysis["outcomes"].items():
        net = analysis["net"][name] / analysis["ante"]
        merged[net] = merged.get(net, 0) + count
    return sorted(merged.items())


class ProgressLine:
    """``working: 42 % ... 3.1 s`` rewritten in place on a terminal; silent elsewhere."""

    def __init__(self, stream: TextIO, unit: str = "player-hand classes") -> None:
        self.unit = unit
        self.stream = stream
        self.live = stream.isatty()
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not self.live:
            return
        elapsed = time.perf_counter() - self.started
        if total == 0:
            text = f"working: building the counting tables, {elapsed:.1f} s"
        else:
            text = f"working: {done * 100 // total} % of {total:,} {self.unit}, {elapsed:.1f} s"
        self.stream.write(f"\r{text:<72}")
        self.stream.flush()

    def close(self) -> None:
        if self.live:
            self.stream.write("\r" + " " * 72 + "\r")
            self.stream.flush()


def command_line(profile: str, method: str, ante: int | None, out: Path | None) -> str:
    """The command that writes the same report again."""
    parts = ["oasis-kiosk par", profile, method]
    if ante is not None:
        parts.append(f"--ante {ante}")
    if out is not None:
        parts.append(f"--out {out}")
    return " ".join(parts)


def run(
    profile_name: str,
    *,
    rounds: int | None,
    as_json: bool,
    out: Path | None,
    ante: int | None,
    exact: bool = False,
    seed: bytes | None = None,
) -> int:
    """The ``par`` command; returns the exit status."""
    if exact and seed is not None:
        print(
            "oasis-kiosk: --seed is the simulation's (--rounds); the exact analysis needs none",
            file=sys.stderr,
        )
        return 2
    try:
        profile: Profile = load_profile(profile_name)
    except ProfileError as error:
        print(f"oasis-kiosk: {error}", file=sys.stderr)
        return 2
    rules = profile.to_dict()
    if rounds is None and seed is not None:
        rounds = DEFAULT_ROUNDS
    if rounds is not None:
        return run_simulation(profile, rules, rounds, seed=seed, as_json=as_json, out=out, ante=ante)
    progress = ProgressLine(sys.stderr)
    started = time.perf_counter()
    try:
        antes_figured = table_antes(rules, ante)
        analyses = [exact_analysis(profile, ante=a, progress=progress) for a in antes_figured]
        others = [
            figures_at(profile, a, play, rounds=None, seed=None, progress=progress)
            for play in other_plays(rules)
            for a in antes_figured
        ]
    except AnalysisError as error:
        if "only decision" in str(error) and not exact:
            # Refused at once, before any work: simulate instead.
            print(f"oasis-kiosk: {error}: simulating {DEFAULT_ROUNDS:,} rounds", file=sys.stderr)
            return run_simulation(
                profile, rules, DEFAULT_ROUNDS, seed=None, as_json=as_json, out=out, ante=ante
            )
        print(f"oasis-kiosk: {error}.", file=sys.stderr)
        if "only decision" in str(error):
            print(f"oasis-kiosk: {SIMULATE_INSTEAD}.", file=sys.stderr)
        return 2
    finally:
        progress.close()
    seconds = time.perf_counter() - started
    analysis = analyses[-1] | {
        "by_ante": [by_ante(a) for a in analyses],
        "other_bets": [other_bet(a) for a in others],
        "side_bound": side_bound(profile),
    }
    if as_json:
        print(json.dumps(analysis, indent=2))
    else:
        print(text_report(analysis, rules))
        print(f"{'computed in':<20}{seconds:.1f} s")
    if out is not None:
        command = command_line(profile_name, "--exact", ante, out)
        write_sheet(
            out,
            analysis,
            f"{rules['name']}: a round's net, exact",
            exact_distribution(analysis),
            lambda chart: markdown_report(analysis, rules, seconds, command, chart),
            as_json,
        )
    return 0


def write_sheet(
    out: Path,
    figures: dict[str, Any],
    title: str,
    distribution: list[tuple[float, int]],
    report: Callable[[str], str],
    as_json: bool,
) -> None:
    """The PAR sheet (``report`` given its chart's file name), its figures as JSON and the
    chart of the distribution, in ``out``, named after the profile."""
    from oasis_kiosk.par_chart import draw_distribution

    name = figures["profile"]
    sheet, data, chart = out / f"{name}.md", out / f"{name}.json", out / f"{name}.png"
    out.mkdir(parents=True, exist_ok=True)
    draw_distribution(chart, title, distribution)
    sheet.write_text(report(chart.name), encoding="utf-8")
    data.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"written {sheet}, {data} and {chart}", file=sys.stderr if as_json else sys.stdout)


def chart_section(chart: str | None) -> list[str]:
    """The sheet's picture of the distribution, where there is one."""
    if chart is None:
        return []
    return [
        "## Distribution of a round's net",
        "",
        f"![the distribution of a round's net in antes]({chart})",
        "",
    ]


def run_simulation(
    profile: Profile,
    rules: dict[str, Any],
    rounds: int,
    *,
    seed: bytes | None,
    as_json: bool,
    out: Path | None,
    ante: int | None,
) -> int:
    """``par --rounds N``: simulate, print, write the sheet, its JSON and its chart."""
    progress = ProgressLine(sys.stderr, unit="rounds")
    started = time.perf_counter()
    seed = seed or os.urandom(32)  # one seed for every ante, so the command repeats the sheet
    try:
        antes_figured = table_antes(rules, ante)
        results = [simulate(profile, rounds, seed=seed, ante=a, progress=progress) for a in antes_figured]
        others = [
            figures_at(profile, a, play, rounds=rounds, seed=seed, progress=progress)
            for play in other_plays(rules)
            for a in antes_figured
        ]
    except ValueError as error:
        print(f"oasis-kiosk: {error}", file=sys.stderr)
        return 2
    finally:
        progress.close()
    seconds = time.perf_counter() - started
    result = results[-1] | {
        "by_ante": [by_ante(r) for r in results],
        "other_bets": [other_bet(r) for r in others],
        "side_bound": side_bound(profile),
    }
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        print(par_simulation.text_report(result, rules))
        print(f"{'computed in':<20}{seconds:.1f} s")
    if out is not None:
        command = command_line(profile.id, f"--rounds {rounds} --seed {result['seed']}", ante, out)
        write_sheet(
            out,
            result,
            f"{rules['name']}: a round's net, {rounds:,} simulated rounds",
            [(net, count) for net, count in result["distribution"]],
            lambda chart: par_simulation.markdown_report(result, rules, command, chart),
            as_json,
        )
    return 0


INDEX_HEAD = """# PAR sheets of the shipped profiles

One sheet per profile file in `oasis_kiosk/profiles/`, each with the command that writes it
again at its top and the chart of the distribution of a round's net beside it; `make par`
writes them all and this page. Profiles whose only decision is to play or fold are counted
exactly ([../analysis.md](../analysis.md)); the others are simulated with their exchanges and
purchases ([../simulation.md](../simulation.md)), with enough rounds for a 95 % interval of at
most ±0.05 % of the ante. Figures for one box, at the table's least and greatest ante and at
any ante where a fee is set for that ante alone (golden-oasis's privilege fee at 5.00 EUR: the
return per ante never rises with the ante elsewhere), with the standard bonus stake where there
is one: a fixed or odds bonus bet is a side bet with its own return; the privilege fee of
`golden-oasis` is in the main game. Each sheet also gives the main game's return for the other
ways of betting and playing a box (without the bonus; with it but deciding for the main game
alone; a blind box) and the most its side bet returns to any player; the greatest of the other
ways is in the last column. `oasis_kiosk/returns.json`, which the terminal checks against the
bounds of `[rules]` before it takes money, is written from these sheets.

| profile | method | ante | main game returns | house edge | side bet returns | betting otherwise, at most |
|---|---|---:|---:|---:|---:|---|
"""


def index(folder: Path) -> str:
    """The index of the PAR sheets in ``folder``, from their JSON figures."""
    lines = [INDEX_HEAD.rstrip("\n")]
    for data in sorted(folder.glob("*.json")):
        figures = json.loads(data.read_text(encoding="utf-8"))
        rules = load_profile(figures["profile"]).to_dict()
        method = (
            "exact, every deal"
            if "total_combinations" in figures
            else f"{figures['rounds']:,} simulated rounds per ante"
        )
        for row in figures["by_ante"]:
            main, edge, side = ante_cells(row)
            others = [other for other in figures["other_bets"] if other["ante"] == row["ante"]]
            most = "none"
            if others:
                best = max(others, key=lambda other: other["return"] + other["ci95"])
                most = f"{ante_cells(best | {'side': None})[0]} ({play_words(best['play'], rules)})"
            lines.append(
                f"| [`{figures['profile']}`]({figures['profile']}.md) | {method} | {money(row['ante'], rules)} | "
                f"{main} | {edge} | {side} | {most} |"
            )
    lines += [
        "",
        "The main game's return counts the ante, the play bet, insurance and every fee; a house edge is the "
        "house's expected win per ante. The table's maximum payout cuts more at the greatest ante, so the "
        "return there is lower unless a fee weighs more at the least (each sheet names what it cuts).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    # ``python -m oasis_kiosk.par index DIR``: writes DIR/README.md (``make par``).
    if sys.argv[1:2] != ["index"] or len(sys.argv) != 3:
        sys.exit("usage: python -m oasis_kiosk.par index DIR")
    (Path(sys.argv[2]) / "README.md").write_text(index(Path(sys.argv[2])), encoding="utf-8")
