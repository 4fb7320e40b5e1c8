"""``hub serve``: the owner's dashboard, a read-only web page of the floor (docs/floor.md).

The page is made by the standard library's ``http.server`` (no framework, no script: one
HTML page that refreshes itself) from what the hub holds, read as a **dashboard's login**
(``hub add-dashboard``: a member of the database's dashboard group, which reads everything
and writes nothing; the session is read-only besides). Each request opens its own
connection and reads in one REPEATABLE READ transaction, so a page is one consistent
moment of the hub, and a hub restarted meanwhile is simply there again at the next
refresh; while it cannot be reached, the page says so (HTTP 503).

What it shows, from what the cabinets' outboxes sent:

- each cabinet: online or not (its link agent sent something within ``online_seconds``),
  when it was last seen, its credits (its latest ``ledger`` row, or before any its books'
  ``opening``: they joined the floor with books), coin in, coin out and games played (its
  latest ``meter`` rows), its open tilts (``event`` rows: a ``tilt``
  whose kind has no ``tilt_cleared`` after it), and its books' latest reconciliation
  (``hub reconcile``): faulty, with the differences, or agreeing;
- the linked jackpot's pool, its reserve and parameters, and its last 25 hits (cabinet, round, box, award);
- totals per day (the hub's time zone), by when the hub received each row, not the cabinet's
  clock (a cabinet whose clock is wrong would put its money on no day shown): games, played,
  won, money in and out, stakes fed to the pool and the pool's awards.

Every text on the page is escaped (``html.escape``), whatever a cabinet sent, and the page
forbids scripts besides (its Content-Security-Policy).
"""

from __future__ import annotations

import contextlib
import html
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import psycopg

from oasis_kiosk.floor import hub, migrate
from oasis_kiosk.floor.errors import HubError, MigrationError
from oasis_kiosk.i18n import money_with_currency_code
from oasis_kiosk.machine.ledger_kinds import MONEY_IN, MONEY_OUT, PAID_BY_HAND, WAGERED, WON

log = logging.getLogger("oasis_kiosk.dashboard")

HITS = 25
UNNAMED_TILT = "tilt"
"""A tilt whose event names no kind (an older kiosk's, or a device's shaped otherwise)."""
SESSION_OPTIONS = "-c default_transaction_read_only=on -c statement_timeout=10000"
"""The dashboard's sessions: read-only whatever its role may do, and never stuck on a query."""
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass(frozen=True)
class Options:
    online_seconds: int = hub.SILENT_AFTER
    """A cabinet is online when its link agent sent something within this many seconds: by
    default until the hub counts it silent (and the pool's parameters wait for it)."""
    days: int = 7
    """Days of totals shown, today included."""
    currency: str = "EUR"
    """The cabinets' currency (ISO 4217), which the hub does not keep."""
    decimals: int = 2
    """Money is kept in minor units; shown with this many decimals (2: cents)."""
    refresh: int = 10
    """Seconds between the page's own refreshes."""
    title: str = "Oasis floor"


@dataclass(frozen=True)
class CabinetRow:
    """One cabinet as the page shows it."""

    name: str
    online: bool
    last_seen: datetime | None
    credits: int | None
    coin_in: int | None
    coin_out: int | None
    games: int | None
    tilts: list[tuple[str, str]]
    """(kind, message) of each open tilt."""
    faulty: bool | None
    """None: never reconciled."""
    checked_at: datetime | None
    differences: list[str]


@dataclass(frozen=True)
class Hit:
    claimed_at: datetime
    cabinet: str
    round_id: str
    box: int
    """The box that hit, from 0 (a hit from before boxes were claimed on their own: 0)."""
    amount: int
    at_once: bool
    """Awarded the reset value: another hit of the same pool won it first."""


@dataclass(frozen=True)
class Day:
    day: date
    games: int
    played: int
    won: int
    money_in: int
    money_out: int
    stakes: int
    to_pool: int
    awards: int
    awarded: int


@dataclass(frozen=True)
class Page:
    at: datetime
    cabinets: list[CabinetRow]
    pool: hub.Pool
    hits: list[Hit]
    days: list[Day] = field(default_factory=list)


def check_login(connection: psycopg.Connection[Any]) -> None:
    """The dashboard's login is a dashboard's, and the hub's schema is this version's."""
    there = connection.execute("SELECT to_regclass('hub.schema_migrations') IS NOT NULL").fetchone()
    if not there or not there[0]:
        raise MigrationError("the hub's schema is not there: run hub migrate first")
    group = migrate.group_roles(connection.info.dbname).dashboard
    member = connection.execute(
        "SELECT pg_has_role(session_user, %s, 'MEMBER') AND session_user <> "
        "(SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database())::text",
        [group],
    ).fetchone()
    if not member or not member[0]:
        raise HubError(
            f"role {connection.info.user} is not a dashboard's login: the dashboard reads the hub "
            "read-only, with the credentials file hub add-dashboard wrote"
        )
    migrate.require_current(connection)


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float | Decimal) and value == int(value):
        return int(value)
    return None


def read_page(connection: psycopg.Connection[Any], options: Options) -> Page:
    """Everything the page shows, as one consistent moment of the hub."""
    with connection.transaction():
        connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        row = connection.execute("SELECT now()").fetchone()
        assert row is not None
        at: datetime = row[0]
        tilts: dict[int, list[tuple[str, str]]] = {}
        for cabinet_id, kind, message in connection.execute(
            """SELECT cabinet_id, tilt, message FROM (
                   SELECT DISTINCT ON (cabinet_id, payload -> 'detail' ->> 'kind')
                          cabinet_id, payload ->> 'kind' AS state, payload -> 'detail' ->> 'kind' AS tilt,
                          coalesce(payload -> 'detail' ->> 'message', '') AS message
                     FROM hub.events
                    WHERE kind = 'event' AND payload ->> 'kind' IN ('tilt', 'tilt_cleared')
                    ORDER BY cabinet_id, payload -> 'detail' ->> 'kind', seq DESC) latest
                WHERE state = 'tilt' ORDER BY cabinet_id, tilt"""
        ):
            tilts.setdefault(int(cabinet_id), []).append((str(kind or UNNAMED_TILT), str(message)))
        cabinets = [
            CabinetRow(
                name=str(name),
                online=bool(online),
                last_seen=last_seen,
                credits=_whole(credits),
                coin_in=_whole((meters or {}).get("coin_in")),
                coin_out=_whole((meters or {}).get("coin_out")),
                games=_whole((meters or {}).get("games_played")),
                tilts=tilts.get(int(cabinet_id), []),
                faulty=faulty,
                checked_at=checked_at,
                differences=[str(d) for d in differences or []],
            )
            for cabinet_id, name, last_seen, online, credits, meters, faulty, checked_at, differences in (
                connection.execute(
                    """SELECT c.id, c.name, c.last_seen,
                              coalesce(c.last_seen > now() - make_interval(secs => %s), false),
                              coalesce(
                                  (SELECT e.payload -> 'credits_after' FROM hub.events e
                                    WHERE e.cabinet_id = c.id AND e.kind = 'ledger' ORDER BY e.seq DESC LIMIT 1),
                                  (SELECT e.payload -> 'credits' FROM hub.events e
                                    WHERE e.cabinet_id = c.id AND e.kind = 'opening')),
                              (SELECT jsonb_object_agg(m.name, m.value) FROM (
                                   SELECT DISTINCT ON (e.payload ->> 'name') e.payload ->> 'name' AS name,
                                          e.payload -> 'value' AS value
                                     FROM hub.events e
                                    WHERE e.cabinet_id = c.id AND e.kind = 'meter'
                                      AND e.payload ->> 'name' IN ('coin_in', 'coin_out', 'games_played')
                                    ORDER BY e.payload ->> 'name', e.seq DESC) m),
                              b.faulty, b.checked_at, b.differences
                         FROM hub.cabinets c LEFT JOIN hub.cabinet_books b ON b.cabinet_id = c.id
                        ORDER BY c.name""",
                    [options.online_seconds],
                )
            )
        ]
        pool = hub.pool(connection)
        hits = [
            Hit(claimed_at, str(name), str(round_id), int(box), int(amount), bool(at_once))
            for claimed_at, name, round_id, box, amount, at_once in connection.execute(
                """SELECT a.claimed_at, c.name, a.round_id, a.box, a.amount, a.at_once
                     FROM hub.awards a JOIN hub.cabinets c ON c.id = a.cabinet_id
                    ORDER BY a.id DESC LIMIT %s""",
                [HITS],
            )
        ]
        days = [Day(row[0], *(int(value) for value in row[1:])) for row in _days(connection, options)]
    return Page(at, cabinets, pool, hits, days)


def _amount(kinds: tuple[str, ...], sign: int) -> str:
    listed = ", ".join(f"'{kind}'" for kind in kinds)
    return (
        f"coalesce(sum(CASE WHEN payload ->> 'kind' IN ({listed}) AND jsonb_typeof(payload -> 'amount') = 'number'"
        f" THEN {sign} * (payload ->> 'amount')::numeric END), 0)"
    )


def _paid_by_hand() -> str:
    """The wins paid by hand: coin out and money out, though no credit moved."""
    return (
        f"coalesce(sum(CASE WHEN payload ->> 'kind' = '{PAID_BY_HAND}'"
        " AND jsonb_typeof(payload -> 'detail' -> 'won') = 'number'"
        " THEN (payload -> 'detail' ->> 'won')::numeric END), 0)"
    )


def _days(connection: psycopg.Connection[Any], options: Options) -> list[tuple[Any, ...]]:
    query = f"""
        WITH days AS (
            SELECT day::date FROM generate_series(current_date - %(back)s, current_date, interval '1 day') day),
        since AS (SELECT (current_date - %(back)s)::timestamptz AS at),
        ledger AS (
            SELECT received_at::date AS day,
                   {_amount(WAGERED, -1)} AS played, {_amount(WON, 1)} + {_paid_by_hand()} AS won,
                   {_amount(MONEY_IN, 1)} AS money_in, {_amount(MONEY_OUT, -1)} + {_paid_by_hand()} AS money_out
              FROM hub.events WHERE kind = 'ledger' AND received_at >= (SELECT at FROM since) GROUP BY 1),
        games AS (
            SELECT received_at::date AS day, count(*) AS games FROM hub.events
             WHERE kind = 'round' AND payload ->> 'state' = 'settled' AND received_at >= (SELECT at FROM since)
             GROUP BY 1),
        stakes AS (
            SELECT applied_at::date AS day, sum(stake) AS stakes, sum(to_pool) AS to_pool FROM hub.contributions
             WHERE applied_at >= (SELECT at FROM since) GROUP BY 1),
        awards AS (
            SELECT claimed_at::date AS day, count(*) AS awards, sum(amount) AS awarded FROM hub.awards
             WHERE claimed_at >= (SELECT at FROM since) GROUP BY 1)
        SELECT d.day, coalesce(g.games, 0), coalesce(l.played, 0), coalesce(l.won, 0),
               coalesce(l.money_in, 0), coalesce(l.money_out, 0), coalesce(s.stakes, 0),
               coalesce(s.to_pool, 0), coalesce(a.awards, 0), coalesce(a.awarded, 0)
          FROM days d LEFT JOIN ledger l USING (day) LEFT JOIN games g USING (day)
               LEFT JOIN stakes s USING (day) LEFT JOIN awards a USING (day)
         ORDER BY d.day DESC"""
    return connection.execute(query.encode(), {"back": max(options.days, 1) - 1}).fetchall()


# The page.


def _e(value: object) -> str:
    """Any text on the page: escaped, quotes included."""
    return html.escape(str(value), quote=True)


Money = Callable[[int | None], str]
"""An amount of minor units as the page writes it ("—" for none)."""


def money_of(options: Options) -> Money:
    """The page's money: the exact formatter the cabinets' messages use (``i18n``), with the
    currency's code."""

    def money(minor: int | None) -> str:
        if minor is None:
            return "—"
        return money_with_currency_code(minor, options.currency, 10**options.decimals)

    return money


def _count(number: int | None) -> str:
    return "—" if number is None else f"{number:,}"


def _ago(then: datetime | None, now: datetime) -> str:
    if then is None:
        return "never"
    seconds = max(int((now - then).total_seconds()), 0)
    if seconds < 120:
        text = f"{seconds} s ago"
    elif seconds < 7200:
        text = f"{seconds // 60} min ago"
    elif seconds < 172800:
        text = f"{seconds // 3600} h ago"
    else:
        text = f"{seconds // 86400} days ago"
    return f'<span title="{_e(then.isoformat(timespec="seconds"))}">{_e(text)}</span>'


STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.2em 1.6em; color: #1d2330; background: #f6f7f9; }
h1 { font-size: 1.5em; margin: 0 0 .2em; } h2 { font-size: 1.15em; margin: 1.3em 0 .4em; }
.when { color: #5c6577; margin: 0 0 1em; }
table { border-collapse: collapse; background: #fff; box-shadow: 0 1px 2px #0002; }
th, td { padding: .3em .7em; border-bottom: 1px solid #e3e6eb; text-align: left; vertical-align: top;
         white-space: nowrap; }
td.books { white-space: normal; }
th { background: #eceff3; font-weight: 600; } td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.chip { display: inline-block; padding: 0 .5em; border-radius: .7em; font-size: .85em; font-weight: 600; }
.on { background: #d5f2dc; color: #17652c; } .off { background: #e6e8ec; color: #5c6577; }
.bad { background: #fbd9d6; color: #9b1c12; } .ok { background: #d5f2dc; color: #17652c; }
.none { background: #e6e8ec; color: #5c6577; } .tilt { background: #fff0c7; color: #7a5400; }
.pool { display: flex; gap: 1.5em; align-items: baseline; flex-wrap: wrap; }
.value { font-size: 2.2em; font-weight: 700; color: #8a5a00; }
ul.diff { margin: .2em 0 0 1em; padding: 0; color: #9b1c12; font-size: .9em; }
"""


def render(page: Page, options: Options) -> str:
    money = money_of(options)
    sections = [
        *_head(page, options),
        *_cabinets_table(page, money),
        *_pool_section(page.pool, money),
        *_hits_table(page.hits, money),
        *_days_table(page.days, money),
    ]
    return "\n".join(sections) + "</body></html>"


def _head(page: Page, options: Options) -> list[str]:
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="refresh" content="{int(options.refresh)}">',
        f"<title>{_e(options.title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(options.title)}</h1>",
        f'<p class="when">The hub at {_e(page.at.strftime("%Y-%m-%d %H:%M:%S %Z"))}; '
        f"a cabinet is online when it sent something in the last {int(options.online_seconds)} s. "
        f"Amounts in {_e(options.currency)}.</p>",
    ]


def _cabinets_table(page: Page, money: Money) -> list[str]:
    out = [
        '<h2>Cabinets</h2><table id="cabinets"><thead><tr><th>Cabinet</th><th>Link</th><th>Last seen</th>'
        '<th class="n">Credits</th><th class="n">Coin in</th><th class="n">Coin out</th>'
        '<th class="n">Games</th><th>Open tilts</th><th>Books</th></tr></thead><tbody>',
    ]
    for cabinet in page.cabinets:
        link = (
            '<span class="chip on">online</span>'
            if cabinet.online
            else '<span class="chip off">offline</span>'
        )
        tilts = (
            " ".join(
                f'<span class="chip tilt" title="{_e(message)}">{_e(kind)}</span>'
                for kind, message in cabinet.tilts
            )
            or "—"
        )
        out.append(
            f'<tr class="cabinet" data-cabinet="{_e(cabinet.name)}"><td><b>{_e(cabinet.name)}</b></td>'
            f"<td>{link}</td><td>{_ago(cabinet.last_seen, page.at)}</td>"
            f'<td class="n">{_e(money(cabinet.credits))}</td><td class="n">{_e(money(cabinet.coin_in))}</td>'
            f'<td class="n">{_e(money(cabinet.coin_out))}</td><td class="n">{_e(_count(cabinet.games))}</td>'
            f'<td>{tilts}</td><td class="books">{_books(cabinet, page.at)}</td></tr>'
        )
    if not page.cabinets:
        out.append('<tr><td colspan="9">No cabinet yet: hub add-cabinet adds one.</td></tr>')
    out.append("</tbody></table>")
    return out


def _books(cabinet: CabinetRow, now: datetime) -> str:
    """The cabinet's books' latest reconciliation: never, faulty (its first differences) or agreeing."""
    if cabinet.faulty is None:
        return '<span class="chip none">not reconciled</span>'
    if not cabinet.faulty:
        return f'<span class="chip ok">agree</span> {_ago(cabinet.checked_at, now)}'
    items = "".join(f"<li>{_e(sentence)}</li>" for sentence in cabinet.differences[:5])
    more = len(cabinet.differences) - 5
    if more > 0:
        items += f"<li>and {more} more</li>"
    return (
        f'<span class="chip bad">FAULTY</span> {_ago(cabinet.checked_at, now)}<ul class="diff">{items}</ul>'
    )


def _pool_section(pool: hub.Pool, money: Money) -> list[str]:
    parameters = pool.parameters
    return [
        '<h2>Linked jackpot</h2><div class="pool" id="pool">',
        f'<span class="value">{_e(money(pool.value))}</span>',
        f"<span>reserve {_e(money(pool.reserve))}</span>"
        f"<span>{_e(_count(pool.hits))} {'hit' if pool.hits == 1 else 'hits'}</span>",
        f"<span>resets to {_e(money(parameters.reset))}, at most {_e(money(parameters.maximum))}</span>",
        f"<span>{_e(f'{parameters.rate_ppm / 10_000:g}')} % of a stake to the pool, "
        f"{_e(f'{parameters.reserve_rate_ppm / 10_000:g}')} % to the reserve</span>",
        f"<span>a hit wins on a stake of at least {_e(money(max(parameters.least_stake, 1)))}</span></div>",
    ]


def _hits_table(hits: list[Hit], money: Money) -> list[str]:
    out = [
        f'<h2>Last {HITS} hits</h2><table id="hits"><thead><tr><th>When</th><th>Cabinet</th><th>Round</th>'
        '<th class="n" title="numbered from 0, as the hub and hub reconcile name them">Box (from 0)</th>'
        '<th class="n">Award</th></tr></thead><tbody>',
    ]
    for hit in hits:
        out.append(
            f"<tr><td>{_e(hit.claimed_at.strftime('%Y-%m-%d %H:%M:%S'))}</td><td>{_e(hit.cabinet)}</td>"
            f'<td>{_e(hit.round_id)}</td><td class="n">{hit.box}</td>'
            f'<td class="n">{_e(money(hit.amount))}{" (reset value: hit at once)" if hit.at_once else ""}</td></tr>'
        )
    if not hits:
        out.append('<tr><td colspan="5">No hit yet.</td></tr>')
    out.append("</tbody></table>")
    return out


def _days_table(days: list[Day], money: Money) -> list[str]:
    out = [
        '<h2>Totals per day</h2><table id="days"><thead><tr><th>Day</th><th class="n">Games</th>'
        '<th class="n">Played</th><th class="n">Won</th><th class="n">Money in</th><th class="n">Money out</th>'
        '<th class="n">Stakes fed</th><th class="n">To the pool</th><th class="n">Hits</th>'
        '<th class="n">Awarded</th></tr></thead><tbody>',
    ]
    for day in days:
        figures = [
            _count(day.games),
            money(day.played),
            money(day.won),
            money(day.money_in),
            money(day.money_out),
            money(day.stakes),
            money(day.to_pool),
            _count(day.awards),
            money(day.awarded),
        ]
        cells = "".join(f'<td class="n">{_e(figure)}</td>' for figure in figures)
        out.append(f"<tr><td>{_e(day.day.isoformat())}</td>{cells}</tr>")
    out.append("</tbody></table>")
    return out


def error_page(message: str, options: Options) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="{int(options.refresh)}"><title>{_e(options.title)}</title>'
        f"<style>{STYLE}</style></head><body><h1>{_e(options.title)}</h1>"
        f'<p><span class="chip bad">hub unavailable</span> {_e(message)}</p></body></html>'
    )


# The server.


Connect = Callable[[], psycopg.Connection[Any]]


class _Handler(BaseHTTPRequestHandler):
    server: DashboardServer
    server_version = "oasis-kiosk-dashboard"
    sys_version = ""

    def do_GET(self) -> None:
        self._answer(body=True)

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def _answer(self, *, body: bool) -> None:
        if self.path.split("?", 1)[0] not in {"/", "/index.html"}:
            self._send(HTTPStatus.NOT_FOUND, "<!DOCTYPE html><title>Not found</title><p>Not found.</p>", body)
            return
        status, text = self.server.page()
        self._send(status, text, body)

    def _send(self, status: HTTPStatus, text: str, body: bool) -> None:
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        log.info("%s %s", self.address_string(), format % args)


class DashboardServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], connect: Connect, options: Options) -> None:
        super().__init__(address, _Handler)
        self.connect = connect
        self.options = options

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/"

    def page(self) -> tuple[HTTPStatus, str]:
        try:
            with self.connect() as connection:
                return HTTPStatus.OK, render(read_page(connection, self.options), self.options)
        except (HubError, psycopg.Error) as error:
            message = str(error).strip() or type(error).__name__
            log.warning("the hub: %s", message)
            return HTTPStatus.SERVICE_UNAVAILABLE, error_page(message, self.options)


@contextlib.contextmanager
def running(host: str, port: int, connect: Connect, options: Options) -> Iterator[DashboardServer]:
    """A dashboard served from a thread, until the block ends (the tests)."""
    import threading

    server = DashboardServer((host, port), connect, options)
    thread = threading.Thread(target=server.serve_forever, name="dashboard", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
