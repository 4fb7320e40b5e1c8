"""Each way the terminal cashes credits out (``[terminal] cashout``), in one registry: by hand
only, or through a payout device that pays what it can in items of one value, the rest by
hand. What the device pays, in what items, the ledger's, the meters' and the tilts' names
for it and what the screen and the prompts say of it are here; the configuration, the
terminal's cash-out, the audit and the screen read them. (Its tilts and meters are also in
the registries of ``machine/tilts.py`` and ``machine/meters.py``, which label them.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.tilts import TiltKind

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
    stopped_short: TiltKind
    """The tilt of a payout it ended short (empty or jammed)."""
    short_for_cause: Mapping[TiltKind, str]
    """The tilts of a payout it ended short for a cause it names (``PayoutEnded.tilt``),
    each with its English reason (``{coins}`` still owed); another cause is ``stopped_short``."""
    overpaid: TiltKind
    """The tilt, the ledger's row (at no credit) and the meter of an item it paid unowed."""
    words: PayoutWords

    def whole_items(self, config: Config, amount: int) -> int:
        """What of ``amount`` it pays: whole items (the rest, below one, is handpaid)."""
        return amount - amount % self.unit(config)

    def items(self, config: Config, amount: int) -> int:
        """How many of its items ``amount`` is."""
        return amount // self.unit(config)


@dataclass(frozen=True)
class PayoutWords:
    """What the terminal and the screen say of a payout device's work: message ids, with
    ``{coins}`` a count of its items and ``{coin}`` an item's value (the names the books'
    events keep), the English reasons of its tilts and the event log's sentences of its work."""

    paying: str
    """The cash-out's prompt: ``{coins}`` items of ``{coin}``."""
    paid: str
    """One item paid (``{coin}``)."""
    not_owed: str
    """An item paid that nothing owed."""
    short: str
    """A payout ended ``{short}`` items short."""
    to_come: str
    """The panel over the table while it pays: ``{coins}`` still to come."""
    to_come_prompt: str
    """The prompt while it pays (``{coins}``)."""
    short_reason: str
    """The tilt's reason of a payout ended short (``{coins}``)."""
    not_owed_reason: str
    """The tilt's reason of an item not owed (``{coin}``, minor units)."""
    logged_paid: str
    """The event log's sentence of an item paid (``{amount}``)."""
    logged_started: str
    """The event log's sentence of a payout started (``{coins}`` items of ``{coin}``)."""
    logged_stopped: str
    """The event log's sentence of a payout the attendant stopped (``{coins_owed}`` items)."""
    logged_interrupted: str
    """The event log's sentence of a payout the power cut ended (``{coins_owed}`` items)."""


@dataclass(frozen=True, eq=False)
class CashOutKind:
    name: str
    """The configuration's ``cashout``."""
    device: PayoutDevice | None
    """What pays a cash-out before the attendant pays the rest; None: everything by hand."""

    def by_device(self, config: Config, credits: int) -> int:
        """What of ``credits`` a cash-out pays through its device."""
        return 0 if self.device is None else self.device.whole_items(config, credits)


HOPPER = PayoutDevice(
    "hopper",
    unit=lambda config: config.hopper_coin,
    meter="hopper_out",
    stopped_short=TiltKind.HOPPER_EMPTY,
    short_for_cause={
        TiltKind.HOPPER_EXIT_BLOCKED: "the exit sensor stayed covered, coins still owed: {coins}; "
        "check that the last coin counted reached the tray"
    },
    overpaid=TiltKind.HOPPER_OVERPAID,
    words=PayoutWords(
        paying=N_("paying out {coins} × {coin}"),
        paid=N_("coin {coin} paid out"),
        not_owed=N_("a coin the payout did not owe"),
        short=N_("coins short: {short}"),
        to_come=N_("coins to come: {coins}"),
        to_come_prompt=N_("Paying out, coins to come: {coins}."),
        short_reason="the hopper stopped with coins still owed: {coins}",
        not_owed_reason="the hopper paid a coin of {coin} it did not owe",
        logged_paid=N_("Coin of {amount} paid out by the hopper"),
        logged_started=N_("Payout started: {coins} × {coin}"),
        logged_stopped=N_("Payout stopped by the attendant, coins owed: {coins_owed}"),
        logged_interrupted=N_("The power failed during a payout; coins owed, handpaid: {coins_owed}"),
    ),
)
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
