"""``hub reconcile`` against a real hub (tests/postgres.py): linked terminals play, their link
agents push, and each cabinet's own books are compared with what the hub holds; rows still in
flight are no difference, a tampered or missing hub row is, and marks the cabinet faulty."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from floor import FloorHub, linked_terminal, new_hub, play, push
from postgres import Postgres

from oasis_kiosk.cli import main
from oasis_kiosk.floor import migrate, reconcile
from oasis_kiosk.machine.terminal import Terminal


@pytest.fixture
def c01(floor: FloorHub, tmp_path: Path) -> Iterator[tuple[Terminal, Path]]:
    """Cabinet c01, which played 4 rounds feeding the linked jackpot, all sent to the hub."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "c01" / "kiosk.db"
    database.parent.mkdir()
    t = linked_terminal(database)
    play(t, 4)
    assert push(database, credentials) > 0
    try:
        yield t, database
    finally:
        t.store.close()


def faulty(floor: FloorHub, name: str) -> bool | None:
    row = floor.owner.execute(
        "SELECT b.faulty FROM hub.cabinet_books b JOIN hub.cabinets c ON c.id = b.cabinet_id WHERE c.name = %s",
        [name],
    ).fetchone()
    return None if row is None else bool(row[0])


def run(floor: FloorHub, *books: str) -> int:
    arguments = ["hub", "reconcile", "--dsn", floor.owner_dsn]
    for given in books:
        arguments += ["--books", given]
    return main(arguments)


def test_books_that_agree_with_the_hub(
    floor: FloorHub, c01: tuple[Terminal, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, database = c01
    assert faulty(floor, "c01") is None, "never reconciled"
    assert run(floor, f"c01={database}") == 0
    out = capsys.readouterr().out
    assert "cabinet c01: the hub holds events 1 to" in out
    assert out.splitlines()[0].endswith(": agree")
    assert faulty(floor, "c01") is False


def test_rows_in_flight_are_not_a_difference(
    floor: FloorHub, c01: tuple[Terminal, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    t, database = c01
    play(t, 3)  # played, not yet pushed: meters, ledger rows and contributions in flight
    verdict = reconcile.compare(floor.owner, "c01", database)
    assert verdict.agrees, [d.sentence() for d in verdict.differences]
    assert verdict.in_flight > 0
    assert verdict.written == verdict.held + verdict.in_flight
    assert run(floor, f"c01={database}") == 0
    assert f"{verdict.in_flight} in flight: agree" in capsys.readouterr().out
    # Half of it sent: still agreeing.
    floor.add_cabinet("c02")
    assert push(database, floor.credentials("c01")) == verdict.in_flight
    assert run(floor, f"c01={database}") == 0


def test_a_tampered_hub_row_is_a_difference_and_marks_the_cabinet_faulty(
    floor: FloorHub, c01: tuple[Terminal, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    t, database = c01
    coin_in = t.store.meters()["coin_in"]
    seq = floor.owner.execute(
        """SELECT max(seq) FROM hub.events
            WHERE kind = 'meter' AND payload ->> 'name' = 'coin_in'"""
    ).fetchone()
    assert seq is not None
    floor.owner.execute(
        "UPDATE hub.events SET payload = jsonb_set(payload, '{value}', '999999') WHERE seq = %s AND kind = 'meter'",
        [seq[0]],
    )
    assert run(floor, f"c01={database}") == 1
    out = capsys.readouterr().out
    assert "DISAGREE" in out
    assert "marked faulty" in out
    assert f"cabinet c01: meter coin_in: the cabinet's books say {coin_in}, the hub holds 999999" in out
    assert f"cabinet c01: event {seq[0]} (meter): the cabinet's books say meter" in out
    assert faulty(floor, "c01") is True
    # The hub's row put back: the books agree again, and the cabinet is no longer faulty.
    floor.owner.execute(
        "UPDATE hub.events SET payload = jsonb_set(payload, '{value}', %s::jsonb) WHERE seq = %s AND kind = 'meter'",
        [str(coin_in), seq[0]],
    )
    assert run(floor, f"c01={database}") == 0
    assert faulty(floor, "c01") is False


def test_a_missing_contribution_is_a_difference(
    floor: FloorHub, c01: tuple[Terminal, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, database = c01
    row = floor.owner.execute(
        "DELETE FROM hub.contributions WHERE seq = (SELECT min(seq) FROM hub.contributions)"
        " RETURNING seq, round_id, stake"
    ).fetchone()
    assert row is not None
    seq, round_id, stake = row
    assert run(floor, f"c01={database}") == 1
    out = capsys.readouterr().out
    assert (
        f"cabinet c01: jackpot contribution of round {round_id} (event {seq}): "
        f"the cabinet's books say a stake of {stake}, the hub holds none"
    ) in out
    assert "cabinet c01: jackpot contributions in all: the cabinet's books say 4 stakes" in out
    assert faulty(floor, "c01") is True


def test_a_hub_row_removed_or_never_written_is_a_difference(
    floor: FloorHub, c01: tuple[Terminal, Path], tmp_path: Path
) -> None:
    _, database = c01
    floor.owner.execute("DELETE FROM hub.events WHERE seq = 2 AND kind <> 'jackpot_contribution'")
    sentences = [d.sentence() for d in reconcile.compare(floor.owner, "c01", database).differences]
    assert any(s.startswith("cabinet c01: event 2 (") and s.endswith("the hub holds none") for s in sentences)
    # Older books (a copy from before the last rounds) than the hub holds.
    old = tmp_path / "old"
    old.mkdir()
    t = linked_terminal(old / "kiosk.db")
    play(t, 1)
    t.store.close()
    verdict = reconcile.compare(floor.owner, "c01", old / "kiosk.db")
    assert not verdict.agrees
    assert any(
        "events sent" in d.what and "more than these books wrote" in d.hub for d in verdict.differences
    )


def test_only_the_cabinets_given_are_compared(
    floor: FloorHub, c01: tuple[Terminal, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, database = c01
    floor.add_cabinet("c02")
    assert run(floor, f"c01={database}") == 0
    assert "not compared (no --books given): c02" in capsys.readouterr().out
    assert faulty(floor, "c02") is None


def test_reconcile_says_clearly_what_stops_it(
    floor: FloorHub,
    c01: tuple[Terminal, Path],
    postgres: Postgres,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, database = c01
    assert run(floor, f"c09={database}") == 2
    assert "the hub has no cabinet 'c09'" in capsys.readouterr().err
    assert run(floor, f"c01={tmp_path / 'nowhere.db'}") == 2
    assert "cabinet c01:" in capsys.readouterr().err
    assert run(floor, f"c01={database}", f"c01={database}") == 2
    assert "given twice" in capsys.readouterr().err
    unlinked = tmp_path / "alone.db"
    from support import books

    books(unlinked).close()
    assert run(floor, f"c01={unlinked}") == 1, "books never linked: their outbox is empty"
    assert "the cabinet's books say 0 written, the hub holds" in capsys.readouterr().out
    wrong = postgres.conninfo(floor.dbname, floor.owner_role, "wrong")
    assert main(["hub", "reconcile", "--dsn", wrong, "--books", f"c01={database}"]) == 2
    assert "wrong password" in capsys.readouterr().err
    closed = f"host=127.0.0.1 port=1 dbname={floor.dbname} user={floor.owner_role} connect_timeout=3"
    assert main(["hub", "reconcile", "--dsn", closed, "--books", f"c01={database}"]) == 2
    assert "cannot reach the hub" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["hub", "reconcile", "--dsn", floor.owner_dsn, "--books", "c01"])
    assert "NAME=PATH" in capsys.readouterr().err


def test_reconcile_needs_the_hub_migrated(
    postgres: Postgres, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = tmp_path / "migrations"
    older.mkdir()
    for path in sorted(migrate.MIGRATIONS.glob("*.sql"))[:3]:
        shutil.copy(path, older)
    state = new_hub(postgres, tmp_path, migrations=older)
    try:
        assert main(["hub", "reconcile", "--dsn", state.owner_dsn, "--books", "c01=kiosk.db"]) == 2
        err = capsys.readouterr().err
        assert "the hub's schema is at migration 3" in err
        assert "run hub migrate" in err
    finally:
        state.close()
