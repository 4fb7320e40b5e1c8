"""The simulation's report (``oasis-kiosk par --rounds N``): the simulated return of a rule
profile as text and as a Markdown PAR sheet.

``oasis_kiosk.simulate`` (Rust) plays N rounds of one box with every option of the profile by
the simulation's near-optimal strategy (docs/simulation.md). The sheet holds nothing that
changes from run to run, so the same seed gives the same sheet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oasis_kiosk.par.sheet import (
    ante_lines,
    ante_section,
    chart_section,
    other_bets_lines,
    other_bets_section,
    rules_section,
)
from oasis_kiosk.par.words import hand_name, money, outcome_name, percent

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk._core import _Simulation as Simulation
    from oasis_kiosk.par.figures import SimulatedSheet

OPTION_NAMES = {
    "exchange": "card exchange",
    "sixth_card": "sixth card",
    "insurance": "insurance",
    "buy_dealer_card": "buying the dealer's card",
    "buy_game": "buying the game",
}


def figure_lines(result: Simulation) -> list[tuple[str, str]]:
    lines = [
        (
            "house edge",
            f"{percent(result['house_edge'], result['house_edge_ci95'])} of the ante (95 % interval)",
        ),
        (
            "element of risk",
            f"{percent(result['element_of_risk'], result['element_of_risk_ci95'])} of the total wagered "
            f"(average wager {result['average_wager']:.4f} antes)",
        ),
        (
            "return per ante",
            f"{result['return_per_ante']['value']:+.6f} ± {result['return_per_ante']['ci95']:.6f} antes",
        ),
        (
            "return per wager",
            f"{result['return_per_wager']['value']:+.6f} ± {result['return_per_wager']['ci95']:.6f}",
        ),
        (
            "play fraction",
            f"{percent(result['play_fraction'], result['play_fraction_ci95'])} of rounds are played",
        ),
        ("standard deviation", f"{result['standard_deviation']:.4f} antes per round"),
        ("estimated by", estimate_text(result)),
    ]
    if result["bonus"] is not None:
        lines.append(
            (
                "with the bonus bet",
                f"{result['return_with_bonus']['value']:+.6f} ± {result['return_with_bonus']['ci95']:.6f} "
                "antes per round, the bonus stake's result included",
            )
        )
    return lines


def estimate_text(result: Simulation) -> str:
    """How the house edge was estimated, and what the plain mean of the rounds gave."""
    control = result["control_variate"]
    plain = result["monte_carlo_return_per_ante"]
    gain = (
        "it varied in no round, so the figure is exact"
        if control["variance_reduction"] is None
        else f"{control['variance_reduction']:,.0f} times less variance than the plain mean"
    )
    return (
        f"the exact return of the play-or-fold game ({control['base_return_per_ante']:+.6f} antes) plus the mean "
        f"difference of the conditional nets ({gain}); the plain mean of the rounds' nets is "
        f"{plain['value']:+.6f} ± {plain['ci95']:.6f} antes"
    )


def outcome_rows(result: Simulation) -> list[tuple[str, int, float, float]]:
    rounds = result["rounds"]
    return [
        (outcome_name(name), count, count / rounds, result["outcome_return"][name])
        for name, count in result["outcomes"].items()
    ]


def option_rows(result: Simulation) -> list[tuple[str, int, float, float, float]]:
    return [
        (OPTION_NAMES.get(name, name), row["taken"], row["frequency"], row["paid"], row["contribution"])
        for name, row in result["options"].items()
    ]


def text_report(result: SimulatedSheet, rules: ProfileRules) -> str:
    lines = [
        f"{rules['name']} ({result['profile']}): {result['rounds']:,} simulated rounds, seed {result['seed']}",
        "",
        f"{'outcome':<46}{'rounds':>14}{'probability':>14}{'return':>12}",
    ]
    for name, count, probability, share in outcome_rows(result):
        lines.append(f"{name:<46}{count:>14,}{probability:>14.6f}{share:>12.6f}")
    lines.append(
        f"{'total':<46}{result['rounds']:>14,}{1:>14.6f}{result['monte_carlo_return_per_ante']['value']:>12.6f}"
    )
    if result["options"]:
        lines += ["", f"{'option':<30}{'taken':>14}{'frequency':>12}{'paid':>12}{'contribution':>14}"]
        for name, taken, frequency, paid, contribution in option_rows(result):
            lines.append(f"{name:<30}{taken:>14,}{frequency:>12.6f}{paid:>12.6f}{contribution:>+14.6f}")
    lines.append("")
    lines += [f"{label:<20}{text}" for label, text in figure_lines(result)]
    lines += ["", *ante_lines(result["by_ante"], rules), *other_bets_lines(result, rules)]
    return "\n".join(lines)


def bonus_section(result: Simulation, rules: ProfileRules) -> list[str]:
    bonus = result["bonus"]
    if bonus is None:
        return []
    if bonus["kind"] == "privilege":
        return [
            "## Bonus",
            "",
            f"The privilege bonus fee of {money(bonus['stake'], rules)} is paid every round and never pays; it "
            "unlocks options, so it is counted in the main game's figures above (as a fee and a wager).",
            "",
        ]
    out = [
        "## Bonus bet",
        "",
        f"A {bonus['kind']} bonus bet of {money(bonus['stake'], rules)} on every round, a separate bet whose "
        "result is not in the house edge above. Its return per unit staked: "
        f"{bonus['return_per_stake']['value']:+.6f} ± {bonus['return_per_stake']['ci95']:.6f} "
        "(jackpot awards not included).",
        "",
        "| hand | pays | hits | frequency |",
        "|---|---:|---:|---:|",
    ]
    for category, hit in bonus["hits"].items():
        pays = money(int(hit["pays"]), rules) if bonus["kind"] == "fixed" else hit["pays"]
        out.append(f"| {hand_name(category)} | {pays} | {hit['hits']:,} | {hit['frequency']:.8f} |")
    for category, hit in bonus["jackpot_hits"].items():
        out.append(
            f"| {hand_name(category)} | jackpot × {hit['pays']} | {hit['hits']:,} | {hit['frequency']:.8f} |"
        )
    if bonus["jackpot_hits"]:
        out += [
            "",
            "A jackpot hit wins its share of the progressive meter, whose value the terminal keeps; its money is "
            "in no return here.",
        ]
    out.append("")
    return out


def markdown_report(result: SimulatedSheet, rules: ProfileRules, command: str, chart: str | None) -> str:
    out = [
        *title_section(result, rules, command),
        *rules_section(rules, skip="bonus bet is a separate bet"),
        "",
        *ante_section(result["by_ante"], rules),
        *other_bets_section(result, rules),
        *play_section(result, rules),
        *figures_section(result),
        *return_table_section(result),
        *options_section(result),
        *bonus_section(result, rules),
        *chart_section(chart),
    ]
    return "\n".join(out)


def title_section(result: SimulatedSheet, rules: ProfileRules, command: str) -> list[str]:
    return [
        f"# PAR sheet: {rules['name']} (`{result['profile']}`), simulated",
        "",
        f"Regenerate: `{command}`",
        "",
        f"Rule profile `{result['profile']}`, digest `{result['profile_digest']}`"
        + (f", from {rules['source']}" if rules.get("source") else "")
        + f". {result['rounds']:,} rounds simulated by oasis-kiosk from seed `{result['seed']}`.",
        "",
    ]


def play_section(result: Simulation, rules: ProfileRules) -> list[str]:
    """How the simulation plays the rounds the figures count."""
    cap = (
        "the maximum payout cuts the win of: " + ", ".join(hand_name(c) for c in result["cap_binds"])
        if result["cap_binds"]
        else "the maximum payout cuts no win"
    )
    return [
        "## How it is played",
        "",
        f"The figures below are at an ante of {money(result['ante'], rules)}: one box ({cap} there)"
        + (f", with the bonus bet of {money(result['bonus_stake'], rules)}" if result["bonus_stake"] else "")
        + ", every decision taken by the simulation's near-optimal strategy: the exact play-or-fold decision "
        "with card removal where it is close, exchanges valued over every replacement, insurance and the "
        "purchases after the reveal decided exactly (docs/simulation.md of oasis-kiosk says how near the "
        "optimum it is). The rounds are stratified by the rank of the dealer's up card. The return is estimated "
        "with a control variate: each round's net in expectation over the dealer's hole cards given what the "
        "player saw (less what the drawn cards gave beyond their mean), less the same for the profile's "
        "play-or-fold game on the dealt hand, plus that game's exact return; every expectation is exact, so "
        "the estimate is unbiased and its interval narrow (docs/simulation.md). The return table, the options "
        "and the distribution count the rounds as they were played.",
        "",
    ]


def figures_section(result: Simulation) -> list[str]:
    return [
        "## Figures",
        "",
        *[f"- **{label}**: {text}" for label, text in figure_lines(result)],
        "",
        "House edge: the house's expected win per ante in the main game (ante, play bet, insurance and every "
        "fee; not a side bet). Element of risk: the same per unit wagered (ante, play bet, fees and insurance).",
        "",
    ]


def return_table_section(result: Simulation) -> list[str]:
    return [
        "## Return table",
        "",
        "| outcome | rounds | probability | return (antes) |",
        "|---|---:|---:|---:|",
        *[
            f"| {name} | {count:,} | {probability:.6f} | {share:+.6f} |"
            for name, count, probability, share in outcome_rows(result)
        ],
        f"| **total** | {result['rounds']:,} | 1.000000 | {result['monte_carlo_return_per_ante']['value']:+.6f} |",
        "",
        "An outcome's return is the main game's net of its rounds (fees and insurance included) per round; "
        "the total is the plain mean, which the house edge above estimates more precisely.",
        "",
    ]


def options_section(result: Simulation) -> list[str]:
    """The options taken and what each contributed, and the exchanges by round and card count."""
    if not result["options"]:
        return []
    out = [
        "## Options",
        "",
        "| option | taken | frequency | paid (antes/round) | contribution (antes/round) |",
        "|---|---:|---:|---:|---:|",
        *[
            f"| {name} | {taken:,} | {frequency:.6f} | {paid:.6f} | {contribution:+.6f} |"
            for name, taken, frequency, paid, contribution in option_rows(result)
        ],
        "",
        "Contribution: the box's net with the option, less the net it would have had on the same cards "
        "without it (for an exchange or the sixth card: the dealt hand played or folded by the strategy, "
        "against the same dealer hand; for a purchase: declining; for insurance: its own result), per "
        "round. Paid: the fees (insurance: the stakes) per round.",
        "",
    ]
    if result["exchanges"]:
        out += [
            "| exchange | rounds | frequency |",
            "|---|---:|---:|",
            *[
                f"| {name.replace('round_', 'round ').replace('_cards_', ', ')} card(s) | {count:,} | "
                f"{count / result['rounds']:.6f} |"
                for name, count in result["exchanges"].items()
            ],
            "",
        ]
    return out
