"""The ``oasis-kiosk`` command line."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest
from support import books

from oasis_kiosk import Shoe, evaluate
from oasis_kiosk.cli import main
from oasis_kiosk.machine.operator import pin_matches
from oasis_kiosk.store.db import Store


def test_the_demo_deals_the_deck_of_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    seed = bytes(range(32))
    assert main(["demo", "--rounds", "2", "--seed", seed.hex()]) == 0
    output = capsys.readouterr().out
    shoe = Shoe(seed)
    player, dealer = shoe.deal(5), shoe.deal(5)
    assert "text demo: deals and evaluates" in output
    assert output.count(f"round 1  seed {seed.hex()}") == 1
    assert f"player  {' '.join(player)}  {evaluate(player).category}" in output
    assert f"dealer  {' '.join(dealer)}  {evaluate(dealer).category}  (up card {dealer[-1]})" in output
    assert "round 2" in output
    assert "round 3" not in output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["demo", "--seed", "abc"], "64 hexadecimal digits"),
        (["demo", "--seed", "00" * 31], "32 bytes (64 hexadecimal digits), not 31"),
        (["demo", "--rounds", "0"], "at least 1, not 0"),
        ([], "required: command"),
        (["run", "--size", "12x"], "--size: 12x: expected WIDTHxHEIGHT such as 1280x720"),
        (["run", "--size", "1280*720"], "--size: 1280*720: expected WIDTHxHEIGHT such as 1280x720"),
        (["run", "--size", "300x200"], "--size: 300x200: the screen is at least 320x240"),
        (["run", "--size", "600x1024"], "--size: 600x1024: the screen is no taller for its width than 5:4"),
        (["run", "--fullscreen", "--size", "800x480"], "--size is for a window"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(arguments)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_the_terminal_commands_on_a_scripted_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database, script = tmp_path / "kiosk.db", tmp_path / "session.txt"
    script.write_text("bill 5000\nbonus\ndeal\nselect 1\nexchange\nplay\ncoin 3\n")
    common = ["--db", str(database)]
    assert main(["meters", *common]) == 3, "no database: a tilt, not a fresh one"
    assert "there are no books here: create the books with `oasis-kiosk init" in capsys.readouterr().err
    assert main(["init", "--test", *common]) == 0
    assert main(["run", "--headless", "--script", str(script), *common, "--seed-base", "00" * 32]) == 0
    output = capsys.readouterr().out
    assert "line 7: coin 3: skipped: a coin of 3 is not accepted" in output
    assert main(["meters", "--json", *common]) == 0
    meters = json.loads(capsys.readouterr().out)
    assert {"credits", "total_in", "total_out", "coin_in", "coin_out", "games_played"} <= set(meters)
    assert meters["total_in"] == 5000
    assert meters["games_played"] == 1
    assert all(isinstance(value, int) for value in meters.values())
    assert main(["audit", *common]) == 0
    assert "audit passed" in capsys.readouterr().out
    assert main(["recall", "--json", "1", *common]) == 0
    (recalled,) = json.loads(capsys.readouterr().out)
    assert [a["action"] for a in recalled["record"]["actions"]] == ["exchange", "play"]
    assert main(["recall", *common]) == 0
    recalled_text = capsys.readouterr().out
    assert "box 1:" in recalled_text
    assert "actions: exchange 1 (box 1), play (box 1)" in recalled_text, "cards 1 to 5, as on the screen"


def test_the_recall_withholds_the_deck_of_a_round_still_in_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The deck's seed gives the dealer's hole cards and every card to come: while the round
    is open, nothing that reads the books (the operator's console) may print it."""
    database, script = tmp_path / "kiosk.db", tmp_path / "session.txt"
    script.write_text("bill 5000\ndeal\n")
    common = ["--db", str(database)]
    assert main(["init", *common]) == 0
    assert main(["run", "--headless", "--script", str(script), *common]) == 0
    capsys.readouterr()
    assert main(["recall", "--json", "1", *common]) == 0
    printed = capsys.readouterr().out
    (recalled,) = json.loads(printed)
    assert recalled["state"] == "open"
    store = Store(database, read_only=True)
    (stored,) = store.rounds(last=1)
    store.close()
    deck: dict[str, object] = dict(stored["record"]["deck"])
    seed = deck["seed"]
    assert isinstance(seed, str), "real books: a shuffled deck"
    assert seed not in printed, "the seed of the round in play is printed"
    assert recalled["record"]["deck"] == {"withheld": "until the round is settled"}
    assert recalled["record"]["actions"] == stored["record"]["actions"]

    script.write_text("play\n")
    assert main(["run", "--headless", "--script", str(script), *common]) == 0
    capsys.readouterr()
    assert main(["recall", "--json", "1", *common]) == 0
    (settled,) = json.loads(capsys.readouterr().out)
    assert settled["state"] == "settled"
    assert settled["record"]["deck"]["seed"] == seed, (
        "a settled round is recalled whole, its seed for the lab"
    )


def test_the_audit_exits_non_zero_on_a_discrepancy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database, script = tmp_path / "kiosk.db", tmp_path / "session.txt"
    script.write_text("bill 5000\n")
    main(["init", "--db", str(database)])
    main(["run", "--headless", "--script", str(script), "--db", str(database)])
    raw = sqlite3.connect(database)
    raw.execute("UPDATE meters SET value = 1 WHERE name = 'total_in'")
    raw.commit()
    raw.close()
    capsys.readouterr()
    assert main(["audit", "--db", str(database)]) == 1
    assert "DISCREPANCY: meter total_in is 1, the ledger says 5000" in capsys.readouterr().out


def test_set_pin_reads_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "kiosk.db"
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    main(["init", "--db", str(database)])
    assert main(["set-pin", "--db", str(database)]) == 2
    assert (
        "a PIN is 6 to 12 of the digits 1 to 5 (the card buttons); nothing changed" in capsys.readouterr().err
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("531253\n"))
    assert main(["set-pin", "--db", str(database)]) == 0
    assert pin_matches("531253", books(database).get_state("operator_pin"))


def test_the_screenshots_command_says_its_usage_and_refuses_a_second_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from oasis_kiosk.ui import screenshots

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as help_asked:
        screenshots.main(["--help"])
    assert help_asked.value.code == 0
    assert "usage: python -m oasis_kiosk.ui.screenshots [-h] [out]" in capsys.readouterr().out
    with pytest.raises(SystemExit) as two_folders:
        screenshots.main(["one", "two"])
    assert two_folders.value.code == 2
    assert list(tmp_path.iterdir()) == [], "nothing written, no folder made"


def test_a_reader_that_stops_reading_ends_the_command_quietly() -> None:
    """``oasis-kiosk hub pool | head -2`` ended in a traceback (BrokenPipeError): a command
    whose reader goes stops quietly, with the shell's status for it."""
    import subprocess
    import sys

    with subprocess.Popen(
        [sys.executable, "-m", "oasis_kiosk", "demo", "--rounds", "3000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as command:
        assert command.stdout is not None
        assert command.stderr is not None
        command.stdout.readline()
        command.stdout.close()  # as ``head -1`` does once it has its line
        errors = command.stderr.read().decode()
        assert command.wait() == 141
    assert errors == ""


def test_a_broken_pipe_that_is_not_the_output_is_an_error_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a reader gone from the command's output ends it quietly: a pipe of its own that
    breaks is an error, named, exit 2, as before."""
    from oasis_kiosk import cli

    def broken(*arguments: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "show_meters", broken)
    database = tmp_path / "kiosk.db"
    books(database).close()
    assert main(["meters", "--db", str(database)]) == 2
    assert "Broken pipe" in capsys.readouterr().err
