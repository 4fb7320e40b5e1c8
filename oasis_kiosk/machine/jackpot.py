"""The progressive jackpot meter: exact contributions, overflow above the maximum, hits.

The meter is money in minor units plus an exact fraction of a unit carried over, so a
contribution of 0.15 from a 1.50 bonus stake is never rounded away: the fractions add up
until they make a whole unit. The state is saved with the ledger row that moves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from oasis_kiosk.config import JackpotConfig


@dataclass(frozen=True)
class JackpotState:
    value: int
    """The meter shown to the player, minor units."""
    carry: Fraction
    """The part of a minor unit contributed but not yet on the meter (0 <= carry < 1)."""
    overflow: int
    """Contributions above the maximum, kept to seed the meter after the next hit."""

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "carry": str(self.carry), "overflow": self.overflow}

    @staticmethod
    def from_json(data: dict[str, Any]) -> JackpotState:
        return JackpotState(int(data["value"]), Fraction(data["carry"]), int(data["overflow"]))

    @staticmethod
    def fresh(config: JackpotConfig) -> JackpotState:
        return JackpotState(config.base, Fraction(0), 0)


def contribute(
    state: JackpotState, config: JackpotConfig, stake: int, rate: Fraction | None = None
) -> tuple[JackpotState, int]:
    """Feeds ``rate × stake`` to the meter (``config.rate``, the bonus stakes' share, unless
    another is given); returns the new state and the whole units added (to the meter or its
    overflow)."""
    exact = (config.rate if rate is None else rate) * stake + state.carry
    whole = int(exact)  # exact >= 0, so this is the floor
    room = max(config.maximum - state.value, 0)
    to_meter = min(whole, room)
    new = JackpotState(state.value + to_meter, exact - whole, state.overflow + whole - to_meter)
    return new, whole


def hit(state: JackpotState, config: JackpotConfig, share: Fraction) -> tuple[JackpotState, int, int]:
    """Pays ``share`` of the meter (rounded down to a whole unit). Returns the new state, the
    award, and what the house adds to bring the meter back up to its base. The overflow
    then goes onto the meter, up to the maximum."""
    award = int(state.value * share)
    left = state.value - award
    house = max(config.base - left, 0)
    start = left + house
    from_overflow = min(state.overflow, max(config.maximum - start, 0))
    new = JackpotState(start + from_overflow, state.carry, state.overflow - from_overflow)
    return new, award, house
