"""Helpers of the floor's tests (reconciliation, the dashboard): a migrated hub in a database
of its own on the session's server (tests/postgres.py), and linked terminals that play and
whose link agent pushes their outbox to it."""

from __future__ import annotations

import contextlib
import itertools
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from postgres import Postgres
from psycopg import sql
from support import books

from oasis_kiosk.config import Config, LinkConfig
from oasis_kiosk.floor import access, agent, hub, migrate
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.store.db import Store
from oasis_kiosk.store.outbox import Outbox

SEEDS = seeds_from(bytes(32))
ROYAL = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"
NUMBERS = itertools.count(1)


@dataclass
class FloorHub:
    """A hub with its owner's connection; cabinets' credentials files in ``directory``."""

    server: Postgres
    dbname: str
    owner_role: str
    owner_password: str
    directory: Path
    owner: psycopg.Connection[Any]
    closing: list[Any] = field(default_factory=list)

    @property
    def owner_dsn(self) -> str:
        return self.server.conninfo(self.dbname, self.owner_role, self.owner_password)

    def credentials(self, name: str) -> Path:
        return self.directory / f"{name}.toml"

    def add_cabinet(self, name: str) -> Path:
        access.add_cabinet(self.owner, name, self.credentials(name))
        return self.credentials(name)

    def add_dashboard(self, name: str = "office") -> Path:
        path = self.directory / f"dashboard-{name}.toml"
        access.add_dashboard(self.owner, name, path)
        return path

    def cabinet(self, name: str) -> psycopg.Connection[Any]:
        connection = access.connect(self.credentials(name))
        self.closing.append(connection)
        return connection

    def close(self) -> None:
        for thing in [*self.closing, self.owner]:
            thing.close()


def new_database(postgres: Postgres, prefix: str = "floor") -> tuple[str, str, str]:
    """A database and its owner role, as a floor's DBA makes them (docs/floor.md), not yet
    migrated: its name, the owner's role and password. One numbering for every prefix, so
    that no two tests of a session make the same database."""
    number = next(NUMBERS)
    dbname, role, password = f"{prefix}_{number}", f"{prefix}_{number}_owner", f"owner-{number}"
    with postgres.connect(autocommit=True) as admin:
        admin.execute(
            sql.SQL("CREATE ROLE {} LOGIN CREATEROLE PASSWORD {}").format(
                sql.Identifier(role), sql.Literal(password)
            )
        )
        admin.execute(
            sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(dbname), sql.Identifier(role))
        )
    return dbname, role, password


def new_hub(
    postgres: Postgres, directory: Path, *, migrations: Path = migrate.MIGRATIONS, prefix: str = "floor"
) -> FloorHub:
    """A database and its owner, as a floor's DBA makes them, migrated; the pool feeds 10 %
    of a stake, resets to 1 000 and holds at most 10⁹."""
    dbname, role, password = new_database(postgres, prefix)
    owner = access.connect(postgres.conninfo(dbname, role, password))
    migrate.migrate(owner, migrations)
    if migrations == migrate.MIGRATIONS:
        hub.set_parameters(owner, "tests", reset=1000, rate_ppm=100_000, maximum=10**9, reserve_rate_ppm=0)
    return FloorHub(postgres, dbname, role, password, directory, owner)


def restrict_server_functions(postgres: Postgres, dbname: str) -> None:
    """``oasis_kiosk/floor/server_functions.sql`` run by the superuser on the hub's database,
    as the operator runs it: no login but the owner may take advisory locks, nor any notify.
    The shared ``floor`` fixture's hub stays without it (the watchdog's tests need a
    cabinet's login that takes an advisory lock)."""
    with postgres.connect(dbname, autocommit=True) as superuser:
        superuser.execute(migrate.SERVER_FUNCTIONS.read_text(encoding="utf-8").encode())


def linked_terminal(
    database: Path, deck: Callable[[int], str] | None = None, *, jackpot: str = "linked"
) -> Terminal:
    """A terminal whose books are linked (made the first time as test books), as ``oasis-kiosk
    run`` opens them with ``[link] jackpot = …`` (the floor's linked jackpot unless told)."""
    books(database).close()
    config = Config(database=database, link=LinkConfig(database.with_name("hub.toml"), jackpot=jackpot))
    store = Store(database, outbox=Outbox(linked_jackpot=jackpot == "linked"))
    if deck is not None:
        return Terminal(config, store, deck_for_round=deck)
    return Terminal(config, store, seed_for_round=SEEDS)


def play(t: Terminal, rounds: int, *, bonus: bool = True) -> None:
    """Rounds folded, with the bonus bet (which feeds the jackpot) unless ``bonus`` is false."""
    if t.credits < 5000:
        assert t.handle("bill", 5000).ok
    if bonus and not t.bonus_stake:
        assert t.handle("bonus").ok
    for _ in range(rounds):
        if t.credits < t.upfront():
            assert t.handle("bill", 5000).ok
        assert t.handle("deal").ok
        assert t.handle("fold").ok
        assert t.round is None


def push(database: Path, credentials: Path) -> int:
    """Everything in the books' outbox to the hub, by the link agent; returns how many rows."""
    link = agent.Agent(database, credentials, batch=50)
    try:
        return link.push_all()
    finally:
        link.close()


class Relay:
    """A TCP relay to the hub that can cut every connection through it and refuse new ones
    (a cut network, as the agent sees it), and be restored. A hub it cannot reach closes
    the client's connection, as the hub itself would."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.is_cut = False
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.is_cut:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.is_cut = True
        with self.lock:
            for end in self.sockets:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()
            self.sockets.clear()

    def restore(self) -> None:
        self.is_cut = False

    def close(self) -> None:
        self.cut()
        self.listener.close()
