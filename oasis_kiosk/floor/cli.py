"""``oasis-kiosk hub …``: the floor's hub (docs/floor.md).

- ``migrate``: brings the hub's schema up to date (as the hub's owner);
- ``add-cabinet NAME --out FILE``: a cabinet's login and row, its credentials in FILE;
- ``add-dashboard NAME --out FILE``: a read-only login, its credentials in FILE;
- ``pool``: the pool, its parameters and their last changes;
- ``set-parameters --by WHO [--reset N] [--rate-ppm N] [--maximum N] [--reserve-rate-ppm N]
  [--least-stake N] [--despite-silent NAME …] [--despite-hit ROUND:BOX …]``;
- ``reconcile --books NAME=PATH … [--skip NAME …] [--in-flight-for SECONDS]``: each
  cabinet's books against the hub, and the pool against its records (exit 1 listing each
  difference, and when a cabinet of the hub was not compared without ``--skip`` naming it; a
  cabinet whose books disagree or cannot be read is marked faulty);
- ``serve [--host H] [--port N]``: the owner's read-only dashboard, as a dashboard's login;
- ``watchdog [--hold-seconds S]``: ends any cabinet's session that holds a transaction, an
  advisory lock or a LISTEN for S seconds (default 5) and disables its login, until stopped;
- ``enable-cabinet NAME --by WHO``: lets a cabinet's login the watchdog disabled in again
  (recorded with who and when), the hub's settings put back on it;
- ``new-credentials NAME --out FILE --by WHO``: a cabinet's login gets a new password (the old
  one refused, its sessions ended, its settings the hub's), its credentials in FILE (recorded
  with who and when).

Each connects as the hub's owner (``serve`` as a dashboard's login) with ``--credentials FILE`` or ``--dsn CONNINFO`` (default:
``$OASIS_HUB_DSN``, else libpq's own environment: PGHOST, PGDATABASE, PGUSER, PGPASSFILE…).
Setting up the parser imports no database driver, so the kiosk without the ``floor`` extra
still starts; running a ``hub`` command without psycopg says what to install.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import re
import signal
import sys
import threading
import unicodedata
from dataclasses import asdict
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from oasis_kiosk.floor.tls import SSLMODES

if TYPE_CHECKING:
    import psycopg

    from oasis_kiosk.config import Config
    from oasis_kiosk.floor import reconcile
    from oasis_kiosk.floor.hub import ParameterChange, Pool


def natural(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"not a whole number from 0: {text!r}")
    return number


# Long: every hub command's arguments, one after another, as ``--help`` lists them.
def add_commands(hub_command: argparse.ArgumentParser) -> None:
    commands = hub_command.add_subparsers(dest="hub_command", required=True)
    migrate = commands.add_parser("migrate", help="bring the hub's schema up to date (as its owner)")
    add_cabinet = commands.add_parser(
        "add-cabinet", help="a cabinet's login and row; its credentials to a file"
    )
    add_dashboard = commands.add_parser("add-dashboard", help="a read-only login; its credentials to a file")
    pool = commands.add_parser("pool", help="print the pool, its parameters and their last changes")
    parameters = commands.add_parser(
        "set-parameters", help="change the pool's parameters between hits (logged with who and when)"
    )
    renew = commands.add_parser(
        "new-credentials",
        help="give a cabinet's login a new password (the old one refused, its sessions ended); "
        "its credentials to a file",
    )
    for login in (add_cabinet, add_dashboard):
        login.add_argument("name", help="a lower-case letter, then up to 29 letters, digits or _")
    renew.add_argument("name", help="the cabinet's name at the hub")
    renew.add_argument("--by", required=True, type=who, help="who gives it new credentials (kept in the hub)")
    for login in (add_cabinet, add_dashboard, renew):
        login.add_argument(
            "--out", type=Path, required=True, help="the credentials file to write (mode 0600)"
        )
        login.add_argument(
            "--hub-host", help="the hub's address as the new login reaches it (default: as here)"
        )
        login.add_argument(
            "--hub-port", type=hub_port, help="the hub's port as the new login reaches it (1 to 65535)"
        )
        login.add_argument(
            "--sslmode",
            type=sslmode,
            help=f"libpq sslmode for the new login: {', '.join(SSLMODES)}",
        )
        login.add_argument("--sslrootcert", help="the CA certificate the new login checks the hub's against")
    pool.add_argument("--json", action="store_true", help="print JSON")
    parameters.add_argument("--by", required=True, type=who, help="who makes the change (kept in the log)")
    parameters.add_argument("--reset", type=natural, help="minor units: the pool's value after a hit")
    parameters.add_argument("--rate-ppm", type=natural, help="parts per million of a stake fed to the pool")
    parameters.add_argument(
        "--maximum", type=natural, help="minor units: the pool's cap (above it, the reserve)"
    )
    parameters.add_argument(
        "--reserve-rate-ppm", type=natural, help="parts per million of a stake fed to the reserve"
    )
    parameters.add_argument(
        "--least-stake",
        type=natural,
        help="minor units: a hit wins only on a box staked at least this (default 0: any stake)",
    )
    parameters.add_argument(
        "--despite-silent",
        action="append",
        default=[],
        metavar="NAME",
        help="change them though this cabinet, which feeds the pool, has fallen silent "
        "(a hit of it may wait unseen; logged)",
    )
    parameters.add_argument(
        "--despite-hit",
        action="append",
        type=hit_argument,
        default=[],
        metavar="ROUND:BOX",
        help="change them though this hit waits for its award (one that will never be claimed; logged)",
    )
    reconcile = commands.add_parser(
        "reconcile",
        help="compare every cabinet's books with the hub (exit 1 on a difference, or a cabinet not compared)",
    )
    reconcile.add_argument(
        "--books",
        metavar="NAME=PATH",
        type=books_argument,
        action="append",
        required=True,
        help="a cabinet's name at the hub and its books (kiosk.db, or a copy), read read-only; repeat for each",
    )
    reconcile.add_argument(
        "--skip",
        metavar="NAME",
        action="append",
        default=[],
        help="a cabinet of the hub deliberately not compared this time (listed, not a failure); repeat for each",
    )
    reconcile.add_argument(
        "--in-flight-for",
        metavar="SECONDS",
        type=positive,
        default=600,
        help="rows a cabinet's books wrote and the hub has not held for longer than this are a difference "
        "(default 600)",
    )
    serve = commands.add_parser(
        "serve", help="serve the owner's read-only dashboard (as a dashboard's login)"
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument(
        "--port", type=port_number, default=8080, help="the port to listen on (default 8080; 0: any free)"
    )
    serve.add_argument(
        "--online-seconds",
        type=positive,
        help="a cabinet is online when it sent something within this many seconds "
        "(default: until the hub counts it silent, and the pool's parameters wait for it)",
    )
    serve.add_argument("--days", type=positive, default=7, help="days of totals shown (default 7)")
    serve.add_argument(
        "--currency",
        type=currency_code,
        default="EUR",
        help="the cabinets' currency, its ISO code (default EUR)",
    )
    serve.add_argument(
        "--decimals", type=natural, default=2, help="decimals of the currency's minor units (default 2)"
    )
    serve.add_argument("--title", default="Oasis floor", help="the page's title")
    watchdog = commands.add_parser(
        "watchdog",
        help="end any cabinet's session that holds a transaction, an advisory lock or a LISTEN too long, "
        "and disable its login (as the owner, until stopped)",
    )
    watchdog.add_argument(
        "--hold-seconds",
        type=hold_seconds,
        help="the longest a cabinet's session may hold a transaction, an advisory lock or a LISTEN "
        "(default 5: watchdog.HOLD_SECONDS)",
    )
    enable = commands.add_parser(
        "enable-cabinet",
        help="let a cabinet's login the watchdog disabled log in again (recorded with who and when)",
    )
    enable.add_argument("name", help="the cabinet's name at the hub")
    enable.add_argument("--by", required=True, type=who, help="who lets it in again (kept in the hub)")
    for command in (
        migrate,
        add_cabinet,
        add_dashboard,
        renew,
        pool,
        parameters,
        reconcile,
        serve,
        watchdog,
        enable,
    ):
        where = command.add_mutually_exclusive_group()
        whose = "a dashboard's" if command is serve else "the owner's"
        where.add_argument("--credentials", type=Path, help=f"{whose} credentials file")
        where.add_argument("--dsn", help="a libpq connection string (default: $OASIS_HUB_DSN)")


def currency_code(text: str) -> str:
    if re.fullmatch(r"[A-Z]{3}", text) is None:
        raise argparse.ArgumentTypeError(f"not a currency's ISO code of three capital letters: {text!r}")
    return text


def positive(text: str) -> int:
    number = natural(text)
    if number == 0:
        raise argparse.ArgumentTypeError(f"not a whole number from 1: {text!r}")
    return number


def hold_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise argparse.ArgumentTypeError(f"not a number of seconds above 0: {text!r}")
    return seconds


def port_number(text: str) -> int:
    number = natural(text)
    if number > 65535:
        raise argparse.ArgumentTypeError(f"not a port (0 to 65535): {text!r}")
    return number


def hub_port(text: str) -> int:
    number = natural(text)
    if not 0 < number <= 65535:
        raise argparse.ArgumentTypeError(f"not a port (1 to 65535): {text!r}")
    return number


def sslmode(text: str) -> str:
    if text not in SSLMODES:
        raise argparse.ArgumentTypeError(
            f"not one of libpq's sslmode values ({', '.join(SSLMODES)}): {text!r}"
        )
    return text


def who(text: str) -> str:
    """A name for the parameters' log: printable text (a control character, U+0000 above all,
    is not a name, and PostgreSQL would refuse it in words of its own)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("who makes the change: a name, not blank")
    control = next((character for character in text if unicodedata.category(character) == "Cc"), None)
    if control is not None:
        raise argparse.ArgumentTypeError(
            f"who makes the change: a name without control characters, not {text!r} (U+{ord(control):04X})"
        )
    return text


def hit_argument(text: str) -> tuple[str, int]:
    """ROUND:BOX, a hit as the hub names it (a round's id holds a colon of its own)."""
    round_id, colon, box = text.rpartition(":")
    if not colon or not round_id or not box.isdigit():
        raise argparse.ArgumentTypeError(
            f"ROUND:BOX (a round's id at the hub and a box from 0), not {text!r}"
        )
    return round_id, int(box)


def books_argument(text: str) -> tuple[str, Path]:
    name, equals, path = text.partition("=")
    if not equals or not name or not path:
        raise argparse.ArgumentTypeError(f"NAME=PATH (a cabinet's name and its books), not {text!r}")
    return name, Path(path)


def run(arguments: argparse.Namespace) -> int:
    try:
        import psycopg
    except ImportError:
        print(
            "oasis-kiosk: the hub needs psycopg 3: pip install 'oasis-kiosk[floor]'",
            file=sys.stderr,
        )
        return 2
    from oasis_kiosk.floor import access, hub
    from oasis_kiosk.floor.errors import HubError

    target: Path | str = arguments.credentials or arguments.dsn or os.environ.get("OASIS_HUB_DSN", "")
    try:
        if arguments.hub_command == "serve":
            return run_serve(arguments, target)
        if arguments.hub_command == "watchdog":
            return run_watchdog(target, arguments.hold_seconds)
        with access.connect(target) as connection:
            command = arguments.hub_command
            if command == "reconcile":
                return run_reconcile(connection, arguments.books, arguments.skip, arguments.in_flight_for)
            if command == "migrate":
                return run_migrate(connection)
            if command in {"add-cabinet", "add-dashboard"}:
                return run_add_login(connection, arguments)
            if command == "new-credentials":
                return run_new_credentials(connection, arguments)
            if command == "enable-cabinet":
                return run_enable_cabinet(connection, arguments.name, arguments.by)
            if command == "pool":
                return show_pool(hub.pool(connection), hub.parameter_log(connection), arguments.json)
            change = hub.set_parameters(
                connection,
                arguments.by,
                reset=arguments.reset,
                rate_ppm=arguments.rate_ppm,
                maximum=arguments.maximum,
                reserve_rate_ppm=arguments.reserve_rate_ppm,
                least_stake=arguments.least_stake,
                despite_silent=arguments.despite_silent,
                despite_hits=arguments.despite_hit,
            )
            print(f"parameters changed by {change.changed_by} at {change.changed_at:%Y-%m-%d %H:%M:%S %Z}")
            print(f"  before: {json.dumps(change.old, sort_keys=True)}")
            print(f"  after:  {json.dumps(change.new, sort_keys=True)}")
            return 0
    except HubError as error:
        print(f"oasis-kiosk: hub: {error}", file=sys.stderr)
        return 2
    except (psycopg.errors.UndefinedTable, psycopg.errors.InvalidSchemaName) as error:
        print(
            f"oasis-kiosk: hub: the hub's schema is not there: run hub migrate first ({error})",
            file=sys.stderr,
        )
        return 2
    except psycopg.errors.InsufficientPrivilege as error:
        print(f"oasis-kiosk: hub: this role may not do that: {error}", file=sys.stderr)
        return 2
    except psycopg.Error as error:
        print(f"oasis-kiosk: hub: {error}", file=sys.stderr)
        return 3


def run_migrate(connection: psycopg.Connection[Any]) -> int:
    from oasis_kiosk.floor import migrate

    applied = migrate.migrate(connection)
    for migration in applied:
        print(f"applied {migration.label}")
    print("the hub's schema is up to date" + ("" if applied else " (nothing to apply)"))
    for warning in migrate.server_warnings(connection):
        print(f"oasis-kiosk: hub: warning: {warning}", file=sys.stderr)
    return 0


def tls_settings(arguments: argparse.Namespace) -> dict[str, str]:
    """The libpq TLS settings given for a login's credentials file."""
    return {
        key: value
        for key, value in (("sslmode", arguments.sslmode), ("sslrootcert", arguments.sslrootcert))
        if value
    }


def run_add_login(connection: psycopg.Connection[Any], arguments: argparse.Namespace) -> int:
    """``add-cabinet`` or ``add-dashboard``: a new login and its credentials file."""
    from oasis_kiosk.floor import access

    tls = tls_settings(arguments)
    command = arguments.hub_command
    add = access.add_cabinet if command == "add-cabinet" else access.add_dashboard
    credentials = add(
        connection,
        arguments.name,
        arguments.out,
        host=arguments.hub_host,
        port=arguments.hub_port,
        tls=tls,
    )
    print(f"{command[4:]} {arguments.name}: role {credentials.user}, credentials in {arguments.out}")
    return 0


def run_reconcile(
    connection: psycopg.Connection[Any],
    given: list[tuple[str, Path]],
    skip: list[str],
    in_flight_for: float = 600,
) -> int:
    """Every cabinet of the hub is compared, or named with ``--skip``: one left out silently
    fails the run, as a difference does."""
    from oasis_kiosk.floor import migrate, reconcile, watchdog
    from oasis_kiosk.floor.errors import HubError

    books: dict[str, Path] = {}
    for name, path in given:
        if name in books:
            raise HubError(f"cabinet {name}: its books are given twice (--books {name}=…)")
        books[name] = path
    for name in skip:
        if name in books:
            raise HubError(
                f"cabinet {name}: its books are given and it is skipped: drop --books or --skip {name}"
            )
    reconcile.require_cabinets(connection, skip)
    migrate.require_current(connection)  # before reading the watchdog's table
    since = watchdog.last_reconciliation(connection)
    verdicts = reconcile.reconcile(connection, books, in_flight_for=in_flight_for)
    # Read after the verdicts, so that a session ended while they were made is listed now; up
    # to their time (the next run lists from it), or all, when no verdict was recorded.
    recorded = watchdog.last_reconciliation(connection)
    ended = watchdog.recent(connection, since, recorded if recorded != since else None)
    for verdict in verdicts:
        print(verdict_line(verdict))
        for sentence in verdict.sentences():
            print(f"  {sentence}")
    pool = reconcile.check_pool(connection)
    print("the pool: its records agree" if not pool else f"the pool: DISAGREE ({len(pool)}) with its records")
    for difference in pool:
        print(f"  {difference.sentence()}")
    skipped = sorted(set(skip))
    unchecked = [name for name in reconcile.cabinets(connection) if name not in books and name not in skipped]
    if skipped:
        print(f"skipped on purpose (--skip), not compared: {', '.join(skipped)}")
    if unchecked:
        print(
            f"not compared (no --books given): {', '.join(unchecked)}: a reconciliation compares every "
            f"cabinet of the hub; give each one's books (--books {unchecked[0]}=PATH …), or name one "
            f"left out on purpose (--skip {unchecked[0]} …)"
        )
    if ended:
        print(f"sessions the watchdog ended since the last reconciliation ({len(ended)}):")
    for session in ended:
        print(f"  {session.sentence()}; {session.standing()}")
    return 0 if all(verdict.agrees for verdict in verdicts) and not unchecked and not pool else 1


def run_enable_cabinet(connection: psycopg.Connection[Any], name: str, by: str) -> int:
    from oasis_kiosk.floor import watchdog

    enabled = watchdog.enable_cabinet(connection, name, by)
    print(
        f"cabinet {name}: its login may log in again (enabled by {enabled.enabled_by} at "
        f"{enabled.enabled_at:%Y-%m-%d %H:%M:%S %Z}), with the hub's settings; if it was stolen, give the "
        f"cabinet new credentials: hub new-credentials {name} --out FILE --by WHO"
    )
    return 0


def run_new_credentials(connection: psycopg.Connection[Any], arguments: argparse.Namespace) -> int:
    from oasis_kiosk.floor import access

    tls = tls_settings(arguments)
    renewed = access.renew_cabinet(
        connection,
        arguments.name,
        arguments.out,
        arguments.by,
        host=arguments.hub_host,
        port=arguments.hub_port,
        tls=tls,
    )
    print(
        f"cabinet {arguments.name}: role {renewed.credentials.user} has a new password, credentials in "
        f"{arguments.out} (given by {renewed.replaced_by} at {renewed.replaced_at:%Y-%m-%d %H:%M:%S %Z}); "
        f"the old password is refused and its {renewed.sessions_ended} sessions were ended: copy the file "
        "to the cabinet (its [link] credentials, mode 0600) and restart its link agent"
    )
    if renewed.login_disabled:
        print(
            f"its login is still disabled: hub enable-cabinet {arguments.name} --by WHO lets it in again, "
            "once the new file is on the cabinet"
        )
    return 0


def verdict_line(verdict: reconcile.Verdict) -> str:
    if verdict.unreadable is not None:
        return f"cabinet {verdict.cabinet}: its books cannot be read: marked faulty"
    flight = f", {verdict.in_flight} in flight" if verdict.in_flight else ""
    if verdict.hits_pending:
        hits = "hit" if verdict.hits_pending == 1 else "hits"
        flight += f", {verdict.hits_pending} linked jackpot {hits} not yet awarded on the cabinet"
    state = "agree" if verdict.agrees else f"DISAGREE ({len(verdict.differences)}): marked faulty"
    return f"cabinet {verdict.cabinet}: the hub holds events 1 to {verdict.held}{flight}: {state}"


def run_serve(arguments: argparse.Namespace, target: Path | str) -> int:
    from oasis_kiosk.floor import access, dashboard

    options = dashboard.Options(
        online_seconds=arguments.online_seconds or dashboard.Options.online_seconds,
        days=arguments.days,
        currency=arguments.currency,
        decimals=arguments.decimals,
        title=arguments.title,
    )

    def connect() -> psycopg.Connection[Any]:
        return access.connect(target, options=dashboard.SESSION_OPTIONS)

    with connect() as connection:
        dashboard.check_login(connection)
        user = connection.info.user
    try:
        server = dashboard.DashboardServer((arguments.host, arguments.port), connect, options)
    except OSError as error:
        print(
            f"oasis-kiosk: hub serve: cannot listen on {arguments.host}:{arguments.port}: {error.strerror or error}",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=logging.INFO, format="oasis-kiosk hub serve: %(message)s")
    print(f"the dashboard is at {server.url} (read-only, as {user}); stop with Ctrl+C", flush=True)

    def stop(signum: int, frame: FrameType | None) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
    return 0


def run_watchdog(target: Path | str, hold_seconds: float | None) -> int:
    """Until SIGTERM or SIGINT; a hub that cannot be reached at start, a login that is not the
    owner's or a hub not migrated to this version end it at once (exit 2), a hub lost later is
    reached again."""
    from oasis_kiosk.floor import access, agent, migrate, watchdog

    def connect() -> psycopg.Connection[Any]:
        return access.connect(target, **watchdog.SESSION_OPTIONS)

    with connect() as connection:
        watchdog.check_owner(connection)
        user = connection.info.user
        # What the watchdog cannot bound (a lock table filled at once) the server must refuse.
        warnings = migrate.server_warnings(connection)
    logging.basicConfig(level=logging.INFO, format="oasis-kiosk hub watchdog: %(message)s")
    for warning in warnings:
        watchdog.log.warning("%s", warning)
    guard = watchdog.Watchdog(connect, hold_seconds or watchdog.HOLD_SECONDS)

    def stop(signum: int, frame: FrameType | None) -> None:
        guard.stop()

    previous = {number: signal.signal(number, stop) for number in (signal.SIGTERM, signal.SIGINT)}
    watchdog.log.info(
        "as %s: ending any cabinet's session that holds a transaction, an advisory lock or a LISTEN for %g s, "
        "and disabling its login",
        user,
        guard.hold_seconds,
    )
    if guard.hold_seconds + guard.look_every >= agent.STATEMENT_TIMEOUT:
        watchdog.log.warning(
            "a bound of %g s: a link agent's batch waiting behind a stolen login gives up first "
            "(after %d s) and is sent again",
            guard.hold_seconds,
            agent.STATEMENT_TIMEOUT,
        )
    try:
        guard.run()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    return 0


def show_pool(pool: Pool, log: list[ParameterChange], as_json: bool) -> int:
    if as_json:
        data = asdict(pool)
        data["updated_at"] = pool.updated_at.isoformat()
        data["changes"] = [{**asdict(change), "changed_at": change.changed_at.isoformat()} for change in log]
        print(json.dumps(data, indent=2, sort_keys=True))
        return 0
    parameters = pool.parameters
    print(
        f"pool       {pool.value} (+{pool.carry}/1000000), {pool.hits} hits, updated {pool.updated_at:%Y-%m-%d %H:%M:%S}"
    )
    print(f"reserve    {pool.reserve} (+{pool.reserve_carry}/1000000)")
    print(f"reset      {parameters.reset}")
    print(f"maximum    {parameters.maximum}")
    print(f"least      {parameters.least_stake} (a hit wins only on a box staked at least this)")
    print(
        f"rate       {parameters.rate_ppm} ppm of a stake to the pool, {parameters.reserve_rate_ppm} ppm to the reserve"
    )
    for change in log:
        print(
            f"{change.changed_at:%Y-%m-%d %H:%M:%S} {change.changed_by} ({change.role_name}): {change.old} -> {change.new}"
        )
    return 0


def run_link(config: Config) -> int:
    """``oasis-kiosk link``: the link agent of a cabinet with ``[link]``, until stopped."""
    if config.link is None:
        print(
            f"oasis-kiosk: link: {config.source} has no [link] section: this cabinet is not linked to a hub",
            file=sys.stderr,
        )
        return 2
    try:
        import psycopg  # noqa: F401
    except ImportError:
        print("oasis-kiosk: the link needs psycopg 3: pip install 'oasis-kiosk[floor]'", file=sys.stderr)
        return 2
    from oasis_kiosk.floor import agent

    logging.basicConfig(level=logging.INFO, format="oasis-kiosk link: %(message)s")
    return agent.run_agent(
        config.database,
        config.link.credentials,
        batch=config.link.batch,
        retry_max=config.link.retry_max,
        linked_jackpot=config.link.jackpot == "linked",
        offline_after=config.link.offline_after,
        agent_file=config.link.agent_file,
    )
