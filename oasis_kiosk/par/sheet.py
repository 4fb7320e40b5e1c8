"""What the exact and the simulated PAR reports share: the return at each ante and for the
other ways of betting a box, as lines of text and as the sheet's Markdown sections, the rules
and the chart sections, and the writing of a sheet with its JSON figures and its chart."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from oasis_kiosk._core import CATEGORIES
from oasis_kiosk.par.figures import OTHER_BETS_SHARE, AtAnte, SheetFigures
from oasis_kiosk.par.words import estimate, hand_name, money, percent, play_words

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk.par.figures import Sheet


def ante_lines(figures: list[AtAnte], rules: ProfileRules) -> list[str]:
    """The return at each ante, in words, one line each (the side bet's after it)."""
    lines = []
    for row in figures:
        cut = ", ".join(hand_name(c) for c in row["cap_binds"]) or "nothing"
        lines.append(
            f"at an ante of {money(row['ante'], rules)}: the main game returns "
            f"{estimate(row['return'], row['ci95'])} of the ante (the maximum payout cuts {cut})"
        )
        if row["side"] is not None:
            side = row["side"]
            lines.append(
                f"the bonus bet of {money(side['stake'], rules)} returns {estimate(side['return'], side['ci95'])} "
                "of its stake (jackpot awards not included)"
            )
    return lines


def other_bets_lines(sheet: SheetFigures, rules: ProfileRules) -> list[str]:
    """The other ways of betting the bonus and the side bet's bound, in words."""
    lines = [
        f"{play_words(row['play'], rules)}, at an ante of {money(row['ante'], rules)}: "
        f"the main game returns {estimate(row['return'], row['ci95'])}"
        for row in sheet.get("other_bets", [])
    ]
    bound = sheet.get("side_bound")
    if bound is not None:
        jackpot = bound["jackpot_frequency"]
        lines.append(
            f"the bonus bet of {money(bound['stake'], rules)} returns at most {percent(bound['return'])} "
            "(exact, never forfeited)"
            + (f"; a kept bonus wins a jackpot award in {jackpot:.3e} of rounds" if jackpot else "")
        )
    return lines


def ante_cells(row: AtAnte) -> tuple[str, str, str]:
    """One ante's main return with its interval, the house edge, and the side bet's return."""
    side = row["side"]
    return (
        estimate(row["return"], row["ci95"]),
        percent(1 - row["return"]),
        "none" if side is None else estimate(side["return"], side["ci95"]),
    )


def ante_section(figures: list[AtAnte], rules: ProfileRules) -> list[str]:
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


def other_bets_section(sheet: SheetFigures, rules: ProfileRules) -> list[str]:
    """A PAR sheet's return for the other ways of betting the bonus, and the side bet's bound."""
    rows = sheet.get("other_bets", [])
    bound = sheet.get("side_bound")
    if not rows and bound is None:
        return []
    out = ["## Return by how the box is bet and played", ""]
    if rows:
        out += ["| the box | ante | main game returns (of the ante) |", "|---|---:|---:|"]
        for row in rows:
            out.append(
                f"| {play_words(row['play'], rules)} | {money(row['ante'], rules)} | "
                f"{estimate(row['return'], row['ci95'])} |"
            )
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
            f"The bonus bet of {money(bound['stake'], rules)} returns at most {percent(bound['return'])} of "
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


def rules_section(rules: ProfileRules, skip: str | None = None) -> list[str]:
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


def rules_summary(rules: ProfileRules) -> list[str]:
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


def write_sheet(
    out: Path,
    figures: Sheet,
    title: str,
    distribution: list[tuple[float, int]],
    report: Callable[[str], str],
    as_json: bool,
) -> None:
    """The PAR sheet (``report`` given its chart's file name), its figures as JSON and the
    chart of the distribution, in ``out``, named after the profile."""
    # pygame is loaded only to draw: the command line, the books and the operator's menu
    # use this package without writing a sheet.
    from oasis_kiosk.par.chart import draw_distribution

    name = figures["profile"]
    sheet, data, chart = out / f"{name}.md", out / f"{name}.json", out / f"{name}.png"
    out.mkdir(parents=True, exist_ok=True)
    draw_distribution(chart, title, distribution)
    sheet.write_text(report(chart.name), encoding="utf-8")
    data.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"written {sheet}, {data} and {chart}", file=sys.stderr if as_json else sys.stdout)
