"""systemd/install.sh: a dry run shows every step and changes nothing; an install under a
test root (--prefix) makes every file and unit link there, shows the changes to the
running system it would make, and changes nothing when run again; bad input is refused
before anything changes."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oasis_kiosk.config import load_config

REPOSITORY = Path(__file__).parents[1]
SCRIPT = REPOSITORY / "systemd" / "install.sh"
VENV = "/opt/oasis-kiosk/src/.venv"
GROUPS = ["video", "render", "input", "gpio", "dialout", "audio"]

pytestmark = pytest.mark.skipif(
    shutil.which("systemctl") is None, reason="systemctl is not installed: the unit links cannot be made"
)


def install(*arguments: str, as_nobody: bool = False) -> subprocess.CompletedProcess[str]:
    command = ["sh", str(SCRIPT), *arguments]
    if as_nobody and os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("setpriv is not installed: cannot run the script without root here")
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def steps(output: str, mark: str) -> list[str]:
    return [line[2:] for line in output.splitlines() if line.startswith(mark + " ")]


def tree(root: Path) -> dict[str, tuple[str, str]]:
    """Every path under ``root``: its mode and its content's digest or link target."""
    found = {}
    for path in sorted(root.rglob("*")):
        mode = oct(path.lstat().st_mode)
        if path.is_symlink():
            found[str(path.relative_to(root))] = (mode, os.readlink(path))
        elif path.is_file():
            found[str(path.relative_to(root))] = (mode, hashlib.sha256(path.read_bytes()).hexdigest())
        else:
            found[str(path.relative_to(root))] = (mode, "")
    return found


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A test root with a checkout's environment in it, as `make build` leaves one."""
    root = tmp_path / "root"
    bin_dir = root / VENV.lstrip("/") / "bin"
    bin_dir.mkdir(parents=True)
    kiosk = bin_dir / "oasis-kiosk"
    kiosk.write_text("#!/bin/sh\n")
    kiosk.chmod(0o755)
    (bin_dir / "python").symlink_to(sys.executable)
    return root


def test_an_install_under_a_test_root_makes_everything_there(root: Path) -> None:
    first = install("--prefix", str(root), "--venv", VENV)
    assert first.returncode == 0, first.stderr
    assert (
        first.stdout.splitlines()[-1]
        == f"# installed under {root}; the ! lines are what a real install also does"
    )

    data = root / "var/lib/oasis-kiosk"
    assert data.is_dir()
    assert oct(data.stat().st_mode & 0o777) == "0o750"
    config = root / "etc/oasis-kiosk/config.toml"
    assert config.read_text() == (REPOSITORY / "systemd/config.example.toml").read_text()
    assert load_config(config).database == Path("/var/lib/oasis-kiosk/kiosk.db")
    unit = root / "etc/systemd/system/oasis-kiosk.service"
    shipped = (REPOSITORY / "systemd/oasis-kiosk.service").read_text()
    assert unit.read_text() == shipped.replace(
        "ExecStart=/opt/oasis-kiosk/venv/bin/oasis-kiosk ", f"ExecStart={VENV}/bin/oasis-kiosk "
    )
    wants = root / "etc/systemd/system/multi-user.target.wants/oasis-kiosk.service"
    assert os.readlink(wants) == "/etc/systemd/system/oasis-kiosk.service", "enabled"
    assert os.readlink(root / "etc/systemd/system/getty@tty1.service") == "/dev/null", (
        "the login prompt masked"
    )
    assert (root / "opt/oasis-kiosk/docs/cabinet.md").read_text() == (
        REPOSITORY / "docs/cabinet.md"
    ).read_text()

    shown = steps(first.stdout, "!")
    assert (
        "useradd --system --user-group --home-dir /var/lib/oasis-kiosk --no-create-home "
        "--shell /usr/sbin/nologin --comment 'Oasis Stud Poker kiosk' oasis"
    ) in shown
    assert [f"usermod --append --groups {group} oasis" for group in GROUPS] == [
        line for line in shown if line.startswith("usermod") and line.endswith(" oasis")
    ]
    assert f"chown oasis:oasis {data}" in shown
    # The link agent: a user of its own in the kiosk's group, and a directory of its own
    # whose files the kiosk's group may read.
    assert (
        "useradd --system --user-group --home-dir /var/lib/oasis-kiosk-link --no-create-home "
        "--shell /usr/sbin/nologin --comment 'Oasis Stud Poker kiosk: link agent' oasis-link"
    ) in shown
    assert "usermod --append --groups oasis oasis-link" in shown
    link = root / "var/lib/oasis-kiosk-link"
    assert oct(link.stat().st_mode & 0o7777) == "0o2750"
    assert f"chown oasis-link:oasis {link}" in shown
    assert any(line.startswith("apt-get install -y --no-install-recommends python3-venv") for line in shown)
    assert f"{root}{VENV}/bin/pip install --quiet lgpio" in shown, "the checkout's environment lacks lgpio"
    assert "systemctl daemon-reload" in shown
    assert (
        f"runuser -u oasis -- {VENV}/bin/oasis-kiosk init --if-missing --config /etc/oasis-kiosk/config.toml"
        in shown
    ), "the books are made once, as the kiosk's user"

    before = tree(root)
    again = install("--prefix", str(root), "--venv", VENV)
    assert again.returncode == 0, again.stderr
    assert steps(again.stdout, "+") == [], "the second run changes nothing"
    assert "systemctl daemon-reload" not in steps(again.stdout, "!"), "the unit did not change"
    assert tree(root) == before


def test_an_existing_configuration_is_kept(root: Path) -> None:
    config = root / "etc/oasis-kiosk/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[terminal]\nlanguage = "cs"\n')
    result = install("--prefix", str(root), "--venv", VENV, "--no-apt")
    assert result.returncode == 0, result.stderr
    assert config.read_text() == '[terminal]\nlanguage = "cs"\n'
    assert "= /etc/oasis-kiosk/config.toml kept as it is" in result.stdout.splitlines()
    assert "= system packages left alone (--no-apt)" in result.stdout.splitlines()


def test_a_dry_run_shows_every_step_and_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "root"
    result = install("--dry-run", "--prefix", str(root))
    assert result.returncode == 0, result.stderr
    assert not root.exists(), "not even the root was made"
    made = steps(result.stdout, "+")
    assert f"install -d -m 750 {root}/var/lib/oasis-kiosk" in made
    assert (
        f"install -m 644 {REPOSITORY}/systemd/config.example.toml {root}/etc/oasis-kiosk/config.toml" in made
    )
    assert f"python3 -m venv {root}/opt/oasis-kiosk/venv" in made
    assert f"systemctl --root={root} enable oasis-kiosk.service" in made
    assert f"systemctl --root={root} mask getty@tty1.service" in made
    assert (
        f"{root}/opt/oasis-kiosk/venv/bin/pip install --quiet --upgrade '{REPOSITORY}[cabinet,floor]'"
        in steps(result.stdout, "!")
    )
    assert result.stdout.splitlines()[-1] == "# dry run: nothing was changed"


def test_a_dry_run_of_the_real_install_needs_no_root() -> None:
    places = [Path("/etc/oasis-kiosk"), Path("/var/lib/oasis-kiosk"), Path("/opt/oasis-kiosk")]
    before = [place.exists() for place in places]
    result = install("--dry-run", as_nobody=True)
    assert result.returncode == 0, result.stderr
    assert [place.exists() for place in places] == before
    lines = result.stdout.splitlines()
    assert all(line[:2] in {"+ ", "= ", "# "} for line in lines), "nothing is left out as with --prefix"
    made = steps(result.stdout, "+")
    assert any(line.startswith("useradd ") for line in made) or "= user oasis" in lines
    assert "/opt/oasis-kiosk/venv/bin/pip install --quiet --upgrade" in "\n".join(made)
    assert lines[-1] == "# dry run: nothing was changed"


def test_without_root_a_real_install_is_refused() -> None:
    result = install(as_nobody=True)
    assert result.returncode == 2
    assert "run it as root (sudo), or with --dry-run or --prefix DIR; nothing was changed" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--wheel", "/no/such/oasis_kiosk.whl"], "/no/such/oasis_kiosk.whl: no such file"),
        (["--wheel", str(REPOSITORY / "README.md")], "is not a wheel (*.whl)"),
        (["--venv", "/home/pi/oasis-kiosk/.venv"], "the service cannot see it (ProtectHome, PrivateTmp)"),
        (
            ["--venv", "/opt/elsewhere/.venv"],
            "/opt/elsewhere/.venv/bin/oasis-kiosk: not there (make build first)",
        ),
        (["--venv", VENV, "--wheel", "x.whl"], "--wheel and --venv exclude each other"),
        (["--venv"], "--venv needs a value"),
        (["--start"], "unknown argument --start"),
    ],
)
def test_bad_input_is_refused_before_anything_changes(root: Path, arguments: list[str], message: str) -> None:
    before = tree(root)
    result = install("--prefix", str(root), *arguments)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stderr.rstrip().endswith("nothing was changed")
    assert tree(root) == before
