"""The audit: does the database add up?

- the ledger chains: each row's credits are the previous row's plus its amount, never negative;
- the identity credits = total in − total out + coin out − coin in holds;
- every meter equals the sum the ledger gives it;
- every settled round replays from its record, under the rules stored with it, to the
  settlement stored with it, and its ledger rows pay exactly that settlement (a win at or
  above the handpay limit: its handpaid row, or the handpay still pending for it);
- at most one round is open, and it replays (so it can resume);
- the seal chain verifies and seals every row as it stands, and the database reaches its
  books mark (``store/seals.py``, ``store/books.py``);
- rounds dealt from decks known in advance (stacked, or derived from a seed) are flagged; on
  books that are not test books they are discrepancies.

Damaged data (a row that is not what the terminal writes) is a discrepancy, never a crash.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oasis_kiosk._core import RecordError, Round
from oasis_kiosk.machine.cash_out_kinds import PAYOUT_DEVICES
from oasis_kiosk.machine.ledger_kinds import MONEY_IN, MONEY_OUT, PAID_BY_HAND, WAGERED, WON
from oasis_kiosk.machine.meters import EVENT_METERS
from oasis_kiosk.machine.money_kinds import BY_LEDGER_KIND
from oasis_kiosk.machine.outcome import round_win
from oasis_kiosk.store.db import Store, StoreError
from oasis_kiosk.store.db.ledger import LedgerRow

if TYPE_CHECKING:
    from oasis_kiosk.store.db.rounds import RoundSettlement, StoredRound

OVERPAID = {device.overpaid for device in PAYOUT_DEVICES.values()}
"""The ledger's rows of items a payout device paid unowed: each on its meter of that name."""
TERMINAL_KEYS = {"jackpot_awards", "jackpot_hits", "jackpot_before", "jackpot_pending", "handpaid"}
"""What the terminal keeps in a settled round's settlement beside the core's."""


@dataclass
class AuditReport:
    credits: int = 0
    meters: dict[str, int] = field(default_factory=dict)
    rounds_checked: int = 0
    open_round: int | None = None
    problems: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    """Worth a look but no discrepancy: rounds of test books dealt from known decks."""

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "credits": self.credits,
            "rounds_checked": self.rounds_checked,
            "open_round": self.open_round,
            "problems": self.problems,
            "flags": self.flags,
            "meters": self.meters,
        }


def expected_meters(ledger: list[LedgerRow], rounds: list[StoredRound]) -> dict[str, int]:
    """The meters as the ledger and the rounds say they must be."""
    sums: Counter[str] = Counter()
    for row in ledger:
        if row.kind in MONEY_IN:
            sums["total_in"] += row.amount
        if row.kind in BY_LEDGER_KIND:
            sums[BY_LEDGER_KIND[row.kind].meter(row.detail["denomination"])] += 1
        if row.kind in MONEY_OUT:
            sums["total_out"] -= row.amount
        if row.kind == "handpay":
            sums["handpays"] -= row.amount
        if row.kind == "cash_out" and row.detail.get("device") in PAYOUT_DEVICES:
            sums[PAYOUT_DEVICES[row.detail["device"]].meter] -= row.amount
        if row.kind in WAGERED:
            sums["coin_in"] -= row.amount
        if row.kind in WON:
            sums["coin_out"] += row.amount
        if row.kind == "jackpot_hit":
            sums["jackpots_paid"] += row.amount
        if row.kind == "jackpot_contribution":
            sums["jackpot_contributions"] += row.detail["to_meter"]
        if row.kind in OVERPAID:
            sums[row.kind] += row.detail["coin"]
        if row.kind == "operator_credit":
            sums["operator_credits"] += row.amount
        if row.kind == PAID_BY_HAND:
            # The game paid it (coin out) and the attendant paid it out by hand (total out).
            for name in ("coin_out", "total_out", "handpays"):
                sums[name] += row.detail["won"]
            sums["jackpots_paid"] += row.detail["jackpot"]
    for round_ in rounds:
        if round_["state"] == "settled":
            sums["games_played"] += 1
            settlement = round_["settlement"]
            if round_win(settlement, settlement.get("jackpot_awards", 0)) > 0:
                sums["games_won"] += 1
    return dict(sums)


def audit(store: Store) -> AuditReport:
    report = AuditReport()
    report.problems += store.mark_problems() + store.verify_seals(full=True)
    try:
        _audit_books(store, report)
    except StoreError as error:
        report.problems.append(str(error))
    except (KeyError, TypeError, ValueError, ArithmeticError) as error:
        report.problems.append(f"the books hold data the terminal does not write: {error!r}")
    return report


def _flag_known_decks(store: Store, rounds: list[StoredRound], report: AuditReport) -> None:
    books = store.books
    test = books is not None and books.test
    for round_ in rounds:
        if round_["deck"] != "shuffled":
            finding = f"round {round_['id']} was dealt from a {round_['deck']} deck"
            if test:
                report.flags.append(f"{finding} (test books)")
            else:
                report.problems.append(f"{finding}, on books that are not test books")


def _audit_books(store: Store, report: AuditReport) -> None:
    ledger = store.ledger()
    report.meters = store.meters()
    rounds = store.rounds()
    _flag_known_decks(store, rounds, report)
    report.credits = _check_credit_chain(ledger, report.problems)
    _check_meters(report.meters, report.credits, ledger, rounds, report.problems)
    state = store.get_state("terminal", {})
    payments = _paid_by_hand_or_linked(ledger, state)
    _check_jackpot_meter(ledger, state, payments, report.problems)
    _add_stakes_and_returns(payments, ledger, state)
    for round_ in rounds:
        _check_round(store, round_, payments, ledger, report)


def _check_credit_chain(ledger: list[LedgerRow], problems: list[str]) -> int:
    """Each row's credits are the previous row's plus its amount; returns the credits."""
    credits = 0
    for row in ledger:
        credits += row.amount
        if row.credits_after != credits:
            problems.append(
                f"ledger row {row.id}: credits {row.credits_after}, the amounts add up to {credits}"
            )
            credits = row.credits_after
    return credits


def _check_meters(
    meters: dict[str, int],
    credits: int,
    ledger: list[LedgerRow],
    rounds: list[StoredRound],
    problems: list[str],
) -> None:
    """The meters' identity holds, and every meter is what the ledger and the rounds give it."""

    def meter(name: str) -> int:
        return meters.get(name, 0)

    identity = meter("total_in") - meter("total_out") + meter("coin_out") - meter("coin_in")
    if identity != credits:
        problems.append(f"credits {credits} but total in − total out + coin out − coin in = {identity}")
    expected = expected_meters(ledger, rounds)
    for name in sorted((set(expected) | set(meters)) - EVENT_METERS):
        if meter(name) != expected.get(name, 0):
            problems.append(f"meter {name} is {meter(name)}, the ledger says {expected.get(name, 0)}")


@dataclass
class _RoundPayments:
    """What the books took and paid per round, by round number."""

    handpaid: dict[int, tuple[int, int]]
    """A win at or above the handpay limit, paid by hand (its row) or pending in the state:
    what was won and its jackpot part (not a linked jackpot's)."""
    linked: Counter[int]
    """A linked jackpot's award (``linked``: the floor's pool paid it, not this meter)."""
    linked_rows: Counter[int]
    """How many linked jackpot awards the round was paid (or has pending)."""
    taken: Counter[int] = field(default_factory=Counter)
    returned: Counter[int] = field(default_factory=Counter)


def _paid_by_hand_or_linked(ledger: list[LedgerRow], state: dict[str, Any]) -> _RoundPayments:
    handpaid: dict[int, tuple[int, int]] = {
        r.round_id: (r.detail["won"], r.detail["jackpot"])
        for r in ledger
        if r.kind == "handpaid_win" and r.round_id is not None and not r.detail.get("linked")
    }
    linked: Counter[int] = Counter()
    linked_rows: Counter[int] = Counter()
    for r in ledger:
        if r.round_id is not None and r.detail.get("linked"):
            linked[r.round_id] += r.amount if r.kind == "jackpot_hit" else r.detail["jackpot"]
            linked_rows[r.round_id] += 1
    pending = state.get("handpay_win")
    if pending is not None and pending.get("linked"):
        linked[pending["round_id"]] += pending["jackpot"]
        linked_rows[pending["round_id"]] += 1
    elif pending is not None:
        handpaid[pending["round_id"]] = (state["handpay"], pending["jackpot"])
    return _RoundPayments(handpaid, linked, linked_rows)


def _check_jackpot_meter(
    ledger: list[LedgerRow], state: dict[str, Any], payments: _RoundPayments, problems: list[str]
) -> None:
    """The jackpot meter holds what was put on it, less what it paid."""
    put_on = sum(r.detail["to_meter"] for r in ledger if r.kind in {"jackpot_reset", "jackpot_contribution"})
    paid_off = sum(r.amount for r in ledger if r.kind == "jackpot_hit" and not r.detail.get("linked"))
    paid_off += sum(jackpot for _, jackpot in payments.handpaid.values())
    if "jackpot" in state:
        on_meter = state["jackpot"]["value"] + state["jackpot"]["overflow"]
        if on_meter != put_on - paid_off:
            problems.append(f"the jackpot holds {on_meter}, its ledger rows say {put_on - paid_off}")


def _add_stakes_and_returns(payments: _RoundPayments, ledger: list[LedgerRow], state: dict[str, Any]) -> None:
    """What each round took in stakes and paid back, on the credits or by hand."""
    taken, returned = payments.taken, payments.returned
    for row in ledger:
        if row.round_id is not None and row.kind in WAGERED:
            taken[row.round_id] -= row.amount
        if row.round_id is not None and row.kind in WON:
            returned[row.round_id] += row.amount
    for number, (amount, _) in payments.handpaid.items():
        returned[number] += amount
    for r in ledger:
        if r.kind == "handpaid_win" and r.round_id is not None and r.detail.get("linked"):
            returned[r.round_id] += r.detail["won"]
    if state.get("handpay_win") is not None and state["handpay_win"].get("linked"):
        returned[state["handpay_win"]["round_id"]] += state["handpay"]


def _check_round(
    store: Store, round_: StoredRound, payments: _RoundPayments, ledger: list[LedgerRow], report: AuditReport
) -> None:
    """A voided round refunded what it took; any other replays from its record to what the
    ledger took, and an open one is the only one; a settled one is checked further."""
    problems = report.problems
    number = round_["id"]
    taken, returned = payments.taken[number], payments.returned[number]
    if round_["state"] == "voided":
        if taken != returned:
            problems.append(f"voided round {number}: took {taken}, refunded {returned}")
        return
    if round_["state"] == "open":
        if report.open_round is not None:
            problems.append(f"rounds {report.open_round} and {number} are both open")
        report.open_round = number
    try:
        replayed = Round.replay(store.profile(round_["record"]["profile_digest"]), round_["record"])
    except (RecordError, StoreError) as error:
        problems.append(f"round {number} does not replay: {error}")
        return
    if taken != replayed.collected:
        problems.append(f"round {number}: the ledger took {taken}, the round {replayed.collected}")
    if round_["state"] == "open":
        if replayed.phase == "settled":
            problems.append(f"round {number} is open but its record is settled")
        return
    report.rounds_checked += 1
    _check_settlement(number, round_["settlement"], replayed, payments, ledger, problems)


def _check_settlement(
    number: int,
    settlement: RoundSettlement,
    replayed: Round,
    payments: _RoundPayments,
    ledger: list[LedgerRow],
    problems: list[str],
) -> None:
    """A settled round's stored settlement is the replayed one, and the books paid exactly
    it and its jackpot: on the credits, by hand, or linked."""
    awards = settlement.get("jackpot_awards", 0)
    linked = payments.linked[number]
    # What the terminal keeps for the screen beside the core's settlement (none in books
    # of an earlier release): each box's award, which must add up to the round's.
    shown_hits = settlement.get("jackpot_hits")
    # A linked hit: each box's award is the hub's, credited once (or still pending), or
    # the round's awards handpaid together.
    linked_boxes = len(settlement.get("jackpot_pending", []))
    if payments.linked_rows[number] > linked_boxes:
        problems.append(f"round {number}: {payments.linked_rows[number]} linked jackpot awards")
    core = {key: value for key, value in settlement.items() if key not in TERMINAL_KEYS}
    if replayed.phase != "settled" or replayed.settlement() != core:
        problems.append(f"round {number}: the replayed settlement differs from the stored one")
        return
    if shown_hits is not None and sum(hit["award"] for hit in shown_hits) != awards:
        problems.append(f"round {number}: the boxes' jackpot awards do not add up to {awards}")
    awards += linked
    if payments.returned[number] != settlement["paid"] + awards:
        problems.append(
            f"round {number}: the ledger paid {payments.returned[number]}, the settlement "
            f"{settlement['paid']} and the jackpot {awards}"
        )
    if number in payments.handpaid:
        if payments.handpaid[number][1] != awards - linked:
            problems.append(
                f"round {number}: handpaid a jackpot of {payments.handpaid[number][1]}, the round won {awards}"
            )
        return
    if linked_boxes:
        return
    hits = sum(1 for box in settlement["boxes"] if box["jackpot"])
    hit_rows = sum(1 for r in ledger if r.kind == "jackpot_hit" and r.round_id == number)
    if hits != hit_rows:
        problems.append(f"round {number}: {hits} jackpot award(s), {hit_rows} jackpot hit row(s)")
