"""Installing a Debian package the tests need (chromium for tests/browser.py, postgresql for
tests/postgres.py) with apt-get, as root in CI: the callers check that they may first."""

from __future__ import annotations

import os
import subprocess


def apt_install(apt_get: str, package: str, error: type[Exception]) -> None:
    """``apt-get update`` then ``apt-get install`` of ``package`` without recommends, never
    asking; ``error`` with the command and the end of its output if either fails."""
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        [apt_get, "update", "--quiet"],
        [apt_get, "install", "--yes", "--quiet", "--no-install-recommends", package],
    ):
        result = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
        if result.returncode != 0:
            raise error(
                f"installing Debian's {package} package failed ({' '.join(command)}):\n"
                f"{result.stdout[-2000:]}{result.stderr[-2000:]}"
            )
