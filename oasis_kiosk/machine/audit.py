"""The audit: does the database add up?

- the ledger chains: each row's credits are the previous row's plus its amount, never negative;
- the identity credits = total in − total out + coin out − coin in holds;
- every meter equals the sum the ledger gives it;
- every settled round replays from its record, under the rules stored with it, to the
  settlement stored with it, and its ledger rows pay exactly that settlement;
- at most one round is open, and it replays (so it can resume).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from oasis_kiosk._core import RecordError, Round
from oasis_kiosk.store.db import Store, StoreError

MONEY_IN = {"coin_in", "bill_in", "operator_credit"}
MONEY_OUT = {"handpay", "cash_out"}
WAGERED = {"wager", "fee"}
WON = {"win", "bonus_win", "void_refund", "jackpot_hit"}


@dataclass
class AuditReport:
    credits: int = 0
    meters: dict[str, int] = field(default_factory=dict)
    rounds_checked: int = 0
    open_round: int | None = None
    problems: list[str] = field(default_factory=list)

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
            "meters": self.meters,
        }


def expected_meters(store: Store) -> dict[str, int]:
    """The meters as the ledger and the rounds say they must be."""
    sums: Counter[str] = Counter()
    for row in store.ledger():
        if row.kind in MONEY_IN:
            sums["total_in"] += row.amount
        if row.kind in {"coin_in", "bill_in"}:
            sums[f"{row.kind.removesuffix('_in')}s_in_{row.detail['denomination']}"] += 1
        if row.kind in MONEY_OUT:
            sums["total_out"] -= row.amount
        if row.kind == "operator_credit":
            sums["operator_credits"] += row.amount
        if row.kind == "handpay":
            sums["handpays"] -= row.amount
        if row.kind == "cash_out" and row.detail.get("device") == "hopper":
            sums["hopper_out"] -= row.amount
        if row.kind in WAGERED:
            sums["coin_in"] -= row.amount
        if row.kind in WON:
            sums["coin_out"] += row.amount
        if row.kind == "jackpot_hit":
            sums["jackpots_paid"] += row.amount
        if row.kind == "jackpot_contribution":
            sums["jackpot_contributions"] += row.detail["to_meter"]
    for round_ in store.rounds():
        if round_["state"] == "settled":
            sums["games_played"] += 1
            settlement = round_["settlement"]
            if settlement["net"] + settlement.get("jackpot_awards", 0) > 0:
                sums["games_won"] += 1
    return dict(sums)


def audit(store: Store) -> AuditReport:
    report = AuditReport()
    problems = report.problems
    try:
        ledger = store.ledger()
        meters = store.meters()
        rounds = store.rounds()
    except StoreError as error:
        problems.append(str(error))
        return report
    report.meters = meters

    credits = 0
    for row in ledger:
        credits += row.amount
        if row.credits_after != credits:
            problems.append(
                f"ledger row {row.id}: credits {row.credits_after}, the amounts add up to {credits}"
            )
            credits = row.credits_after
    report.credits = credits

    def meter(name: str) -> int:
        return meters.get(name, 0)

    identity = meter("total_in") - meter("total_out") + meter("coin_out") - meter("coin_in")
    if identity != credits:
        problems.append(f"credits {credits} but total in − total out + coin out − coin in = {identity}")
    for name, value in sorted(expected_meters(store).items()):
        if meter(name) != value:
            problems.append(f"meter {name} is {meter(name)}, the ledger says {value}")

    by_round: dict[int, int] = Counter()
    for row in ledger:
        if row.round_id is not None and row.kind in WAGERED | WON:
            by_round[row.round_id] += row.amount
    for round_ in rounds:
        try:
            replayed = Round.replay(store.profile(round_["record"]["profile_digest"]), round_["record"])
        except (RecordError, StoreError) as error:
            problems.append(f"round {round_['id']} does not replay: {error}")
            continue
        if round_["state"] == "open":
            if report.open_round is not None:
                problems.append(f"rounds {report.open_round} and {round_['id']} are both open")
            report.open_round = round_["id"]
            if replayed.phase == "settled":
                problems.append(f"round {round_['id']} is open but its record is settled")
            continue
        report.rounds_checked += 1
        stored = dict(round_["settlement"])
        awards = stored.pop("jackpot_awards", 0)
        if replayed.phase != "settled" or replayed.settlement() != stored:
            problems.append(f"round {round_['id']}: the replayed settlement differs from the stored one")
        if by_round[round_["id"]] != stored["net"] + awards:
            problems.append(
                f"round {round_['id']}: the ledger moved {by_round[round_['id']]}, the settlement "
                f"{stored['net']} and jackpot {awards}"
            )
    return report
