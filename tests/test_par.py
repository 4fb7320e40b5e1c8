"""``oasis-kiosk par`` and ``exact_analysis``: the exact return of a rule profile (the simulated
return: tests/test_simulation.py)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from support import counted_while

import oasis_kiosk
from oasis_kiosk import AnalysisError, exact_analysis, load_profile, par
from oasis_kiosk.cli import main

# Caribbean Stud Poker under optimal play, as published by the Wizard of Odds ("Caribbean Stud
# Poker", U.S. rules return table and strategy table; every row is checked in
# rust/core/tests/caribbean_analysis.rs): 19 933 230 517 200 combinations, 9 523 005 974 460
# of them folded, royal flushes winning in 16 759 740, a total loss of 1 041 372 912 372 antes,
# a house edge of 5.224 % and an element of risk of 2.555 %.
COMBINATIONS = 19_933_230_517_200
FOLDED = 9_523_005_974_460
ROYAL_WINS = 16_759_740
TOTAL_LOSS = 1_041_372_912_372
CLASSES = 134_459  # five-card hands up to a permutation of suits


@pytest.fixture(scope="module")
def caribbean() -> dict[str, Any]:
    """One real analysis, run while another thread counts (it can only count while the
    analysis has released the GIL), with the progress reports it made."""
    reports: list[tuple[int, int]] = []
    analysis, during = counted_while(
        lambda: exact_analysis("caribbean", progress=lambda done, total: reports.append((done, total)))
    )
    return {"analysis": analysis, "ticks": during, "reports": reports}


def test_the_caribbean_profile_has_the_published_return(caribbean: dict[str, Any]) -> None:
    analysis = caribbean["analysis"]
    assert analysis["total_combinations"] == COMBINATIONS
    assert sum(analysis["outcomes"].values()) == COMBINATIONS
    assert all(isinstance(count, int) for count in analysis["outcomes"].values())
    assert analysis["outcomes"]["folded"] == FOLDED
    assert analysis["outcomes"]["won_RoyalFlush"] == ROYAL_WINS
    assert analysis["player_net"] == -TOTAL_LOSS * analysis["ante"]
    assert analysis["house_edge"] == pytest.approx(TOTAL_LOSS / COMBINATIONS, rel=1e-12)
    assert round(analysis["house_edge"] * 100, 3) == 5.224
    assert round(analysis["element_of_risk"] * 100, 3) == 2.555
    assert analysis["play_fraction"] == pytest.approx(1 - FOLDED / COMBINATIONS, rel=1e-12)
    assert analysis["player_classes"] == CLASSES


def test_the_analysis_releases_the_gil_and_reports_progress(caribbean: dict[str, Any]) -> None:
    assert caribbean["ticks"] > 10_000, "another thread ran while the analysis worked"
    reports = caribbean["reports"]
    assert reports[-1] == (CLASSES, CLASSES)
    done = [done for done, total in reports if total]
    assert done == sorted(done)
    assert all(total in (0, CLASSES) for _, total in reports)


def test_a_capped_profile_with_a_bonus_is_analysed_with_the_engines_payments(
    caribbean: dict[str, Any],
) -> None:
    # czech: the same game with a fixed bonus (not in the figures) and a play-bet cap; at half
    # its maximum payout the cap cuts a royal flush's play-bet win at the 500 Kč maximum ante.
    profile = load_profile("czech", "[table]\nmax_payout = 5000000")
    analysis = exact_analysis(profile)
    assert analysis["ante"] == 50_000
    assert analysis["cap_binds"] == ["RoyalFlush"]
    assert analysis["net"]["won_RoyalFlush"] == 50_000 + 5_000_000
    reference = caribbean["analysis"]
    assert analysis["outcomes"] == reference["outcomes"], "a royal flush plays either way"
    cut = ROYAL_WINS * (100 * 2 * 50_000 - 5_000_000)
    assert analysis["player_net"] == -TOTAL_LOSS * 50_000 - cut
    assert analysis["house_edge"] > reference["house_edge"]


def test_par_prints_json_and_writes_the_par_sheet(
    caribbean: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asked: list[int | None] = []

    def known(profile: Any, ante: int | None, progress: Any) -> dict[str, Any]:
        assert profile.id == "caribbean"
        asked.append(ante)
        progress(CLASSES, CLASSES)
        return dict(caribbean["analysis"]) | {"ante": ante}

    monkeypatch.setattr(par.command, "exact_analysis", known)
    assert main(["par", "caribbean", "--json", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    printed = json.loads(captured.out)
    assert asked == [1_000, 10_000], "the least and the greatest ante"
    assert [row["ante"] for row in printed["by_ante"]] == [1_000, 10_000]
    assert printed["by_ante"][0] == {
        "ante": 1_000,
        "return": pytest.approx(1 - 0.052243057715778654),
        "ci95": 0.0,
        "cap_binds": [],
        "side": None,
    }
    for key in ("house_edge", "element_of_risk", "play_fraction"):
        assert isinstance(printed[key], float)
    assert printed["total_combinations"] == COMBINATIONS
    assert next(iter(printed["outcomes"])) == "won_RoyalFlush"
    assert list(printed["outcomes"])[-4:] == ["dealer_not_qualified", "push", "folded", "lost"]
    assert json.loads((tmp_path / "caribbean.json").read_text()) == printed
    sheet = (tmp_path / "caribbean.md").read_text()
    assert "# PAR sheet: Caribbean Stud Poker (`caribbean`)" in sheet
    assert f"Regenerate: `oasis-kiosk par caribbean --exact --out {tmp_path}`" in sheet
    assert "![the distribution of a round's net in antes](caribbean.png)" in sheet
    assert (tmp_path / "caribbean.png").read_bytes().startswith(b"\x89PNG")
    assert "| player wins with royal flush | +201 | 16,759,740 | 0.000001 | 0.000169 |" in sheet
    assert "| **total** | | 19,933,230,517,200 | 1.000000 | -0.052243 |" in sheet
    assert "- **house edge**: 5.2243 % of the ante" in sheet
    assert "- **player's net over all combinations**: -1,041,372,912,372 antes" in sheet
    assert "The dealer qualifies with ace-king or better" in sheet
    assert "| 10.00 EUR | 94.7757 % (exact) | 5.2243 % | nothing | none |" in sheet
    assert "written" in captured.err

    assert main(["par", "caribbean", "--exact"]) == 0
    table = capsys.readouterr().out
    assert "player wins with royal flush            +201            16,759,740" in table
    assert "dealer wins                               -3     2,726,592,727,512" in table
    assert "house edge          5.2243 % of the ante" in table
    assert "element of risk     2.5553 % of the total wagered" in table


@pytest.mark.parametrize("profile", ["standard", "golden-oasis", "stand-c", "czech-exchange"])
def test_profiles_with_exchanges_or_purchases_are_refused_by_the_exact_analysis(
    profile: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["par", profile, "--exact"]) == 2
    error = capsys.readouterr().err
    assert f"{profile}: the exact analysis covers profiles whose only decision is to play or fold" in error
    assert "simulate it with --rounds N" in error
    with pytest.raises(AnalysisError, match="only decision is to play or fold; this one also has"):
        exact_analysis(profile)


def test_what_par_refuses_is_an_error_not_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["par", "caribbean", "--exact", "--seed", "00" * 32]) == 2
    assert "--seed is the simulation's" in capsys.readouterr().err
    assert main(["par", "caribbean", "--ante", "1050"]) == 2
    assert "caribbean: 1050 is not an ante the table allows" in capsys.readouterr().err
    assert main(["par", "caribbean", "--rounds", "10", "--ante", "1050"]) == 2
    assert "caribbean: 1050 is not an ante the table allows" in capsys.readouterr().err
    assert main(["par", "holdem"]) == 2
    assert "no profile 'holdem'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["par", "caribbean", "--exact", "--rounds", "10"])


def test_an_exception_in_the_progress_callback_stops_the_analysis() -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        exact_analysis("caribbean", progress=stop)
    assert time.perf_counter() - started < 30


DOCS = Path(__file__).resolve().parent.parent / "docs"
PROFILE_FILES = sorted((Path(oasis_kiosk.__file__).parent / "profiles").glob("*.toml"))


@pytest.mark.parametrize("path", PROFILE_FILES, ids=lambda path: path.stem)
def test_every_profile_file_has_a_current_par_sheet_at_its_extreme_antes(path: Path) -> None:
    """A profile changed without `make par` leaves a sheet of other rules: the digest says so."""
    profile = load_profile(str(path))
    figures = json.loads((DOCS / "par" / f"{profile.id}.json").read_text())
    assert figures["profile_digest"] == profile.digest, f"docs/par/{profile.id}.json is of other rules"
    table = profile.to_dict()["table"]
    assert [row["ante"] for row in figures["by_ante"]] == par.table_antes(profile, None)
    assert {table["ante_min"], table["ante_max"]} <= {row["ante"] for row in figures["by_ante"]}
    for row in figures["by_ante"]:
        assert row["ci95"] <= 0.0005, f"{profile.id} at {row['ante']}: ±{row['ci95']:.5f}"
        if row["side"] is not None:
            assert 0 < row["side"]["return"] < 1
    assert f"({profile.id}.md)" in (DOCS / "par" / "README.md").read_text()


def test_the_exact_analysis_folds_as_a_player_who_would_lose_the_side_bet_by_folding() -> None:
    """A bonus that pays every hand but is forfeited by a fold makes every hand worth playing:
    the figures are of that player's decisions, not of the main game's alone."""
    generous = {
        "bonus": {
            "kind": "fixed",
            "stake_min": 1000,
            "stake_max": 1000,
            "judged_on": "final",
            "forfeited_by_fold": True,
            "pays": {"HighCard": 1000, "AceKing": 2000, "OnePair": 1400, "TwoPair": 3000},
        }
    }
    analysis = exact_analysis(load_profile("caribbean", generous), ante=1000)
    assert analysis["play_fraction"] == 1.0
    bonus_return = analysis["bonus_return_per_stake"]
    assert bonus_return is not None
    assert bonus_return > 0, "a side bet the player wins"


def test_a_privilege_fee_is_simulated_not_left_out_of_the_exact_figures() -> None:
    with pytest.raises(AnalysisError, match="a privilege fee"):
        exact_analysis(load_profile("caribbean", {"bonus": {"kind": "privilege", "fee": "1"}}))
