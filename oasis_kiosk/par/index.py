"""The index of a folder of PAR sheets (``docs/par/README.md``, ``make par``): a row per sheet
and ante, from the sheets' JSON figures."""

from __future__ import annotations

import json
from pathlib import Path

from oasis_kiosk.par.sheet import ante_cells
from oasis_kiosk.par.words import money, play_words
from oasis_kiosk.rules import load_profile

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
