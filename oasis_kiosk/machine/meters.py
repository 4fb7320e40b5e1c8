"""Every meter the terminal keeps, in one registry, in the order of the operator's meters
page: its label, whether it counts (else it is money), and whether it counts events the
audit cannot recompute from the ledger and the journal. A new meter is one entry here and
the line that adds to it; the menu and the audit read the rest from here."""

from __future__ import annotations

from dataclasses import dataclass

from oasis_kiosk.i18n import N_


@dataclass(frozen=True)
class Meter:
    label: str
    """Its name on the meters page (a message id)."""
    count: bool = False
    """A count of things, not an amount of money."""
    event: bool = False
    """Counts events (power-ups, device reports) that the audit takes as they stand."""
    device_event: bool = False
    """A device's report of this name (``Terminal.device_event``) adds one to it."""


def _device(label: str) -> Meter:
    return Meter(label, count=True, event=True, device_event=True)


METERS: dict[str, Meter] = {
    "credits": Meter(N_("Credits")),
    "total_in": Meter(N_("Total in")),
    "total_out": Meter(N_("Total out")),
    "coin_in": Meter(N_("Played (coin in)")),
    "coin_out": Meter(N_("Won (coin out)")),
    "games_played": Meter(N_("Games played"), count=True),
    "games_won": Meter(N_("Games won"), count=True),
    "handpays": Meter(N_("Handpays")),
    "hopper_out": Meter(N_("Paid by the hopper")),
    "hopper_overpaid": Meter(N_("Hopper overpaid")),
    "jackpots_paid": Meter(N_("Jackpots paid")),
    "jackpot_contributions": Meter(N_("Jackpot contributions")),
    "operator_credits": Meter(N_("Operator credits")),
    "door_opens": Meter(N_("Door openings"), count=True, event=True),
    "power_ups": Meter(N_("Power-ups"), count=True, event=True),
    "coin_line_noise": _device(N_("Coin line glitches")),
    "bill_line_noise": _device(N_("Note line glitches")),
    "coin_ambiguous": _device(N_("Coin trains refused as ambiguous")),
    "bill_ambiguous": _device(N_("Note trains refused as ambiguous")),
    "coin_rejected": _device(N_("Coins refused")),
    "bill_rejected": _device(N_("Notes refused")),
}

DENOMINATIONS = {"coins_in_": N_("Coins of {value}"), "bills_in_": N_("Notes of {value}")}
"""Meters of each coin and note taken in, one a denomination (``coins_in_200``): counts."""

COUNTED_DEVICE_EVENTS = frozenset(name for name, meter in METERS.items() if meter.device_event)
EVENT_METERS = frozenset(name for name, meter in METERS.items() if meter.event)


def denomination(name: str) -> tuple[str, int] | None:
    """(label, value) of a denomination meter, else None."""
    for prefix, label in DENOMINATIONS.items():
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            return label, int(name[len(prefix) :])
    return None


def page_order(name: str) -> tuple[int, int, str]:
    """Where a meter stands on the meters page: the registry's order, then coins and notes
    by value, then any other name."""
    if name in METERS:
        return (list(METERS).index(name), 0, "")
    counted = denomination(name)
    if counted is not None:
        return (len(METERS) + list(DENOMINATIONS.values()).index(counted[0]), counted[1], "")
    return (len(METERS) + len(DENOMINATIONS), 0, name)
