"""Every meter the terminal keeps, in one registry, in the order a lab reads them (the
operator's meters page and the ``meters`` command list them so): its label, whether it
counts (else it is money), and whether it counts events the audit cannot recompute from the
ledger and the journal. A new meter is one entry here and the line that adds to it; the
menu, the command line and the audit read the rest from here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from oasis_kiosk.config import Config
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.money_kinds import BILL, COIN, MONEY_KINDS


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
    "coin_in": Meter(N_("Played (coin in)")),
    "coin_out": Meter(N_("Won (coin out)")),
    "games_won": Meter(N_("Games won"), count=True),
    "jackpots_paid": Meter(N_("Jackpots paid")),
    "handpays": Meter(N_("Handpays")),
    # The notes and the coins by denomination stand here (DENOMINATIONS_AFTER).
    "games_played": Meter(N_("Games played"), count=True),
    "door_opens": Meter(N_("Door openings"), count=True, event=True),
    "total_in": Meter(N_("Total in")),
    "total_out": Meter(N_("Total out")),
    "hopper_out": Meter(N_("Paid by the hopper")),
    "hopper_overpaid": Meter(N_("Hopper overpaid")),
    "jackpot_contributions": Meter(N_("Jackpot contributions")),
    "operator_credits": Meter(N_("Operator credits")),
    "power_ups": Meter(N_("Power-ups"), count=True, event=True),
    "coin_line_noise": _device(N_("Coin line glitches")),
    "bill_line_noise": _device(N_("Note line glitches")),
    "coin_ambiguous": _device(N_("Coin trains refused as ambiguous")),
    "bill_ambiguous": _device(N_("Note trains refused as ambiguous")),
    "coin_rejected": _device(N_("Coins refused")),
    "bill_rejected": _device(N_("Notes refused")),
    "hopper_exit_noise": _device(N_("Hopper exit sensor glitches")),
}

DENOMINATIONS = {kind.meter_prefix: kind.meter_label for kind in (BILL, COIN)}
"""Meters of each note and coin taken in, one a denomination (``coins_in_200``): counts,
listed in this order (notes first, as a lab reads them), each by value."""
DENOMINATIONS_AFTER = "handpays"

COUNTED_DEVICE_EVENTS = frozenset(name for name, meter in METERS.items() if meter.device_event)
EVENT_METERS = frozenset(name for name, meter in METERS.items() if meter.event)


def denomination(name: str) -> tuple[str, int] | None:
    """(label, value) of a denomination meter, else None."""
    for prefix, label in DENOMINATIONS.items():
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            return label, int(name[len(prefix) :])
    return None


def page_order(name: str) -> tuple[int, int, int, str]:
    """Where a meter stands in a listing: the registry's order, with the notes and the coins
    by value after ``DENOMINATIONS_AFTER``; any other name last."""
    if name in METERS:
        return (list(METERS).index(name), 0, 0, "")
    counted = denomination(name)
    if counted is not None:
        label, value = counted
        return (
            list(METERS).index(DENOMINATIONS_AFTER),
            1 + list(DENOMINATIONS.values()).index(label),
            value,
            "",
        )
    return (len(METERS), 0, 0, name)


def every_meter(meters: Mapping[str, int], config: Config | None = None) -> dict[str, int]:
    """The meters as every listing shows them: each registered one and each denomination of
    coins and notes the ``config`` takes, 0 where nothing moved it yet, and any other the
    books hold, in page order."""
    taken = [
        kind.meter(value)
        for kind in MONEY_KINDS.values()
        for value in (kind.accepted(config) if config else ())
    ]
    untouched = [*METERS, *taken]
    filled = {**dict.fromkeys(untouched, 0), **meters}
    return {name: filled[name] for name in sorted(filled, key=page_order)}
