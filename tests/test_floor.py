"""The floor: twenty cabinets play at once against one hub on loopback, through a killed and
restarted hub, a cut link and SIGKILLs, and the hub ends holding exactly their books.

Each cabinet is a real terminal on its own SQLite books (``oasis-kiosk run --headless
--script``, its rounds seeded) with a ``[link]`` section, its own login at the hub
(``hub add-cabinet``) and its own link agent process (``oasis-kiosk link``). The hub is a
PostgreSQL server this test starts for itself (tests/postgres.py), durable as a production
hub is, so that it can SIGKILL it (the postmaster and every backend at once) and start it
again while the cabinets play.
One cabinet's agent reaches the hub through a TCP relay that is cut and restored; kiosks
and agents are SIGKILLed at random instants and started again.

At the end, the agents given time to catch up: the hub holds every cabinet's outbox exactly
once (each row, in order, as the books wrote it), the pool is its reset value plus the
share the hub computes of every bonus stake the linked cabinets' own books record (no
contribution lost or counted twice, none from the local cabinets), and
``oasis-kiosk hub reconcile`` over all the cabinets' books finds nothing (exit 0).

Half the cabinets keep ``jackpot = "local"``, the other half play the floor's linked
jackpot, and three of those hit it (a royal flush stacked for one round, ``--decks``; the
other rounds are seeded and hit nothing, which is checked): each hit is claimed by its agent
and awarded by the hub exactly once, and the cabinet credits that award once. A headless
run follows the link as the screen does: a linked cabinet starts once its agent has reached
the hub (its bonus bet is closed until then), and a hit cabinet credits the award while its
script plays on, or, when the script ended first, once its terminal is opened again as the
kiosk would start. The pool then is its reset value after each hit, plus the hub's share of
every linked stake, less the awards.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from floor import FloorHub, Relay, new_hub
from postgres import Postgres
from support import books

from oasis_kiosk.config import Config, LinkConfig
from oasis_kiosk.floor import access, agent, hub
from oasis_kiosk.machine.linked import LinkState, link_state
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store
from oasis_kiosk.store.outbox import Outbox, hub_round_id

CABINETS = 20
ROUNDS = 12
RATE_PPM = 100_000  # as floor.new_hub sets the pool
RESET = 1000
ROYAL = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"
HITS = {"c01": 3, "c05": 5, "c09": 7}  # linked cabinets, and the round each hits the jackpot in
ROOT = Path(__file__).resolve().parents[1]
ENVIRONMENT = {**os.environ, "PYTHONPATH": str(ROOT)}


def script(number: int, hits: bool) -> str:
    """A note, the bonus bet (which feeds the jackpot), then rounds played or folded (always
    played by a cabinet that hits), a note before each, a pause after each so that the session
    lasts while the hub comes and goes."""
    rng = random.Random(number)
    lines = ["bill 5000", "bonus"]
    for _ in range(ROUNDS):
        choice = "play" if hits else rng.choice(["play", "fold", "fold"])
        lines += ["bill 2000", "deal", choice, "decline", "wait 0.5"]
    return "\n".join(lines) + "\n"


@dataclass
class Cabinet:
    name: str
    directory: Path
    jackpot: str
    kiosk: subprocess.Popen[bytes] | None = None
    link: subprocess.Popen[bytes] | None = None
    seed_base: str = ""
    credentials: Path | None = None
    done: bool = False
    kills: dict[str, int] = field(default_factory=lambda: {"kiosk": 0, "link": 0})

    @property
    def database(self) -> Path:
        return self.directory / "kiosk.db"

    @property
    def config(self) -> Path:
        return self.directory / "config.toml"

    @property
    def script(self) -> Path:
        return self.directory / "script.txt"

    @property
    def decks(self) -> Path:
        return self.directory / "decks.txt"

    @property
    def log(self) -> Path:
        return self.directory / "log.txt"

    def prepare(self, number: int, credentials: Path) -> None:
        self.directory.mkdir()
        books(self.database).close()
        self.config.write_text(
            f'[terminal]\ndatabase = "{self.database}"\n[link]\ncredentials = "{credentials}"\n'
            # The hub stopped, the link cut, an agent killed: each for seconds, not the minute
            # after which the linked cabinets would close the bonus bet they all play.
            f'jackpot = "{self.jackpot}"\nbatch = 20\nretry_max = 1\noffline_after = 60\n',
            encoding="utf-8",
        )
        self.script.write_text(script(number, self.name in HITS), encoding="utf-8")
        self.seed_base = f"{number + 1:02x}" * 32
        self.credentials = credentials

    def _spawn(self, *arguments: str) -> subprocess.Popen[bytes]:
        with self.log.open("ab") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "oasis_kiosk", *arguments, "--config", str(self.config)],
                env=ENVIRONMENT,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )

    def start_kiosk(self) -> None:
        arguments = ["--script", str(self.script), "--db", str(self.database), "--seed-base", self.seed_base]
        if self.name in HITS:
            self.decks.write_text("\n" * (HITS[self.name] - 1) + ROYAL + "\n", encoding="utf-8")
            arguments += ["--decks", str(self.decks)]
        self.kiosk = self._spawn("run", "--headless", *arguments)

    def start_link(self) -> None:
        self.link = self._spawn("link")

    def link_listens(self) -> bool:
        """Its agent has set its SIGTERM handler (the kernel's mask of caught signals says
        so): a SIGTERM sooner, to an agent started again a moment ago, would end it before
        it could stop cleanly."""
        assert self.link is not None
        status = Path(f"/proc/{self.link.pid}/status").read_text(encoding="ascii")
        caught = int(next(line for line in status.splitlines() if line.startswith("SigCgt:")).split()[1], 16)
        return bool(caught & 1 << (signal.SIGTERM - 1))

    def look_after(self) -> None:
        """Notes a kiosk that finished its script; starts again what a SIGKILL stopped; any
        other end is a failure."""
        if self.kiosk is not None and (code := self.kiosk.poll()) is not None:
            assert code in (0, -signal.SIGKILL), f"{self.name}: the kiosk ended with {code}:\n{self.tail()}"
            self.kiosk = None
            if code == 0:
                self.done = True
            else:
                self.start_kiosk()
        if self.link is not None and (code := self.link.poll()) is not None:
            assert code == -signal.SIGKILL, f"{self.name}: the link ended with {code}:\n{self.tail()}"
            self.start_link()

    def kill(self, which: str) -> bool:
        process = self.kiosk if which == "kiosk" else self.link
        if process is None or process.poll() is not None:
            return False
        process.send_signal(signal.SIGKILL)
        self.kills[which] += 1
        return True

    def tail(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-3000:]

    def stop(self) -> None:
        for process in (self.kiosk, self.link):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()


def credit(cabinet: Cabinet) -> None:
    """The hit cabinet's terminal opened as the kiosk opens it, which credits the award its
    agent has from the hub if the script ended before it did."""
    assert cabinet.credentials is not None
    config = Config(database=cabinet.database, link=LinkConfig(cabinet.credentials, jackpot="linked"))
    t = Terminal(config, Store(cabinet.database, outbox=Outbox(linked_jackpot=True)), link=link_state(config))
    try:
        if t.mode is not Mode.JACKPOT_PENDING:
            return  # credited while the script played on
        link = t.link
        assert link is not None

        def awarded() -> bool:
            link.refresh(force=True)
            return t.follow_link() is not None

        wait_for(awarded, 30, "the award")
        assert t.mode is not Mode.JACKPOT_PENDING
    finally:
        t.store.close()


def link_state_of(cabinet: Cabinet) -> LinkState:
    """What the cabinet's kiosk reads of its agent's file."""
    state = link_state(Config(database=cabinet.database, link=LinkConfig(Path("hub.toml"), jackpot="linked")))
    assert state is not None
    return state


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not in {seconds:.0f} s: {what}"
        time.sleep(0.1)


@pytest.fixture
def own_server() -> Iterator[Postgres]:
    """A PostgreSQL server of this test's own, which it may kill and start again: durable,
    as a hub in production, since with ``synchronous_commit`` off a kill loses commits the
    cabinets were already told of (an award among them)."""
    server = Postgres.start(durable=True)
    try:
        yield server
    finally:
        server.stop()


def held(floor: FloorHub) -> dict[str, int]:
    """Each cabinet's highest sequence number the hub holds; {} while it cannot be reached."""
    try:
        with psycopg.connect(floor.owner_dsn, connect_timeout=2) as connection:
            rows = connection.execute("SELECT name, last_seq FROM hub.cabinets").fetchall()
    except psycopg.OperationalError:
        return {}
    return {str(name): int(seq) for name, seq in rows}


def hub_events(owner: psycopg.Connection[Any], name: str) -> list[tuple[int, str, Any, datetime]]:
    rows = owner.execute(
        "SELECT e.seq, e.kind, e.payload, e.committed_at FROM hub.events e"
        " JOIN hub.cabinets c ON c.id = e.cabinet_id WHERE c.name = %s ORDER BY e.seq",
        (name,),
    ).fetchall()
    return [(int(seq), kind, payload, at) for seq, kind, payload, at in rows]


@pytest.mark.slow
def test_a_floor_of_twenty_cabinets_survives_the_hub_a_cut_link_and_kills(
    own_server: Postgres, tmp_path: Path
) -> None:
    began = time.monotonic()
    floor = new_hub(own_server, tmp_path)
    cabinets = [
        Cabinet(f"c{number:02d}", tmp_path / f"c{number:02d}", "linked" if number % 2 else "local")
        for number in range(CABINETS)
    ]
    # c00 reaches the hub through the relay that will be cut.
    relay = Relay(own_server.port)
    for number, cabinet in enumerate(cabinets):
        credentials = floor.add_cabinet(cabinet.name)
        if number == 0:
            relayed = tmp_path / "c00-relayed.toml"
            access.write_credentials(
                relayed, replace(access.read_credentials(credentials), port=relay.port), "hub"
            )
            credentials = relayed
        cabinet.prepare(number, credentials)
    floor.owner.close()
    rng = random.Random(15)
    try:
        for cabinet in cabinets:
            cabinet.start_link()
        # A linked cabinet's bonus bet is closed until its agent has reached the hub.
        linked_cabinets = [cabinet for cabinet in cabinets if cabinet.jackpot == "linked"]
        wait_for(
            lambda: all(link_state_of(c).online for c in linked_cabinets),
            60,
            "the linked cabinets' agents reach the hub",
        )
        for cabinet in cabinets:
            cabinet.start_kiosk()

        def look_after_all() -> None:
            for cabinet in cabinets:
                cabinet.look_after()

        def play_on(seconds: float) -> None:
            """Looks after the cabinets for ``seconds``, SIGKILLing a kiosk or an agent at
            random about every 1.2 s."""
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                look_after_all()
                if rng.random() < 0.08:
                    rng.choice(cabinets).kill(rng.choice(["kiosk", "link"]))
                time.sleep(0.1)

        def sending() -> bool:
            play_on(0.2)
            return sum(seq > 0 for seq in held(floor).values()) >= CABINETS // 2

        wait_for(sending, 60, "half the cabinets' events reach the hub")

        # The hub is killed while the cabinets play, and starts again.
        playing = [cabinet.name for cabinet in cabinets if not cabinet.done]
        assert len(playing) >= CABINETS // 2, f"the hub is killed mid-run: only {playing} still play"
        own_server.kill()
        assert held(floor) == {}
        play_on(2.0)
        own_server.resume()
        assert "automatic recovery in progress" in own_server.log.read_text(), "the hub restarts from a crash"

        # Three kiosks still playing and three agents are killed at once, besides those at random.
        for which in ("kiosk", "link"):
            running = [c for c in cabinets if not c.done and (c.kiosk if which == "kiosk" else c.link)]
            for cabinet in rng.sample(running, 3):
                cabinet.kill(which)

        # The link of c00 is cut: nothing of it reaches the hub while its kiosk plays on.
        relay.cut()
        time.sleep(0.2)
        before = held(floor)["c00"]
        play_on(2.5)
        assert held(floor)["c00"] == before, "nothing passes a cut link"
        relay.restore()

        # Play to the end of every script, the kills going on, then the agents catch up.
        def finished() -> bool:
            play_on(0.2)
            return all(cabinet.done for cabinet in cabinets)

        wait_for(finished, 120, "every kiosk finishes its script")
        kills = {which: sum(cabinet.kills[which] for cabinet in cabinets) for which in ("kiosk", "link")}
        assert kills["kiosk"] >= 3, kills
        assert kills["link"] >= 3, kills

        def caught_up() -> bool:
            look_after_all()
            holds = held(floor)
            return all(holds.get(c.name) == agent.outbox_last(c.database) for c in cabinets)

        wait_for(caught_up, 60, "every agent sends its whole outbox")

        # Each hit is claimed by its agent; the kiosk, started again, credits the award.
        def claimed() -> bool:
            look_after_all()
            with psycopg.connect(floor.owner_dsn) as connection:
                row = connection.execute("SELECT count(*) FROM hub.awards").fetchone()
            return row is not None and row[0] == len(HITS)

        wait_for(claimed, 60, "every hit is claimed")
        for cabinet in cabinets:
            if cabinet.name in HITS:
                credit(cabinet)
        wait_for(caught_up, 60, "every agent sends the awards' rows")
        wait_for(
            lambda: all(c.link_listens() for c in cabinets), 30, "every agent started listens for SIGTERM"
        )
        for cabinet in cabinets:
            assert cabinet.link is not None
            cabinet.link.send_signal(signal.SIGTERM)
        for cabinet in cabinets:
            assert cabinet.link is not None
            assert cabinet.link.wait(15) == 0, cabinet.tail()
            cabinet.link = None
    finally:
        relay.close()
        for cabinet in cabinets:
            cabinet.stop()

    # The hub holds every cabinet's outbox exactly once, as the books wrote it.
    owner = access.connect(floor.owner_dsn)
    awards = {str(r): int(a) for r, a in owner.execute("SELECT round_id, amount FROM hub.awards")}
    assert len(awards) == len(HITS), awards
    stakes: dict[str, list[int]] = {}
    for cabinet in cabinets:
        store = Store(cabinet.database, read_only=True)
        try:
            rows = store.outbox_rows(0, 1_000_000)
            ledger = store.ledger()
        finally:
            store.close()
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
        assert hub_events(owner, cabinet.name) == [
            (row.seq, row.kind, row.payload, datetime.fromisoformat(row.committed_at)) for row in rows
        ], f"{cabinet.name}: the hub holds its outbox exactly"
        hits = [row.payload["round_id"] for row in rows if row.kind == "jackpot_hit"]
        credited = [(row.round_id, row.amount) for row in ledger if row.kind == "jackpot_hit"]
        if cabinet.name in HITS:
            books_id = Store(cabinet.database, read_only=True)
            try:
                assert books_id.books is not None
                expected_round = hub_round_id(books_id.books.id, HITS[cabinet.name])
            finally:
                books_id.close()
            assert hits == [expected_round], f"{cabinet.name}: one hit, in its stacked round"
            assert credited == [(HITS[cabinet.name], awards[expected_round])], (
                f"{cabinet.name}: the hub's award credited once"
            )
        else:
            assert hits == [], f"{cabinet.name} hit the jackpot"
            assert credited == [], f"{cabinet.name} was credited a jackpot"
        stakes[cabinet.name] = [row.detail["stake"] for row in ledger if row.kind == "jackpot_contribution"]
        assert stakes[cabinet.name], f"{cabinet.name}: its rounds fed the jackpot"

    # Every bonus stake of a linked cabinet reached the pool once; a local cabinet's none.
    contributions = dict(
        owner.execute(
            "SELECT c.name, array_agg(k.stake ORDER BY k.seq) FROM hub.contributions k"
            " JOIN hub.cabinets c ON c.id = k.cabinet_id GROUP BY c.name"
        ).fetchall()
    )
    linked = [cabinet.name for cabinet in cabinets if cabinet.jackpot == "linked"]
    assert contributions == {name: stakes[name] for name in linked}
    fed = sum(sum(stakes[name]) for name in linked)
    assert (
        hub.pool(owner).value + sum(awards.values()) == RESET * (1 + len(HITS)) + fed * RATE_PPM // 1_000_000
    )
    owner.close()

    # And the hub's reconciliation finds nothing.
    command = [sys.executable, "-m", "oasis_kiosk", "hub", "reconcile", "--dsn", floor.owner_dsn]
    for cabinet in cabinets:
        command += ["--books", f"{cabinet.name}={cabinet.database}"]
    result = subprocess.run(command, env=ENVIRONMENT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(": agree") == CABINETS, result.stdout
    print(f"floor test: {kills} kills, {time.monotonic() - began:.1f} s")
