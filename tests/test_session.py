"""A whole cabinet session, headless: money in, rounds under three profiles across restarts,
jackpot contributions and a forced hit, cash-out; then the books, row by row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import books, settled

from oasis_kiosk.cli import main
from oasis_kiosk.machine.audit import audit

ROYAL = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"  # a royal flush against a pair of deuces


def run(tmp_path: Path, name: str, profile: str, script: str, decks: str = "", rules: str = "") -> str:
    config, script_file, deck_file = (tmp_path / f"{name}.{ext}" for ext in ("toml", "txt", "decks"))
    # The jackpot of a million goes on the credits here: below this handpay limit.
    config.write_text(f"[terminal]\nprofile = '{profile}'\n[money]\nhandpay_limit = 2_000_000\n{rules}")
    script_file.write_text(script)
    deck_file.write_text(decks)
    where = ["--config", str(config), "--db", str(tmp_path / "kiosk.db")]
    if not (tmp_path / "kiosk.db").exists():
        assert main(["init", "--test", *where]) == 0  # the session's decks are stacked
    arguments = ["run", "--headless", *where]
    arguments += ["--script", str(script_file), "--seed-base", "11" * 32, "--decks", str(deck_file)]
    assert main(arguments) == 0
    return script


def test_a_whole_session_in_three_profiles_with_a_jackpot_hit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # standard: bonus on (200 per round, a tenth of it to the meter), round 2 deals a royal flush.
    run(
        tmp_path,
        "one",
        "standard",
        "bill 5000\nbill 5000\ncoin 200\nbonus\ndeal\nfold\ndeal\nplay\n",
        "\n" + ROYAL,
    )
    # golden-oasis without its privilege fee returns 100.19 % (docs/par): a range its lab approved.
    approved = "[rules]\nreturn_max = 1.01\n"
    run(tmp_path, "two", "golden-oasis", "deal\nplay\ndecline\ndecline\ndeal\nfold\n", rules=approved)
    # The books are kept in euros: the third profile is one of the houses that play in euros.
    run(tmp_path, "three", "caribbean", "deal\nplay\ncashout\nkey attendant\n")
    capsys.readouterr()

    store = books(tmp_path / "kiosk.db")
    report = audit(store)
    assert report.ok, report.problems
    rounds = store.rounds()
    assert [r["record"]["profile"] for r in rounds] == ["standard"] * 2 + ["golden-oasis"] * 2 + ["caribbean"]
    assert all(r["state"] == "settled" for r in rounds)

    ledger = store.ledger()
    hits = [row for row in ledger if row.kind == "jackpot_hit"]
    contributions = [row.detail["to_meter"] for row in ledger if row.kind == "jackpot_contribution"]
    assert contributions == [2, 2], "a hundredth of each 200 bonus stake, in both standard rounds"
    assert [row.amount for row in hits] == [1_000_000 + 4], "the meter as it stood: base plus contributions"
    royal = settled(rounds[1])
    assert royal["boxes"][0]["jackpot"] == {"category": "RoyalFlush", "share": "1"}
    assert royal["net"] == 1000 + 2000 * 100 - 200, "ante, play at 100:1, the bonus stake gone to the jackpot"

    meters = store.meters()
    assert meters["total_in"] == 10_200
    assert meters["jackpots_paid"] == 1_000_004
    assert meters["jackpot_contributions"] == 4
    assert meters["games_played"] == 5
    assert meters["power_ups"] == 3
    assert store.credits() == 0, "everything was cashed out"
    assert meters["total_out"] == meters["handpays"] == ledger[-1].amount * -1
    assert meters["total_out"] == 10_200 + meters["coin_out"] - meters["coin_in"]

    changes = [
        e["detail"]["after"]["profile"]
        for e in store.events(500)
        if e["kind"] == "configuration_changed" and e["detail"]["setting"] == "profile"
    ]
    assert changes == ["standard", "golden-oasis", "caribbean"]
    assert main(["recall", "--json", "--db", str(tmp_path / "kiosk.db")]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 5
