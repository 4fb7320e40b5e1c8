"""Large wins: a round that wins the handpay limit or more (what it pays back, a jackpot
award included, less its stakes) locks the terminal up until the attendant pays it all by
hand; it never goes on the credits, and the books still add up."""

from __future__ import annotations

import sqlite3
from fractions import Fraction
from pathlib import Path

from support import books

from oasis_kiosk.config import Config, JackpotConfig, load_config
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store

ROYAL = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"  # a royal flush against a pair of deuces
STAKES = 1000 + 2000 + 200  # the ante, the play bet and the bonus stake
PAID = 1000 + 2000 + 1000 + 2000 * 100  # antes and play back, the ante's 1:1, play at 100:1
JACKPOT = 500_000 + 100  # the base and half of the 200 bonus stake
WON = PAID + JACKPOT - STAKES  # the round's win: its stakes merely come back
LOCKED = {"attendant", "door_open", "operator_key_on"}
PUSH = "Ks Kh 9c 7d 4s / Kd Kc 9h 7s 4c"  # the same hand both sides: a stand-off


def royal_round(database: Path, limit: int) -> Terminal:
    """10000 in, a round with the bonus dealt a royal flush and played."""
    config = Config(
        database=database,
        handpay_limit=limit,
        jackpot=JackpotConfig(base=500_000, rate=Fraction(1, 2), maximum=900_000),
    )
    terminal = Terminal(config, books(database), deck_for_round=lambda number: ROYAL)
    for intent, value in [("bill", 5000), ("bill", 5000), ("bonus", None), ("deal", None), ("play", None)]:
        assert terminal.handle(intent, value).ok
    return terminal


def test_a_win_just_below_the_limit_goes_on_the_credits(tmp_path: Path) -> None:
    t = royal_round(tmp_path / "kiosk.db", limit=WON + 1)
    assert t.handpay is None
    assert t.credits == 10000 - STAKES + PAID + JACKPOT
    assert "deal" in t.live()
    assert audit(t.store).ok


def test_a_win_at_the_limit_locks_the_terminal_until_the_attendant_pays_it(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = royal_round(database, limit=WON)
    assert t.handpay == PAID + JACKPOT, "all the round pays, its stakes back too"
    assert t.credits == 10000 - STAKES, "the win never touches the credits"
    assert t.live() == LOCKED, "call attendant: nothing else is live"
    assert not t.handle("deal").ok
    assert not t.handle("cashout").ok
    assert t.jackpot.value == 500_000, "the jackpot was won: the meter starts again"
    [event] = [e["detail"] for e in t.store.events() if e["kind"] == "handpay_win"]
    assert event == {"round_id": 1, "amount": PAID + JACKPOT, "limit": WON}
    report = audit(t.store)
    assert report.ok, report.problems

    t.store.close()  # the power goes during the lock-up
    again = Terminal(
        Config(database=database, handpay_limit=WON),
        books(database),
        deck_for_round=lambda n: ROYAL,
    )
    assert again.handpay == PAID + JACKPOT, "still locked after the restart"
    assert again.live() == LOCKED
    assert audit(again.store).ok

    assert again.handle("attendant").message == f"handpay of {PAID + JACKPOT} paid"
    assert again.credits == 10000 - STAKES
    assert "deal" in again.live()
    [row] = [row for row in again.store.ledger() if row.kind == "handpaid_win"]
    assert (row.amount, row.round_id, row.detail) == (0, 1, {"won": PAID + JACKPOT, "jackpot": JACKPOT})
    meters = again.store.meters()
    assert meters["handpays"] == meters["total_out"] == PAID + JACKPOT
    assert meters["jackpots_paid"] == JACKPOT
    assert meters["coin_out"] == PAID + JACKPOT
    assert [e["detail"] for e in again.store.events() if e["kind"] == "handpay_paid"] == [
        {"amount": PAID + JACKPOT, "round_id": 1}
    ]
    report = audit(again.store)
    assert report.ok, report.problems


def test_the_jackpot_award_counts_towards_the_limit(tmp_path: Path) -> None:
    t = royal_round(tmp_path / "kiosk.db", limit=PAID - STAKES + 1)
    assert t.handpay == PAID + JACKPOT, "the game's win alone is below the limit, with the jackpot not"
    assert t.credits == 10000 - STAKES
    assert audit(t.store).ok


def test_stakes_that_merely_come_back_never_reach_the_limit(tmp_path: Path) -> None:
    """A round that pays back its stakes and wins less than the limit goes on the credits,
    however much it pays: the limit is on what a round wins (a stand-off locked the cabinet
    up to hand the player's own stakes back)."""
    t = royal_round(tmp_path / "kiosk.db", limit=WON + 1)
    assert PAID + JACKPOT > WON + 1, "it pays more than the limit, with its stakes"
    assert t.handpay is None
    assert t.credits == 10000 - STAKES + PAID + JACKPOT
    database = tmp_path / "push.db"
    push = Terminal(
        Config(database=database, handpay_limit=1000), books(database), deck_for_round=lambda n: PUSH
    )
    for intent, value in [("bill", 5000), ("deal", None), ("play", None)]:
        assert push.handle(intent, value).ok
    [(net, paid)] = [
        (round_["settlement"]["net"], round_["settlement"]["paid"])
        for round_ in push.store.rounds()
        if round_["state"] == "settled"
    ]
    assert net == 0, "a stand-off"
    assert paid >= 1000, "its stakes back reach the limit"
    assert push.handpay is None
    assert push.credits == 5000
    assert audit(push.store).ok


def test_the_audit_finds_a_handpaid_win_that_differs_from_the_round(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = royal_round(database, limit=PAID)
    t.handle("attendant")
    t.store.close()
    raw = sqlite3.connect(database)
    raw.execute("UPDATE ledger SET detail = json_set(detail, '$.won', 5) WHERE kind = 'handpaid_win'")
    raw.commit()
    raw.close()
    problems = "\n".join(audit(Store(database, read_only=True)).problems)
    assert f"round 1: the ledger paid 5, the settlement {PAID}" in problems
    assert "meter handpays is" in problems


def test_the_handpay_limit_is_read_from_the_configuration(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[money]\nhandpay_limit = 250000\n")
    assert load_config(path).handpay_limit == 250_000
    assert Config().handpay_limit == 1_000_000
