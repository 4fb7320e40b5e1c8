"""Each way the terminal cashes credits out (``[terminal] cashout``), in one registry: by hand
only, or through a payout device that pays what it can in items of one value, the rest by
hand. What the device pays, in what items, and the ledger's and the meters' names for it
are here; the configuration, the terminal's cash-out, the audit and the screen read them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the configuration lists these kinds as its choices
    from oasis_kiosk.config import Config


@dataclass(frozen=True, eq=False)  # each device is one object: compared and hashed by identity
class PayoutDevice:
    name: str
    """The ``device`` of the ledger's ``cash_out`` rows it pays."""
    unit: Callable[[Config], int]
    """The value of one item it pays (minor units), from the configuration."""
    meter: str
    """The meter of what it paid out."""

    def whole_items(self, config: Config, amount: int) -> int:
        """What of ``amount`` it pays: whole items (the rest, below one, is handpaid)."""
        return amount - amount % self.unit(config)

    def items(self, config: Config, amount: int) -> int:
        """How many of its items ``amount`` is."""
        return amount // self.unit(config)


@dataclass(frozen=True, eq=False)
class CashOutKind:
    name: str
    """The configuration's ``cashout``."""
    device: PayoutDevice | None
    """What pays a cash-out before the attendant pays the rest; None: everything by hand."""

    def by_device(self, config: Config, credits: int) -> int:
        """What of ``credits`` a cash-out pays through its device."""
        return 0 if self.device is None else self.device.whole_items(config, credits)


HOPPER = PayoutDevice("hopper", unit=lambda config: config.hopper_coin, meter="hopper_out")
"""Coins of ``[money] hopper_coin``."""

PAYOUT_DEVICES: dict[str, PayoutDevice] = {device.name: device for device in (HOPPER,)}
"""By the ledger's name."""
CASH_OUT_KINDS: dict[str, CashOutKind] = {
    kind.name: kind for kind in (CashOutKind("handpay", None), CashOutKind("hopper", HOPPER))
}
"""By the configuration's name."""


def payout_device(config: Config) -> PayoutDevice:
    """The device that pays a payout under ``config``: the configured one, or, when the
    cabinet was set to handpay only with a payout still owed, the hopper that owed it."""
    return CASH_OUT_KINDS[config.cashout].device or HOPPER
