"""``hub serve``, the owner's read-only dashboard, against a real hub (tests/postgres.py) and
in a real headless browser (Debian's chromium, tests/browser.py): the cabinets, the pool,
its hits and the totals per day as linked terminals sent them; every text escaped, whatever
a cabinet sent; and what stops it said clearly.

``OASIS_DASHBOARD_SCREENSHOT=docs/floor-dashboard.png`` keeps the browser's screenshot of the
floor there (the picture in README.md and docs/floor.md)."""

from __future__ import annotations

import html
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import browser
import psycopg
import pytest
from floor import ROYAL, FloorHub, linked_terminal, new_hub, play, push
from postgres import Postgres
from support import books

from oasis_kiosk.cli import main
from oasis_kiosk.config import Config, LinkConfig
from oasis_kiosk.floor import access, dashboard, hub, migrate, reconcile
from oasis_kiosk.floor.errors import HubUnavailableError
from oasis_kiosk.floor.hub import Event
from oasis_kiosk.i18n import money_with_currency_code
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store
from oasis_kiosk.store.outbox import Outbox, hub_round_id

ROOT = Path(__file__).resolve().parent.parent
NOW = datetime.now(UTC)


@pytest.fixture
def floor(postgres: Postgres, tmp_path: Path) -> Iterator[FloorHub]:
    state = new_hub(postgres, tmp_path)
    hub.set_parameters(state.owner, "tests", reset=250_000)
    try:
        yield state
    finally:
        state.close()


def a_floor(floor: FloorHub, directory: Path) -> dict[str, Path]:
    """Four cabinets: c01 to c03 played by linked terminals (c02 hit the jackpot and was
    awarded it), c04 offline; reconciled, c03's books disagreeing with a tampered hub row."""
    databases = {}
    for name, rounds in (("c01", 6), ("c02", 0), ("c03", 3), ("c04", 2)):
        credentials = floor.add_cabinet(name)
        database = directory / name / "kiosk.db"
        database.parent.mkdir()
        if name == "c02":
            t = linked_terminal(database, deck=lambda number: ROYAL)
            for line in ("bill 5000", "bonus", "deal", "play"):
                intent, *value = line.split()
                assert t.handle(intent, int(value[0]) if value else None).ok, line
        else:
            t = linked_terminal(database)
            play(t, rounds)
        books_id = t.store.books.id if t.store.books else ""
        t.store.close()
        push(database, credentials)
        databases[name] = database
        if name == "c02":
            award = hub.claim(floor.cabinet("c02"), hub_round_id(books_id, 1), 0)
            assert award.amount > 0
    floor.owner.execute("UPDATE hub.cabinets SET last_seen = now() - interval '2 hours' WHERE name = 'c04'")
    floor.owner.execute(
        """UPDATE hub.events SET payload = jsonb_set(payload, '{value}', '1')
            WHERE cabinet_id = (SELECT id FROM hub.cabinets WHERE name = 'c03')
              AND seq = (SELECT max(seq) FROM hub.events e JOIN hub.cabinets c ON c.id = e.cabinet_id
                          WHERE c.name = 'c03' AND e.kind = 'meter' AND e.payload ->> 'name' = 'games_played')"""
    )
    verdicts = reconcile.reconcile(floor.owner, databases)
    assert [v.agrees for v in verdicts] == [True, True, False, True]
    # An open tilt on c01, and one raised and cleared on c04.
    c01 = floor.cabinet("c01")
    held = hub.held(c01)
    hub.ingest(
        c01,
        [
            Event(
                held + 1,
                "event",
                {
                    "id": 900,
                    "at": "",
                    "kind": "tilt",
                    "detail": {"kind": "door_open", "message": "the main door is open"},
                },
                NOW,
            ),
        ],
    )
    c04 = floor.cabinet("c04")
    held = hub.held(c04)
    hub.ingest(
        c04,
        [
            Event(
                held + 1,
                "event",
                {"id": 900, "at": "", "kind": "tilt", "detail": {"kind": "hopper_empty", "message": ""}},
                NOW,
            ),
            Event(
                held + 2,
                "event",
                {
                    "id": 901,
                    "at": "",
                    "kind": "tilt_cleared",
                    "detail": {"kind": "hopper_empty", "message": ""},
                },
                NOW,
            ),
        ],
    )
    floor.owner.execute("UPDATE hub.cabinets SET last_seen = now() - interval '2 hours' WHERE name = 'c04'")
    return databases


class Served:
    """``oasis-kiosk hub serve`` in a process of its own, and the address it serves."""

    def __init__(self, *arguments: str) -> None:
        command = [sys.executable, "-m", "oasis_kiosk", "hub", "serve", "--port", "0", *arguments]
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://\S+/", line)
        if not found:
            self.process.kill()
            _, err = self.process.communicate(timeout=10)
            raise AssertionError(f"hub serve did not start: {line!r} {err}")
        self.url = found[0]

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.communicate()


def get(url: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8")


def text_of(dom: str) -> str:
    """The page's words, tags taken out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dom))


def test_the_dashboard_shows_the_floor_in_a_real_browser(floor: FloorHub, tmp_path: Path) -> None:
    a_floor(floor, tmp_path)
    pool = hub.pool(floor.owner)
    served = Served("--credentials", str(floor.add_dashboard()), "--online-seconds", "300")
    try:
        status, headers, page = get(served.url)
        assert status == 200
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert "script-src" not in headers["Content-Security-Policy"]
        assert headers["Content-Security-Policy"].startswith("default-src 'none'")
        dom = browser.dump_dom(tmp_path, served.url)
        shot = browser.screenshot(tmp_path, served.url, tmp_path / "dashboard.png")
    finally:
        assert served.stop() == 0
    assert page.startswith("<!DOCTYPE html>")
    words = text_of(dom)
    rows = {
        name: text_of(row)
        for name, row in re.findall(r'<tr class="cabinet" data-cabinet="(\w+)">(.*?)</tr>', dom, re.S)
    }
    assert list(rows) == ["c01", "c02", "c03", "c04"]
    assert all("online" in rows[name] for name in ("c01", "c02", "c03"))
    assert "offline" in rows["c04"]
    assert "2 h ago" in rows["c04"]
    assert "door_open" in rows["c01"], "c01's door is open: an open tilt"
    assert "hopper_empty" not in rows["c04"], "raised and cleared: not open"
    assert "FAULTY" in rows["c03"]
    assert "meter games_played" in rows["c03"]
    assert all("agree" in rows[name] for name in ("c01", "c02", "c04"))
    assert re.search(r"c01 online \d+ s ago [\d,.]+ EUR 72\.00 EUR ", rows["c01"]), rows["c01"]
    assert " 6 " in rows["c01"], "games played"
    assert dashboard.money_of(dashboard.Options())(pool.value) in words
    assert pool.hits == 1
    assert "1 hit " in words
    hits = re.search(r'<table id="hits">(.*?)</table>', dom, re.S)
    assert hits is not None
    assert re.search(
        r"^When Cabinet Round Box \(from 0\) Award \S+ \S+ c02 \S+:1 0 [\d,.]+ EUR$", text_of(hits[1]).strip()
    ), "c02's round 1, its first box: box 0, as the hub and hub reconcile name it"
    days = re.search(r'<table id="days">(.*?)</table>', dom, re.S)
    assert days is not None
    today = re.search(r"<tr><td>(\d{4}-\d\d-\d\d)</td>(.*?)</tr>", days[1])
    assert today is not None
    assert text_of(today[2]).split()[0] == "12", "games today: 6 + 1 + 3 + 2"
    assert shot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert shot.stat().st_size > 10_000
    keep = os.environ.get("OASIS_DASHBOARD_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


INJECTED = "<script>document.title='owned'</script><img src=x onerror=alert(1)>"


def test_a_real_cabinets_tilts_and_handpaid_wins_reach_the_page_as_its_meters_count_them(
    floor: FloorHub, tmp_path: Path
) -> None:
    """What a terminal books, not rows written for the test: a door left open is an open
    tilt (one opened and closed before is not), and a win paid by hand counts in the day's
    won and money out as the cabinet's coin out and total out meters count it."""
    credentials = floor.add_cabinet("c01")
    database = tmp_path / "c01" / "kiosk.db"
    database.parent.mkdir()
    books(database).close()
    config = Config(
        database=database,
        link=LinkConfig(database.with_name("hub.toml"), jackpot="local"),
        handpay_limit=2000,
    )
    t = Terminal(
        config, Store(database, outbox=Outbox(linked_jackpot=False)), deck_for_round=lambda _n: ROYAL
    )
    for intent, value in (("bill", 5000), ("deal", None), ("play", None)):
        assert t.handle(intent, value).ok, intent
    assert t.handpay_win is not None, "the royal flush's win is over the handpay limit"
    for intent in ("attendant", "door_open", "door_close", "door_open"):
        assert t.handle(intent).ok, intent
    meters = t.store.meters()
    t.store.close()
    push(database, credentials)
    page = dashboard.read_page(floor.owner, dashboard.Options())
    (cabinet,) = page.cabinets
    assert [kind for kind, _message in cabinet.tilts] == ["door"]
    today = page.days[0]
    assert (today.played, today.won) == (meters["coin_in"], meters["coin_out"])
    assert (today.money_in, today.money_out) == (meters["total_in"], meters["total_out"])
    assert today.money_out >= 2000, "the handpaid win is money out"


def test_no_text_a_cabinet_sends_can_inject_html(floor: FloorHub, tmp_path: Path) -> None:
    floor.add_cabinet("c01")
    c01 = floor.cabinet("c01")
    hub.ingest(
        c01,
        [
            Event(1, "ledger", {"id": 1, "kind": INJECTED, "amount": 5000, "credits_after": 5000}, NOW),
            Event(2, "meter", {"name": INJECTED, "value": 5}, NOW),
            Event(
                3, "event", {"id": 1, "kind": "tilt", "detail": {"kind": INJECTED, "message": INJECTED}}, NOW
            ),
            Event(4, "jackpot_contribution", {"stake": 100, "round_id": f"b:{INJECTED}"}, NOW),
            Event(5, "jackpot_hit", {"round_id": f"b:{INJECTED}", "box": 0}, NOW),
        ],
    )
    hub.claim(c01, f"b:{INJECTED}", 0)
    # Even were the hub's own check of a cabinet's name gone (an older or altered hub).
    floor.owner.execute("ALTER TABLE hub.cabinets DROP CONSTRAINT cabinets_name_check")
    floor.owner.execute(
        "INSERT INTO hub.cabinets (name, role_name) VALUES (%s, 'no_such_role')", [INJECTED + '"><b>x</b>']
    )
    floor.owner.execute(
        "INSERT INTO hub.reconciliations (cabinet_id, books_id, held, written, differences)"
        " SELECT id, 'b', 0, 0, %s FROM hub.cabinets WHERE name = 'c01'",
        [psycopg.types.json.Jsonb([INJECTED])],
    )
    credentials = floor.add_dashboard()
    with dashboard.running(
        "127.0.0.1", 0, lambda: access.connect(credentials), dashboard.Options()
    ) as server:
        status, _, page = get(server.url)
        dom = browser.dump_dom(tmp_path, server.url)
    assert status == 200
    assert "<script" not in page
    assert "<img" not in page
    assert "<b>x" not in page
    assert page.count("&lt;script&gt;") >= 6, "the cabinet's name, the tilt, its message, the hit, the books"
    assert "<script" not in dom
    assert "<img" not in dom
    assert "<title>Oasis floor</title>" in dom, "no script ran"
    assert html.unescape(text_of(dom)).count(INJECTED) >= 4, "shown as the text it is"


def test_the_page_says_when_the_hub_cannot_be_reached(tmp_path: Path) -> None:
    def unreachable() -> psycopg.Connection[Any]:
        raise HubUnavailableError("cannot reach the hub: connection refused <b>")

    with dashboard.running("127.0.0.1", 0, unreachable, dashboard.Options()) as server:
        status, headers, page = get(server.url)
        missing, _, _ = get(server.url + "nothing")
    assert status == 503
    assert "hub unavailable" in page
    assert "cannot reach the hub: connection refused &lt;b&gt;" in page
    assert headers["Cache-Control"] == "no-store"
    assert missing == 404


def test_the_page_writes_money_as_the_cabinets_messages_do_exactly_in_its_currency() -> None:
    """One exact formatter (``i18n``) for every amount: no float, no rounding, the code said."""
    koruna = dashboard.money_of(dashboard.Options(currency="CZK"))
    assert koruna(-123_456) == money_with_currency_code(-123_456, "CZK", 100) == "-1,234.56 CZK"
    assert koruna(10**15 + 1) == "10,000,000,000,000.01 CZK", "past a float's exact digits"
    assert koruna(None) == "—"
    assert dashboard.money_of(dashboard.Options(currency="JPY", decimals=0))(1234) == "1,234 JPY"


def test_serve_refuses_a_currency_that_is_not_an_iso_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["hub", "serve", "--dsn", "host=nowhere", "--currency", "euro"])
    assert refused.value.code == 2
    assert "not a currency's ISO code of three capital letters: 'euro'" in capsys.readouterr().err


def test_serve_says_clearly_what_stops_it(
    floor: FloorHub, postgres: Postgres, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    credentials = floor.add_dashboard()
    wrong = access.read_credentials(credentials)
    assert (
        main(["hub", "serve", "--dsn", postgres.conninfo(floor.dbname, wrong.user, "wrong"), "--port", "0"])
        == 2
    )
    assert "wrong password" in capsys.readouterr().err
    closed = f"host=127.0.0.1 port=1 dbname={floor.dbname} user={wrong.user} connect_timeout=3"
    assert main(["hub", "serve", "--dsn", closed, "--port", "0"]) == 2
    assert "cannot reach the hub" in capsys.readouterr().err
    assert main(["hub", "serve", "--dsn", floor.owner_dsn, "--port", "0"]) == 2
    assert "is not a dashboard's login" in capsys.readouterr().err
    assert main(["hub", "serve", "--credentials", str(floor.add_cabinet("c01")), "--port", "0"]) == 2
    assert "is not a dashboard's login" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["hub", "serve", "--credentials", str(credentials), "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    # A hub not migrated to this version.
    older = tmp_path / "migrations"
    older.mkdir()
    for path in sorted(migrate.MIGRATIONS.glob("*.sql"))[:3]:
        shutil.copy(path, older)
    (tmp_path / "old").mkdir()
    old = new_hub(postgres, tmp_path / "old", migrations=older)
    try:
        assert main(["hub", "serve", "--credentials", str(old.add_dashboard()), "--port", "0"]) == 2
        err = capsys.readouterr().err
        assert "the hub's schema is at migration 3" in err
        assert "run hub migrate" in err
    finally:
        old.close()


def test_a_hit_awarded_at_once_is_shown_as_the_reset_value(floor: FloorHub) -> None:
    for name in ("c01", "c02"):
        floor.add_cabinet(name)
    first, second = floor.cabinet("c01"), floor.cabinet("c02")
    for connection, round_id in ((first, "a:1"), (second, "b:1")):
        hub.ingest(
            connection,
            [
                Event(1, "jackpot_contribution", {"stake": 100, "round_id": round_id}, NOW),
                Event(2, "jackpot_hit", {"round_id": round_id, "box": 0}, NOW),
            ],
        )
    hub.claim(first, "a:1", 0)
    hub.claim(second, "b:1", 0)
    page = dashboard.read_page(floor.owner, dashboard.Options())
    assert [(hit.cabinet, hit.at_once) for hit in page.hits] == [("c02", True), ("c01", False)]
    rows = re.findall(r"<tr><td>.*?</tr>", dashboard.render(page, dashboard.Options()))
    assert "reset value: hit at once" in rows[0]
    assert "at once" not in rows[1]


def test_days_follow_the_hubs_clock_a_tilt_without_a_kind_and_boxes_as_reconcile_names_them(
    floor: FloorHub,
) -> None:
    """A cabinet whose clock is a year ahead (a flat clock battery, no time server) still
    puts today's money on today; a tilt that names no kind reads "tilt", not "None"; a hit's
    box is the number hub reconcile and the hub give it."""
    floor.add_cabinet("c01")
    cabinet = floor.cabinet("c01")
    ahead = datetime.now(UTC) + timedelta(days=365)
    hub.ingest(
        cabinet,
        [
            Event(1, "ledger", {"id": 1, "kind": "bill_in", "amount": 5000, "credits_after": 5000}, ahead),
            Event(2, "event", {"id": 1, "kind": "tilt", "detail": {"message": "hopper jam"}}, NOW),
            # Three boxes staked on the jackpot, the third hits.
            *(
                Event(seq, "jackpot_contribution", {"stake": 100, "round_id": "b:1"}, ahead)
                for seq in (3, 4, 5)
            ),
            Event(6, "jackpot_hit", {"round_id": "b:1", "box": 2}, ahead),
        ],
    )
    hub.claim(cabinet, "b:1", 2)
    page = dashboard.read_page(floor.owner, dashboard.Options())
    assert page.days[0].money_in == 5000, "received today, by the hub's clock"
    [row] = page.cabinets
    assert row.tilts == [("tilt", "hopper jam")]
    text = dashboard.render(page, dashboard.Options())
    assert re.search(r'class="chip tilt" title="hopper jam">tilt<', text)
    assert "None" not in text
    hits = re.search(r'<table id="hits">(.*?)</table>', text, re.S)
    assert hits is not None
    assert "Box (from 0)" in hits[1]
    assert re.search(r"<td>b:1</td><td class=\"n\">2</td>", hits[1]), "box 2, as hub reconcile says it"
