"""``hub reconcile`` against a real hub (tests/postgres.py): linked terminals play, their link
agents push, and each cabinet's own books are compared with what the hub holds; rows still in
flight are no difference, a tampered or missing hub row is, and marks the cabinet faulty."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from floor import ROYAL, FloorHub, linked_terminal, new_hub, play, push
from postgres import Postgres
from support import books

from oasis_kiosk.cli import main
from oasis_kiosk.config import Config, LinkConfig
from oasis_kiosk.floor import agent, hub, migrate, reconcile
from oasis_kiosk.floor.errors import BatchError
from oasis_kiosk.machine.linked import link_state
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store
from oasis_kiosk.store.db import connection as books_connection
from oasis_kiosk.store.outbox import Outbox, hub_round_id


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


def run(floor: FloorHub, *books: str, skip: tuple[str, ...] = ()) -> int:
    arguments = ["hub", "reconcile", "--dsn", floor.owner_dsn]
    for given in books:
        arguments += ["--books", given]
    for name in skip:
        arguments += ["--skip", name]
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
    assert run(floor, f"c01={database}", skip=("c02",)) == 0


def test_rows_in_flight_of_a_cabinet_whose_clock_is_behind_are_no_difference(
    floor: FloorHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cabinet without a real-time clock, 15 min behind after a power cut: its rows just
    played look 15 min old by their own times. The hub judges by its own clock: it heard from
    the cabinet a moment ago."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "c01" / "kiosk.db"
    database.parent.mkdir()
    behind = timedelta(minutes=15)
    monkeypatch.setattr(
        books_connection, "now", lambda: (datetime.now(UTC) - behind).isoformat(timespec="milliseconds")
    )
    t = linked_terminal(database)
    try:
        play(t, 2)
        push(database, credentials)
        play(t, 1)  # just played: in flight until the agent's next pass
        verdict = reconcile.compare(floor.owner, "c01", database)
        assert verdict.in_flight > 0
        assert verdict.agrees, verdict.sentences()
    finally:
        t.store.close()


def old_release_row(database: Path, payload: dict[str, object]) -> int:
    """An outbox row as a release before wrote it, its texts as they were (U+0000 too, before
    rows were written as the hub can hold them); returns its number."""
    raw = sqlite3.connect(database)
    with raw:
        cursor = raw.execute(
            "INSERT INTO outbox (kind, payload, committed_at) VALUES ('event', ?, ?)",
            (json.dumps(payload), datetime.now(UTC).isoformat(timespec="milliseconds")),
        )
    raw.close()
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def test_a_row_a_release_before_wrote_with_u0000_is_sent_as_rows_are_written_now(
    floor: FloorHub, tmp_path: Path
) -> None:
    """A tilt's words with U+0000, written by the release before (no escaping then): the hub
    refused the row, and every row after it, for ever. The agent sends it as the outbox writes
    such a row now (escaped); the hub's check of a row sent again, and reconcile, agree."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "c01" / "kiosk.db"
    database.parent.mkdir()
    t = linked_terminal(database)
    try:
        play(t, 1)
        t.store.close()
        seq = old_release_row(
            database, {"id": 99, "at": "x", "kind": "tilt", "detail": {"message": "dev\x00ice"}}
        )
        t = linked_terminal(database)
        push(database, credentials)
        assert hub_held(floor) == t.store.outbox_rows(0, 100_000)[-1].seq > seq, "all of it, the old row too"
        assert push(database, credentials) == 0, "a new agent finds the hub's last row is the books' own"
        [(held,)] = floor.owner.execute(
            "SELECT payload -> 'detail' ->> 'message' FROM hub.events WHERE seq = %s", [seq]
        ).fetchall()
        assert held == "dev\\u0000ice"
        [(kind, payload, committed_at)] = floor.owner.execute(
            "SELECT kind, payload, committed_at FROM hub.events WHERE seq = %s", [seq]
        ).fetchall()
        [row] = t.store.outbox_rows(seq - 1, 1)
        assert agent._same_event(row, hub.Event(seq, kind, payload, committed_at)), (
            "the agent's check of history"
        )
        play(t, 1)
        push(database, credentials)
        verdict = reconcile.compare(floor.owner, "c01", database)
        assert (verdict.held, verdict.agrees) == (verdict.written, True), verdict.sentences()
    finally:
        t.store.close()


def test_the_rows_before_a_row_the_hub_refuses_are_sent(floor: FloorHub, tmp_path: Path) -> None:
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "c01" / "kiosk.db"
    database.parent.mkdir()
    t = linked_terminal(database)
    try:
        play(t, 1)
        push(database, credentials)
        play(t, 1)
        t.store.close()
        seq = old_release_row(database, {"id": 99, "at": "x", "kind": "tilt", "detail": {"reading": 10**16}})
        t = linked_terminal(database)
        play(t, 1)
        with pytest.raises(BatchError, match=f'event {seq} \\(event\\): "reading" is 10000000000000000'):
            push(database, credentials)
        assert hub_held(floor) == seq - 1, "the rows before it are sent"
    finally:
        t.store.close()


def hub_held(floor: FloorHub) -> int:
    [(held,)] = floor.owner.execute("SELECT last_seq FROM hub.cabinets WHERE name = 'c01'").fetchall()
    return int(held)


def test_rows_in_flight_longer_than_the_bound_are_a_difference(
    floor: FloorHub, c01: tuple[Terminal, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Rows the hub never gets (the agent stopped, cut off or refused) cannot stay in flight
    for ever with the books agreeing."""
    t, database = c01
    held = t.store.outbox_rows(0, 100_000)[-1].seq
    play(t, 1)
    written = t.store.outbox_rows(0, 100_000)[-1].seq
    # The hub last heard from the cabinet an hour ago, by its own clock.
    floor.owner.execute("UPDATE hub.cabinets SET last_seen = now() - interval '1 hour' WHERE name = 'c01'")
    assert run(floor, f"c01={database}") == 1
    out = capsys.readouterr().out
    assert (
        f"cabinet c01: events {held + 1} to {written} in flight: the cabinet's books say the oldest committed"
        in out
    )
    assert "it last heard from the cabinet 60 min before its" in out
    assert "in flight longer than 10 min (--in-flight-for)" in out
    assert faulty(floor, "c01") is True
    assert (
        main(
            [
                "hub",
                "reconcile",
                "--dsn",
                floor.owner_dsn,
                "--books",
                f"c01={database}",
                "--in-flight-for",
                "7200",
            ]
        )
        == 0
    )
    assert f"{written - held} in flight: agree" in capsys.readouterr().out


def test_a_row_the_hub_refuses_for_ever_is_a_difference(
    floor: FloorHub, c01: tuple[Terminal, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A row the hub cannot take (a reading beyond ±10^15 in a tilt's detail, written past the
    store) holds every row after it in the outbox: the reconciliation says so at once. (U+0000,
    as books of an older release wrote it, is sent escaped: the test above.)"""
    t, database = c01
    raw = sqlite3.connect(database)
    with raw:
        raw.execute(
            "INSERT INTO outbox (kind, payload, committed_at) VALUES ('event', ?, ?)",
            (
                json.dumps(
                    {"id": 999, "at": "x", "kind": "tilt", "detail": {"kind": "fault", "reading": 10**16}}
                ),
                datetime.now(UTC).isoformat(timespec="milliseconds"),
            ),
        )
    raw.close()
    refused = agent.outbox_last(database)
    play(t, 2)
    assert run(floor, f"c01={database}") == 1
    out = capsys.readouterr().out
    assert f"cabinet c01: event {refused} (event), in flight: the cabinet's books say event" in out
    assert "the hub holds none: the hub refuses it" in out
    assert "is 10000000000000000, beyond ±10^15), and the" in out
    # The agent says why before it sends (the hub's own answer named no row).
    link = agent.Agent(database, floor.credentials("c01"))
    with pytest.raises(BatchError, match=f'event {refused} \\(event\\): "reading" is 10000000000000000'):
        link.push_once()
    link.close()
    assert faulty(floor, "c01") is True


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


def test_a_cabinet_not_compared_fails_the_reconciliation_unless_skipped_by_name(
    floor: FloorHub, c01: tuple[Terminal, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, database = c01
    floor.add_cabinet("c02")
    floor.add_cabinet("c03")
    assert run(floor, f"c01={database}") == 1, "c02 and c03 were not compared"
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith(": agree")
    assert "not compared (no --books given): c02, c03" in out
    assert "--books c02=PATH" in out
    assert "--skip c02" in out
    assert faulty(floor, "c02") is None, "not compared: no verdict kept"
    # Left out on purpose, by name: the run passes, and says which were skipped.
    assert run(floor, f"c01={database}", skip=("c02", "c03")) == 0
    out = capsys.readouterr().out
    assert "skipped on purpose (--skip), not compared: c02, c03" in out
    assert "not compared (no --books given)" not in out
    assert faulty(floor, "c02") is None
    # Skipping one leaves the other still missing.
    assert run(floor, f"c01={database}", skip=("c02",)) == 1
    assert "not compared (no --books given): c03" in capsys.readouterr().out
    # A skip of a cabinet the hub does not have, or of one whose books are given, is a mistake.
    assert run(floor, f"c01={database}", skip=("c09",)) == 2
    assert "the hub has no cabinet 'c09'" in capsys.readouterr().err
    assert run(floor, f"c01={database}", skip=("c01", "c02", "c03")) == 2
    assert "cabinet c01: its books are given and it is skipped" in capsys.readouterr().err


def test_unreadable_books_make_their_cabinet_faulty_and_the_others_are_still_compared(
    floor: FloorHub, c01: tuple[Terminal, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, database = c01
    floor.add_cabinet("c02")
    floor.add_cabinet("c03")
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    assert run(floor, f"c02={garbage}", f"c01={database}", f"c03={tmp_path / 'nowhere.db'}") == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "cabinet c02: its books cannot be read: marked faulty"
    assert lines[1].startswith(f"  cabinet c02: its books {garbage} cannot be read (")
    assert lines[1].endswith(
        "): nothing of them was compared; give a readable copy of the cabinet's books and reconcile again"
    )
    assert any(
        line.startswith("cabinet c01: the hub holds events 1 to") and line.endswith(": agree")
        for line in lines
    )
    assert "cabinet c03: its books cannot be read: marked faulty" in out
    assert f"its books {tmp_path / 'nowhere.db'} cannot be read (there is no file there)" in out
    assert faulty(floor, "c01") is False
    assert faulty(floor, "c02") is True
    assert faulty(floor, "c03") is True
    [reason] = floor.owner.execute(
        """SELECT b.differences ->> 0 FROM hub.cabinet_books b JOIN hub.cabinets c ON c.id = b.cabinet_id
            WHERE c.name = 'c02'"""
    ).fetchone() or [None]
    assert reason == lines[1].strip()


def royal(
    floor: FloorHub, directory: Path, name: str, *, handpay_limit: int = 1_000_000
) -> tuple[Terminal, Path, str]:
    """Cabinet ``name``, whose one round (the bonus on, a royal flush) hit the linked jackpot:
    the hit sent to the hub and claimed by the link agent, not yet credited by the kiosk.
    Returns the terminal, its books and the round's id at the hub."""
    credentials = floor.add_cabinet(name)
    database = directory / name / "kiosk.db"
    database.parent.mkdir()
    books(database).close()
    config = Config(
        database=database, handpay_limit=handpay_limit, link=LinkConfig(credentials, jackpot="linked")
    )
    t = Terminal(config, Store(database, outbox=Outbox(linked_jackpot=True)), deck_for_round=lambda _: ROYAL)
    for intent, value in (("bill", 5000), ("bonus", None), ("deal", None), ("play", None)):
        assert t.handle(intent, value).ok, intent
    assert t.mode is Mode.JACKPOT_PENDING
    assert push(database, credentials) > 0
    assert t.store.books is not None
    return t, database, hub_round_id(t.store.books.id, 1)


def take_the_award(t: Terminal) -> None:
    """The kiosk credits (or handpays) what the link agent wrote of the hub's award."""
    t.link = link_state(t.config)
    assert t.link is not None
    t.link.refresh(force=True)
    assert t.follow_link() is not None
    assert t.mode is not Mode.JACKPOT_PENDING


def award_of(floor: FloorHub, round_id: str, box: int = 0) -> int:
    row = floor.owner.execute(
        "SELECT amount FROM hub.awards WHERE round_id = %s AND box = %s", [round_id, box]
    ).fetchone()
    assert row is not None
    return int(row[0])


def test_linked_awards_are_compared_with_what_the_cabinet_credited(
    floor: FloorHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t, database, round_id = royal(floor, tmp_path, "c01")
    try:
        amount = award_of(floor, round_id)
        # Awarded at the hub, the kiosk not yet credited it: still in flight.
        verdict = reconcile.compare(floor.owner, "c01", database)
        assert verdict.agrees, [d.sentence() for d in verdict.differences]
        assert verdict.hits_pending == 1
        assert run(floor, f"c01={database}") == 0
        assert "1 linked jackpot hit not yet awarded on the cabinet" in capsys.readouterr().out
        take_the_award(t)
        # Credited, its ledger rows not yet sent: the award is compared all the same.
        verdict = reconcile.compare(floor.owner, "c01", database)
        assert verdict.agrees
        assert verdict.in_flight > 0
        assert verdict.hits_pending == 0
        assert push(database, floor.credentials("c01")) > 0
        assert run(floor, f"c01={database}") == 0
        capsys.readouterr()
        # The hub's award changed: a difference, the cabinet faulty.
        floor.owner.execute("UPDATE hub.awards SET amount = amount + 1 WHERE round_id = %s", [round_id])
        assert run(floor, f"c01={database}") == 1
        assert (
            f"cabinet c01: linked jackpot award of round {round_id} box 0: "
            f"the cabinet's books say {amount} credited, the hub holds an award of {amount + 1}"
        ) in capsys.readouterr().out
        assert faulty(floor, "c01") is True
        # The hub's award gone: the cabinet credited what the hub never awarded.
        floor.owner.execute("DELETE FROM hub.awards WHERE round_id = %s", [round_id])
        assert run(floor, f"c01={database}") == 1
        assert (
            f"cabinet c01: linked jackpot award of round {round_id} box 0: "
            f"the cabinet's books say {amount} credited, the hub holds no award"
        ) in capsys.readouterr().out
        # An award for a box, and one for a round, the cabinet never hit.
        floor.owner.execute(
            """INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after)
               SELECT id, %s, b, a, 1000, 0, 1000 FROM hub.cabinets, (VALUES (0, %s), (1, 77)) v(b, a)
                WHERE name = 'c01'""",
            [round_id, amount],
        )
        floor.owner.execute(
            """INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after)
               SELECT id, 'elsewhere:9', 0, 55, 1000, 0, 1000 FROM hub.cabinets WHERE name = 'c01'"""
        )
        assert run(floor, f"c01={database}") == 1
        out = capsys.readouterr().out
        assert "DISAGREE (2)" in out
        assert (
            f"cabinet c01: linked jackpot award of round {round_id} box 1: "
            "the cabinet's books say no hit and nothing credited, the hub holds an award of 77"
        ) in out
        assert (
            "cabinet c01: linked jackpot award of round elsewhere:9 box 0: "
            "the cabinet's books say no hit and nothing credited, the hub holds an award of 55"
        ) in out
        floor.owner.execute("DELETE FROM hub.awards WHERE box = 1 OR round_id = 'elsewhere:9'")
        assert run(floor, f"c01={database}") == 0
        assert faulty(floor, "c01") is False
    finally:
        t.store.close()


def test_a_linked_hit_the_hub_never_awarded_is_a_difference_once_not_pending(
    floor: FloorHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t, database, round_id = royal(floor, tmp_path, "c01")
    try:
        floor.owner.execute("DELETE FROM hub.awards WHERE round_id = %s", [round_id])
        assert run(floor, f"c01={database}") == 1
        out = capsys.readouterr().out
        assert "1 linked jackpot hit not yet awarded on the cabinet: agree" in out, "pending: in flight"
        assert "the pool: hits: the hub's records make it 0 awards" in out, "the pool's award deleted"
        # The cabinet's lock-up ended without an award (its state no longer shows the hit pending).
        with t.store.transaction():
            t.jackpot_pending = None
            t.save_state()
        assert run(floor, f"c01={database}") == 1
        assert (
            f"cabinet c01: linked jackpot award of round {round_id} box 0: "
            "the cabinet's books say a hit, neither pending nor credited, the hub holds no award"
        ) in capsys.readouterr().out
    finally:
        t.store.close()


def test_a_linked_award_paid_by_hand_is_compared(
    floor: FloorHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hub.set_parameters(floor.owner, "tests", reset=500_000, maximum=10**9)
    t, database, round_id = royal(floor, tmp_path, "c01", handpay_limit=300_000)
    try:
        amount = award_of(floor, round_id)
        assert amount >= 300_000
        take_the_award(t)
        assert t.handpay == amount, "awarded, waiting for the attendant"
        assert push(database, floor.credentials("c01")) > 0
        assert run(floor, f"c01={database}") == 0
        capsys.readouterr()
        # Waiting for the attendant, the award the cabinet accepted is compared.
        floor.owner.execute("UPDATE hub.awards SET amount = amount - 1 WHERE round_id = %s", [round_id])
        assert run(floor, f"c01={database}") == 1
        assert (
            f"cabinet c01: linked jackpot award of round {round_id} box 0: the cabinet's books say "
            f"{amount} awarded, to be paid by hand, the hub holds an award of {amount - 1}"
        ) in capsys.readouterr().out
        floor.owner.execute("UPDATE hub.awards SET amount = amount + 1 WHERE round_id = %s", [round_id])
        assert t.handle("attendant").ok
        assert push(database, floor.credentials("c01")) > 0
        assert run(floor, f"c01={database}") == 0
        capsys.readouterr()
        floor.owner.execute("UPDATE hub.awards SET amount = amount + 5 WHERE round_id = %s", [round_id])
        assert run(floor, f"c01={database}") == 1
        assert (
            f"cabinet c01: linked jackpot of round {round_id}: "
            f"the cabinet's books say {amount} paid by hand, the hub holds awards of {amount + 5} in all"
        ) in capsys.readouterr().out
    finally:
        t.store.close()


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
    assert run(floor, f"c01={tmp_path / 'nowhere.db'}") == 1
    assert "cabinet c01: its books cannot be read: marked faulty" in capsys.readouterr().out
    assert run(floor, f"c01={database}", f"c01={database}") == 2
    assert "given twice" in capsys.readouterr().err
    unlinked = tmp_path / "alone.db"
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


def test_the_pool_itself_is_reconciled_with_the_hubs_records(
    floor: FloorHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pool moved by anything but a contribution, an award or a parameter change (a hand
    edit, a bug) fails the reconciliation, naming the amounts."""
    hub.set_parameters(floor.owner, "tests", reserve_rate_ppm=50_000)
    t, database, round_id = royal(floor, tmp_path, "c01")
    try:
        take_the_award(t)
        play(t, 3)
        push(database, floor.credentials("c01"))
        hub.set_parameters(floor.owner, "tests", reset=hub.pool(floor.owner).value + 500)  # topped up
        assert hub.pool(floor.owner).reserve > 0
        assert run(floor, f"c01={database}") == 0
        capsys.readouterr()
        before = hub.pool(floor.owner)
        floor.owner.execute(
            "UPDATE hub.pool SET value = value + 1000000, reserve = reserve + 5, hits = hits + 1"
        )
        assert run(floor, f"c01={database}") == 1
        out = capsys.readouterr().out
        assert "cabinet c01: the hub holds events 1 to" in out, "the cabinet's books still agree"
        assert "the pool: DISAGREE (3) with its records" in out
        assert f"  the pool: value: the hub's records make it {before.value} (0 at the start + " in out
        assert (
            f"as 1 awards that won it set it to their pool after), the pool holds {before.value + 1_000_000}"
            in out
        )
        assert f"the pool: reserve: the hub's records make it {before.reserve} (" in out
        assert f"the pool holds {before.reserve + 5}" in out
        assert (
            "the pool: hits: the hub's records make it 1 awards, 1 of them winning the pool, the pool holds 2 hits"
            in out
        )
        floor.owner.execute(
            "UPDATE hub.pool SET value = value - 1000000, reserve = reserve - 5, hits = hits - 1"
        )
        assert run(floor, f"c01={database}") == 0
        assert "the pool: its records agree" in capsys.readouterr().out
        # An award whose own figures do not add up is named.
        floor.owner.execute("UPDATE hub.awards SET pool_after = pool_after + 7")
        assert [difference.what for difference in reconcile.check_pool(floor.owner)] == [
            "value",
            f"award 1 (round {round_id} box 0, won the pool)",
        ]
    finally:
        t.store.close()
