"""A throwaway PostgreSQL server for the hub's tests.

``Postgres.start()`` finds Debian's server binaries (the newest ``/usr/lib/postgresql/N/bin``,
else ``pg_config --bindir``), installs Debian's ``postgresql`` package with apt-get when
there are none and the tests run as root, runs ``initdb`` into a directory of its own made
with ``tempfile.mkdtemp``, and starts ``postgres`` on a free loopback port with its unix
socket in that directory. ``stop()`` shuts it down and deletes the directory: nothing
outside it is touched.

PostgreSQL refuses to run as root. When the tests run as root (as they do in CI), initdb
and the server run as ``nobody``, the directory handed to it; the directories above it
must let ``nobody`` through, which this module checks before it uses one.

Every login needs a password (SCRAM), the superuser's included, so that the hub's tests of
wrong credentials mean something.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from debian import apt_install

START_SECONDS = 60.0
STOP_SECONDS = 30.0
UNPRIVILEGED = "nobody"


class PostgresUnavailableError(RuntimeError):
    """The server cannot be had here; the message says why and what to do."""


def server_binaries() -> Path | None:
    """The directory holding ``initdb`` and ``postgres``: the newest Debian server, else
    what ``pg_config --bindir`` names; None when there is none."""
    versions = []
    for candidate in Path("/usr/lib/postgresql").glob("*/bin"):
        if re.fullmatch(r"\d+", candidate.parent.name) and (candidate / "postgres").exists():
            versions.append((int(candidate.parent.name), candidate))
    if versions:
        return max(versions)[1]
    pg_config = shutil.which("pg_config")
    if pg_config:
        result = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        bindir = Path(result.stdout.strip())
        if result.returncode == 0 and (bindir / "initdb").exists() and (bindir / "postgres").exists():
            return bindir
    return None


def install_server() -> Path:
    """Debian's ``postgresql`` package, installed with apt-get: only as root, only when the
    server is missing."""
    if os.geteuid() != 0:
        raise PostgresUnavailableError(
            "the hub's tests need a PostgreSQL server (15 or later) and none is installed: "
            "install Debian's `postgresql` package (sudo apt-get install postgresql), "
            "or put pg_config of an installed server on PATH"
        )
    apt_get = shutil.which("apt-get")
    if apt_get is None:
        raise PostgresUnavailableError(
            "the hub's tests need a PostgreSQL server (15 or later): none is installed and "
            "there is no apt-get to install Debian's `postgresql` package"
        )
    apt_install(apt_get, "postgresql", PostgresUnavailableError)
    found = server_binaries()
    if found is None:
        raise PostgresUnavailableError(
            "Debian's postgresql package installed, but no server binaries were found"
        )
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def reachable_by(path: Path, uid: int, gid: int) -> bool:
    """Whether a process of ``uid``/``gid`` can pass through every directory above ``path``
    and into it."""
    for directory in [path, *path.parents]:
        mode = os.stat(directory)
        if mode.st_uid == uid:
            bit = stat.S_IXUSR
        elif mode.st_gid == gid:
            bit = stat.S_IXGRP
        else:
            bit = stat.S_IXOTH
        if not mode.st_mode & bit:
            return False
    return True


def private_directory(uid: int, gid: int) -> Path:
    """A new directory (mode 0700) owned by ``uid``, in the first temporary directory whose
    parents that user can pass through."""
    bases = list(dict.fromkeys([tempfile.gettempdir(), "/tmp", "/var/tmp"]))
    for base in bases:
        if Path(base).is_dir() and reachable_by(Path(base), uid, gid):
            directory = Path(tempfile.mkdtemp(prefix="oasis-hub-pg-", dir=base))
            os.chown(directory, uid, gid)
            return directory
    raise PostgresUnavailableError(
        f"no temporary directory that user {uid} can reach (tried {', '.join(bases)}): "
        "PostgreSQL cannot run as root, and the unprivileged user it runs as must reach its data"
    )


def living_in_group(group: int) -> list[int]:
    """The processes of a process group that have not ended (an ended one may stay a zombie
    until whoever inherited it reaps it)."""
    living = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # ended meanwhile
        state, group_id = fields[0], int(fields[2])
        if group_id == group and state not in ("Z", "X"):
            living.append(int(stat_file.parent.name))
    return living


@dataclass
class Postgres:
    """A running server: TCP on 127.0.0.1:``port`` and a unix socket in ``socket_dir``."""

    root: Path
    bindir: Path
    port: int
    password: str = field(repr=False)
    superuser: str = "postgres"
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    run_as: dict[str, Any] = field(default_factory=dict, repr=False)
    durable: bool = False
    """Whether the server syncs its commits to disk as a production server does (the
    benchmark's); the tests' server does not: durability buys them nothing, speed does."""
    settings: dict[str, str] = field(default_factory=dict)
    """Server settings besides the tests' own (``-c name=value``), as a hub's server may have."""

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root / "socket"

    @property
    def log(self) -> Path:
        return self.root / "postgres.log"

    def conninfo(self, dbname: str = "postgres", user: str | None = None, password: str | None = None) -> str:
        """A libpq connection string over loopback TCP, by default the superuser's."""
        return psycopg.conninfo.make_conninfo(
            host="127.0.0.1",
            port=self.port,
            dbname=dbname,
            user=user or self.superuser,
            password=self.password if password is None else password,
            connect_timeout=10,
        )

    def connect(self, dbname: str = "postgres", **options: Any) -> psycopg.Connection[Any]:
        return psycopg.connect(self.conninfo(dbname), **options)

    @staticmethod
    def start(*, durable: bool = False, settings: dict[str, str] | None = None) -> Postgres:
        bindir = server_binaries() or install_server()
        run_as: dict[str, Any] = {}
        uid, gid = os.geteuid(), os.getegid()
        if uid == 0:
            account = pwd.getpwnam(UNPRIVILEGED)
            uid, gid = account.pw_uid, account.pw_gid
            run_as = {"user": uid, "group": gid, "extra_groups": []}
        root = private_directory(uid, gid)
        server = Postgres(
            root,
            bindir,
            port=0,
            password=secrets.token_urlsafe(18),
            run_as=run_as,
            durable=durable,
            settings=settings or {},
        )
        try:
            server._initdb(uid, gid)
            server._launch(uid, gid)
        except BaseException:
            server.stop()
            raise
        return server

    def _run(self, command: list[str]) -> None:
        result = subprocess.run(
            command, capture_output=True, text=True, cwd=self.root, check=False, **self.run_as
        )
        if result.returncode != 0:
            raise PostgresUnavailableError(
                f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}"
            )

    def _initdb(self, uid: int, gid: int) -> None:
        for directory in (self.data, self.socket_dir):
            directory.mkdir(mode=0o700)
            os.chown(directory, uid, gid)
        password_file = self.root / "password"
        password_file.write_text(self.password + "\n", encoding="utf-8")
        os.chown(password_file, uid, gid)
        password_file.chmod(0o600)
        self._run(
            [
                str(self.bindir / "initdb"),
                "--pgdata",
                str(self.data),
                "--username",
                self.superuser,
                "--pwfile",
                str(password_file),
                "--auth",
                "scram-sha-256",
                "--encoding",
                "UTF8",
                "--no-locale",
                "--no-sync",
            ]
        )
        password_file.unlink()

    def _launch(self, uid: int, gid: int, port: int | None = None) -> None:
        # A port found free may be taken before the server binds it: try a few.
        for _attempt in range(5 if port is None else 1):
            self.port = free_port() if port is None else port
            log = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            os.fchown(log, uid, gid)
            try:
                self.process = subprocess.Popen(
                    [
                        str(self.bindir / "postgres"),
                        "-D",
                        str(self.data),
                        "-p",
                        str(self.port),
                        "-k",
                        str(self.socket_dir),
                        "-c",
                        "listen_addresses=127.0.0.1",
                        "-c",
                        "max_connections=200",
                        *self._speed(),
                        *[
                            part
                            for name, value in self.settings.items()
                            for part in ("-c", f"{name}={value}")
                        ],
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    cwd=self.root,
                    # A group of its own, which its backends join: kill() reaches every one.
                    start_new_session=True,
                    **self.run_as,
                )
            finally:
                os.close(log)
            if self._wait_ready():
                return
            self.process = None
        raise PostgresUnavailableError(f"PostgreSQL did not start:\n{self._log_tail()}")

    def _speed(self) -> list[str]:
        if self.durable:
            return []
        # A throwaway server: durability buys nothing, speed does.
        return ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]

    def _wait_ready(self) -> bool:
        assert self.process is not None
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with self.connect():
                    return True
            except psycopg.OperationalError:
                time.sleep(0.1)
        self._terminate()
        raise PostgresUnavailableError(
            f"PostgreSQL did not accept connections in {START_SECONDS:.0f} s:\n{self._log_tail()}"
        )

    def _log_tail(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return "(no log)"

    def _terminate(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)  # fast shutdown: disconnects the clients
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def kill(self) -> None:
        """SIGKILLs the postmaster and every backend at once (the hub's processes killed, as
        by ``kill -9`` or the OOM killer), keeping its data, its password and its port; returns
        when none of them runs, so that ``resume()`` finds no backend still holding its shared
        memory and starts with crash recovery."""
        process, self.process = self.process, None
        assert process is not None, "the server is not running"
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + STOP_SECONDS
        while living_in_group(process.pid):
            if time.monotonic() > deadline:
                raise PostgresUnavailableError(
                    f"PostgreSQL's backends outlived SIGKILL by {STOP_SECONDS:.0f} s"
                )
            time.sleep(0.05)

    def resume(self) -> None:
        """Starts a killed server again on the port it had, as ``pg_ctl start`` would."""
        owner = os.stat(self.data)
        self._launch(owner.st_uid, owner.st_gid, port=self.port)

    def stop(self) -> None:
        """Stops the server and deletes its directory."""
        self._terminate()
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(self.root)
