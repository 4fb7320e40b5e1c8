"""``make bench``: the evaluator and shuffle benchmarks, side by side, as JSON.

Runs the Rust criterion benches (``rust/core/benches``), then times in this one process, on
the same random hands, ``oasis_kiosk.evaluate_many`` against the public Python evaluators
that install here (phevaluator's C extension and eval7 called hand by hand, treys in pure
Python), and the game screen's frames against a full-screen blit. Writes ``bench/results.json`` and prints a table; ``--json`` prints the JSON instead.
Figures are medians over repeated runs; ratios compare figures from the same run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from oasis_kiosk import evaluate_many

ROOT = Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target" / "criterion"
RESULTS = ROOT / "bench" / "results.json"
HANDS = 1_000_000
REPEATS = 7


def run_criterion() -> dict[str, dict[str, float]]:
    """Runs the criterion benches and reads their median times and element counts (only those
    this run wrote: criterion's folder keeps results of benches since removed)."""
    started = time.time()
    subprocess.run(
        [
            "cargo",
            "bench",
            "-p",
            "oasis-core",
            "--benches",
            "--",
            "--warm-up-time",
            "1",
            "--measurement-time",
            "3",
        ],
        cwd=ROOT,
        check=True,
        stdout=sys.stderr,
    )
    figures: dict[str, dict[str, float]] = {}
    for estimates in sorted(CRITERION.glob("**/new/estimates.json")):
        if estimates.stat().st_mtime < started:
            continue
        benchmark = json.loads((estimates.parent / "benchmark.json").read_text())
        median_ns = json.loads(estimates.read_text())["median"]["point_estimate"]
        elements = (benchmark.get("throughput") or {}).get("Elements", 1)
        figures[benchmark["full_id"]] = {
            "median_ms": median_ns / 1e6,
            "elements": elements,
            "per_second": elements / (median_ns / 1e9),
        }
    return figures


def median_seconds(work: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def python_evaluators(hands: np.ndarray) -> dict[str, dict[str, Any]]:
    """Evaluations per second of each evaluator on (a prefix of) the same hands."""
    flat = hands.tobytes()
    rows = hands.tolist()
    results: dict[str, dict[str, Any]] = {}

    def record(name: str, kind: str, count: int, work: Callable[[], object], repeats: int = REPEATS) -> None:
        seconds = median_seconds(work, repeats)
        results[name] = {"kind": kind, "hands": count, "median_s": seconds, "per_second": count / seconds}

    record("oasis_kiosk.evaluate_many", "Rust, batch", len(rows), lambda: evaluate_many(flat))

    def optional(module: str) -> Any:
        try:
            return importlib.import_module(module)
        except ImportError:
            print(f"{module} is not installed; left out", file=sys.stderr)
            return None

    if pheval := optional("phevaluator._pheval"):
        five = pheval.evaluate_5cards
        record("phevaluator (C)", "C extension, per hand", len(rows), lambda: [five(*h) for h in rows])
    if eval7 := optional("eval7"):
        deck = [eval7.Card(card) for card in (r + s for r in "23456789TJQKA" for s in "cdhs")]
        eval7_hands = [[deck[c] for c in h] for h in rows]
        record("eval7", "Cython, per hand", len(rows), lambda: [eval7.evaluate(h) for h in eval7_hands])
    if treys := optional("treys"):
        deck = [treys.Card.new(r + s) for r in "23456789TJQKA" for s in "cdhs"]
        subset = [[deck[c] for c in h] for h in rows[:100_000]]
        evaluator = treys.Evaluator()
        record(
            "treys",
            "pure Python, per hand",
            len(subset),
            lambda: [evaluator.evaluate(h[:2], h[2:]) for h in subset],
            repeats=3,
        )
    return results


def frame_figures(tmp: Path) -> dict[str, dict[str, float]]:
    """The game screen on SDL's dummy driver: a full redraw at each size against one
    full-screen blit at that size (the design's yardstick), and the CPU an idle second
    takes at 60 frames per second."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from oasis_kiosk.config import Config
    from oasis_kiosk.machine.terminal import Terminal, seeds_from
    from oasis_kiosk.store.db import Store
    from oasis_kiosk.ui.app import App

    figures: dict[str, dict[str, float]] = {}
    for width, height in ((1920, 1080), (1280, 720), (800, 480)):
        database = tmp / f"frames-{width}.db"
        terminal = Terminal(Config(database=database), Store(database), seed_for_round=seeds_from(bytes(32)))
        app = App(terminal, size=(width, height))
        for key in ("f8", "return", "2"):
            app.key(key)
        redraw = median_seconds(app.draw, repeats=21)
        picture = app.screen.copy()
        blit = median_seconds(
            lambda screen=app.screen, picture=picture: screen.blit(picture, (0, 0)), repeats=21
        )
        figures[f"{width}x{height}"] = {
            "redraw_ms": redraw * 1e3,
            "blit_ms": blit * 1e3,
            "ratio": redraw / blit,
        }
    cpu, wall = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall < 2.0:
        app.frame()
    figures["idle_60fps"] = {"cpu_share": (time.process_time() - cpu) / (time.perf_counter() - wall)}
    pygame.quit()
    return figures


def summary(rust: dict[str, dict[str, float]], python: dict[str, dict[str, Any]]) -> dict[str, Any]:
    ours = python["oasis_kiosk.evaluate_many"]["per_second"]
    ratios: dict[str, float] = {}
    if "random/eval/5" in rust:
        ratios["rust_eval5_over_python_batch"] = rust["random/eval/5"]["per_second"] / ours
    for name, figures in python.items():
        if name != "oasis_kiosk.evaluate_many":
            ratios[f"python_batch_over_{name.split()[0]}"] = ours / figures["per_second"]
    pure = [f["per_second"] for f in python.values() if f["kind"].startswith("pure Python")]
    if pure:
        ratios["python_batch_over_fastest_pure_python"] = ours / max(pure)
    return ratios


def rate(per_second: float, unit: str) -> str:
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= scale:
            return f"{per_second / scale:.1f} {prefix}{unit}/s"
    return f"{per_second:.3g} {unit}/s"


def duration(seconds: float) -> str:
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def print_table(report: dict[str, Any]) -> None:
    print(f"\n{'Rust (criterion, median)':<42}{'throughput':>18}{'median per run':>16}")
    for name, figures in report["rust"].items():
        unit = "hands" if "eval" in name or "batch" in name else "runs"
        seconds = figures["median_ms"] / 1e3
        print(f"{name:<42}{rate(figures['per_second'], unit):>18}{duration(seconds):>16}")
    print(f"\n{'Python, same 1M random 5-card hands':<42}{'hands/s':>16}  kind")
    for name, figures in report["python"].items():
        print(f"{name:<42}{figures['per_second'] / 1e6:>14.2f} M  {figures['kind']}")
    print("\nscreen (SDL dummy driver)        redraw    one full blit   ratio")
    for size, figures in report["frames"].items():
        if "redraw_ms" in figures:
            print(
                f"  {size:<28}{figures['redraw_ms']:>7.2f} ms{figures['blit_ms']:>12.2f} ms{figures['ratio']:>8.1f}x"
            )
    print(f"  idle at 60 fps: {report['frames']['idle_60fps']['cpu_share'] * 100:.1f} % of one core")
    print("\nratios")
    for name, ratio in report["ratios"].items():
        print(f"  {name:<52}{ratio:>10.1f}x")


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--json", action="store_true", help="print the JSON report instead of the table")
    options.add_argument("--no-rust", action="store_true", help="skip the criterion benches")
    arguments = options.parse_args()

    rust = {} if arguments.no_rust else run_criterion()
    rng = np.random.default_rng(2026)
    hands = np.argpartition(rng.random((HANDS, 52)), 5, axis=1)[:, :5].astype(np.uint8)
    python = python_evaluators(hands)
    with tempfile.TemporaryDirectory() as tmp:
        frames = frame_figures(Path(tmp))
    report = {
        "machine": {"platform": platform.platform(), "python": platform.python_version()},
        "rust": rust,
        "python": python,
        "ratios": summary(rust, python),
        "frames": frames,
    }
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
        print(f"\nwritten to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
