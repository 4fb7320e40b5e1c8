"""Round.advice: the expected value of every choice a box may take, through the Python API.

The values themselves are checked against the engine playing out every dealer hand in
rust/core/tests/strategy.rs; here: the binding's shape, its agreement with legal_actions,
phases, errors, and that it releases the GIL.
"""

from __future__ import annotations

import threading
from itertools import combinations

import pytest

from oasis_kiosk import Advice, IllegalAction, Round, load_profile


def test_every_legal_choice_is_valued_and_the_best_is_the_highest() -> None:
    standard = load_profile("standard")
    ante = standard.allowed_antes()[0]
    round_ = Round(standard, ante, deck="As Ks Qs Js Ts / 2c 3d 5h 8c 9d")
    advice = round_.advice()
    assert isinstance(advice, Advice)
    assert advice.box_index == 0
    legal = round_.legal_actions()
    assert {choice.action for choice in advice.choices} == set(legal)
    exchanges = [choice.positions for choice in advice.choices if choice.action == "exchange"]
    assert exchanges == [[p] for p in range(5)], "standard exchanges one card, at any position"
    fold = next(choice for choice in advice.choices if choice.action == "fold")
    assert fold.ev == -ante
    assert fold.exact
    assert (fold.positions, fold.amount) == (None, None)
    assert advice.best.action == "play", "a royal flush plays"
    assert advice.best.ev == max(choice.ev for choice in advice.choices)
    # A royal flush against a 9 up: the dealer qualifies or not, the box wins either way.
    assert ante < advice.best.ev <= ante + 2 * ante * 100
    assert "Choice(action='play'" in repr(advice.best)


def test_a_box_advised_to_exchange_two_cards_has_every_pair_of_positions_valued() -> None:
    czech = load_profile("czech-exchange")
    round_ = Round(czech, czech.allowed_antes()[0], deck="Ah Jh 8h 5h 3c / 2d 9s Tc 6d Qc")
    advice = round_.advice()
    pairs = [tuple(c.positions or ()) for c in advice.choices if c.action == "exchange" and c.positions]
    assert [p for p in pairs if len(p) == 2] == list(combinations(range(5), 2))
    one_card = [c for c in advice.choices if c.action == "exchange" and len(c.positions or ()) == 1]
    assert all(choice.exact for choice in one_card), "a one-card exchange is counted exactly"
    assert (advice.best.action, advice.best.positions) == ("exchange", [4]), "draw to the flush"


def test_insurance_is_valued_at_none_the_least_and_the_most() -> None:
    golden = load_profile("golden-oasis")
    ante = golden.allowed_antes()[0]
    round_ = Round(golden, ante, bonus=True, deck="8h 8d 8c 4s 2h / 2c 3c 4c Tc Kc")
    play = next(c for c in round_.advice().choices if c.action == "play")
    round_.play()
    assert round_.phase == "insurance"
    advice = round_.advice()
    limits = round_.legal_actions()["insure"]
    assert [(c.action, c.amount) for c in advice.choices] == [
        ("insure", limits["min"]),
        ("insure", limits["max"]),
        ("decline", None),
    ]
    # Playing was valued with the best of these insurance choices to follow.
    assert play.ev == pytest.approx(advice.best.ev, abs=1e-6)


def test_after_a_dealer_who_does_not_qualify_the_purchases_are_valued() -> None:
    czech = load_profile("czech-exchange")
    round_ = Round(czech, czech.allowed_antes()[0], deck="Ts Th Tc 4d 2s / As Qc 8d 5h 3s")
    round_.play()
    assert round_.phase == "purchase"
    advice = round_.advice()
    assert [c.action for c in advice.choices] == ["buy_dealer_card", "decline"]
    decline = advice.choices[1]
    assert decline.ev == round_.antes[0], "the ante wins 1:1"
    assert advice.best.action == "buy_dealer_card", "trips buy the dealer a card against A-Q"


def test_advice_is_refused_out_of_turn_and_after_the_settlement() -> None:
    round_ = Round("standard", [1000, 1000], deck="2c 3d 5h 8c 9d / 4c 6d 7h Jc Qd / As Ks Qs Js Ts")
    with pytest.raises(IllegalAction, match="it is box 1's turn, not box 2's"):
        round_.advice(1)
    round_.fold()
    assert round_.advice().box_index == 1
    round_.fold()
    with pytest.raises(IllegalAction, match="settled"):
        round_.advice()


def test_other_threads_run_while_the_advice_is_computed() -> None:
    czech = load_profile("czech-exchange")
    round_ = Round(czech, czech.allowed_antes()[0], deck="Ah Jh 8h 5h 3c / 2d 9s Tc 6d Qc")
    counter = [0]
    done = threading.Event()

    def count() -> None:
        while not done.is_set():
            counter[0] += 1

    thread = threading.Thread(target=count)
    thread.start()
    try:
        before = counter[0]
        round_.advice()
        during = counter[0] - before
    finally:
        done.set()
        thread.join()
    assert during > 1000, "the GIL is released while the advice is computed"
