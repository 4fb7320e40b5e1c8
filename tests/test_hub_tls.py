"""TLS to the hub, by configuration: the session's server serves TLS with a certificate this
test makes (its own CA, the openssl command), a cabinet's credentials file asks for
``sslmode = "verify-full"`` with the CA's file, and its login and its link agent reach the
hub over TLS; credentials naming another CA are refused, the error saying why."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from debian import apt_install
from floor import FloorHub, linked_terminal, play, push
from postgres import Postgres

from oasis_kiosk.cli import main
from oasis_kiosk.floor import access, agent
from oasis_kiosk.floor.errors import HubUnavailableError


def openssl() -> str:
    """The openssl command; Debian's openssl package installed with apt-get when it is
    missing and the tests run as root (as the server's package is)."""
    found = shutil.which("openssl")
    apt_get = shutil.which("apt-get")
    if found is None and os.geteuid() == 0 and apt_get is not None:
        apt_install(apt_get, "openssl", RuntimeError)
        found = shutil.which("openssl")
    if found is None:
        pytest.fail("the hub's TLS test needs the openssl command: install Debian's openssl package")
    return found


def run_openssl(*arguments: str) -> None:
    subprocess.run([openssl(), *arguments], check=True, capture_output=True)


NEW_KEY = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
"""A new P-256 key, not encrypted: quick to make."""


def authority(directory: Path, name: str) -> tuple[Path, Path]:
    """A new self-signed CA: its certificate and its key."""
    certificate, key = directory / f"{name}.pem", directory / f"{name}.key"
    files = ("-keyout", str(key), "-out", str(certificate))
    run_openssl("req", "-x509", *NEW_KEY, *files, "-days", "2", "-subj", f"/CN={name}")
    return certificate, key


def server_certificate(directory: Path, ca: tuple[Path, Path]) -> tuple[Path, Path]:
    """The hub's certificate for 127.0.0.1 (as the cabinets reach it), signed by ``ca``."""
    certificate, key, request = directory / "server.pem", directory / "server.key", directory / "server.csr"
    names = directory / "names.cnf"
    names.write_text("subjectAltName = IP:127.0.0.1\n", encoding="utf-8")
    run_openssl("req", "-new", *NEW_KEY, "-keyout", str(key), "-out", str(request), "-subj", "/CN=127.0.0.1")
    signing = ("-CA", str(ca[0]), "-CAkey", str(ca[1]), "-CAcreateserial", "-extfile", str(names))
    run_openssl("x509", "-req", "-in", str(request), *signing, "-out", str(certificate), "-days", "2")
    return certificate, key


@pytest.fixture
def hub_ca(postgres: Postgres, tmp_path: Path) -> Iterator[Path]:
    """The session's server serving TLS (``ssl = on`` and a certificate signed by a CA of this
    test's own, taken at a reload) until the test ends; the CA's certificate."""
    ca = authority(tmp_path, "floor-ca")
    certificate, key = server_certificate(tmp_path, ca)
    owner = os.stat(postgres.data)
    served = []
    for made in (certificate, key):
        # The server's own copies: its user owns them, the key readable by it alone.
        copy = postgres.root / made.name
        shutil.copyfile(made, copy)
        os.chown(copy, owner.st_uid, owner.st_gid)
        copy.chmod(0o600)
        served.append(copy)
    with postgres.connect(autocommit=True) as admin:
        admin.execute(f"ALTER SYSTEM SET ssl_cert_file = '{served[0]}'")
        admin.execute(f"ALTER SYSTEM SET ssl_key_file = '{served[1]}'")
        admin.execute("ALTER SYSTEM SET ssl = on")
        admin.execute("SELECT pg_reload_conf()")
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                psycopg.connect(postgres.conninfo(), sslmode="require").close()
                break
            except psycopg.OperationalError:
                assert time.monotonic() < deadline, "the server does not serve TLS after its reload"
                time.sleep(0.1)
        yield ca[0]
    finally:
        with postgres.connect(autocommit=True) as admin:
            admin.execute("ALTER SYSTEM RESET ssl")
            admin.execute("ALTER SYSTEM RESET ssl_cert_file")
            admin.execute("ALTER SYSTEM RESET ssl_key_file")
            admin.execute("SELECT pg_reload_conf()")


def add_cabinet(floor: FloorHub, name: str, ca: Path) -> Path:
    """A cabinet added as the owner does it (docs/floor.md), its login to check the hub's
    certificate against ``ca``."""
    out = floor.directory / f"{name}.toml"
    command = ["hub", "add-cabinet", name, "--out", str(out), "--dsn", floor.owner_dsn]
    assert main([*command, "--sslmode", "verify-full", "--sslrootcert", str(ca)]) == 0
    return out


def test_a_cabinet_reaches_the_hub_over_tls_checking_its_certificate(
    floor: FloorHub, hub_ca: Path, tmp_path: Path
) -> None:
    credentials = add_cabinet(floor, "c01", hub_ca)
    assert access.read_credentials(credentials).tls == {"sslmode": "verify-full", "sslrootcert": str(hub_ca)}
    with access.connect(credentials) as connection:
        assert connection.pgconn.ssl_in_use
        row = connection.execute("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").fetchone()
        assert row == (True,), "the hub sees the cabinet's connection encrypted"
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 2)
    t.store.close()
    assert push(database, credentials) == agent.outbox_last(database) > 0, "the agent sent the outbox"


def test_a_hub_certificate_from_another_ca_is_refused_saying_so(
    floor: FloorHub, hub_ca: Path, tmp_path: Path
) -> None:
    other_ca, _ = authority(tmp_path, "another-ca")
    credentials = add_cabinet(floor, "c01", other_ca)
    with pytest.raises(HubUnavailableError) as refused:
        access.connect(credentials)
    said = str(refused.value)
    assert "TLS certificate is not trusted" in said, said
    assert str(other_ca) in said, said
    database = tmp_path / "kiosk.db"
    t = linked_terminal(database)
    play(t, 1)
    t.store.close()
    link = agent.Agent(database, credentials, batch=50)
    try:
        with pytest.raises(HubUnavailableError, match="TLS certificate is not trusted"):
            link.push_once()
    finally:
        link.close()
