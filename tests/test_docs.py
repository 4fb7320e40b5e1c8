"""The README and docs name files that exist: a module split or renamed takes its references
with it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Named but not in the tree: a file a walk-through of a change writes (docs/architecture.md,
# NAME standing for any), and what ``make bench`` writes.
NOT_IN_THE_TREE = {"oasis_kiosk/hardware/cctalk.py", "oasis_kiosk/profiles/NAME.toml", "bench/results.json"}
PATH = re.compile(r"(?:rust|oasis_kiosk|tests|bench|systemd|docs|assets)/[\w./-]*\w")


def test_every_file_the_docs_name_exists() -> None:
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing = {
        f"{text.relative_to(ROOT)}: {path}"
        for text in texts
        for path in PATH.findall(text.read_text(encoding="utf-8"))
        if path not in NOT_IN_THE_TREE and not (ROOT / path).exists() and "*" not in path
    }
    assert not missing, sorted(missing)


def test_the_operators_docs_name_every_meter_and_every_tilt_of_the_registries() -> None:
    """The lists a lab and an attendant read are held to the registries they copy."""
    from oasis_kiosk.machine.meters import METERS
    from oasis_kiosk.machine.tilts import TILTS

    meters = (ROOT / "docs" / "operator.md").read_text(encoding="utf-8").split("## Meters", 1)[1]
    tilts = (ROOT / "docs" / "troubleshooting.md").read_text(encoding="utf-8")
    assert [name for name in METERS if f"`{name}`" not in meters] == [], (
        "meters missing from docs/operator.md"
    )
    assert [kind for kind in TILTS if f"`{kind}`" not in tilts] == [], (
        "tilts missing from docs/troubleshooting.md"
    )
