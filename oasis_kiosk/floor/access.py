"""Who logs in to the hub, and with what.

Each cabinet logs in with a role of its own, ``<database>_cabinet_<name>``, a member of
the database's cabinet group; each dashboard with ``<database>_dashboard_<name>``, a member
of its dashboard group (``migrate.group_roles``). ``add_cabinet`` and ``add_dashboard``,
run by the hub's owner, make the role with a random password and write it to a
credentials file that only its owner may read (mode 0600), which the cabinet or dashboard
then connects with; ``renew_cabinet`` gives a cabinet's login a new one the same way. The
password travels to the server only as its SCRAM verifier.

A credentials file is TOML::

    [hub]
    host = "hub.floor.lan"     # or a unix socket's directory
    port = 5432
    dbname = "oasis_hub"
    user = "oasis_hub_cabinet_c01"
    password = "…"
    cabinet = "c01"            # a cabinet's file; a dashboard's has none
    sslmode = "verify-full"    # optional: any libpq ssl* setting, for TLS
    sslrootcert = "/etc/oasis-kiosk/hub-ca.pem"
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from oasis_kiosk.floor.errors import CredentialsError, HubError, HubUnavailableError, UnknownCabinetError
from oasis_kiosk.floor.migrate import ROLE_NAME_BYTES, group_roles, require_current
from oasis_kiosk.floor.tls import SSLMODES, TLS_KEYS

NAME = re.compile(r"[a-z][a-z0-9_]{0,29}")
CONNECT_TIMEOUT = 10


@dataclass(frozen=True)
class Credentials:
    host: str
    port: int
    dbname: str
    user: str
    password: str = field(repr=False)
    cabinet: str | None = None
    tls: dict[str, str] = field(default_factory=dict)

    def conninfo(self) -> str:
        return psycopg.conninfo.make_conninfo(
            host=self.host,
            port=self.port,
            dbname=self.dbname,
            user=self.user,
            password=self.password,
            connect_timeout=CONNECT_TIMEOUT,
            application_name=f"oasis-kiosk {self.cabinet or self.user}",
            **self.tls,
        )

    def toml(self, heading: str) -> str:
        lines = [f"# {heading}", "# Keep it readable by the service's user only (mode 0600).", "[hub]"]
        for key, value in [
            ("host", self.host),
            ("port", self.port),
            ("dbname", self.dbname),
            ("user", self.user),
            ("password", self.password),
            ("cabinet", self.cabinet),
            *self.tls.items(),
        ]:
            if value is not None:
                lines.append(f"{key} = {json.dumps(value)}")
        return "\n".join(lines) + "\n"


def read_credentials(path: Path) -> Credentials:
    """A credentials file, refused if others than its owner may read it."""
    try:
        mode = path.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise CredentialsError(
                f"{path}: others than its owner may read it (mode {stat.S_IMODE(mode):04o}): chmod 600 {path}"
            )
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CredentialsError(f"{path}: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise CredentialsError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from error
    except tomllib.TOMLDecodeError as error:
        raise CredentialsError(f"{path}: not TOML: {error}") from error
    hub = data.get("hub")
    if not isinstance(hub, dict):
        raise CredentialsError(f"{path}: no [hub] section")
    known = {"host", "port", "dbname", "user", "password", "cabinet", *TLS_KEYS}
    unknown = sorted(set(hub) - known)
    if unknown:
        raise CredentialsError(f"{path}: unknown key {unknown[0]!r} in [hub]")
    for key in ("host", "dbname", "user", "password"):
        if not isinstance(hub.get(key), str) or not hub[key]:
            raise CredentialsError(f"{path}: [hub] {key} must be a text")
    port = hub.get("port", 5432)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise CredentialsError(f"{path}: [hub] port must be a number from 1 to 65535")
    cabinet = hub.get("cabinet")
    if cabinet is not None and not (isinstance(cabinet, str) and NAME.fullmatch(cabinet)):
        raise CredentialsError(f"{path}: [hub] cabinet must be a cabinet's name")
    tls = {key: hub[key] for key in TLS_KEYS if key in hub}
    if not all(isinstance(value, str) for value in tls.values()):
        raise CredentialsError(f"{path}: [hub] ssl settings are texts")
    return Credentials(hub["host"], port, hub["dbname"], hub["user"], hub["password"], cabinet, tls)


def write_credentials(path: Path, credentials: Credentials, heading: str) -> None:
    """Writes a new file, mode 0600 from its creation; an existing file is never replaced."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError as error:
        raise CredentialsError(f"{path} exists already: a credentials file is never overwritten") from error
    except OSError as error:
        raise CredentialsError(f"{path}: {error.strerror or error}") from error
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(credentials.toml(heading))
        file.flush()
        os.fsync(file.fileno())


def connect(target: Credentials | Path | str, **options: Any) -> psycopg.Connection[Any]:
    """A connection in autocommit mode (each of the hub's operations makes its own
    transaction), to a credentials file, Credentials, or a libpq connection string ("" for
    libpq's environment: PGHOST, PGUSER, PGPASSFILE…)."""
    if isinstance(target, Path):
        target = read_credentials(target)
    conninfo = target.conninfo() if isinstance(target, Credentials) else target
    try:
        return psycopg.connect(conninfo, autocommit=True, **options)
    except psycopg.OperationalError as error:
        message = str(error).strip()
        user = psycopg.conninfo.conninfo_to_dict(conninfo).get("user", "")
        if "password authentication failed" in message or "no password supplied" in message:
            # The server says the same of a role it does not have, so as not to tell which exist.
            raise CredentialsError(
                f"the hub refused the login of {user or 'this role'}: wrong password, or no such login"
            ) from error
        if "is not permitted to log in" in message:
            cabinet = target.cabinet if isinstance(target, Credentials) else None
            raise CredentialsError(disabled_login(str(user), cabinet, message)) from error
        if "role" in message and "does not exist" in message:
            raise CredentialsError(f"the hub has no login {user!r}: {message}") from error
        if "permission denied for database" in message:
            raise CredentialsError(f"{user!r} may not connect to this hub's database: {message}") from error
        if "certificate verify failed" in message:
            # libpq names neither the CA file it checked against nor what to look at.
            ca = psycopg.conninfo.conninfo_to_dict(conninfo).get("sslrootcert", "~/.postgresql/root.crt")
            raise HubUnavailableError(
                f"the hub's TLS certificate is not trusted: it does not verify against the CA "
                f"certificate {ca} (sslrootcert): signed by another CA, or expired: {message}"
            ) from error
        raise HubUnavailableError(f"cannot reach the hub: {message}") from error


def disabled_login(user: str, cabinet: str | None, message: str) -> str:
    """A login that may not log in: the hub's watchdog disabled it (``watchdog.disable_login``)."""
    which = f"the login {user} of cabinet {cabinet}" if cabinet else f"the login {user}"
    return (
        f"the hub's watchdog disabled {which} (it held the hub past the bound: a login used by something "
        f"other than its link agent); the hub's owner lets it in again with hub enable-cabinet "
        f"{cabinet or 'NAME'} --by WHO: {message}"
    )


def login_role(connection: psycopg.Connection[Any], kind: str, name: str) -> str:
    if not NAME.fullmatch(name):
        raise HubError(
            f"{name!r} is not a {kind}'s name: a lower-case letter, then up to 29 letters, digits or _"
        )
    role = f"{connection.info.dbname}_{kind}_{name}"
    if len(role.encode("utf-8")) > ROLE_NAME_BYTES:
        raise HubError(f"{kind} name {name!r} is too long for this database's role names ({role!r})")
    return role


def create_login(connection: psycopg.Connection[Any], role: str, group: str, password: str) -> None:
    exists = connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone()
    if exists:
        raise HubError(f"role {role} exists already")
    verifier = connection.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256")
    connection.execute(
        sql.SQL(
            "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION INHERIT PASSWORD {}"
        ).format(sql.Identifier(role), sql.Literal(verifier.decode()))
    )
    connection.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(group), sql.Identifier(role)))


def hub_address(connection: psycopg.Connection[Any], host: str | None, port: int | None) -> tuple[str, int]:
    """Where the new login reaches the hub: as given, else as the owner reached it."""
    return host or connection.info.host, connection.info.port if port is None else port


def new_credentials(
    connection: psycopg.Connection[Any],
    kind: str,
    name: str,
    host: str | None,
    port: int | None,
    tls: dict[str, str] | None,
) -> Credentials:
    """A new login's credentials (its role named for ``kind`` and ``name``, a fresh password),
    not yet in the hub; a cabinet's carry its name, a dashboard's none."""
    role = login_role(connection, kind, name)
    # Checked before anything is made: a login whose own file cannot connect is no login.
    if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536):
        raise HubError(f"the hub's port for the new login is a number from 1 to 65535, not {port!r}")
    mode = (tls or {}).get("sslmode")
    if mode is not None and mode not in SSLMODES:
        raise HubError(f"sslmode is one of libpq's ({', '.join(SSLMODES)}), not {mode!r}")
    address = hub_address(connection, host, port)
    cabinet = name if kind == "cabinet" else None
    return Credentials(
        address[0],
        address[1],
        connection.info.dbname,
        role,
        secrets.token_urlsafe(24),
        cabinet,
        dict(tls or {}),
    )


def commit_login(
    connection: psycopg.Connection[Any],
    create: Callable[[], None],
    out: Path,
    credentials: Credentials,
    comment: str,
) -> None:
    """``create`` the login in one transaction with its credentials file written before the
    commit; the file removed if the commit fails (never overwritten: write_credentials)."""
    written = False
    try:
        with connection.transaction():
            create()
            write_credentials(out, credentials, comment)
            written = True
    except BaseException:
        if written:
            out.unlink(missing_ok=True)
        raise


def add_cabinet(
    connection: psycopg.Connection[Any],
    name: str,
    out: Path,
    *,
    host: str | None = None,
    port: int | None = None,
    tls: dict[str, str] | None = None,
) -> Credentials:
    """A cabinet of this hub: its role and its row, in one transaction, and its credentials
    file (written before the commit, removed if the commit fails, never overwritten)."""
    credentials = new_credentials(connection, "cabinet", name, host, port, tls)
    groups = group_roles(connection.info.dbname)

    def create() -> None:
        taken = connection.execute("SELECT 1 FROM hub.cabinets WHERE name = %s", [name]).fetchone()
        if taken:
            raise HubError(f"cabinet {name} exists already")
        create_login(connection, credentials.user, groups.cabinets, credentials.password)
        # A few connections, no transaction left idle, a dead link noticed: one cabinet's
        # login cannot hold the pool or the server's connections (migration 0011).
        # (A hub not yet migrated so far gets them, for every cabinet, when it is.)
        # And the owner may end its sessions: the watchdog's right (migration 0013).
        for setup in ("hub.limit_cabinet_login", "hub.let_the_owner_end_sessions_of"):
            there = connection.execute("SELECT to_regprocedure(%s)", [f"{setup}(text)"]).fetchone()
            if there and there[0]:
                connection.execute(sql.SQL("SELECT {}(%s::text)").format(sql.SQL(setup)), [credentials.user])
        connection.execute(
            "INSERT INTO hub.cabinets (name, role_name) VALUES (%s, %s)", [name, credentials.user]
        )

    commit_login(connection, create, out, credentials, f"The hub's credentials of cabinet {name}.")
    return credentials


def add_dashboard(
    connection: psycopg.Connection[Any],
    name: str,
    out: Path,
    *,
    host: str | None = None,
    port: int | None = None,
    tls: dict[str, str] | None = None,
) -> Credentials:
    """A read-only login for the owner's dashboard, and its credentials file."""
    credentials = new_credentials(connection, "dashboard", name, host, port, tls)
    groups = group_roles(connection.info.dbname)
    commit_login(
        connection,
        lambda: create_login(connection, credentials.user, groups.dashboard, credentials.password),
        out,
        credentials,
        f"The hub's read-only credentials of dashboard {name}.",
    )
    return credentials


@dataclass(frozen=True)
class SettingsRestored:
    """A login whose settings were not the hub's, put back (``hub.login_settings_restored``)."""

    role: str
    cabinet_id: int | None
    """None: a dashboard's login."""
    found: list[str]
    """What the server kept for it (``in database NAME: …`` for one database's)."""
    restored_by: str
    restored_at: datetime

    def sentence(self) -> str:
        whose = "a cabinet's" if self.cabinet_id is not None else "a dashboard's"
        return (
            f"the login {self.role} ({whose}) had settings that are not the hub's "
            f"({', '.join(self.found) or 'none'}): the hub's were put back by {self.restored_by} "
            f"at {self.restored_at:%Y-%m-%d %H:%M:%S %Z}"
        )


LOGINS_ASTRAY = "SELECT role_name FROM hub.login_settings() WHERE found <> hubs ORDER BY role_name"
"""The hub's logins whose settings the server keeps are not the hub's (migration 0018)."""


def restore_settings(connection: psycopg.Connection[Any], role: str, by: str) -> SettingsRestored | None:
    """Every setting the server keeps for the hub's login ``role`` reset, in every database, and
    the hub's own given again (``hub.restore_login_settings``: a login may change its own, and
    no right takes that away), in one transaction; recorded with who and when if they were not
    the hub's (None: they were)."""
    with connection.transaction():
        row = connection.execute(
            "SELECT cabinet_id, found, hubs FROM hub.login_settings() WHERE role_name = %s", [role]
        ).fetchone()
        if row is None:
            raise HubError(f"{role} is not a login of this hub (a cabinet's or a dashboard's)")
        cabinet_id, found, hubs = row
        connection.execute("SELECT hub.restore_login_settings(%s)", [role])
        if list(found) == list(hubs):
            return None
        stored = connection.execute(
            """INSERT INTO hub.login_settings_restored (role_name, cabinet_id, found, restored_by)
               VALUES (%s, %s, %s, %s) RETURNING restored_at""",
            [role, cabinet_id, list(found), by],
        ).fetchone()
    assert stored is not None
    return SettingsRestored(role, cabinet_id, list(found), by, stored[0])


def end_sessions(connection: psycopg.Connection[Any], role: str, but: int = 0) -> int:
    """Ends every session of ``role`` but the process ``but``, in any database; returns how many
    (the owner may: it is a member of each cabinet's login, migration 0013)."""
    row = connection.execute(
        """SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 2000)) FROM pg_stat_activity
            WHERE usename = %s AND pid <> %s""",
        [role, but],
    ).fetchone()
    return 0 if row is None else int(row[0])


@dataclass(frozen=True)
class Renewed:
    """A cabinet's login given new credentials (``hub.credentials_replaced``)."""

    credentials: Credentials
    replaced_by: str
    replaced_at: datetime
    sessions_ended: int
    """Its sessions opened before, with the old password, ended."""
    login_disabled: bool
    """It may still not log in (the watchdog disabled it): ``hub enable-cabinet`` lets it in."""


def cabinet_login(connection: psycopg.Connection[Any], name: str) -> tuple[int, str, bool]:
    """A cabinet's id, its login's role and whether it may log in now; UnknownCabinetError
    for a cabinet the hub has not, HubError for a login the server has not."""
    row = connection.execute(
        """SELECT c.id, c.role_name, r.rolcanlogin FROM hub.cabinets c
             LEFT JOIN pg_roles r ON r.rolname = c.role_name WHERE c.name = %s""",
        [name],
    ).fetchone()
    if row is None:
        raise UnknownCabinetError(f"the hub has no cabinet {name!r} (hub add-cabinet makes one)")
    cabinet_id, role, may_log_in = row
    if may_log_in is None:
        raise HubError(f"cabinet {name}: its login {role} is not on this server")
    return cabinet_id, role, may_log_in


def renew_cabinet(
    connection: psycopg.Connection[Any],
    name: str,
    out: Path,
    by: str,
    *,
    host: str | None = None,
    port: int | None = None,
    tls: dict[str, str] | None = None,
) -> Renewed:
    """A cabinet's login given a new random password (the old one, stolen perhaps, refused from
    then on) and the hub's settings again (``restore_settings``), recorded with who and when,
    in one transaction with its credentials file as ``add_cabinet`` writes it (before the
    commit, removed if the commit fails, never overwritten); then its sessions, opened with the
    old password, are ended. A login the watchdog disabled stays disabled."""
    require_current(connection)
    if not by.strip():
        raise HubError("who gives the cabinet new credentials: a name, not blank")
    cabinet_id, role, may_log_in = cabinet_login(connection, name)
    credentials = replace(new_credentials(connection, "cabinet", name, host, port, tls), user=role)
    replaced: list[datetime] = []

    def renew() -> None:
        verifier = connection.pgconn.encrypt_password(
            credentials.password.encode(), role.encode(), b"scram-sha-256"
        )
        connection.execute(
            sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(role), sql.Literal(verifier.decode()))
        )
        restore_settings(connection, role, by)
        stored = connection.execute(
            """INSERT INTO hub.credentials_replaced (cabinet_id, role_name, replaced_by)
               VALUES (%s, %s, %s) RETURNING replaced_at""",
            [cabinet_id, role, by],
        ).fetchone()
        assert stored is not None
        replaced.append(stored[0])

    commit_login(connection, renew, out, credentials, f"The hub's credentials of cabinet {name}.")
    ended = end_sessions(connection, role)
    return Renewed(credentials, by, replaced[0], ended, not may_log_in)
