"""The event log as the operator reads it: one registry from an event's kind to its sentence,
and the log itself, which puts the money taken in and paid out by a payout device (the ledger's)
and each round settled among the events, oldest first.

A sentence's placeholders are the event's detail, nested fields joined by ``_``
(``after_base``); those it names as money are shown in the currency. A kind without a
sentence, or an event without a field its sentence needs (an older release's), reads as its
kind in words."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oasis_kiosk import i18n
from oasis_kiosk.i18n import N_, _
from oasis_kiosk.machine.cash_out_kinds import HOPPER, PAYOUT_DEVICES, PayoutDevice
from oasis_kiosk.machine.intents import Intent, intent_name
from oasis_kiosk.machine.money_kinds import BILL, BY_LEDGER_KIND, COIN
from oasis_kiosk.machine.response import Response
from oasis_kiosk.machine.tilts import registered
from oasis_kiosk.store.db import Store

if TYPE_CHECKING:
    from oasis_kiosk.store.db.rounds import SettledRound


@dataclass(frozen=True)
class Sentence:
    template: str
    """A message id whose placeholders are fields of the event's detail."""
    money: frozenset[str] = frozenset()
    """The fields that are amounts of money."""
    shares: frozenset[str] = frozenset()
    """The fields that are shares, shown as percentages."""
    words: frozenset[str] = frozenset()
    """The fields whose value is a setting's word (``SETTING_WORDS``), said in the active
    language."""


def _said(template: str, *money: str, shares: tuple[str, ...] = (), words: tuple[str, ...] = ()) -> Sentence:
    return Sentence(template, frozenset(money), frozenset(shares), frozenset(words))


SETTING_WORDS = {"normal": N_("normal"), "fast": N_("fast")}
"""The words a setting takes, as the screen says them: the speeds (``config.SPEEDS``)."""


def payout_sentences(device: PayoutDevice) -> dict[str, Sentence]:
    """The sentences of a payout device's work, by the event's kind, in its own words."""
    words = device.words
    return {
        "cash_out": _said(words.logged_paid, "amount"),
        "payout_requested": _said(words.logged_started, "coin"),
        "payout_stop_requested": _said(words.logged_stopped),
        "payout_interrupted": _said(words.logged_interrupted),
    }


SENTENCES: dict[str, Sentence] = {
    # Money in and out.
    COIN.ledger_kind: _said(N_("Coin of {amount} credited"), "amount"),
    BILL.ledger_kind: _said(N_("Note of {amount} credited"), "amount"),
    **payout_sentences(HOPPER),  # an event of a release that named no device was the hopper's
    "operator_credit": _said(N_("Operator credit of {amount}: {reason}"), "amount"),
    "credited_while_inhibited": _said(N_("{value} credited while the money devices were closed"), "value"),
    "round_settled": _said(N_("Round {round_id} settled: staked {staked}, paid {paid}"), "staked", "paid"),
    "round_void": _said(N_("Round {round_id} void: {refund} refunded"), "refund"),
    "round_voided": _said(N_("Round {round_id} voided by the operator: {refund} refunded"), "refund"),
    "handpay_requested": _said(N_("Handpay of {amount} called for"), "amount"),
    "handpay_reduced": _said(
        N_("A late coin of {coin} paid out: the handpay is now {amount}"), "coin", "amount"
    ),
    "handpay_win": _said(N_("Round {round_id} pays {amount} by hand"), "amount"),  # stakes included
    "handpay_paid": _said(N_("Handpay of {amount} paid"), "amount"),
    "jackpot_hit": _said(N_("Jackpot of {amount} hit in round {round_id}"), "amount"),
    "jackpot_awarded": _said(N_("Linked jackpot of {amount} awarded for round {round_id}"), "amount"),
    "jackpot_reset": _said(N_("Jackpot meter brought up to its base: {added} added"), "added"),
    # The cabinet.
    "power_up": _said(N_("Power on with {credits} on the credit meter"), "credits"),
    "power_failing": _said(N_("Mains power failing with {credits} on the credit meter"), "credits"),
    "power_restored": _said(N_("Mains power restored")),
    "door_open": _said(N_("Door opened")),
    "door_close": _said(N_("Door closed")),
    "operator_key_on": _said(N_("Operator key turned")),
    "operator_key_off": _said(N_("Operator key turned back")),
    "tilt": _said(N_("Tilt: {tilt}")),
    "tilt_cleared": _said(N_("Tilt cleared: “{tilt}”")),
    "self_test": _said(N_("Start-up self-test, problems found: {problems}")),
    "refused": _said(N_("Input refused ({intent}): {reason}")),
    # A refusal whose own words name the button ("EXCHANGE is not possible now"), said once.
    "refused:named": _said(N_("Input refused: {reason}")),
    # The money devices.
    "coin_line_noise": _said(N_("Noise on the coin line ({width_ms} ms)")),
    "bill_line_noise": _said(N_("Noise on the note line ({width_ms} ms)")),
    "hopper_exit_noise": _said(N_("Noise on the hopper's exit sensor ({width_ms} ms): no coin")),
    "hopper_exit_blocked": _said(
        N_("The hopper's exit sensor stayed covered ({width_ms} ms): payout stopped")
    ),
    "coin_rejected": _said(N_("Coin refused ({pulses} pulses)")),
    "bill_rejected": _said(N_("Note refused ({pulses} pulses)")),
    "coin_ambiguous": _said(N_("Coin refused as ambiguous ({pulses} pulses)")),
    "bill_ambiguous": _said(N_("Note refused as ambiguous ({pulses} pulses)")),
    "note_read": _said(N_("Note of {value} read"), "value"),
    "note_returned": _said(N_("Note of {value} given back"), "value"),
    "note_rejecting": _said(N_("The validator is rejecting a note")),
    "note_rejected": _said(N_("The validator rejected a note")),
    "note_stacking": _said(N_("Note being stacked")),
    "note_stacked": _said(N_("Note stacked")),
    "note_cleared_from_front": _said(N_("A note was cleared from the validator's front")),
    "note_cleared_to_cashbox": _said(N_("A note was cleared into the cashbox")),
    "validator_disabled": _said(N_("The note validator is disabled")),
    "validator_reset": _said(N_("The note validator was reset")),
    "cashbox_replaced": _said(N_("Cashbox put back")),
    # The operator and the books.
    "operator_login": _said(N_("Operator logged in")),
    "operator_logout": _said(N_("Operator logged out")),
    "operator_login_failed": _said(N_("Wrong PIN ({failures} in a row)")),
    "operator_pin_changed": _said(N_("Operator PIN changed")),
    "setting_forgotten": _said(
        N_("Stored setting {setting} forgotten: the configuration file's is in force")
    ),
    "period_meters_reset": _said(N_("A new meter period started")),
    "books_created": _said(N_("Books created, kept in {currency}")),
    "returns_computed": _said(N_("Return of {profile} computed and kept")),
    "configuration_changed": _said(N_("Setting changed: {setting}")),
    # A setting changed, by ``setting``.
    "configuration_changed:rules": _said(N_("Rules changed to {after_profile}")),
    "configuration_changed:profile": _said(N_("Rules in force: {after_profile}")),
    "configuration_changed:jackpot": _said(
        N_("Jackpot set: base {after_base}, share {after_rate}, maximum {after_maximum}"),
        "after_base",
        "after_maximum",
    ),
    "configuration_changed:return_bounds": _said(
        N_("Approved return set: {after_return_min} to {after_return_max}"),
        shares=("after_return_min", "after_return_max"),
    ),
    # Written by an earlier release, whose menu kept a denomination that nothing read.
    "configuration_changed:denomination": _said(N_("A credit is now worth {after}"), "after"),
    "configuration_changed:language": _said(N_("Language changed from {before} to {after}")),
    "configuration_changed:volume": _said(N_("Volume changed from {before} to {after}")),
    "configuration_changed:attract_volume": _said(N_("Attract mode volume changed from {before} to {after}")),
    "configuration_changed:hints": _said(N_("Hints turned {after}")),
    "configuration_changed:speed": _said(
        N_("Speed changed from {before} to {after}"), words=("before", "after")
    ),
}

MONEY_IN_AND_OUT = {*BY_LEDGER_KIND, "cash_out"}
"""The ledger's rows the log shows: the rest of the money moves with an event or a round."""


def sentence(event: Mapping[str, Any], cash: Callable[[int], str]) -> str:
    """An event of the log (``kind`` and ``detail``) in the active language, its money in
    ``cash``."""
    kind: str = event["kind"]
    detail: Mapping[str, Any] = event["detail"]
    said = SENTENCES.get(f"{kind}:{detail.get('setting')}") or _by_device(kind, detail) or SENTENCES.get(kind)
    in_words = kind.replace("_", " ").capitalize()
    if said is None:
        return in_words
    fields = {name: _field(name, value, said, cash) for name, value in _flattened(detail)}
    if "message" in detail:
        tilt = registered(detail.get("kind", ""))
        fields["tilt"] = _(tilt.label) if tilt is not None else str(detail["message"])
    if "intent" in detail:
        fields["intent"] = intent_name(detail["intent"])
    if isinstance(detail.get("said"), Mapping):  # a refusal's own words, in this language
        with contextlib.suppress(KeyError, TypeError, ValueError):  # else its English reason
            refusal = Response.from_logged(detail["said"])
            told = refusal.text(cash, intent_name)
            # The core's reason, the detail a lab reads the log for, is in English words: said
            # on an English log only, as a tilt's detail is on an English screen.
            explained = refusal.reason and i18n.active() == "en"
            fields["reason"] = f"{told}: {refusal.reason}" if explained else told
            if any(isinstance(value, Intent) for value in refusal.details.values()):
                said = SENTENCES["refused:named"]
    try:
        return _(said.template).format_map(fields)
    except KeyError:  # an event of an older shape
        return in_words


def _by_device(kind: str, detail: Mapping[str, Any]) -> Sentence | None:
    """A payout's sentence in the words of the payout device the event names (none named:
    the registry's, the hopper's)."""
    device = PAYOUT_DEVICES.get(detail.get("device", ""))
    return payout_sentences(device).get(kind) if device is not None else None


def _flattened(detail: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for name, value in detail.items():
        if isinstance(value, Mapping):
            yield from _flattened(value, f"{prefix}{name}_")
        else:
            yield f"{prefix}{name}", value


def _field(name: str, value: Any, said: Sentence, cash: Callable[[int], str]) -> str:
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if name in said.money and isinstance(value, int):
        return cash(value)
    if name in said.shares and isinstance(value, float):
        return i18n.percent(value)
    if name in said.words and value in SETTING_WORDS:
        return _(SETTING_WORDS[value])
    if isinstance(value, float):  # a device's reading: in the language's digits
        return i18n.decimal(value)
    if isinstance(value, list):
        return "; ".join(map(str, value)) or _("none")
    return str(value)


def event_log(store: Store, last: int) -> list[dict[str, Any]]:
    """The last ``last`` entries of the log, oldest first, each with its time (``at``),
    ``kind`` and ``detail``: the events, the money taken in and paid by a payout device, and the
    rounds settled."""
    money = [
        {"at": row.at, "kind": row.kind, "detail": {"amount": abs(row.amount), **_device_of(row.detail)}}
        for row in store.ledger_tail(MONEY_IN_AND_OUT, last)
    ]
    rounds = [_settled(round_) for round_ in store.rounds(last=last) if round_["state"] == "settled"]
    # In one transaction the money moves before its event, and the round is settled last.
    ranked = [
        (entry["at"], rank, entry)
        for rank, entries in enumerate((money, store.events(last), rounds))
        for entry in entries
    ]
    ranked.sort(key=lambda item: item[:2])
    return [entry for _at, _rank, entry in ranked[-last:]]


def _device_of(detail: Mapping[str, Any]) -> dict[str, Any]:
    """The payout device a ledger row of money paid out names, for its sentence."""
    return {"device": detail["device"]} if "device" in detail else {}


def _settled(round_: SettledRound) -> dict[str, Any]:
    """A round settled as the log says it: what it staked and paid, or what its void refunded."""
    settlement = round_["settlement"]
    if settlement.get("void"):
        return {
            "at": round_["finished_at"],
            "kind": "round_void",
            "detail": {"round_id": round_["id"], "refund": settlement["paid"]},
        }
    paid = settlement["paid"] + settlement.get("jackpot_awards", 0)
    return {
        "at": round_["finished_at"],
        "kind": "round_settled",
        "detail": {"round_id": round_["id"], "staked": settlement["collected"], "paid": paid},
    }
