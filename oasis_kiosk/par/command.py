"""The ``par`` command: computes a profile's figures exactly or by simulation at every ante a
sheet gives, prints them as text or JSON, writes the sheet, and shows progress while it works."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from oasis_kiosk._core import AnalysisError, Profile, ProfileError, exact_analysis, simulate
from oasis_kiosk.par import exact as exact_report  # ``exact`` names run's flag, --exact
from oasis_kiosk.par import simulated as simulated_report
from oasis_kiosk.par.figures import (
    SheetFigures,
    by_ante,
    figures_at,
    other_bet,
    other_plays,
    side_bound,
    table_antes,
)
from oasis_kiosk.par.sheet import write_sheet
from oasis_kiosk.rules import load_profile

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk.par.figures import Computed, ExactSheet, Sheet, SimulatedSheet

# Rounds simulated when a profile the exact analysis refuses is given without --rounds.
DEFAULT_ROUNDS = 1_000_000

SIMULATE_INSTEAD = "simulate it with --rounds N (the default for such profiles)"


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
        antes_figured = table_antes(profile, ante)
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
    analysis: ExactSheet = {**analyses[-1], **sheet_figures(profile, analyses, others)}
    command = command_line(profile_name, "--exact", ante, out)
    return publish(
        analysis,
        seconds,
        text=lambda: exact_report.text_report(analysis, rules),
        as_json=as_json,
        out=out,
        title=f"{rules['name']}: a round's net, exact",
        distribution=lambda: exact_report.distribution(analysis),
        markdown=lambda chart: exact_report.markdown_report(analysis, rules, seconds, command, chart),
    )


def run_simulation(
    profile: Profile,
    rules: ProfileRules,
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
        antes_figured = table_antes(profile, ante)
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
    result: SimulatedSheet = {**results[-1], **sheet_figures(profile, results, others)}
    command = command_line(profile.id, f"--rounds {rounds} --seed {result['seed']}", ante, out)
    return publish(
        result,
        seconds,
        text=lambda: simulated_report.text_report(result, rules),
        as_json=as_json,
        out=out,
        title=f"{rules['name']}: a round's net, {rounds:,} simulated rounds",
        distribution=lambda: [(net, int(count)) for net, count in result["distribution"]],
        markdown=lambda chart: simulated_report.markdown_report(result, rules, command, chart),
    )


def sheet_figures(profile: Profile, by_antes: Sequence[Computed], others: Sequence[Computed]) -> SheetFigures:
    """Every ante's and every other way of betting's summary and the side bet's bound: what a
    sheet and its JSON hold after the figures at the highest ante figured."""
    return {
        "by_ante": [by_ante(figures) for figures in by_antes],
        "other_bets": [other_bet(figures) for figures in others],
        "side_bound": side_bound(profile),
    }


def publish(
    figures: Sheet,
    seconds: float,
    *,
    text: Callable[[], str],
    as_json: bool,
    out: Path | None,
    title: str,
    distribution: Callable[[], list[tuple[float, int]]],
    markdown: Callable[[str], str],
) -> int:
    """Prints the figures (JSON or the text report) and writes the sheet into ``out``."""
    if as_json:
        print(json.dumps(figures, indent=2))
    else:
        print(text())
        print(f"{'computed in':<20}{seconds:.1f} s")
    if out is not None:
        write_sheet(out, figures, title, distribution(), markdown, as_json)
    return 0
