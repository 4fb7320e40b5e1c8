"""A cabinet with books joins the floor (docs/floor.md): it played on its own (coin in,
rounds, bills), then its configuration gains ``[link]``, the hub adds it and its link agent
starts. Its books open the outbox with an opening record of what they already hold, so that
the hub holds the same meters and credits from then on: ``hub reconcile`` agrees, and the
dashboard shows the cabinet's meters."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from floor import SEEDS, FloorHub, play, push

from oasis_kiosk import returns
from oasis_kiosk.cli import main, open_books
from oasis_kiosk.config import load_config
from oasis_kiosk.floor import dashboard, hub, reconcile
from oasis_kiosk.floor.errors import BatchError
from oasis_kiosk.floor.hub import Event
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store import outbox as outboxes
from oasis_kiosk.store.db import StoreError
from oasis_kiosk.store.outbox import last_seq

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def write_config(directory: Path, *, linked: bool) -> Path:
    config = directory / "config.toml"
    text = f'[terminal]\ndatabase = "{directory / "kiosk.db"}"\n'
    if linked:
        text += f'[link]\ncredentials = "{directory / "hub.toml"}"\njackpot = "local"\n'
    config.write_text(text, encoding="utf-8")
    return config


def played_on_its_own(directory: Path) -> Path:
    """Books made by ``init`` and played by ``run`` with no ``[link]``: a bill of 50, rounds,
    coins. Returns the configuration, unlinked."""
    config = write_config(directory, linked=False)
    script = directory / "session.txt"
    script.write_text("bill 5000\ndeal\nfold\ndeal\nplay\ncoin 100\ndeal\nfold\n", encoding="utf-8")
    assert main(["init", "--test", "--config", str(config)]) == 0
    assert (
        main(
            ["run", "--headless", "--script", str(script), "--config", str(config), "--seed-base", "00" * 32]
        )
        == 0
    )
    return config


def outbox_kinds(database: Path) -> list[str]:
    with sqlite3.connect(database) as db:
        return [kind for (kind,) in db.execute("SELECT kind FROM outbox ORDER BY seq")]


def test_a_cabinet_that_played_on_its_own_agrees_with_the_hub_once_linked(
    floor: FloorHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played_on_its_own(tmp_path)
    database = tmp_path / "kiosk.db"
    credentials = floor.add_cabinet("c01")
    credentials.replace(tmp_path / "hub.toml")
    config = load_config(write_config(tmp_path, linked=True))
    store = open_books(config)  # the kiosk's start, linked
    meters, credits = store.meters(), store.credits()
    assert meters["coin_in"] > 0
    assert meters["bills_in_5000"] == 1
    assert credits > 0
    store.close()
    push(database, tmp_path / "hub.toml")
    capsys.readouterr()
    assert main(["hub", "reconcile", "--dsn", floor.owner_dsn, "--books", f"c01={database}"]) == 0, (
        capsys.readouterr().out
    )
    (cabinet,) = dashboard.read_page(floor.owner, dashboard.Options()).cabinets
    assert (cabinet.coin_in, cabinet.coin_out, cabinet.games) == (
        meters["coin_in"],
        meters.get("coin_out", 0),
        meters["games_played"],
    )
    assert cabinet.credits == credits
    assert cabinet.faulty is False


def test_the_opening_is_written_once_across_restarts_and_the_cabinet_plays_on(
    floor: FloorHub, tmp_path: Path
) -> None:
    played_on_its_own(tmp_path)
    database = tmp_path / "kiosk.db"
    floor.add_cabinet("c01").replace(tmp_path / "hub.toml")
    config = load_config(write_config(tmp_path, linked=True))
    open_books(config).close()
    opened = last_seq(sqlite3.connect(database))
    assert outbox_kinds(database)[0] == "opening"
    open_books(config).close()  # a second start writes nothing
    assert last_seq(sqlite3.connect(database)) == opened
    t = Terminal(config, open_books(config), seed_for_round=SEEDS)
    play(t, 3, bonus=False)
    meters = t.store.meters()
    t.store.close()
    push(database, tmp_path / "hub.toml")
    verdict = reconcile.compare(floor.owner, "c01", database)
    assert verdict.agrees, verdict.sentences()
    assert outbox_kinds(database).count("opening") == 1
    (cabinet,) = dashboard.read_page(floor.owner, dashboard.Options()).cabinets
    assert cabinet.coin_in == meters["coin_in"]
    assert cabinet.games == meters["games_played"]


def test_books_made_linked_send_their_creation_and_no_opening(floor: FloorHub, tmp_path: Path) -> None:
    """``init`` with ``[link]``: the books' ``books_created`` event goes to the hub like every
    other event, so the hub holds every event of the books; nothing else is opened."""
    config_file = write_config(tmp_path, linked=True)
    floor.add_cabinet("c01").replace(tmp_path / "hub.toml")
    assert main(["init", "--test", "--config", str(config_file)]) == 0
    database = tmp_path / "kiosk.db"
    open_books(load_config(config_file)).close()
    assert outbox_kinds(database) == ["event"]
    push(database, tmp_path / "hub.toml")
    with sqlite3.connect(database) as db:
        (events,) = db.execute("SELECT count(*) FROM events").fetchone()
    held = floor.owner.execute(
        "SELECT count(*) FROM hub.events WHERE kind = 'event' AND payload ->> 'kind' = 'books_created'"
    ).fetchone()
    assert events == 1
    assert held == (1,)
    assert reconcile.compare(floor.owner, "c01", database).agrees


def test_the_hub_refuses_an_opening_no_cabinet_writes(floor: FloorHub) -> None:
    """An opening's credits are whole minor units, never below 0, and it is the cabinet's
    first event: the hub refuses any other as it arrives, and so does ``hub.ingest`` before
    sending."""
    floor.add_cabinet("c01")
    cabinet = floor.cabinet("c01")
    opening = {"credits": 4100, "ledger": 3, "rounds": 3, "events": 4}
    meter = {"name": "coin_in", "value": 5000}
    for seq, payload, sql_says, python_says in (
        (1, {**opening, "credits": -1}, '"credits" is never below 0', "credits is never below 0"),
        (1, {**opening, "credits": 2.5}, '"credits" must be a whole number', "credits is a whole number"),
        (
            1,
            {"ledger": 3},
            '"credits" must be a whole number of minor units, not missing',
            "credits is a whole",
        ),
        (
            2,
            opening,
            "the opening of a cabinet's books is its first event",
            "the opening of a cabinet's books",
        ),
    ):
        if seq == 2:
            assert hub.ingest(cabinet, [Event(1, "meter", meter, NOW)]) == 1
        with (
            pytest.raises(
                psycopg.Error, match=rf"cabinet c01, event {seq} \(opening\): {re.escape(sql_says)}"
            ),
            cabinet.transaction(),
        ):
            cabinet.execute(
                "INSERT INTO hub.events (seq, kind, payload, committed_at) VALUES (%s, 'opening', %s, now())",
                [seq, json.dumps(payload)],
            )
        with pytest.raises(BatchError, match=rf"event {seq} \(opening\): {re.escape(python_says)}"):
            hub.ingest(cabinet, [Event(seq, "opening", payload, NOW)])
    assert hub.held(cabinet) == 1


def test_a_power_cut_while_the_books_open_leaves_no_part_of_the_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The opening record is one transaction: cut after its first rows, the books hold none
    of it, and the next start writes it whole, once."""
    config = load_config(played_on_its_own(tmp_path))
    linked = load_config(write_config(tmp_path, linked=True))
    database = config.database
    written: list[str] = []

    def cut(db: sqlite3.Connection, kind: str, payload: dict[str, object], committed_at: str) -> None:
        if len(written) == 3:
            raise KeyboardInterrupt("the power fails")
        written.append(kind)
        original(db, kind, payload, committed_at)

    original = outboxes.append
    monkeypatch.setattr(outboxes, "append", cut)
    with pytest.raises(KeyboardInterrupt):
        open_books(linked)
    monkeypatch.undo()
    assert outbox_kinds(database) == []
    store = open_books(linked)
    meters = store.meters()
    store.close()
    kinds = outbox_kinds(database)
    assert kinds == ["opening"] + ["meter"] * len(meters)
    open_books(linked).close()
    assert outbox_kinds(database) == kinds


def test_books_that_fail_their_check_send_the_hub_nothing(tmp_path: Path) -> None:
    """Books whose ledger was changed after it was sealed had sent the hub their opening, the
    changed credit in it, before the kiosk found the fault and stood still: the hub took the
    figures as the cabinet's own for good. They open no record now, and take no write."""
    config = load_config(played_on_its_own(tmp_path))
    database = config.database
    with sqlite3.connect(database) as db:
        db.execute("UPDATE ledger SET credits_after = 999999 WHERE id = (SELECT max(id) FROM ledger)")
    linked = load_config(write_config(tmp_path, linked=True))
    terminal = Terminal(linked, open_books(linked))
    assert terminal.books_fault is not None
    assert "999999" in terminal.books_fault
    assert outbox_kinds(database) == []
    with pytest.raises(StoreError, match="fail their check"), terminal.store.transaction():
        pass
    terminal.store.close()
    assert outbox_kinds(database) == []


def test_books_that_send_to_a_hub_take_no_write_opened_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Books made linked, played by a kiosk whose configuration had lost its [link] section,
    then linked again: what they took meanwhile had reached neither the outbox nor the hub,
    and the hub disagreed with them for good. Opened without the section, they refuse every
    write and say why; read, they are as any books."""
    linked_file = write_config(tmp_path, linked=True)
    assert main(["init", "--test", "--config", str(linked_file)]) == 0
    database = tmp_path / "kiosk.db"
    sent = outbox_kinds(database)
    assert sent == ["event"]
    unlinked = write_config(tmp_path, linked=False)
    script = tmp_path / "session.txt"
    script.write_text("bill 5000\ndeal\nfold\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["run", "--headless", "--script", str(script), "--config", str(unlinked)]) == 3
    assert "restore the section" in capsys.readouterr().err
    assert outbox_kinds(database) == sent
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM ledger").fetchone() == (0,)
    assert main(["meters", "--config", str(unlinked)]) == 0


def books_sending_to_a_hub_opened_without_it(directory: Path) -> Path:
    """Books made linked, and a configuration that lost the [link] section."""
    assert main(["init", "--test", "--config", str(write_config(directory, linked=True))]) == 0
    return write_config(directory, linked=False)


def books_failing_their_check_joining_the_floor(directory: Path) -> Path:
    """Books played on their own whose ledger was changed, and a configuration linking them."""
    played_on_its_own(directory)
    tampered(directory / "kiosk.db")
    return write_config(directory, linked=True)


def books_failing_their_check_on_their_own(directory: Path) -> Path:
    """Books played on their own whose ledger was changed."""
    config = played_on_its_own(directory)
    tampered(directory / "kiosk.db")
    return config


def books_failing_their_check_on_the_floor(directory: Path) -> Path:
    """Linked books whose outbox has begun, their ledger then changed: what they took since
    would go to the hub as the cabinet's own."""
    config = write_config(directory, linked=True)
    script = directory / "session.txt"
    script.write_text("bill 5000\ndeal\nfold\n", encoding="utf-8")
    assert main(["init", "--test", "--config", str(config)]) == 0
    assert main(["run", "--headless", "--script", str(script), "--config", str(config)]) == 0
    tampered(directory / "kiosk.db")
    return config


def dumped(database: Path) -> list[str]:
    """Every row of the books, as SQL."""
    with sqlite3.connect(database) as db:
        return list(db.iterdump())


def tampered(database: Path) -> None:
    with sqlite3.connect(database) as db:
        db.execute("UPDATE ledger SET credits_after = 999999 WHERE id = (SELECT max(id) FROM ledger)")


@pytest.mark.parametrize(
    ("books", "said"),
    [
        (books_sending_to_a_hub_opened_without_it, "restore the section"),
        (books_failing_their_check_joining_the_floor, "fail their check"),
        (books_failing_their_check_on_their_own, "fail their check"),
        (books_failing_their_check_on_the_floor, "fail their check"),
    ],
)
@pytest.mark.parametrize("command", [["set-pin"], ["forget-setting", "rules"], ["returns"]])
def test_a_command_refuses_books_that_take_no_write_before_it_asks_for_anything(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    books: Callable[[Path], Path],
    said: str,
    command: list[str],
) -> None:
    """``set-pin`` had read the new PIN (twice on a terminal), and ``returns`` computed the
    return, before the books refused them; books that fail their check had taken the change
    (linked, it went to the hub)."""
    config = books(tmp_path)
    before = dumped(tmp_path / "kiosk.db")

    class Unread:
        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            raise AssertionError("the PIN was asked for")

    monkeypatch.setattr("sys.stdin", Unread())
    monkeypatch.setattr(returns, "compute", lambda *args, **kwargs: pytest.fail("the return was computed"))
    capsys.readouterr()
    assert main([*command, "--config", str(config)]) == 3
    assert said in capsys.readouterr().err
    assert dumped(tmp_path / "kiosk.db") == before, "nothing written, to the outbox or anywhere"
