"""Each kind of money a device takes in, in one registry: the intent that credits it (what the
cabinet wires a device as, and the prefix of that device's event names), the configuration's
list of what the cabinet takes, the ledger row and the denomination meters it is booked on,
and what the screen says of it. The terminal, the audit, the meters, the cabinet, the
keyboard and the scripts read it from here, and the configuration's check of the credit the
coins and notes can reach calls its arithmetic (``most_credit_taken``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from oasis_kiosk.i18n import N_

if TYPE_CHECKING:  # the configuration names the intents' buttons, which list these kinds
    from oasis_kiosk.config import Config


@dataclass(frozen=True, eq=False)  # each kind is one object: compared and hashed by identity
class MoneyKind:
    name: str
    """The intent that credits it ("coin"), and what a device's events are named after
    (``coin_rejected``)."""
    ledger_kind: str
    """The ledger's row for one taken in (and the event log's sentence of that row)."""
    meter_prefix: str
    """The prefix of its denomination meters, a count each (``coins_in_200``)."""
    meter_label: str
    """The meters page's label of a denomination meter (a message id with ``{value}``)."""
    credited: str
    """The prompt for one credited (a message id with ``{value}``)."""
    not_accepted: str
    """The prompt for a value the cabinet does not take (``{value}``, ``{accepted}``)."""
    said: str
    """One of them in a list (the hardware test, the desktop's key legend): ``{amount}``."""
    accepted: Callable[[Config], tuple[int, ...]]
    """The values of this kind the cabinet takes (minor units), from its configuration."""

    def fits(self, config: Config, room: int) -> bool:
        """May a device of this kind be open with ``room`` minor units left under the credit
        limit? An acceptor cannot know which coin or note comes next, so only while the
        largest the cabinet takes still fits."""
        accepted = self.accepted(config)
        return bool(accepted) and max(accepted) <= room

    def meter(self, value: int) -> str:
        """The denomination meter that counts one of ``value`` taken in."""
        return f"{self.meter_prefix}{value}"


COIN = MoneyKind(
    "coin",
    ledger_kind="coin_in",
    meter_prefix="coins_in_",
    meter_label=N_("Coins of {value}"),
    credited=N_("coin {value} credited"),
    not_accepted=N_("a coin of {value} is not accepted (accepted: {accepted})"),
    said=N_("coin {amount}"),
    accepted=lambda config: config.coins,
)
BILL = MoneyKind(
    "bill",
    ledger_kind="bill_in",
    meter_prefix="bills_in_",
    meter_label=N_("Notes of {value}"),
    credited=N_("bill {value} credited"),
    not_accepted=N_("a bill of {value} is not accepted (accepted: {accepted})"),
    said=N_("note {amount}"),
    accepted=lambda config: config.bills,
)

MONEY_KINDS: dict[str, MoneyKind] = {kind.name: kind for kind in (COIN, BILL)}
"""By name, coins first (the intents' order)."""
BY_LEDGER_KIND: dict[str, MoneyKind] = {kind.ledger_kind: kind for kind in MONEY_KINDS.values()}


REACH_STEPS = 1_000_000
"""The most credits a check of the reachable credit walks through (a limit in a currency of
tiny units with no small coin): beyond it the check is skipped."""


def most_credit_taken(limit: int, values: tuple[int, ...], enough: int) -> int:
    """The most credit coins and notes of ``values`` can make without passing ``limit`` (the
    acceptors refuse what would pass it), or ``enough`` once that much is sure."""
    if not values:
        return 0
    smallest = min(values)
    if limit // smallest * smallest >= enough:
        return enough
    unit = math.gcd(*values)
    if limit // unit > REACH_STEPS:
        return enough
    made = bytearray(limit // unit + 1)
    made[0] = 1
    for total in range(len(made)):
        if made[total]:
            for value in values:
                if total + value // unit < len(made):
                    made[total + value // unit] = 1
    return max(total for total in range(len(made)) if made[total]) * unit
