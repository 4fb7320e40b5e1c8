"""``[jackpot]``: the progressive jackpot meter's parameters."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from oasis_kiosk.config.kinds import Money, Share
from oasis_kiosk.config.schema import Below, Key, TomlTable


@dataclass(frozen=True)
class JackpotConfig:
    """The progressive jackpot meter (RULES.md §3.6)."""

    base: int = 1_000_000
    """The value the meter restarts from after a full hit (minor units)."""
    rate: Fraction = Fraction(1, 100)
    """The share of every bonus stake that feeds the meter: no more than the meter can pay
    back between its base and its maximum (``returns.jackpot_payable``), at 1 % of a 5-euro
    stake a royal flush's 649 740 deals bring it about 32 500."""
    maximum: int = 6_000_000
    """Above this, contributions go to an overflow that seeds the next base."""
    lost_ante_rate: Fraction = Fraction(0)
    """The share of every lost ante (played and lost, or folded) the house adds to the meter
    (RULES.md §3.6: "the operator may add a share of lost antes"); 0, the default, adds none.
    The return bounds count it as if every ante were lost."""


DEFAULTS = JackpotConfig()
JACKPOT: dict[str, Key] = {
    "base": Key(Money(), DEFAULTS.base, "the meter's value after a full hit"),
    "rate": Key(Share(), DEFAULTS.rate, "the share of every bonus stake fed to the meter"),
    "maximum": Key(Money(), DEFAULTS.maximum, "above it contributions go to an overflow"),
    "lost_ante_rate": Key(Share(), DEFAULTS.lost_ante_rate, "the share of every lost ante the house adds"),
}

JACKPOT_SECTION = TomlTable(
    JACKPOT,
    describe="a table of base, rate, maximum and lost_ante_rate",
    build=lambda v: JackpotConfig(**v),
    rules=(Below("base", "maximum"),),
)
MENU_JACKPOT_SECTION = TomlTable(
    {name: JACKPOT[name] for name in ("base", "rate", "maximum")},
    describe="a table of base, rate and maximum",
    rules=(Below("base", "maximum"),),
)
"""The parameters the operator menu sets (the share of lost antes stays the file's): what it
makes is a table of them, laid over the configuration's jackpot."""
