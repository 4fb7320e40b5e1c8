"""The README and docs name files that exist: a module split or renamed takes its references
with it; and what they restate of a registry or a profile is held to it."""

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


def _fees_said(fees: dict[str, str], with_bonus: dict[str, str]) -> str:
    """A round of exchange as the profiles' table writes it: ``2 → 1.5 (1 with the bonus)``."""
    said = []
    for count, fee in sorted(fees.items(), key=lambda item: int(item[0])):
        bonus = with_bonus.get(count)
        said.append(f"{count} → {fee}" + (f" ({bonus} with the bonus)" if bonus is not None else ""))
    return ", ".join(said)


def test_the_profiles_table_states_each_profiles_fees_as_its_file_does() -> None:
    """docs/rules.md's table restates each profile's exchange fees (antes per card count, by
    round) and a privilege fee: held here to the profiles the core loads, so that a fee changed
    in a profile cannot leave the table telling the owner the old one."""
    from oasis_kiosk import load_profile, profile_names

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("| profile | seed |", 1)[1].split("\n\n", 1)[0]
    rows = {
        cells[0].strip("` "): cells
        for line in table.splitlines()
        if line.startswith("| `")
        for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
    }
    assert sorted(rows) == sorted(profile_names()), "one row per shipped profile"
    for name in profile_names():
        rules = load_profile(name).to_dict()
        exchange, bonus = rules.get("exchange"), rules.get("bonus")
        cell = rows[name][3]
        if exchange is None:
            assert cell == "none", f"{name}: exchanges nothing, the table says {cell!r}"
        else:
            rounds = [_fees_said(round_["fees"], round_["with_bonus"]) for round_ in exchange["rounds"]]
            said = "; then ".join(rounds)
            assert cell.startswith(said), f"{name}: the table says {cell!r}, its file {said!r}"
        if bonus is not None and bonus["kind"] == "privilege":
            minor = rules["table"]["minor_units"]
            places = len(str(minor)) - 1
            exceptions = ", ".join(
                f"{fee / minor:.{places}f} at {int(ante) / minor:.{places}f}"
                for ante, fee in sorted(bonus["fee_at_ante"].items(), key=lambda item: int(item[0]))
            )
            fee = f"privilege fee {float(bonus['fee']) * 100:g} %" + (
                f" ({exceptions})" if exceptions else ""
            )
            assert fee in rows[name][4], f"{name}: the table's bonus is {rows[name][4]!r}, its file {fee!r}"
