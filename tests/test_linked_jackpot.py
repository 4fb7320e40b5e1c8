"""The linked jackpot on a cabinet, against a real hub (tests/postgres.py): the meter shown is
the hub's pool as the link agent writes it beside the books; a hit locks the cabinet up as
"jackpot pending" until the agent's claim is answered, and the award is credited (or
handpaid) once, whatever power cut falls in between; while the link is down the bonus bet
that feeds the jackpot is refused (or, by configuration, all play)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest
from floor import ROYAL, SEEDS, FloorHub, linked_terminal, play, push, restrict_server_functions
from psycopg import sql
from support import books
from test_screen import CheckedSurface, checked, settle
from test_screen import _texts_are_known as _texts_are_known  # the screen's texts are noted

from oasis_kiosk import i18n
from oasis_kiosk.cli import main
from oasis_kiosk.config import Config, ConfigError, LinkConfig
from oasis_kiosk.floor import access, agent, hub, reconcile
from oasis_kiosk.floor.errors import PoolShortError
from oasis_kiosk.machine import linked
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store
from oasis_kiosk.store.outbox import Outbox, hub_round_id
from oasis_kiosk.ui.app import App
from oasis_kiosk.ui.prompt import sentence
from oasis_kiosk.ui.screenshots import Clock as ScreenClock
from oasis_kiosk.ui.view import cash_for, snapshot

PENDING = "Jackpot pending: the award is being confirmed"
BONUS_CLOSED = "the linked jackpot is offline: the bonus bet is closed"
NO_PLAY = "the linked jackpot is offline: the cabinet takes no play"


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def cabinet(
    database: Path,
    credentials: Path,
    *,
    deck: Callable[[int], str] | None = None,
    clock: Callable[[], float] = time.time,
    **link: Any,
) -> Terminal:
    """A linked cabinet as ``oasis-kiosk run`` opens it with ``[link] jackpot = "linked"``."""
    if not database.exists():
        books(database).close()
    handpay_limit = link.pop("handpay_limit", 1_000_000)
    config = Config(
        database=database,
        handpay_limit=handpay_limit,
        link=LinkConfig(credentials, jackpot="linked", **link),
    )
    store = Store(database, outbox=Outbox(linked_jackpot=True))
    state = linked.link_state(config)
    assert state is not None
    state = replace(state, clock=clock)
    if deck is not None:
        return Terminal(config, store, deck_for_round=deck, link=state)
    return Terminal(config, store, seed_for_round=SEEDS, link=state)


def contact(database: Path, credentials: Path, t: Terminal | None = None) -> None:
    """One pass of the link agent: the outbox pushed, hits claimed, the pool written; then
    ``t`` reads the agent's file at once (the kiosk reads it a few times a second)."""
    link = agent.Agent(database, credentials, batch=50)
    try:
        link.push_all()
    finally:
        link.close()
    if t is not None and t.link is not None:
        t.link.refresh(force=True)


def feed(t: Terminal, *inputs: str) -> None:
    for line in inputs:
        intent, *value = line.split()
        response = t.handle(intent, int(value[0]) if value else None)
        assert response.ok, (line, response.message)


def hit(t: Terminal) -> None:
    """A royal flush with the bonus bet: the linked jackpot is hit."""
    if not t.bonus_stake:
        feed(t, "bonus")
    feed(t, "deal", "play")
    assert t.round is None
    assert t.jackpot_pending is not None
    assert t.mode in {Mode.JACKPOT_PENDING, Mode.HANDPAY}, "a handpay of the round's own win comes first"


def a_linked_hit(floor: FloorHub, tmp_path: Path) -> tuple[Terminal, Path, Path]:
    """Cabinet c01, linked to the hub, with a bill in and its pool read, hits the jackpot:
    the terminal, its books and its credentials."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials, deck=lambda number: ROYAL)
    feed(t, "bill 5000")
    contact(database, credentials, t)
    hit(t)
    return t, database, credentials


def wait_for(condition: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not reached in time"
        time.sleep(0.05)


def jackpot_rows(t: Terminal) -> list[Any]:
    return [row for row in t.store.ledger() if row.kind in {"jackpot_hit", "handpaid_win"}]


def awards_at_hub(floor: FloorHub) -> list[tuple[str, int]]:
    return [(str(r), int(a)) for r, a in floor.owner.execute("SELECT round_id, amount FROM hub.awards")]


@pytest.mark.parametrize("unlinked", [None, "local"])
def test_a_restart_that_cannot_claim_a_pending_linked_hit_is_refused_naming_it(
    tmp_path: Path, unlinked: str | None
) -> None:
    """A hit waits for the hub's award; a restart with ``[link]`` gone or the jackpot made
    local had locked the cabinet up for good (no award could ever come, the credit could
    not be cashed out), with no error. It is refused, naming the round, and nothing is
    written: restoring the link claims it."""
    database, credentials = tmp_path / "kiosk.db", tmp_path / "hub.toml"
    agent_file = sqlite3.connect(linked.link_path(database), isolation_level=None)
    linked.create(agent_file)
    linked.write_pool(agent_file, 2_000_000, time.time())
    agent_file.close()
    t = cabinet(database, credentials, deck=lambda number: ROYAL)
    feed(t, "bill 5000")
    hit(t)
    round_id = t.jackpot_pending["round_id"] if t.jackpot_pending else None
    t.store.close()
    before = database.read_bytes()
    link = None if unlinked is None else LinkConfig(credentials, jackpot=unlinked)
    with pytest.raises(ConfigError, match=f"a linked jackpot hit of round {round_id} waits for the hub"):
        Terminal(Config(database=database, link=link), Store(database))
    assert database.read_bytes() == before, "nothing written"
    again = cabinet(database, credentials, deck=lambda number: ROYAL)
    assert again.mode is Mode.JACKPOT_PENDING, "the hit is still pending, claimed as before"


def test_the_meter_shown_is_the_hubs_pool_as_the_agent_last_read_it(floor: FloorHub, tmp_path: Path) -> None:
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials)
    contact(database, credentials, t)
    play(t, 5)
    contact(database, credentials, t)
    assert t.link is not None
    t.link.refresh(force=True)
    pool = hub.pool(floor.owner).value
    assert pool > 1000, "the stakes fed it"
    assert t.jackpot_shown == pool
    assert t.link_offline() is None
    t.store.close()


def test_a_linked_cabinets_own_meter_stands_still_while_its_stakes_feed_the_hubs_pool(
    floor: FloorHub, tmp_path: Path
) -> None:
    """Stakes that fed the floor's pool do not also grow the cabinet's own meter, which a
    cabinet set back to its own jackpot would then pay from a second time."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials)
    contact(database, credentials, t)
    own_before = t.jackpot
    contributions_before = t.store.meters().get("jackpot_contributions", 0)
    play(t, 5)
    contact(database, credentials, t)
    assert hub.pool(floor.owner).value > 1000, "the stakes fed the floor's pool"
    assert t.jackpot == own_before
    assert t.store.meters().get("jackpot_contributions", 0) == contributions_before
    fed = [row for row in t.store.ledger() if row.kind == "jackpot_contribution"]
    assert len(fed) == 5, "each stake is on the books, as the hub's reconciliation reads it"
    assert all(row.detail["to_meter"] == 0 for row in fed)
    assert audit(t.store).problems == []
    t.store.close()
    # [link] kept, jackpot = "local": books that send to a hub are written only with it
    alone = Terminal(Config(database=database), Store(database, outbox=Outbox()), seed_for_round=SEEDS)
    assert alone.jackpot_shown == own_before.value, "set back to its own jackpot: as it stood"
    alone.store.close()


def test_a_linked_hit_is_awarded_the_hubs_pool_and_credited_once(floor: FloorHub, tmp_path: Path) -> None:
    t, database, credentials = a_linked_hit(floor, tmp_path)
    books_id = t.store.books.id if t.store.books else ""
    assert not t.live() & {"deal", "bill", "coin", "bonus"}, "no play while the award is confirmed"
    refused = t.handle("bonus")
    assert not refused.ok
    assert refused.message == "bonus is not possible while the jackpot is being confirmed"
    assert t.follow_link() is None, "the agent has not claimed it yet"
    assert audit(t.store).problems == [], "the books agree with a hit pending"
    credits = t.credits
    contact(database, credentials)  # pushes the hit, claims it, records the award
    pool_before = (
        1000
        + sum(
            row.payload["stake"]
            for row in t.store.outbox_rows(0, 10_000)
            if row.kind == "jackpot_contribution"
        )
        * 100_000
        // 1_000_000
    )
    [(round_id, amount)] = awards_at_hub(floor)
    assert round_id == hub_round_id(books_id, 1)
    assert amount == pool_before, "the award is the hub's pool at the claim"
    assert t.link is not None
    t.link.refresh(force=True)
    response = t.follow_link()
    assert response is not None
    assert response.ok
    assert t.mode is Mode.BETTING
    assert t.credits == credits + amount
    assert [(row.kind, row.amount) for row in jackpot_rows(t)] == [("jackpot_hit", amount)]
    assert t.store.meters()["jackpots_paid"] == amount
    assert audit(t.store).problems == []
    # Claimed again (by the agent, or anyone of the cabinet): the same answer, nothing moves.
    again = hub.claim(floor.cabinet("c01"), round_id, 0)
    assert again.amount == amount
    contact(database, credentials)
    t.link.refresh(force=True)
    assert t.follow_link() is None
    assert t.credits == credits + amount
    assert len(awards_at_hub(floor)) == 1
    assert t.jackpot_shown == hub.pool(floor.owner).value == 1000, "the pool starts again at its reset"
    t.store.close()


def test_a_floor_whose_server_functions_are_restricted_plays_and_pays_as_before(
    floor: FloorHub, tmp_path: Path
) -> None:
    """After server_functions.sql (no login but the owner takes an advisory lock, none
    notifies), the link agent pushes stakes, claims a hit and reads the pool as before."""
    restrict_server_functions(floor.server, floor.dbname)
    t, database, credentials = a_linked_hit(floor, tmp_path)
    contact(database, credentials, t)
    [(_, amount)] = awards_at_hub(floor)
    assert amount > 1000, "the stakes fed the pool, and the hit won it"
    credits = t.credits
    response = t.follow_link()
    assert response is not None
    assert response.ok
    assert t.credits == credits + amount
    assert t.jackpot_shown == hub.pool(floor.owner).value == 1000
    assert audit(t.store).problems == []
    t.store.close()


@pytest.mark.parametrize("short", [False, True], ids=["pool-whole", "pool-short-first"])
def test_a_hub_restored_from_a_backup_older_than_an_award_is_told_it_and_never_pays_it_again(
    floor: FloorHub, postgres: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short: bool
) -> None:
    """The hub's database restored from its backup, taken before a hit: the agent sends the
    outbox again, and the award its file holds (the kiosk credited it) is told to the hub,
    which takes it from the pool it was back in; the hit does not wait for ever, and the
    parameters can change. A pool short of the award (other cabinets' stakes not yet sent
    again) is no stop: the agent tells it again at its next pass."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials, deck=lambda number: ROYAL)
    feed(t, "bill 5000")
    contact(database, credentials, t)
    hub.set_parameters(floor.owner, "tests", reset=5000)
    floor.owner.close()
    backup = floor.dbname + "_backup"
    with postgres.connect(autocommit=True) as admin:
        admin.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(*map(sql.Identifier, (backup, floor.dbname)))
        )
    floor.owner = access.connect(floor.owner_dsn)
    hit(t)
    contact(database, credentials, t)
    assert t.follow_link() is not None, "the award credited"
    play(t, 1)  # a stake after the award: 20 on the pool the award left
    contact(database, credentials, t)
    [(round_id, amount)] = awards_at_hub(floor)
    assert amount == 5020
    pool = hub.pool(floor.owner)
    assert pool.value == 5020
    floor.owner.close()
    with postgres.connect(autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(floor.dbname)))
        admin.execute(
            sql.SQL("ALTER DATABASE {} RENAME TO {}").format(*map(sql.Identifier, (backup, floor.dbname)))
        )
    floor.owner = access.connect(floor.owner_dsn)
    assert hub.pool(floor.owner).value == 5000, "restored: no hit, no award"

    if short:
        told = hub.claim_paid

        def pool_short(*args: Any, **keywords: Any) -> hub.Award:
            monkeypatch.setattr(hub, "claim_paid", told)
            raise PoolShortError("the pool holds less now")

        monkeypatch.setattr(hub, "claim_paid", pool_short)
        link = agent.Agent(database, credentials, batch=50)
        try:
            link.push_all()  # refused once, told again at a later pass: no stop
        finally:
            link.close()
        assert t.link is not None
        t.link.refresh(force=True)
    else:
        contact(database, credentials, t)
    assert awards_at_hub(floor) == [(round_id, 5020)], "the award paid, once"
    assert floor.owner.execute("SELECT reported FROM hub.awards").fetchone() == (True,)
    assert hub.pending_hits(floor.owner) == []
    assert hub.pool(floor.owner).value == pool.value, "the pool as it was, not the award again"
    contact(database, credentials, t)
    assert len(awards_at_hub(floor)) == 1
    assert hub.set_parameters(floor.owner, "tests", rate_ppm=50_000).new["rate_ppm"] == 50_000
    assert [(row.kind, row.amount) for row in jackpot_rows(t)] == [("jackpot_hit", 5020)], "credited once"
    assert reconcile.compare(floor.owner, "c01", database).agrees
    assert reconcile.check_pool(floor.owner) == [], "the pool agrees with the hub's records"
    t.store.close()


def test_two_boxes_hitting_in_one_round_are_two_claims_each_credited_once(
    floor: FloorHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials, deck=lambda number: "As Ks Qs Js Ts / Ah Kh Qh Jh Th / 2c 2d 4h 5h 7c")
    feed(t, "bill 5000", "bill 5000", "boxes")
    contact(database, credentials, t)
    feed(t, "bonus", "deal", "play", "play")
    assert t.mode is Mode.JACKPOT_PENDING
    books_id = t.store.books.id if t.store.books else ""
    round_id = hub_round_id(books_id, 1)
    hits = [row.payload for row in t.store.outbox_rows(0, 10_000) if row.kind == "jackpot_hit"]
    assert hits == [{"round_id": round_id, "box": 0}, {"round_id": round_id, "box": 1}], "one hit per box"
    credits = t.credits
    # The agent dies after it wrote the first box's award down, before it claimed the second.
    write_award = linked.write_award
    written: list[int] = []

    def killed_after_one(*args: Any, **keywords: Any) -> None:
        if written:
            raise PowerCut
        write_award(*args, **keywords)
        written.append(1)

    monkeypatch.setattr(linked, "write_award", killed_after_one)
    with pytest.raises(PowerCut):
        contact(database, credentials)
    monkeypatch.undo()
    assert t.link is not None
    t.link.refresh(force=True)
    assert t.follow_link() is None, "the round's hits are credited together, once both are answered"
    assert t.mode is Mode.JACKPOT_PENDING
    contact(database, credentials, t)
    awards = floor.owner.execute("SELECT round_id, box, amount FROM hub.awards ORDER BY box").fetchall()
    assert awards == [(round_id, 0, 1040), (round_id, 1, 1000)], "the pool, then its reset value"
    own = sqlite3.connect(linked.link_path(database))
    assert linked.awards(own) == {(round_id, 0): (1040, False), (round_id, 1): (1000, True)}, (
        "the agent's file keeps the hub's answer at once, which a restored hub is told with the award"
    )
    own.close()
    response = t.follow_link()
    assert response is not None
    assert response.ok
    assert (t.mode, t.credits) == (Mode.BETTING, credits + 2040)
    assert [(row.kind, row.amount, row.detail["box"]) for row in jackpot_rows(t)] == [
        ("jackpot_hit", 1040, 0),
        ("jackpot_hit", 1000, 1),
    ]
    assert t.store.meters()["jackpots_paid"] == 2040
    assert audit(t.store).problems == []
    contact(database, credentials, t)
    assert t.follow_link() is None
    assert t.credits == credits + 2040
    assert len(awards_at_hub(floor)) == 2
    t.store.close()


def release_before_boxes(t: Terminal, database: Path, award: int | None = None) -> None:
    """Writes ``t``'s pending hit as the release before hits were claimed per box (hub
    migration 0006) left it: the pending state and the outbox's hit name no box, and the
    agent's file keys its awards by round alone (with ``award`` for the round, if given)."""
    state = t.store.get_state("terminal")
    pending = {key: value for key, value in state["jackpot_pending"].items() if key != "boxes"}
    with t.store.transaction():
        t.store.set_state("terminal", {**state, "jackpot_pending": pending})
    books = sqlite3.connect(database)
    with books:
        books.execute("UPDATE outbox SET payload = json_remove(payload, '$.box') WHERE kind = 'jackpot_hit'")
    books.close()
    link_file = sqlite3.connect(linked.link_path(database))
    with link_file:
        link_file.execute("DROP TABLE awards")
        link_file.execute(
            """CREATE TABLE awards (
                   round_id TEXT PRIMARY KEY,
                   amount INTEGER NOT NULL CHECK (amount >= 0),
                   claimed_at TEXT NOT NULL
               )"""
        )
        if award is not None:
            link_file.execute(
                "INSERT INTO awards VALUES (?, ?, '2026-11-30T10:00:00.000+00:00')",
                (pending["hub_round_id"], award),
            )
    link_file.close()
    t.store.close()


@pytest.mark.parametrize("claimed_before", [False, True])
def test_a_hit_pending_from_the_release_before_boxes_is_claimed_and_credited_once(
    floor: FloorHub, tmp_path: Path, claimed_before: bool
) -> None:
    """Its one hit is box 0, as the hub's migration made the awards of that release: sent
    and claimed after the upgrade, or already claimed and only to be credited."""
    t, database, credentials = a_linked_hit(floor, tmp_path)
    credits = t.credits
    earlier_award = None
    if claimed_before:
        # The release before sent the hit and claimed it: the hub holds the hit and the award.
        contact(database, credentials)
        [(earlier_award,)] = floor.owner.execute("SELECT amount FROM hub.awards").fetchall()
    release_before_boxes(t, database, earlier_award)
    t = cabinet(database, credentials, deck=lambda number: ROYAL)
    assert t.mode is Mode.JACKPOT_PENDING, "the upgraded cabinet is still locked up"
    contact(database, credentials, t)
    books_id = t.store.books.id if t.store.books else ""
    [(round_id, box, amount)] = floor.owner.execute("SELECT round_id, box, amount FROM hub.awards").fetchall()
    assert (round_id, box) == (hub_round_id(books_id, 1), 0), "the round's one hit is box 0"
    if claimed_before:
        assert amount == earlier_award, "the award already made, not a second claim of the pool"
    response = t.follow_link()
    assert response is not None
    assert response.ok, response.message
    assert (t.mode, t.credits) == (Mode.BETTING, credits + amount)
    assert [(row.kind, row.amount) for row in jackpot_rows(t)] == [("jackpot_hit", amount)]
    assert audit(t.store).problems == []
    contact(database, credentials, t)
    assert t.follow_link() is None
    assert t.credits == credits + amount
    assert len(awards_at_hub(floor)) == 1
    t.store.close()


def test_an_award_over_the_handpay_limit_is_handpaid(floor: FloorHub, tmp_path: Path) -> None:
    hub.set_parameters(floor.owner, "tests", reset=50_000)
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials, deck=lambda number: ROYAL, handpay_limit=20_000)
    feed(t, "bill 5000")
    contact(database, credentials, t)
    hit(t)
    won = t.handpay or 0
    if t.mode is Mode.HANDPAY:  # the round's own win is over the limit too: paid first
        assert t.follow_link() is None
        feed(t, "attendant")
    assert t.mode is Mode.JACKPOT_PENDING
    contact(database, credentials, t)
    [(_round, amount)] = awards_at_hub(floor)
    assert amount >= 50_000
    credits = t.credits
    response = t.follow_link()
    assert response is not None
    assert response.ok
    assert (t.mode, t.handpay) == (Mode.HANDPAY, amount)
    assert t.credits == credits, "a handpay never goes on the credits"
    feed(t, "attendant")
    assert (t.handpay, t.mode) == (None, Mode.BETTING)
    assert [row.detail["jackpot"] for row in jackpot_rows(t)][-1] == amount
    assert t.store.meters()["jackpots_paid"] == amount
    assert t.store.meters()["handpays"] == won + amount
    assert audit(t.store).problems == []
    t.store.close()


def test_a_round_whose_win_with_its_award_reaches_the_limit_has_its_award_handpaid(
    floor: FloorHub, tmp_path: Path
) -> None:
    """The round's own win under the handpay limit goes on the credits at once; the hub's
    award under it too, but with that win over it: the award is the attendant's to pay, as
    the same round on the cabinet's own meter would be handpaid whole (each part had gone on
    the credits)."""
    hub.set_parameters(floor.owner, "tests", reset=200_000)
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials, deck=lambda number: ROYAL, handpay_limit=300_000)
    feed(t, "bill 5000")
    contact(database, credentials, t)
    before = t.credits
    hit(t)
    assert t.jackpot_pending is not None
    round_win = t.jackpot_pending["round_win"]
    assert 0 < round_win < 300_000
    assert t.mode is Mode.JACKPOT_PENDING, "the round's own win went on the credits"
    contact(database, credentials, t)
    [(_round, amount)] = awards_at_hub(floor)
    assert amount < 300_000 <= amount + round_win
    credits = t.credits
    response = t.follow_link()
    assert response is not None
    assert response.ok
    assert (t.mode, t.handpay) == (Mode.HANDPAY, amount)
    assert t.credits == credits == before + round_win, "the award never went on the credits"
    i18n.use("en")
    _kind, _title, shown, *said = snapshot(t).overlay
    assert shown == cash_for(t)(amount)
    assert "The linked jackpot's award" in said, "WIN shows the round's win: the panel says what it pays"
    feed(t, "attendant")
    assert t.store.meters()["jackpots_paid"] == amount
    assert audit(t.store).problems == []
    t.store.close()


class PowerCut(BaseException):
    """The power goes: nothing after it runs, and the transaction under way never commits."""


@pytest.mark.parametrize(
    "cut", ["before_the_claim", "after_the_claim", "inside_the_credit", "after_the_credit"]
)
def test_a_power_cut_anywhere_in_a_linked_hit_resumes_exactly(
    floor: FloorHub, tmp_path: Path, cut: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, database, credentials = a_linked_hit(floor, tmp_path)
    credits = t.credits
    if cut != "before_the_claim":
        contact(database, credentials)
        assert t.link is not None
        t.link.refresh(force=True)
    if cut == "inside_the_credit":
        original = t.store.add_meter

        def power_goes(name: str, amount: int) -> None:
            original(name, amount)
            if name == "coin_out":
                raise PowerCut

        monkeypatch.setattr(t.store, "add_meter", power_goes)
        with pytest.raises(PowerCut):
            t.follow_link()
        monkeypatch.undo()
    elif cut == "after_the_credit":
        assert t.follow_link() is not None
        assert t.credits > credits
    t.store.close()  # the power is cut: the process ends here
    # The power returns: a new kiosk on the same books.
    t = cabinet(database, credentials, deck=lambda number: ROYAL)
    if cut == "after_the_credit":
        assert t.mode is Mode.BETTING
    else:
        assert t.mode is Mode.JACKPOT_PENDING, "the lock-up survives the power cut"
        assert t.credits == credits, "nothing of the award was credited"
    contact(database, credentials)
    assert t.link is not None
    t.link.refresh(force=True)
    t.follow_link()
    t.follow_link()
    [(_round, amount)] = awards_at_hub(floor)
    assert t.mode is Mode.BETTING
    assert t.credits == credits + amount, "the award landed exactly once"
    assert [(row.kind, row.amount) for row in jackpot_rows(t)] == [("jackpot_hit", amount)]
    assert audit(t.store).problems == []
    t.store.close()
    # Once more after everything: a restart changes nothing.
    t = cabinet(database, credentials, deck=lambda number: ROYAL)
    contact(database, credentials)
    assert t.follow_link() is None
    assert t.credits == credits + amount
    assert len(awards_at_hub(floor)) == 1
    t.store.close()


def test_an_agent_killed_between_its_claim_and_its_record_claims_again_for_the_same_award(
    floor: FloorHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, database, credentials = a_linked_hit(floor, tmp_path)
    credits = t.credits

    def killed(*args: Any, **keywords: Any) -> None:
        raise PowerCut

    monkeypatch.setattr(linked, "write_award", killed)
    first = agent.Agent(database, credentials, batch=50)
    with pytest.raises(PowerCut):
        first.push_all()
    first.close()
    monkeypatch.undo()
    [(_round, amount)] = awards_at_hub(floor)
    assert t.link is not None
    t.link.refresh(force=True)
    assert t.follow_link() is None, "the agent died before it wrote the answer down"
    contact(database, credentials)  # the next agent claims again: the hub answers the same
    assert awards_at_hub(floor) == [(_round, amount)]
    t.link.refresh(force=True)
    assert t.follow_link() is not None
    assert t.credits == credits + amount
    t.store.close()


def test_a_headless_scripted_cabinet_follows_the_link(
    floor: FloorHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    books(database).close()
    config = tmp_path / "config.toml"
    config.write_text(
        f'[terminal]\ndatabase = "{database}"\n[link]\ncredentials = "{credentials}"\njackpot = "linked"\n',
        encoding="utf-8",
    )
    decks = tmp_path / "decks.txt"
    decks.write_text(ROYAL + "\n", encoding="utf-8")

    def run_script(name: str, text: str) -> str:
        script = tmp_path / name
        script.write_text(text, encoding="utf-8")
        arguments = [
            "run",
            "--headless",
            "--config",
            str(config),
            "--script",
            str(script),
            "--decks",
            str(decks),
        ]
        assert main(arguments) == 0
        return capsys.readouterr().out

    # No agent has reached the hub yet: the linked jackpot is offline, its bonus bet closed.
    said = run_script("offline.txt", "bill 5000\nbonus\n")
    assert f"bonus: skipped: {BONUS_CLOSED}" in said
    link = agent.Agent(database, credentials, batch=50)
    pushing = threading.Thread(target=link.run)
    pushing.start()
    try:
        wait_for(lambda: linked.LinkState(database).pool is not None)
        # The hit is claimed by the agent and credited while the script still runs.
        said = run_script("hit.txt", "bonus\ndeal\nplay\n" + "wait 0.25\n" * 20)
    finally:
        link.stop()
        pushing.join(30)
    [(_round, amount)] = awards_at_hub(floor)
    assert amount == 1000 + 200 * 100_000 // 1_000_000, "the hub's pool, fed the bonus stake"
    store = Store(database, read_only=True)
    try:
        assert [(row.kind, row.amount) for row in store.ledger() if row.kind == "jackpot_hit"] == [
            ("jackpot_hit", amount)
        ]
        credits = store.credits()
    finally:
        store.close()
    assert f"script done: credits {credits}, jackpot {hub.pool(floor.owner).value}," in said


def test_while_the_link_is_down_the_bonus_bet_is_refused_and_the_rest_plays_on(
    floor: FloorHub, tmp_path: Path
) -> None:
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    clock = Clock()
    t = cabinet(database, credentials, clock=clock, offline_after=5.0)
    feed(t, "bill 5000")
    # No contact yet: the link is down.
    offline = t.link_offline()
    assert offline is not None
    assert offline.message == BONUS_CLOSED
    refused = t.handle("bonus")
    assert not refused.ok
    assert refused.message == BONUS_CLOSED
    assert t.bonus_stake == 0
    feed(t, "deal", "fold")  # the main game plays on
    # The link is up: the bonus is offered again.
    contact(database, credentials)
    assert t.link is not None
    t.link.refresh(force=True)
    assert t.link_offline() is None
    feed(t, "bonus", "deal", "fold")
    # The agent stops reaching the hub: after offline_after seconds the bonus closes again,
    # a deal with the bonus staked included, and a deal without it goes on.
    feed(t, "bill 5000")
    clock.now += 6
    t.link.refresh(force=True)
    assert t.link_offline() is not None
    refused = t.handle("deal")
    assert not refused.ok
    assert refused.message == BONUS_CLOSED
    feed(t, "bonus")  # the bonus taken off
    assert t.bonus_stake == 0
    feed(t, "deal", "fold")
    # Back again.
    contact(database, credentials)
    clock.now = time.time()
    t.link.refresh(force=True)
    feed(t, "bonus", "deal", "fold")
    t.store.close()


def test_with_offline_stop_the_cabinet_takes_no_play_while_the_link_is_down(
    floor: FloorHub, tmp_path: Path
) -> None:
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials, offline="stop")
    feed(t, "bill 5000")  # money is still taken
    offline = t.link_offline()
    assert offline is not None
    assert offline.message == NO_PLAY
    refused = t.handle("deal")
    assert not refused.ok
    assert refused.message == NO_PLAY
    contact(database, credentials)
    assert t.link is not None
    t.link.refresh(force=True)
    feed(t, "deal", "fold")
    t.store.close()


def test_the_link_file_is_the_agents_own_and_the_kiosk_only_reads_it(floor: FloorHub, tmp_path: Path) -> None:
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials)
    contact(database, credentials, t)
    play(t, 1)
    contact(database, credentials)
    raw = sqlite3.connect(linked.link_path(database))
    value, contact_at = raw.execute("SELECT value, contact_at FROM pool").fetchone()
    raw.close()
    assert value == hub.pool(floor.owner).value
    assert abs(contact_at - time.time()) < 60
    t.store.close()


def test_the_screen_shows_the_pending_panel(floor: FloorHub, tmp_path: Path) -> None:
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials, deck=lambda number: ROYAL)
    contact(database, credentials, t)
    clock = ScreenClock()
    app = App(t, size=(1024, 768), clock=clock)
    checked(app)
    feed(t, "bill 5000")
    hit(t)
    settle(app, clock)
    surface = app.screen
    assert isinstance(surface, CheckedSurface)
    surface.forget()
    app.repaint()
    shown = {text.content for text in surface.shown}
    assert "JACKPOT PENDING" in shown, shown
    assert any(PENDING in text for text in shown), shown
    assert not surface.faults()
    contact(database, credentials)
    assert t.link is not None
    t.link.refresh(force=True)
    app.update(0.1)  # the frame loop credits the award once the agent has it
    assert t.mode is Mode.BETTING
    settle(app, clock)
    surface.forget()
    app.repaint()
    assert "JACKPOT PENDING" not in {text.content for text in surface.shown}
    t.store.close()


def kiosk_process(config: Path, script: Path, decks: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "oasis_kiosk", "run", "--headless", "--config", str(config)]
    return subprocess.Popen(
        [*command, "--script", str(script), "--decks", str(decks)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def agent_process(config: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "oasis_kiosk", "link", "--config", str(config)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def sigkill(process: subprocess.Popen[bytes]) -> None:
    assert process.poll() is None, process.communicate()[1].decode()
    process.send_signal(signal.SIGKILL)
    process.communicate()  # closes its pipes


def test_a_kiosk_process_killed_in_a_pending_linked_hit_resumes_it_exactly(
    floor: FloorHub, tmp_path: Path
) -> None:
    """The kiosk (``run --headless --script``) and its agent (``oasis-kiosk link``) as the
    cabinet runs them, the kiosk SIGKILLed after its hit is booked and before the hub's award,
    then after its agent has the award and before the credit; started again, it credits the
    award once and the hub's reconciliation finds its books agreeing."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    books(database).close()
    config = tmp_path / "config.toml"
    # The royal flush's own win (the main game's) is over the handpay limit: the kiosk waits
    # in that handpay, the hit still pending behind it, until the attendant comes, which
    # holds the award back while the agent claims it; the award, with that win, is
    # handpaid too.
    config.write_text(
        f'[terminal]\ndatabase = "{database}"\n[money]\nhandpay_limit = 10000\n'
        f'[link]\ncredentials = "{credentials}"\njackpot = "linked"\noffline_after = 120\nretry_max = 1\n',
        encoding="utf-8",
    )
    decks = tmp_path / "decks.txt"
    decks.write_text(ROYAL + "\n", encoding="utf-8")

    def script(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    waits = "wait 0.25\n" * 120  # the kiosk plays on until it is killed

    # The agent reaches the hub (the bonus bet opens), then is killed: nothing claims the hit.
    link = agent_process(config)
    wait_for(lambda: linked.LinkState(database).pool is not None)
    sigkill(link)

    kiosk = kiosk_process(config, script("hit.txt", "bill 5000\nbonus\ndeal\nplay\n" + waits), decks)

    def hit_booked() -> bool:
        store = Store(database, read_only=True)
        try:
            return any(row.kind == "jackpot_hit" for row in store.outbox_rows(0, 10_000))
        finally:
            store.close()

    wait_for(hit_booked)
    sigkill(kiosk)  # the hit booked, the award not yet asked for
    store = Store(database, read_only=True)
    try:
        assert audit(store).problems == []
        assert not [row for row in store.ledger() if row.kind == "jackpot_hit"]
        credits = store.credits()
        books_id = store.books.id if store.books else ""
    finally:
        store.close()
    round_id = hub_round_id(books_id, 1)
    assert awards_at_hub(floor) == []

    # Started again, the kiosk waits in the round's handpay; the agent claims the award.
    kiosk = kiosk_process(config, script("handpay.txt", waits), decks)
    link = agent_process(config)
    wait_for(lambda: linked.LinkState(database).award(round_id, 0) is not None)
    sigkill(kiosk)  # the agent has the award, the kiosk has not credited it
    [(claimed, amount)] = awards_at_hub(floor)
    assert claimed == round_id
    assert amount == 1000 + 200 * 100_000 // 1_000_000, "the hub's reset value and the stake's share"
    store = Store(database, read_only=True)
    try:
        assert audit(store).problems == []
        assert not [row for row in store.ledger() if row.kind == "jackpot_hit"]
        assert store.credits() == credits
    finally:
        store.close()

    # Started again, the attendant pays the round's own win; the award, with a win over the
    # limit already, is the attendant's too, paid once.
    paid = "key attendant\nwait 0.5\nkey attendant\nwait 0.5\n"
    kiosk = kiosk_process(config, script("paid.txt", paid), decks)
    said, errors = kiosk.communicate(timeout=120)
    assert kiosk.returncode == 0, errors.decode()
    assert f"attendant: handpay of {amount} paid" in said.decode()
    assert f"script done: credits {credits}, jackpot 1000," in said.decode()
    store = Store(database, read_only=True)
    try:
        assert audit(store).problems == []
        assert not [row for row in store.ledger() if row.kind == "jackpot_hit"], "nothing credited"
        handpaid = [row.detail["jackpot"] for row in store.ledger() if row.kind == "handpaid_win"]
        assert handpaid == [0, amount], "the round's own win, then the award, each paid once"
        assert store.meters()["jackpots_paid"] == amount
        assert store.credits() == credits
    finally:
        store.close()

    # The hub holds the books' whole outbox, and its reconciliation finds them agreeing.
    wait_for(lambda: agent.confirmed(database) == agent.outbox_last(database))
    link.send_signal(signal.SIGTERM)
    _, stopped = link.communicate(timeout=15)
    assert link.returncode == 0, stopped.decode()
    assert awards_at_hub(floor) == [(round_id, amount)], "awarded once"
    reconcile = subprocess.run(
        [
            sys.executable,
            "-m",
            "oasis_kiosk",
            "hub",
            "reconcile",
            "--dsn",
            floor.owner_dsn,
            "--books",
            f"c01={database}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert reconcile.returncode == 0, reconcile.stdout + reconcile.stderr


class CutAt:
    """A link file whose writer is cut (a power cut, a SIGKILL) before one statement."""

    def __init__(self, db: sqlite3.Connection, statement: str) -> None:
        self.db, self.statement = db, statement

    def execute(self, sql: str, *parameters: Any) -> sqlite3.Cursor:
        if sql.lstrip().startswith(self.statement):
            raise PowerCut
        return self.db.execute(sql, *parameters)


@pytest.mark.parametrize(
    "cut", ["CREATE TABLE IF NOT EXISTS awards", "INSERT INTO awards", "DROP TABLE awards_by_round", "COMMIT"]
)
def test_a_link_file_from_before_boxes_cut_in_its_conversion_keeps_its_awards_and_converts_next_time(
    tmp_path: Path, cut: str
) -> None:
    path = tmp_path / "kiosk.db.link"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "CREATE TABLE awards (round_id TEXT PRIMARY KEY, amount INTEGER NOT NULL, claimed_at TEXT NOT NULL)"
    )
    db.execute("INSERT INTO awards VALUES ('books:7', 123456, '2026-11-30T10:00:00.000+00:00')")
    with pytest.raises(PowerCut):
        linked.create(cast(sqlite3.Connection, CutAt(db, cut)))
    db.close()
    db = sqlite3.connect(path, isolation_level=None)
    assert db.execute("SELECT round_id, amount FROM awards").fetchall() == [("books:7", 123456)], "as it was"
    linked.create(db)
    assert db.execute("SELECT round_id, box, amount FROM awards").fetchall() == [("books:7", 0, 123456)]
    assert linked.awarded(db) == {("books:7", 0)}, "answered: never claimed again"
    db.close()


def test_a_link_file_from_before_awards_at_once_were_kept_reads_them_as_not_at_once(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "kiosk.db.link", isolation_level=None)
    db.execute(
        """CREATE TABLE awards (round_id TEXT NOT NULL, box INTEGER NOT NULL, amount INTEGER NOT NULL,
                                claimed_at TEXT NOT NULL, PRIMARY KEY (round_id, box))"""
    )
    db.execute("INSERT INTO awards VALUES ('books:7', 1, 123456, '2026-11-30T10:00:00.000+00:00')")
    linked.create(db)
    assert linked.awards(db) == {("books:7", 1): (123456, False)}
    linked.write_award(db, "books:8", 0, 1000, "2026-12-01T10:00:00.000+00:00", at_once=True)
    assert linked.awards(db)[("books:8", 0)] == (1000, True)
    db.close()


def test_another_cabinets_stake_reaches_the_meter_shown_within_a_second(
    floor: FloorHub, tmp_path: Path
) -> None:
    """With the agent running at its own pace and the kiosk reading its file as the frame loop
    does (never forced), the hub's pool moved by another cabinet is shown within a second: on
    the screen, whose cabinet meanwhile commits nothing."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    t = cabinet(database, credentials)
    app = App(t, size=(800, 480))

    def meter_on_screen() -> int | None:
        app.draw()  # a frame
        assert app.game.view is not None
        return app.game.view.jackpot  # where the meter rolls to

    link = agent.Agent(database, credentials, batch=50)
    pushing = threading.Thread(target=link.run)
    pushing.start()
    try:
        wait_for(lambda: t.jackpot_shown == hub.pool(floor.owner).value and t.link_offline() is None)
        other_credentials = floor.add_cabinet("c02")
        other = tmp_path / "c02" / "kiosk.db"
        other.parent.mkdir()
        other_cabinet = linked_terminal(other)  # its own link is not this test's
        play(other_cabinet, 3)
        other_cabinet.store.close()
        before = t.jackpot_shown
        assert before is not None, "the agent has read the pool"
        for _ in range(3):  # each a move of the pool by the other cabinet's stakes
            push(other, other_credentials)
            pool = hub.pool(floor.owner).value
            pushed_at = time.monotonic()
            while meter_on_screen() != pool:  # ~60 frames a second
                assert time.monotonic() - pushed_at < 1.0, "the meter shown is a second behind the hub"
                time.sleep(1 / 60)
            assert pool > before
            other_cabinet = linked_terminal(other)  # its own link is not this test's
            play(other_cabinet, 1)
            other_cabinet.store.close()
            before = pool
    finally:
        link.stop()
        pushing.join(30)
    t.store.close()


def test_before_the_agents_first_contact_the_cabinet_says_the_link_is_down(
    floor: FloorHub, tmp_path: Path
) -> None:
    """No agent has reached the hub yet: the cabinet offers no linked jackpot and says so, as
    when the link goes down later, rather than show a pool that is not the hub's."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "kiosk.db"
    clock = Clock()
    t = cabinet(database, credentials, clock=clock, offline_after=5.0)
    feed(t, "bill 5000")
    assert t.link is not None
    t.link.refresh(force=True)
    before_contact = t.link_offline()
    assert before_contact is not None
    assert before_contact.message == BONUS_CLOSED
    shown = snapshot(t)
    assert sentence(BONUS_CLOSED) in shown.prompt
    assert shown.jackpot is None, "no meter value the hub never had"
    app = App(t, size=(800, 480), clock=lambda: clock.now)
    app.draw()
    assert app.game.jackpot_shown is None
    refused = t.handle("bonus")
    assert not refused.ok
    assert refused.message == BONUS_CLOSED
    # The link up, then down: the same words.
    contact(database, credentials, t)
    assert t.link_offline() is None
    assert sentence(BONUS_CLOSED) not in snapshot(t).prompt
    assert snapshot(t).jackpot == hub.pool(floor.owner).value
    app.draw()
    assert app.game.jackpot_shown == hub.pool(floor.owner).value, "the meter starts at the hub's pool"
    clock.now += 6
    t.link.refresh(force=True)
    down = t.link_offline()
    assert down is not None
    assert down.message == before_contact.message
    assert sentence(BONUS_CLOSED) in snapshot(t).prompt
    assert snapshot(t).jackpot is None, "no pool the hub may have moved on from"
    app.draw()
    assert app.game.jackpot_shown is None
    t.store.close()
