"""``[rules]``: the approved range of the theoretical return."""

from __future__ import annotations

from dataclasses import dataclass

from oasis_kiosk.config.kinds import Return
from oasis_kiosk.config.schema import Below, Key, TomlTable


@dataclass(frozen=True)
class ReturnBounds:
    """The approved range of the theoretical return (a fraction of the stake: 0.95 is
    95 %); a configuration whose return lies outside it is not played."""

    return_min: float = 0.75
    """The main game's least return per ante, at the table's minimum and maximum ante."""
    return_max: float = 1.0
    """Its greatest: 1.0, the house never plays at a loss."""
    side_return_min: float = 0.40
    """The side bet's (a fixed or odds bonus) least return per unit staked."""
    side_return_max: float = 1.0


BOUNDS = ReturnBounds()
RULES: dict[str, Key] = {
    "return_min": Key(Return(), BOUNDS.return_min, "the main game's least return per ante"),
    "return_max": Key(Return(), BOUNDS.return_max, "the main game's greatest return per ante"),
    "side_return_min": Key(Return(), BOUNDS.side_return_min, "the side bet's least return per stake"),
    "side_return_max": Key(Return(), BOUNDS.side_return_max, "the side bet's greatest return per stake"),
}

RULES_SECTION = TomlTable(
    RULES,
    describe="a table of return_min, return_max, side_return_min and side_return_max",
    build=lambda v: ReturnBounds(**v),
    rules=(Below("return_min", "return_max"), Below("side_return_min", "side_return_max")),
)
