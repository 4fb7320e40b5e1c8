"""The evaluator's order against independent evaluators from PyPI, on a million random
pairs of hands each: treys (pure Python) for five and six cards, eval7 for seven."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import eval7
import numpy as np
import pytest
import treys
from numpy.typing import NDArray

from oasis_kiosk import HandValue, card_name, evaluate_many

PAIRS = 1_000_000
CHUNK = 50_000

# Category names of the oracles, mapped to ours; their "High Card" holds our AceKing and HighCard.
TREYS_CATEGORY = {
    "Royal Flush": "RoyalFlush",
    "Straight Flush": "StraightFlush",
    "Four of a Kind": "FourOfAKind",
    "Full House": "FullHouse",
    "Flush": "Flush",
    "Straight": "Straight",
    "Three of a Kind": "ThreeOfAKind",
    "Two Pair": "TwoPair",
    "Pair": "OnePair",
    "High Card": "HighCard",
}


def random_hands(rng: np.random.Generator, count: int, hand_size: int) -> NDArray[np.uint8]:
    """`count` hands of distinct cards: the first cards of independent random permutations."""
    keys = rng.random((count, 52))
    return np.argpartition(keys, hand_size, axis=1)[:, :hand_size].astype(np.uint8)


def chunks(hand_size: int, seed: int) -> Iterator[tuple[NDArray[np.uint8], NDArray[np.uint8]]]:
    rng = np.random.default_rng(seed)
    for _ in range(PAIRS // CHUNK):
        yield random_hands(rng, CHUNK, hand_size), random_hands(rng, CHUNK, hand_size)


def check_order(hand_size: int, seed: int, oracle: Callable[[list[int]], int], lower_is_better: bool) -> None:
    compared = 0
    for left, right in chunks(hand_size, seed):
        ours = np.sign(
            evaluate_many(left, hand_size).astype(np.int64) - evaluate_many(right, hand_size).astype(np.int64)
        )
        theirs = np.sign(
            np.array([oracle(hand) for hand in left.tolist()], dtype=np.int64)
            - np.array([oracle(hand) for hand in right.tolist()], dtype=np.int64)
        )
        if lower_is_better:
            theirs = -theirs
        disagree = np.flatnonzero(ours != theirs)
        if disagree.size:
            i = disagree[0]
            hands = [card_name(int(c)) for c in left[i]], [card_name(int(c)) for c in right[i]]
            pytest.fail(f"order differs on {hands}: ours {ours[i]}, oracle {theirs[i]}")
        compared += len(left)
    assert compared == PAIRS


TREYS_CARD = [treys.Card.new(card_name(code)) for code in range(52)]
TREYS = treys.Evaluator()


def treys_rank(hand: list[int]) -> int:
    cards = [TREYS_CARD[code] for code in hand]
    return int(TREYS.evaluate(cards[:2], cards[2:]))


@pytest.mark.slow
@pytest.mark.parametrize("hand_size", [5, 6])
def test_order_agrees_with_treys(hand_size: int) -> None:
    check_order(hand_size, seed=hand_size, oracle=treys_rank, lower_is_better=True)


EVAL7_CARD = [eval7.Card(card_name(code)) for code in range(52)]


def eval7_rank(hand: list[int]) -> int:
    return int(eval7.evaluate([EVAL7_CARD[code] for code in hand]))


@pytest.mark.slow
def test_seven_card_order_agrees_with_eval7() -> None:
    check_order(7, seed=7, oracle=eval7_rank, lower_is_better=False)


@pytest.mark.slow
def test_categories_agree_with_treys() -> None:
    rng = np.random.default_rng(11)
    hands = random_hands(rng, 200_000, 5)
    ours = evaluate_many(hands, 5)
    for hand, strength in zip(hands.tolist(), ours.tolist(), strict=True):
        theirs = TREYS_CATEGORY[TREYS.class_to_string(TREYS.get_rank_class(treys_rank(hand)))]
        category = HandValue(strength).category
        assert category == theirs or (category, theirs) == ("AceKing", "HighCard"), hand
