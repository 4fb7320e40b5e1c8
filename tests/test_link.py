"""A linked cabinet: its books' outbox (written in the same transaction as each change) and
the link agent that pushes it to a real hub (tests/postgres.py), through a cut network, a
stopped hub and its own SIGKILL, without losing or doubling a row."""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import psycopg
import pytest
from floor import ROYAL, SEEDS, Relay, linked_terminal, new_hub, play, push
from postgres import Postgres
from support import books

from oasis_kiosk.cli import clear_books
from oasis_kiosk.config import Config
from oasis_kiosk.floor import access, agent, hub
from oasis_kiosk.floor.errors import OtherBooksError, RowDiffersError
from oasis_kiosk.machine import linked
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.books import BooksFiles
from oasis_kiosk.store.db import Store, StoreError
from oasis_kiosk.store.outbox import Row, hub_round_id

RATE_PPM = 100_000  # as floor.new_hub sets the pool


def feed(t: Terminal, *inputs: str) -> None:
    for line in inputs:
        intent, *value = line.split()
        assert t.handle(intent, int(value[0]) if value else None).ok, line


def outbox(database: Path) -> list[Row]:
    store = Store(database, read_only=True)
    try:
        return store.outbox_rows(0, 1_000_000)
    finally:
        store.close()


# The outbox in the books.


def played(database: Path, rounds: int, *, pushed_with: Path | None = None) -> str:
    """The linked terminal of these books, ``rounds`` rounds played (``play``) and closed, and
    its outbox pushed to the hub with the cabinet's credentials if given; its books' id."""
    t = linked_terminal(database)
    play(t, rounds)
    played_books = books_id(t)
    t.store.close()
    if pushed_with is not None:
        push(database, pushed_with)
    return played_books


def test_an_unlinked_terminal_writes_no_outbox_rows(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = Terminal(Config(database=database), books(database), seed_for_round=SEEDS)
    play(t, 3)
    assert t.store.ledger()
    assert t.store.events()
    t.store.close()
    assert outbox(database) == []
    raw = sqlite3.connect(database)
    assert raw.execute("SELECT count(*) FROM outbox").fetchone() == (0,)
    raw.close()


def test_a_linked_terminal_puts_every_change_the_hub_needs_in_its_outbox(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 3)
    ledger, events, meters = t.store.ledger(), t.store.events(1000), t.store.meters()
    rounds = t.store.rounds()
    books_id = t.store.books.id if t.store.books else ""
    t.store.close()
    rows = outbox(database)
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1)), "gap-free from 1"
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_kind.setdefault(row.kind, []).append(row.payload)
        datetime.fromisoformat(row.committed_at)
    assert [p["id"] for p in by_kind["ledger"]] == [row.id for row in ledger]
    assert [(p["kind"], p["amount"], p["credits_after"]) for p in by_kind["ledger"]] == [
        (row.kind, row.amount, row.credits_after) for row in ledger
    ]
    assert [p["id"] for p in by_kind["event"]] == [event["id"] for event in events]
    last_meters = {p["name"]: p["value"] for p in by_kind["meter"]}
    assert last_meters == meters
    assert [p["id"] for p in by_kind["round"]] == [r["id"] for r in rounds if r["state"] != "open"]
    assert all(p["settlement"] is not None for p in by_kind["round"])
    contributions = [row for row in ledger if row.kind == "jackpot_contribution"]
    assert len(contributions) == 3
    assert by_kind["jackpot_contribution"] == [
        {"stake": row.detail["stake"], "round_id": hub_round_id(books_id, row.round_id or 0)}
        for row in contributions
    ]
    assert all(p["stake"] > 0 for p in by_kind["jackpot_contribution"])
    assert "jackpot_hit" not in by_kind


def test_a_local_jackpot_sends_its_stakes_only_as_ledger_rows(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database, jackpot="local", deck=lambda number: ROYAL)
    feed(t, "bill 5000", "bonus", "deal", "play")
    t.store.close()
    kinds = {row.kind for row in outbox(database)}
    assert {"ledger", "meter", "round", "event"} <= kinds
    assert not kinds & {"jackpot_contribution", "jackpot_hit"}


def test_a_linked_jackpot_hit_goes_to_the_outbox_with_its_round(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database, deck=lambda number: ROYAL)
    feed(t, "bill 5000", "bonus", "deal", "play")
    books_id = t.store.books.id if t.store.books else ""
    t.store.close()
    rows = outbox(database)
    hits = [row for row in rows if row.kind == "jackpot_hit"]
    assert [row.payload for row in hits] == [{"round_id": hub_round_id(books_id, 1), "box": 0}]
    hit_event = next(row for row in rows if row.kind == "event" and row.payload["kind"] == "jackpot_hit")
    assert hits[0].seq == hit_event.seq + 1, "right after the event it follows from, in its transaction"


def test_text_the_hub_cannot_hold_goes_to_the_outbox_escaped_and_reaches_the_hub(
    floor: Floor, tmp_path: Path
) -> None:
    """U+0000 in a device's words: SQLite keeps it, the hub's jsonb refuses it, and a row the
    hub refuses holds every row after it (the bonus stakes too) in the outbox for ever. The
    outbox writes it as its JSON escape, as text; other text is as it was."""
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 1)
    with t.store.transaction():
        t.store.event("tilt", kind="fault\x00", message="device said \x00 at \ud800 \\u0000 é 😀")
    play(t, 2)
    t.store.close()
    rows = outbox(database)
    tilt = next(row for row in rows if row.kind == "event" and row.payload["kind"] == "tilt")
    assert tilt.payload["detail"] == {
        "kind": "fault\\u0000",
        "message": "device said \\u0000 at \\ud800 \\u0000 é 😀",
    }
    assert push(database, floor.credentials) == len(rows)
    assert floor.cabinet_events() == expected(rows)
    assert floor.count("SELECT count(*) FROM hub.contributions") == 3


def test_a_number_json_cannot_write_goes_to_the_outbox_as_text_and_reaches_the_hub(
    floor: Floor, tmp_path: Path
) -> None:
    """A device's reading of NaN or infinity: Python writes it as JSON it is not (``NaN``),
    the hub's jsonb refuses it, and the row would hold every row after it in the outbox for
    ever. The outbox writes such a number as text; the books' own event keeps the number."""
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 1)
    with t.store.transaction():
        t.store.event(
            "hopper_exit_noise", gap_ms=float("nan"), bound_ms=float("inf"), pulses=[1.5, float("-inf")]
        )
    play(t, 2)
    kept = next(event for event in t.store.events() if event["kind"] == "hopper_exit_noise")
    assert math.isnan(kept["detail"]["gap_ms"])
    t.store.close()
    rows = outbox(database)
    noise = next(row for row in rows if row.kind == "event" and row.payload["kind"] == "hopper_exit_noise")
    assert noise.payload["detail"] == {"gap_ms": "NaN", "bound_ms": "Infinity", "pulses": [1.5, "-Infinity"]}
    assert push(database, floor.credentials) == len(rows)
    assert floor.cabinet_events() == expected(rows)
    assert floor.count("SELECT count(*) FROM hub.contributions") == 3


def test_the_outbox_row_commits_with_its_ledger_row_or_neither_does(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 1)
    ledger, rows = len(t.store.ledger()), len(t.store.outbox_rows(0, 10_000))
    # The outbox's insert fails (as a full disk would fail it): the money change goes with it.
    t.store._db.execute(
        "CREATE TEMP TRIGGER outbox_fails BEFORE INSERT ON main.outbox BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
    )
    response = t.handle("bill", 1000)
    assert not response.ok
    assert len(t.store.ledger()) == ledger
    assert len(t.store.outbox_rows(0, 10_000)) == rows
    t.store._db.execute("DROP TRIGGER outbox_fails")
    # A change that fails after its writes (before the commit) leaves neither.
    inside: list[int] = []

    def fails_before_its_commit() -> None:
        with t.store.transaction():
            t.store.post("bill_in", 1000)
            inside.append(len(t.store.outbox_rows(0, 10_000)))
            raise RuntimeError("the power fails before the commit")

    with pytest.raises(RuntimeError):
        fails_before_its_commit()
    assert inside == [rows + 1], "inside, the ledger row's outbox row is there"
    assert len(t.store.ledger()) == ledger
    assert len(t.store.outbox_rows(0, 10_000)) == rows
    # And the commit itself failing leaves neither: the disk is full at COMMIT.
    pages = t.store._db.execute("PRAGMA page_count").fetchone()[0]
    t.store._db.execute(f"PRAGMA max_page_count = {pages}")
    with contextlib.suppress(StoreError):
        for _ in range(200):
            with t.store.transaction():
                t.store.post("bill_in", 1000, note="x" * 2000)
    t.store._db.execute("PRAGMA max_page_count = 1073741823")
    ledger_ids = {row.id for row in t.store.ledger()}
    sent_ids = {row.payload["id"] for row in t.store.outbox_rows(0, 100_000) if row.kind == "ledger"}
    assert ledger_ids == sent_ids, "every ledger row committed has its outbox row, and no other"
    rows_now = t.store.outbox_rows(0, 100_000)
    assert [row.seq for row in rows_now] == list(range(1, len(rows_now) + 1)), "no gap where a write failed"
    t.store.close()


# The agent and the hub.


@dataclass
class Floor:
    server: Postgres
    dbname: str
    owner: psycopg.Connection[Any]
    credentials: Path

    def cabinet_events(self) -> list[tuple[int, str, dict[str, Any], datetime]]:
        rows = self.owner.execute(
            "SELECT e.seq, e.kind, e.payload, e.committed_at FROM hub.events e"
            " JOIN hub.cabinets c ON c.id = e.cabinet_id WHERE c.name = 'c01' ORDER BY e.seq"
        ).fetchall()
        return [(int(seq), kind, payload, at) for seq, kind, payload, at in rows]

    def count(self, query: str) -> int:
        row = self.owner.execute(query.encode()).fetchone()
        assert row is not None
        return int(row[0])


@pytest.fixture
def floor(postgres: Postgres, tmp_path: Path) -> Iterator[Floor]:
    """A migrated hub with cabinet c01, whose credentials file is beside the books."""
    state = new_hub(postgres, tmp_path, prefix="link")
    try:
        credentials = tmp_path / "hub.toml"
        access.add_cabinet(state.owner, "c01", credentials)
        yield Floor(postgres, state.dbname, state.owner, credentials)
    finally:
        state.close()


def expected(rows: list[Row]) -> list[tuple[int, str, dict[str, Any], datetime]]:
    return [(row.seq, row.kind, row.payload, datetime.fromisoformat(row.committed_at)) for row in rows]


def test_the_agent_pushes_the_outbox_and_the_hub_holds_exactly_it(floor: Floor, tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 4)
    link = agent.Agent(database, floor.credentials, batch=7)
    assert link.push_all() == len(t.store.outbox_rows(0, 10_000))
    rows = t.store.outbox_rows(0, 10_000)
    assert floor.cabinet_events() == expected(rows)
    assert agent.confirmed(database) == rows[-1].seq == link.status.held
    stakes = [row.payload["stake"] for row in rows if row.kind == "jackpot_contribution"]
    assert floor.count("SELECT count(*) FROM hub.contributions") == len(stakes) == 4
    assert hub.pool(floor.owner).value == 1000 + sum(stakes) * RATE_PPM // 1_000_000
    # More play, pushed later: only the new rows go.
    play(t, 2)
    assert link.push_all() == len(t.store.outbox_rows(0, 10_000)) - len(rows)
    assert floor.cabinet_events() == expected(t.store.outbox_rows(0, 10_000))
    link.close()
    t.store.close()


def test_an_idle_cabinet_is_still_seen_by_the_hub(floor: Floor, tmp_path: Path) -> None:
    """The dashboard's "online" means the cabinet's link is up, not that it played lately:
    an agent with nothing to send still tells the hub it is there."""
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 1)
    link = agent.Agent(database, floor.credentials, heartbeat=0.0)
    link.push_all()

    def last_seen() -> datetime:
        row = floor.owner.execute("SELECT last_seen FROM hub.cabinets WHERE name = 'c01'").fetchone()
        assert row is not None
        return cast(datetime, row[0])

    after_the_batch = last_seen()
    time.sleep(0.05)
    assert link.push_once() == 0, "nothing to send"
    assert last_seen() > after_the_batch
    link.close()
    t.store.close()


def test_a_batch_sent_twice_changes_nothing(floor: Floor, tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    played(database, 3)
    rows = outbox(database)
    batch = [hub.Event(seq, kind, payload, at) for seq, kind, payload, at in expected(rows)]
    with access.connect(floor.credentials) as cabinet:
        assert hub.ingest(cabinet, batch) == rows[-1].seq
        before, pool = floor.cabinet_events(), hub.pool(floor.owner)
        assert hub.ingest(cabinet, batch) == rows[-1].seq
        assert hub.ingest(cabinet, batch[2:5]) == rows[-1].seq
    assert floor.cabinet_events() == before
    assert hub.pool(floor.owner) == pool
    # An agent that lost its record sends from what the hub holds: nothing.
    linked.link_path(database).unlink(missing_ok=True)
    link = agent.Agent(database, floor.credentials)
    assert link.push_all() == 0
    assert floor.cabinet_events() == before
    assert agent.confirmed(database) == rows[-1].seq
    link.close()


def wait_for(condition: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("not reached in time")
        time.sleep(0.05)


def test_the_agent_catches_up_after_the_hub_was_unreachable(floor: Floor, tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    relay = Relay(floor.server.port)
    credentials = replace(access.read_credentials(floor.credentials), port=relay.port)
    link = agent.Agent(database, credentials, batch=5, retry_max=0.5, poll=0.05)
    runner = threading.Thread(target=link.run)
    runner.start()
    try:
        play(t, 2)
        wait_for(lambda: link.status.held == agent.outbox_last(database))
        relay.cut()
        play(t, 3)  # the kiosk plays on: nothing waits for the hub
        wait_for(lambda: link.status.last_error is not None)
        held = floor.count("SELECT last_seq FROM hub.cabinets WHERE name = 'c01'")
        assert held < agent.outbox_last(database), "the hub missed what was played while it was away"
        relay.restore()
        play(t, 1)
        wait_for(lambda: link.status.held == agent.outbox_last(database) and link.status.last_error is None)
    finally:
        link.stop()
        runner.join(10)
        relay.close()
    assert not runner.is_alive()
    assert floor.cabinet_events() == expected(t.store.outbox_rows(0, 100_000))
    stakes = [
        row.payload["stake"] for row in t.store.outbox_rows(0, 100_000) if row.kind == "jackpot_contribution"
    ]
    assert floor.count("SELECT count(*) FROM hub.contributions") == len(stakes) == 6
    t.store.close()


def test_an_agent_that_cannot_reach_the_hub_says_how_many_rows_wait(
    floor: Floor, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Its log said "0 rows wait in the outbox" with 25 rows waiting: an agent that never
    reached the hub had not counted them. It counts them from the books and its own record."""
    import socket

    database = tmp_path / "kiosk.db"
    played(database, 2, pushed_with=floor.credentials)
    held = agent.confirmed(database)
    t = linked_terminal(database)
    play(t, 2)
    t.store.close()
    last = agent.outbox_last(database)
    assert last > held > 0
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    unreachable = replace(access.read_credentials(floor.credentials), port=port)

    def stop_at_the_first_wait(seconds: float) -> bool:
        link.stop()
        return True

    link = agent.Agent(database, unreachable, sleep=stop_at_the_first_wait)
    with caplog.at_level("WARNING", logger="oasis_kiosk.link"):
        link.run()
    (said,) = [record.getMessage() for record in caplog.records]
    assert said.startswith("the hub cannot be reached: ")
    assert said.endswith(f"; {last - held} rows wait in the outbox")


IN_A_NETWORK_OF_ITS_OWN = "OASIS_TEST_PRIVATE_NETWORK"
"""Set in a pytest run inside a network namespace of its own, where a packet filter may drop
the hub's packets without touching the machine's network: the namespace it was started from."""


SYSTEM_PATH = "/usr/sbin:/sbin:/usr/bin:/bin"


def system_tool(name: str, package: str) -> str:
    """A system tool from Debian's ``package``, installed when missing (as root, as the hub's
    server is)."""
    from debian import apt_install

    found = shutil.which(name, path=SYSTEM_PATH)
    if found is None:
        apt_get = shutil.which("apt-get")
        if apt_get is None or os.geteuid() != 0:
            raise RuntimeError(f"the dropped-packets test needs {name}: install Debian's `{package}` package")
        apt_install(apt_get, package, RuntimeError)
        found = shutil.which(name, path=SYSTEM_PATH)
    assert found is not None, f"Debian's {package} installed, but no {name}"
    return found


@pytest.mark.slow
def test_the_agent_notices_a_hub_whose_packets_are_silently_dropped_and_catches_up(tmp_path: Path) -> None:
    """A cut cable or a firewall that drops packets closes nothing: no reset, no end of file.
    The agent's TCP timeouts must find the hub gone (not hang with the batch in the air), and
    once packets pass again it sends what was played meanwhile, each row once. The test runs
    itself in a network namespace of its own (``unshare --net``, which takes root, as the
    hub's server set-up does), its hub's server too, so that its packet filter touches
    nothing of the machine."""
    if os.environ.get(IN_A_NETWORK_OF_ITS_OWN):
        outside = os.environ[IN_A_NETWORK_OF_ITS_OWN]
        assert os.readlink("/proc/self/ns/net") != outside, "not in a network namespace of its own"
        dropped_packets_inside_a_network_of_its_own(tmp_path)
        return
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("a network namespace of the test's own (unshare --net) takes root")
    ip, nft = system_tool("ip", "iproute2"), system_tool("nft", "nftables")
    test = f"{Path(__file__)}::test_the_agent_notices_a_hub_whose_packets_are_silently_dropped_and_catches_up"
    # -P: the package as installed, not a source folder the working directory happens to hold.
    command = f"{ip} link set lo up && exec {sys.executable} -P -m pytest -p no:cacheprovider -q -x {test}"
    result = subprocess.run(
        [unshare, "--net", "sh", "-c", command],
        env={**os.environ, IN_A_NETWORK_OF_ITS_OWN: os.readlink("/proc/self/ns/net"), "OASIS_TEST_NFT": nft},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "1 passed" in result.stdout


def dropped_packets_inside_a_network_of_its_own(tmp_path: Path) -> None:
    tool = os.environ["OASIS_TEST_NFT"]
    database = tmp_path / "kiosk.db"
    credentials = tmp_path / "hub.toml"
    with contextlib.ExitStack() as cleanup:
        server = Postgres.start()
        cleanup.callback(server.stop)
        state = new_hub(server, tmp_path, prefix="drop")
        cleanup.callback(state.close)
        access.add_cabinet(state.owner, "c01", credentials)
        t = linked_terminal(database)
        cleanup.callback(t.store.close)
        link = agent.Agent(database, credentials, batch=5, retry_max=0.5, poll=0.05)
        cleanup.callback(link.close)
        runner = threading.Thread(target=link.run)
        runner.start()
        cleanup.callback(runner.join, 30)
        cleanup.callback(link.stop)
        play(t, 2)
        wait_for(lambda: link.status.held == agent.outbox_last(database))
        rules = (
            "table inet hub_gone {\n chain out {\n  type filter hook output priority 0;\n"
            f"  tcp dport {server.port} drop\n  tcp sport {server.port} drop\n }}\n}}\n"
        )
        subprocess.run([tool, "-f", "-"], input=rules, text=True, check=True)
        play(t, 3)  # the kiosk plays on while the agent's batch goes nowhere
        wait_for(lambda: link.status.last_error is not None, seconds=60)
        subprocess.run([tool, "delete table inet hub_gone"], check=True)
        play(t, 1)
        wait_for(
            lambda: link.status.held == agent.outbox_last(database) and link.status.last_error is None,
            seconds=60,
        )
        link.stop()
        runner.join(30)
        assert not runner.is_alive(), "the agent ended when asked"
        rows = t.store.outbox_rows(0, 100_000)
        held = state.owner.execute(
            "SELECT e.seq FROM hub.events e JOIN hub.cabinets c ON c.id = e.cabinet_id"
            " WHERE c.name = 'c01' ORDER BY e.seq"
        ).fetchall()
        assert [seq for (seq,) in held] == [row.seq for row in rows], "every row once, none lost"
        stakes = [row for row in rows if row.kind == "jackpot_contribution"]
        contributions = state.owner.execute("SELECT count(*) FROM hub.contributions").fetchone()
        assert contributions is not None
        assert contributions[0] == len(stakes) == 6


def test_an_agent_stopped_between_the_hubs_commit_and_its_record_resumes_exactly(
    floor: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 3)
    first = agent.Agent(database, floor.credentials, batch=10)
    assert first.push_once() == 10

    def killed(held: int) -> None:
        raise SystemExit("killed before its record")

    monkeypatch.setattr(first, "_record", killed)
    with pytest.raises(SystemExit):
        first.push_once()
    first.close()
    assert agent.confirmed(database) == 10, "its record is behind the hub"
    assert floor.count("SELECT last_seq FROM hub.cabinets WHERE name = 'c01'") == 20
    second = agent.Agent(database, floor.credentials, batch=10)
    second.push_all()
    second.close()
    assert floor.cabinet_events() == expected(t.store.outbox_rows(0, 100_000))
    assert agent.confirmed(database) == agent.outbox_last(database)
    t.store.close()


def link_command(directory: Path, database: Path, credentials: Path) -> tuple[list[str], dict[str, str]]:
    """``oasis-kiosk link`` of a linked cabinet's configuration, and its environment."""
    config = directory / "config.toml"
    config.write_text(
        f'[terminal]\ndatabase = "{database}"\n[link]\ncredentials = "{credentials}"\n'
        'jackpot = "linked"\nbatch = 3\nretry_max = 1\n',
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "oasis_kiosk", "link", "--config", str(config)]
    return command, {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}


def test_the_link_process_killed_mid_push_resumes_without_loss_or_doubles(
    floor: Floor, tmp_path: Path
) -> None:
    database = tmp_path / "kiosk.db"
    played(database, 40)
    total = agent.outbox_last(database)
    command, environment = link_command(tmp_path, database, floor.credentials)

    def held() -> int:
        return floor.count("SELECT last_seq FROM hub.cabinets WHERE name = 'c01'")

    log = tmp_path / "link.log"
    with log.open("ab") as output:
        process = subprocess.Popen(command, env=environment, stderr=output)
    try:
        wait_for(lambda: held() >= 30)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == -signal.SIGKILL
    assert 0 < held() < total, "killed mid-way"
    with log.open("ab") as output:
        process = subprocess.Popen(command, env=environment, stderr=output)
    try:
        wait_for(lambda: agent.confirmed(database) == total)
        process.send_signal(signal.SIGTERM)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, log.read_text()
    assert floor.cabinet_events() == expected(outbox(database))
    stakes = [row.payload["stake"] for row in outbox(database) if row.kind == "jackpot_contribution"]
    assert floor.count("SELECT count(*) FROM hub.contributions") == len(stakes) == 40
    assert hub.pool(floor.owner).value == 1000 + sum(stakes) * RATE_PPM // 1_000_000


def test_a_second_link_agent_on_the_same_books_refuses_to_start(floor: Floor, tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    played(database, 2)
    command, environment = link_command(tmp_path, database, floor.credentials)
    log = tmp_path / "link.log"
    with log.open("ab") as output:
        first = subprocess.Popen(command, env=environment, stderr=output)
    try:
        wait_for(lambda: agent.confirmed(database) == agent.outbox_last(database))
        held = floor.cabinet_events()
        second = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=30)
        assert second.returncode == 3, second.stderr
        assert (
            f"{database}: the books' outbox is pushed by another link agent (pid {first.pid}): "
            "one link agent per books"
        ) in second.stderr
        assert floor.cabinet_events() == held
        assert first.poll() is None, "the first agent goes on"
        played(database, 1)
        wait_for(lambda: agent.confirmed(database) == agent.outbox_last(database) > held[-1][0])
        first.send_signal(signal.SIGTERM)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 0, log.read_text()


# New books (a RAM clear) under a cabinet whose events the hub holds.


def books_id(t: Terminal) -> str:
    assert t.store.books is not None
    return t.store.books.id


def hub_books(floor: Floor, name: str = "c01") -> str | None:
    row = floor.owner.execute("SELECT books_id FROM hub.cabinets WHERE name = %s", [name]).fetchone()
    assert row is not None
    return cast(str | None, row[0])


def contact_at(database: Path) -> float:
    """When the agent last told the kiosk that it reached the hub (the link is up)."""
    own = sqlite3.connect(linked.link_path(database))
    try:
        row = own.execute("SELECT contact_at FROM pool").fetchone()
    finally:
        own.close()
    return float(row[0])


def test_an_agent_that_goes_on_across_a_ram_clear_sends_nothing_of_the_new_books_to_the_old_cabinet(
    floor: Floor, tmp_path: Path
) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 3)
    old = books_id(t)
    link = agent.Agent(database, floor.credentials, batch=10)
    link.push_all()
    sent = floor.cabinet_events()
    assert hub_books(floor) == old, "the hub records the books of the cabinet's events"
    play(t, 1)  # not sent yet when the books are moved aside
    t.store.close()
    clear_books(BooksFiles(database))
    with pytest.raises(agent.LinkError, match="there are no books here yet"):
        link.push_once()
    assert floor.cabinet_events() == sent, "the old books, moved aside, are read no more"
    # New books, with at least as many rows as the hub holds and a jackpot hit among them.
    played(database, 4)
    t = linked_terminal(database, deck=lambda number: ROYAL)
    feed(t, "bill 5000", "deal", "play")
    assert t.jackpot_pending is not None
    new = books_id(t)
    t.store.close()
    rows = outbox(database)
    assert new != old
    assert len(rows) >= len(sent), "as many rows as the hub holds of the old books, or more"
    contact = contact_at(database)
    with pytest.raises(
        agent.BooksRefusedError,
        match=f"cabinet c01: the hub holds the events of books {old}, not of books {new}: .*hub add-cabinet",
    ):
        link.push_once()
    assert floor.cabinet_events() == sent, "no row of the new books skipped or mixed with the old"
    assert floor.count("SELECT count(*) FROM hub.awards") == 0
    assert contact_at(database) == contact, "the kiosk sees the link down"
    link.close()
    # The operator adds the new books to the hub as a new cabinet: they go whole, hit included.
    access.add_cabinet(floor.owner, "c02", tmp_path / "c02.toml")
    link = agent.Agent(database, tmp_path / "c02.toml", batch=10)
    assert link.push_all() == len(rows)
    link.close()
    held = floor.owner.execute(
        "SELECT e.seq, e.kind, e.payload, e.committed_at FROM hub.events e"
        " JOIN hub.cabinets c ON c.id = e.cabinet_id WHERE c.name = 'c02' ORDER BY e.seq"
    ).fetchall()
    assert [tuple(row) for row in held] == expected(rows)
    assert hub_books(floor, "c02") == new
    assert floor.count("SELECT count(*) FROM hub.awards") == 1, "the new books' hit is claimed"
    assert floor.cabinet_events() == sent


def test_the_link_stops_at_new_books_with_more_rows_than_the_hub_holds(floor: Floor, tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    old = played(database, 1, pushed_with=floor.credentials)
    sent = floor.cabinet_events()
    clear_books(BooksFiles(database))
    new = played(database, 3)
    assert agent.outbox_last(database) > len(sent)
    command, environment = link_command(tmp_path, database, floor.credentials)
    stopped = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)
    assert stopped.returncode == agent.EXIT_OTHER_BOOKS, stopped.stderr
    assert f"cabinet c01: the hub holds the events of books {old}, not of books {new}" in stopped.stderr
    assert "hub add-cabinet" in stopped.stderr
    assert floor.cabinet_events() == sent
    assert hub_books(floor) == old


def test_a_cabinet_whose_books_the_hub_never_recorded_adopts_the_first_sent(
    floor: Floor, tmp_path: Path
) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 2)
    old = books_id(t)
    push(database, floor.credentials)
    sent = floor.cabinet_events()
    floor.owner.execute("UPDATE hub.cabinets SET books_id = NULL")  # as a hub before migration 0008
    play(t, 1)
    t.store.close()
    push(database, floor.credentials)
    assert hub_books(floor) == old
    assert floor.cabinet_events() == expected(outbox(database))
    # New books with fewer rows than the hub holds, at a hub that recorded no books: refused.
    floor.owner.execute("UPDATE hub.cabinets SET books_id = NULL")
    sent = floor.cabinet_events()
    clear_books(BooksFiles(database))
    played(database, 1)
    link = agent.Agent(database, floor.credentials)
    with pytest.raises(agent.BooksRefusedError, match=r"these are other books \(a RAM clear"):
        link.push_once()
    link.close()
    assert floor.cabinet_events() == sent
    assert hub_books(floor) is None, "nothing adopted"


def test_the_hub_refuses_a_batch_of_other_books(floor: Floor, tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    played(database, 2)
    rows = outbox(database)
    batch = [hub.Event(seq, kind, payload, at) for seq, kind, payload, at in expected(rows)]
    with access.connect(floor.credentials) as cabinet:
        assert hub.ingest(cabinet, batch[:5], books_id="books-a") == 5
        with pytest.raises(
            OtherBooksError, match="the hub holds the events of books books-a, not of books b"
        ):
            hub.ingest(cabinet, batch, books_id="books-b")
        assert floor.count("SELECT last_seq FROM hub.cabinets WHERE name = 'c01'") == 5
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            cabinet.execute("UPDATE hub.cabinets SET books_id = 'books-b'")
        assert hub.ingest(cabinet, batch, books_id="books-a") == len(rows)
    assert hub_books(floor) == "books-a"


def stakes_at_the_hub(floor: Floor) -> tuple[int, int]:
    row = floor.owner.execute("SELECT count(*), coalesce(sum(stake), 0) FROM hub.contributions").fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def test_books_restored_from_a_backup_are_refused_not_spliced_into_the_hubs_history(
    floor: Floor, tmp_path: Path
) -> None:
    """A cabinet's card restored from last night's backup (books, key and mark) while the hub
    holds more of its outbox: the same books' id, and once play passes the hub's number, rows
    that would read as a continuation. Their stakes at numbers the hub holds other rows for
    would never reach the pool: the agent stops at them, naming the row, as at other books."""
    home = tmp_path / "home"
    home.mkdir()
    database = home / "kiosk.db"
    played(database, 2)
    shutil.copytree(home, tmp_path / "backup")
    played(database, 4, pushed_with=floor.credentials)
    sent, stakes = floor.cabinet_events(), stakes_at_the_hub(floor)
    held = sent[-1][0]
    shutil.rmtree(home)
    shutil.copytree(tmp_path / "backup", home)  # the card died; the backup is put back
    played(database, 1)
    assert agent.outbox_last(database) < held
    link = agent.Agent(database, floor.credentials, batch=50)
    with pytest.raises(
        agent.BooksRefusedError, match=f"the hub's event {held} is not event {held} .*ends at"
    ):
        link.push_once()
    link.close()
    played(database, 6)  # play passes the hub's number: its row there is another
    assert agent.outbox_last(database) > held
    link = agent.Agent(database, floor.credentials, batch=50)
    with pytest.raises(
        agent.BooksRefusedError,
        match=f"cabinet c01: the hub's event {held} is not event {held} of books .*: the hub holds .*"
        "; the books wrote .*restored from a backup, or a copy of another cabinet's card",
    ):
        link.push_once()
    link.close()
    assert floor.cabinet_events() == sent, "nothing spliced after the hub's rows"
    assert stakes_at_the_hub(floor) == stakes
    # The link command stops at them as at other books, and systemd's restarts refuse again.
    command, environment = link_command(home, database, floor.credentials)
    stopped = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)
    assert stopped.returncode == agent.EXIT_OTHER_BOOKS, stopped.stderr
    assert f"the hub's event {held} is not event {held}" in stopped.stderr
    assert floor.cabinet_events() == sent


def test_a_copy_of_the_card_on_another_machine_is_refused_at_connection_and_between_batches(
    floor: Floor, tmp_path: Path
) -> None:
    """Machine B set up from a copy of A's card (books, key, mark and credentials): whichever
    sends second is refused, at its connection or at its next batch, and neither's rows are
    spliced after the other's."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    played(a / "kiosk.db", 1)
    link_a = agent.Agent(a / "kiosk.db", floor.credentials, batch=10)
    link_a.push_all()  # A stays connected from here on
    shutil.copytree(a, b)
    for home, rounds in ((a, 2), (b, 4)):
        played(home / "kiosk.db", rounds)
    push(b / "kiosk.db", floor.credentials)
    sent, stakes = floor.cabinet_events(), stakes_at_the_hub(floor)
    # A, connected before B sent: refused before its next batch, not spliced after B's rows.
    with pytest.raises(agent.BooksRefusedError, match=f"the hub's event {sent[-1][0]} is not event"):
        link_a.push_once()
    link_a.close()
    played(a / "kiosk.db", 6)  # A's outbox passes B's last row
    assert agent.outbox_last(a / "kiosk.db") > sent[-1][0]
    link_a = agent.Agent(a / "kiosk.db", floor.credentials, batch=10)
    with pytest.raises(agent.BooksRefusedError, match=f"the hub's event {sent[-1][0]} is not event"):
        link_a.push_once()
    link_a.close()
    assert floor.cabinet_events() == sent
    assert stakes_at_the_hub(floor) == stakes


def test_a_row_the_hub_holds_sent_again_with_other_contents_is_refused_as_other_books(
    floor: Floor, tmp_path: Path
) -> None:
    database = tmp_path / "kiosk.db"
    played(database, 2)
    rows = outbox(database)
    batch = [hub.Event(seq, kind, payload, at) for seq, kind, payload, at in expected(rows)]
    with access.connect(floor.credentials) as cabinet:
        hub.ingest(cabinet, batch)
        changed = replace(batch[3], payload={**batch[3].payload, "forged": True})
        with pytest.raises(RowDiffersError, match="event 4 was received before with other contents"):
            hub.ingest(cabinet, [changed, *batch[4:]])


def test_the_link_command_needs_a_link_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from oasis_kiosk.cli import main

    config = tmp_path / "config.toml"
    config.write_text(f'[terminal]\ndatabase = "{tmp_path / "kiosk.db"}"\n', encoding="utf-8")
    assert main(["link", "--config", str(config)]) == 2
    assert "no [link] section" in capsys.readouterr().err


# What the agent writes for the kiosk: only what changed, so the card is not worn by idle passes.


class Ticking:
    """A wall clock that moves only when told: the agent's passes at a known pace."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def test_an_idle_agent_writes_the_link_file_only_when_the_kiosk_needs_it(
    floor: Floor, tmp_path: Path
) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 1)
    clock = Ticking()
    link = agent.Agent(database, floor.credentials, clock=clock, offline_after=5.0)
    link.push_all()
    kiosk = linked.LinkState(database, offline_after=5.0, clock=clock)
    kiosk.refresh(force=True)
    assert kiosk.online
    assert kiosk.pool == hub.pool(floor.owner).value
    assert link._confirm_db is not None
    before = link._confirm_db.total_changes
    # 50 idle passes, 5 a second (the agent's pace when idle), over 10 seconds: the contact
    # time is written about once a second, the pool (which stands still) not at all.
    for _ in range(50):
        clock.now += agent.POLL
        assert link.push_once() == 0
        kiosk.refresh(force=True)
        assert kiosk.online, "the kiosk sees the link up at every pass"
    writes = link._confirm_db.total_changes - before
    assert 8 <= writes <= 11, f"{writes} writes in 10 seconds of idle passes"
    # Another cabinet's stake moves the pool: written at the next pass.
    other = tmp_path / "c02" / "kiosk.db"
    other.parent.mkdir()
    access.add_cabinet(floor.owner, "c02", tmp_path / "c02.toml")
    play(linked_terminal(other), 1)
    push(other, tmp_path / "c02.toml")
    clock.now += agent.POLL
    link.push_once()
    kiosk.refresh(force=True)
    assert kiosk.pool == hub.pool(floor.owner).value
    # The agent stops reaching the hub: the kiosk sees the link down after offline_after.
    clock.now += 5.5
    kiosk.refresh(force=True)
    assert not kiosk.online
    link.close()
    t.store.close()


def test_an_agent_of_a_local_jackpot_writes_nothing_of_the_pool(floor: Floor, tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database, jackpot="local")
    play(t, 1)
    link = agent.Agent(database, floor.credentials, linked_jackpot=False)
    link.push_all()
    assert link._confirm_db is not None
    before = link._confirm_db.total_changes
    for _ in range(10):
        assert link.push_once() == 0
    assert link._confirm_db.total_changes == before, "an idle pass writes nothing"
    assert link._confirm_db.execute("SELECT count(*) FROM pool").fetchone() == (0,)
    link.close()
    t.store.close()


def test_two_paths_to_one_agent_file_share_the_agent_s_lock(tmp_path: Path) -> None:
    """The books' lock follows a symbolic link; the agent's had not, so two agents named the
    same books by two paths and both pushed their outbox."""
    (tmp_path / "data").mkdir()
    own_file = tmp_path / "data" / "kiosk.db.link"
    own_file.touch()
    (tmp_path / "kiosk.db.link").symlink_to(own_file)
    assert agent.lock_path(tmp_path / "kiosk.db.link") == agent.lock_path(own_file)
