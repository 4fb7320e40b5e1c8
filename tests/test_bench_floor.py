"""``make bench``'s floor run through the link agents, small: real terminals play while each
one's own agent pushes its outbox, and the bench finds every row at the hub once (it checks
that itself, and fails otherwise). Its timings are for ``make bench`` to report, not for a
test to judge."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_of_terminals_playing_through_their_agents_finds_every_row_at_the_hub() -> None:
    figures = bench().floor_agents_figures(seconds=1.5, cabinets=3, round_every=0.3)
    assert figures["rounds"] >= 3
    assert figures["contributions_per_second"] > 0, "every round played stakes the bonus bet"
    # A folded round with the bonus bet writes several rows besides its contribution.
    assert figures["rows"] > 3 * figures["rounds"]
    for delay in (figures["received_delay"], figures["held_delay"]):
        assert 0 <= delay["median_ms"] <= delay["p99_ms"] <= delay["max_ms"]
    # The hub holds a row once its transaction, which received it, has committed.
    assert figures["held_delay"]["max_ms"] >= figures["received_delay"]["max_ms"]


def test_the_bench_of_the_hubs_intake_sends_rows_the_hub_takes() -> None:
    """The hub refuses money no cabinet writes (a wager that adds credits); the bench's folded
    rounds had sent wagers of +200, and ``make bench`` ended there without its figures."""
    for mix in (False, True):
        figures = bench().floor_figures(seconds=1.0, cabinets=3, mix=mix)
        assert figures["rows"] > 0
        assert figures["contributions_per_second"] > 0
