"""``oasis_kiosk.simulate`` and ``oasis-kiosk par --rounds``: the simulated return of a rule profile.

The figures themselves are checked in Rust (rust/core/tests/simulation.rs: caribbean against the
exact analysis, determinism on any number of threads, the strategy against the strategy module's
optimum, the fast path against the round engine); here the binding, the command and its sheet.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest
from support import counted_while

from oasis_kiosk import load_profile, par, simulate
from oasis_kiosk.cli import main

SEED = bytes(range(32))


@pytest.fixture(scope="module")
def czech_exchange() -> dict[str, Any]:
    """One simulation with every kind of output, run while another thread counts (it can only
    count while the simulation has released the GIL), with its progress reports."""
    reports: list[tuple[int, int]] = []
    result, during = counted_while(
        lambda: simulate(
            "czech-exchange", 150_000, seed=SEED, progress=lambda done, total: reports.append((done, total))
        )
    )
    return {"result": result, "ticks": during, "reports": reports}


def test_simulate_reports_every_figure(czech_exchange: dict[str, Any]) -> None:
    result = czech_exchange["result"]
    assert result["profile"] == "czech-exchange"
    assert result["rounds"] == 150_000
    assert result["seed"] == SEED.hex()
    assert result["ante"] == 50_000
    assert result["bonus_stake"] == 2_000
    for key in ("house_edge", "element_of_risk", "play_fraction", "house_edge_ci95", "standard_deviation"):
        assert isinstance(result[key], float)
    assert 0 < result["house_edge_ci95"] < 0.05
    assert 0.4 < result["play_fraction"] < 0.7
    assert sum(result["outcomes"].values()) == 150_000
    assert result["outcomes"]["dealer_still_not_qualified"] > 0
    returns = sum(result["outcome_return"].values())
    assert returns == pytest.approx(result["monte_carlo_return_per_ante"]["value"], abs=1e-9)
    assert result["house_edge"] == pytest.approx(-result["return_per_ante"]["value"])
    # The control variate's estimate: anchored on the exact play-or-fold game, far narrower.
    assert result["control_variate"]["base_return_per_ante"] == pytest.approx(-0.052243057715778654)
    assert result["control_variate"]["variance_reduction"] > 20
    assert result["house_edge_ci95"] < result["monte_carlo_return_per_ante"]["ci95"] / 4
    assert set(result["options"]) == {"exchange", "buy_dealer_card"}
    assert result["options"]["exchange"]["taken"] == sum(result["exchanges"].values())
    assert result["options"]["buy_dealer_card"]["taken"] > 0
    bonus = result["bonus"]
    assert bonus["kind"] == "fixed"
    assert bonus["stake"] == 2_000
    assert list(bonus["hits"]) == [
        "RoyalFlush",
        "StraightFlush",
        "FourOfAKind",
        "FullHouse",
        "Flush",
        "Straight",
        "ThreeOfAKind",
    ]
    assert bonus["hits"]["ThreeOfAKind"]["hits"] > 1000
    assert bonus["hits"]["ThreeOfAKind"]["pays"] == "10000"
    assert sum(count for _, count in result["distribution"]) == 150_000
    nets = [net for net, _ in result["distribution"]]
    assert nets == sorted(nets)
    assert -1.0 in nets


def test_simulate_releases_the_gil_and_reports_progress(czech_exchange: dict[str, Any]) -> None:
    assert czech_exchange["ticks"] > 10_000, "another thread ran while the simulation worked"
    reports = czech_exchange["reports"]
    assert reports[-1] == (150_000, 150_000)
    done = [done for done, _ in reports]
    assert done == sorted(done)


def test_a_seed_gives_the_same_result() -> None:
    profile = load_profile("caribbean")
    first = simulate(profile, 50_000, seed=SEED)
    assert simulate("caribbean", 50_000, seed=SEED) == first
    fresh = simulate(profile, 1_000)
    assert len(bytes.fromhex(fresh["seed"])) == 32


def test_simulate_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ValueError, match="at least one round"):
        simulate("caribbean", 0)
    with pytest.raises(ValueError, match="1050 is not an ante"):
        simulate("caribbean", 10, ante=1050)
    with pytest.raises(ValueError, match="32"):
        simulate("caribbean", 10, seed=b"short")

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate("caribbean", 200_000_000, progress=stop)


def test_par_rounds_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["par", "stand-a", "--rounds", "20000", "--seed", SEED.hex(), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    for key in ("house_edge", "element_of_risk", "play_fraction"):
        assert isinstance(printed[key], float)
    assert printed["rounds"] == 20_000
    assert printed["seed"] == SEED.hex()
    assert printed["options"]["exchange"]["taken"] > 0


def test_par_simulates_what_it_cannot_count(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(par.command, "DEFAULT_ROUNDS", 13_000)
    assert main(["par", "standard"]) == 0
    captured = capsys.readouterr()
    assert (
        "standard: the exact analysis covers profiles whose only decision is to play or fold" in captured.err
    )
    assert "simulating 13,000 rounds" in captured.err
    assert "Standard Oasis Poker (standard): 13,000 simulated rounds" in captured.out
    assert "card exchange" in captured.out
    assert "house edge" in captured.out
    assert "% ±" in captured.out


def test_par_out_writes_a_reproducible_sheet_with_its_chart(tmp_path: Path) -> None:
    command = ["par", "golden-oasis", "--rounds", "13000", "--seed", SEED.hex()]
    first, second = tmp_path / "first", tmp_path / "second"
    assert main([*command, "--out", str(first)]) == 0
    assert main([*command, "--out", str(second)]) == 0
    sheet = (first / "golden-oasis.md").read_text()
    assert sheet.replace(str(first), "DIR") == (second / "golden-oasis.md").read_text().replace(
        str(second), "DIR"
    )
    assert (first / "golden-oasis.json").read_text() == (second / "golden-oasis.json").read_text()
    assert (first / "golden-oasis.png").read_bytes() == (second / "golden-oasis.png").read_bytes()
    assert sheet.startswith("# PAR sheet: Golden Oasis Poker (`golden-oasis`), simulated")
    assert (
        f"Regenerate: `oasis-kiosk par golden-oasis --rounds 13000 --seed {SEED.hex()} --out {first}`"
        in sheet
    )
    for heading in ("## Rules", "## Figures", "## Return table", "## Options", "## Bonus", "## Distribution"):
        assert heading in sheet
    for option in ("card exchange", "sixth card", "insurance", "buying the game"):
        assert f"| {option} |" in sheet
    assert "- **house edge**: " in sheet
    assert "% ± " in sheet
    assert "![the distribution of a round's net in antes](golden-oasis.png)" in sheet
    chart = pygame.image.load(str(first / "golden-oasis.png"))
    assert chart.get_size() == (1000, 560)
    # Red, grey and green bars: losses, evens and wins.
    colours = {tuple(chart.get_at((x, 450)))[:3] for x in range(90, 970)}
    assert {(190, 60, 50), (40, 120, 70)} <= colours
