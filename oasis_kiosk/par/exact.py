"""The exact analysis's report: its return table and figures as text and as a Markdown PAR
sheet, and the distribution of a round's net it counted.

The exact analysis (``oasis_kiosk.exact_analysis``, Rust) counts every deal of a profile whose
only decision is to play or fold and plays each hand optimally."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from oasis_kiosk.par.sheet import (
    ante_lines,
    ante_section,
    chart_section,
    other_bets_lines,
    other_bets_section,
    rules_section,
)
from oasis_kiosk.par.words import antes, hand_name, money, outcome_name, percent

if TYPE_CHECKING:
    from oasis_kiosk._core import _ExactAnalysis as ExactAnalysis
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk.par.figures import ExactSheet


def rows(analysis: ExactAnalysis) -> list[tuple[str, str, int, float, float]]:
    """The return table: outcome, pays (antes), combinations, probability, return (antes)."""
    total, ante = analysis["total_combinations"], analysis["ante"]
    table = []
    for name, count in analysis["outcomes"].items():
        net, probability = analysis["net"][name], count / total
        table.append((outcome_name(name), antes(net, ante), count, probability, probability * net / ante))
    return table


def figure_lines(analysis: ExactAnalysis) -> list[tuple[str, str]]:
    return [
        ("house edge", f"{percent(analysis['house_edge'])} of the ante"),
        (
            "element of risk",
            f"{percent(analysis['element_of_risk'])} of the total wagered "
            f"(average wager {analysis['average_wager']:.4f} antes)",
        ),
        ("play fraction", f"{percent(analysis['play_fraction'])} of deals are played"),
        ("standard deviation", f"{analysis['standard_deviation']:.4f} antes per round"),
        (
            "decisions",
            f"{analysis['situations_played']:,} of {analysis['situations']:,} player hands and up "
            "cards are played",
        ),
    ]


def cap_note(analysis: ExactAnalysis, rules: ProfileRules) -> str:
    ante = money(analysis["ante"], rules)
    if not analysis["cap_binds"]:
        return f"Payments at an ante of {ante}; the maximum payout cuts none, so they hold at every ante."
    cut = ", ".join(hand_name(category) for category in analysis["cap_binds"])
    return (
        f"Payments at an ante of {ante}, where the maximum payout of {money(rules['table']['max_payout'], rules)} "
        f"cuts the win of: {cut}. At smaller antes it cuts less and the return is higher."
    )


def text_report(analysis: ExactSheet, rules: ProfileRules) -> str:
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


def markdown_report(
    analysis: ExactSheet,
    rules: ProfileRules,
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


def distribution(analysis: ExactAnalysis) -> list[tuple[float, int]]:
    """(net in antes, combinations) per outcome of the exact analysis, equal nets merged."""
    merged: dict[float, int] = {}
    for name, count in analysis["outcomes"].items():
        net = analysis["net"][name] / analysis["ante"]
        merged[net] = merged.get(net, 0) + count
    return sorted(merged.items())
