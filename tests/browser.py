"""A real headless browser for the dashboard's tests: Debian's ``chromium``, installed with
apt-get when missing and the tests run as root (as in CI), as tests/postgres.py installs the
database server. Each run has a profile directory of its own, deleted by the caller's
temporary directory."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from debian import apt_install

SECONDS = 120


class BrowserUnavailableError(RuntimeError):
    """No chromium here, and none can be installed: the message says what to do."""


def chromium() -> Path:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return Path(found)
    apt_get = shutil.which("apt-get")
    if os.geteuid() != 0 or apt_get is None:
        raise BrowserUnavailableError(
            "the dashboard's tests need a headless browser: install Debian's `chromium` package "
            "(sudo apt-get install chromium)"
        )
    apt_install(apt_get, "chromium", BrowserUnavailableError)
    found = shutil.which("chromium")
    if not found:
        raise BrowserUnavailableError("Debian's chromium package installed, but there is no chromium on PATH")
    return Path(found)


def run(directory: Path, url: str, *options: str) -> subprocess.CompletedProcess[str]:
    """``chromium --headless`` on ``url`` with ``options`` (``--dump-dom``, ``--screenshot=…``)."""
    profile = directory / "chromium-profile"
    profile.mkdir(exist_ok=True)
    command = [
        str(chromium()),
        "--headless",
        "--no-sandbox",  # as root (CI) chromium's sandbox refuses to start
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
        *options,
        url,
    ]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=SECONDS,
        check=False,
        cwd=directory,
        env={**os.environ, "HOME": str(directory)},
    )
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return result


def dump_dom(directory: Path, url: str) -> str:
    """The page's DOM as the browser built it, serialised."""
    return run(directory, url, "--dump-dom").stdout


def screenshot(directory: Path, url: str, path: Path) -> Path:
    run(directory, url, f"--screenshot={path}")
    if not path.exists():
        raise AssertionError(f"chromium wrote no screenshot at {path}")
    return path
