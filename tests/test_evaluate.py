"""The evaluator through the package's public API: input forms, categories and the tie rules
of RULES.md §1, one case per rule."""

from __future__ import annotations

import array
import threading
import time

import numpy as np
import pytest
from typing_extensions import Buffer

from oasis_kiosk import CATEGORIES, CardError, HandValue, card_code, card_name, evaluate, evaluate_many


def test_card_codes_follow_rank_and_suit() -> None:
    assert card_code("2c") == 0
    assert card_code("2d") == 1
    assert card_code("3c") == 4
    assert card_code("As") == 51
    assert card_code("10h") == card_code("Th") == card_code("tH")
    assert [card_name(code) for code in (0, 51, 34)] == ["2c", "As", "Th"]


@pytest.mark.parametrize("token", ["1s", "Ax", "AK", "", "11c", "As!"])
def test_a_bad_card_is_named_in_the_error(token: str) -> None:
    with pytest.raises(CardError, match=repr(token).replace("'", '"')):
        card_code(token)


@pytest.mark.parametrize("code", [-1, 52, 255])
def test_a_bad_code_is_named_in_the_error(code: int) -> None:
    with pytest.raises(CardError, match=f"card code {code} "):
        card_name(code)


def test_hands_come_as_text_or_sequences_of_names_or_codes() -> None:
    text = evaluate("As Kd Qh Jc 9c")
    assert evaluate(["As", "Kd", "Qh", "Jc", "9c"]) == text
    assert evaluate([51, 45, 42, 36, 28]) == text
    assert evaluate(("As", 45, "qh", "JC", "9c")) == text
    assert text.category == "AceKing"


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As Kd Qh Jc", "5, 6 or 7 cards, not 4"),
        ("As Kd Qh Jc 9c 8c 7c 6c", "not 8"),
        ("As Kd Qh Jc as", "card As appears twice"),
        ([51, 45, 42, 36, 51], "card As appears twice"),
    ],
)
def test_a_hand_that_is_not_one_is_refused(cards: object, message: str) -> None:
    with pytest.raises(CardError, match=message):
        evaluate(cards)  # type: ignore[arg-type]


def test_a_value_is_an_ordered_strength_with_a_category() -> None:
    royal = evaluate("As Ks Qs Js Ts")
    assert int(royal) == royal.strength == 7461
    assert royal.category == "RoyalFlush"
    assert HandValue(7461) == royal
    assert evaluate("7c 5d 4h 3s 2c") == HandValue(0)
    assert len({royal, HandValue(7461)}) == 1
    assert repr(royal) == "HandValue(category='RoyalFlush', strength=7461)"
    with pytest.raises(ValueError, match=r"0\.\.7461"):
        HandValue(7462)
    assert CATEGORIES[0] == "HighCard"
    assert CATEGORIES[-1] == "RoyalFlush"
    assert len(CATEGORIES) == 11


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("Ad Qc Jh 9d 8s", "HighCard"),
        ("Ad Kc 4h 3d 2s", "AceKing"),
        ("2s 2d 3c 4h 5d", "OnePair"),
        ("2s 2d 3c 3h 5d", "TwoPair"),
        ("2s 2d 2c 3h 5d", "ThreeOfAKind"),
        ("As 2d 3c 4h 5d", "Straight"),
        ("As Kd Qc Jh Td", "Straight"),
        ("2h 7h 9h Jh Kh", "Flush"),
        ("2s 2d 2c 3h 3d", "FullHouse"),
        ("2s 2d 2c 2h 3d", "FourOfAKind"),
        ("Ah 2h 3h 4h 5h", "StraightFlush"),
        ("9c Tc Jc Qc Kc", "StraightFlush"),
        ("Ac Tc Jc Qc Kc", "RoyalFlush"),
        # Wrap-arounds are not straights: with A and K and no pair they are A-K hands.
        ("Ks Ad 2c 3h 4d", "AceKing"),
        ("Qs Kd Ac 2h 3d", "AceKing"),
        ("Js Qd Kc Ah 2d", "AceKing"),
    ],
)
def test_categories(cards: str, category: str) -> None:
    assert evaluate(cards).category == category


@pytest.mark.parametrize(
    ("stronger", "weaker", "rule"),
    [
        ("As Ad Kc 7h 2d", "Ah Ac Qd Js Ts", "pair: same pair, first kicker decides"),
        ("8s 8d Ac 9h 4d", "8h 8c Ad 9s 3c", "pair: kickers compared down to the last"),
        ("2s 2d 3c 4h 6d", "Ah Kc Qd Js 9s", "any pair beats any A-K hand"),
        ("Ks Kd 3c 3h 2d", "Qs Qd Jc Jh Ad", "two pair: the high pair first"),
        ("Ks Kd 5c 5h 2d", "Kh Kc 4d 4s Ad", "two pair: then the low pair"),
        ("Ks Kd 5c 5h 3d", "Kh Kc 5d 5s 2c", "two pair: then the kicker"),
        ("7s 7d 7c 2h 3d", "6s 6d 6c Ah Kd", "trips by the set rank"),
        ("3s 3d 3c 2h 2d", "2s 2c 2h Ad Ac", "full house by the set rank"),
        ("5s 5d 5c 5h 2d", "4s 4d 4c 4h Ad", "quads by the set rank"),
        ("6s 5d 4c 3h 2d", "5s 4d 3c 2h Ad", "the wheel is the lowest straight"),
        ("As Kd Qc Jh Td", "Ks Qd Jc Th 9d", "straights by the top card"),
        ("5s 4d 3c 2h Ad", "As Ad Ac Kh Qd", "the wheel still beats three of a kind"),
        ("6c 5c 4c 3c 2c", "5h 4h 3h 2h Ah", "the steel wheel is the lowest straight flush"),
        ("Ah Jh 9h 6h 4h", "Ac Jc 9c 6c 3c", "flushes by all five cards"),
        ("Ah Kh 3h 4h 2h", "Ac Qc Jc Tc 8c", "flushes: the top card first"),
        ("As Kd 9c 6h 3d", "Ad Kc 9s 6d 2h", "no-pair hands by all five cards"),
        ("Ad Kc 4h 3d 2s", "Ad Qc Jh 9d 8s", "A-K beats A-Q high"),
        ("As Ad Kc Kh Qd Qs", "As Ad Kc Kh Jd 2s", "six cards: the best five, kicker included"),
        ("2h 3h 4h 5h 6h 7h 8h", "2h 3h 4h 5h 6h 7h 8d", "seven cards: the highest straight flush"),
    ],
)
def test_tie_rules(stronger: str, weaker: str, rule: str) -> None:
    assert evaluate(stronger) > evaluate(weaker), rule
    assert evaluate(weaker) < evaluate(stronger), rule


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("As Kd 9c 6h 3d", "Ah Kc 9d 6s 3h"),
        ("Ts 9d 8c 7h 6d", "Tc 9h 8s 7d 6s"),
        ("Ah Jh 9h 6h 4h", "As Js 9s 6s 4s"),
        ("Ks Kd 5c 5h 3d", "Kh Kc 5d 5s 3c"),
        ("As Ks Qs Js Ts 2c", "As Ks Qs Js Ts 3d 4h"),
    ],
)
def test_suits_never_break_ties(one: str, other: str) -> None:
    assert evaluate(one) == evaluate(other)
    assert not evaluate(one) < evaluate(other)


HANDS = "As Ks Qs Js Ts 2c 3d 4h 5s 7c"
CODES = [card_code(card) for card in HANDS.split()]


@pytest.mark.parametrize(
    "buffer",
    [bytes(CODES), bytearray(CODES), array.array("B", CODES), memoryview(bytes(CODES))],
)
def test_evaluate_many_takes_any_byte_buffer(buffer: Buffer) -> None:
    strengths = evaluate_many(buffer)
    assert isinstance(strengths, array.array)
    assert strengths.typecode == "I"
    assert list(strengths) == [7461, int(evaluate("2c 3d 4h 5s 7c"))]


def test_evaluate_many_returns_numpy_for_numpy() -> None:
    strengths = evaluate_many(np.array(CODES * 3, dtype=np.uint8).reshape(6, 5))
    assert isinstance(strengths, np.ndarray)
    assert strengths.dtype == np.uint32
    assert strengths.tolist() == [7461, int(evaluate("2c 3d 4h 5s 7c"))] * 3


@pytest.mark.parametrize("hand_size", [5, 6, 7])
def test_evaluate_many_agrees_with_evaluate(hand_size: int) -> None:
    rng = np.random.default_rng(hand_size)
    hands = np.array([rng.permutation(52)[:hand_size] for _ in range(2000)], dtype=np.uint8)
    strengths = evaluate_many(hands.tobytes(), hand_size=hand_size)
    assert list(strengths) == [int(evaluate(hand.tolist())) for hand in hands]


@pytest.mark.parametrize(
    ("codes", "hand_size", "message"),
    [
        (bytes(range(9)), 5, "9 card codes do not divide into hands of 5"),
        (bytes(range(8)), 4, "5, 6 or 7 cards, not 4"),
        (bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 52]), 5, "hand 1: card code 52 is outside 0..51"),
        (bytes([0, 1, 2, 3, 4, 9, 6, 7, 8, 9]), 5, "hand 1: card 4d appears twice"),
    ],
)
def test_evaluate_many_refuses_bad_buffers(codes: bytes, hand_size: int, message: str) -> None:
    with pytest.raises(CardError, match=message):
        evaluate_many(codes, hand_size=hand_size)


def test_evaluate_many_refuses_what_is_not_a_byte_buffer() -> None:
    with pytest.raises(TypeError, match="buffer of card codes"):
        evaluate_many([0, 1, 2, 3, 4])  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="buffer of card codes"):
        evaluate_many(array.array("I", [0, 1, 2, 3, 4]))


def test_evaluate_many_releases_the_gil() -> None:
    """While one thread evaluates a long batch, another thread must run Python code in the
    middle of that call, which it cannot do if the call holds the GIL."""
    hands = bytes(CODES) * 2_000_000
    window: list[float] = []

    def evaluate_in_thread() -> None:
        window.append(time.perf_counter())
        evaluate_many(hands)
        window.append(time.perf_counter())

    worker = threading.Thread(target=evaluate_in_thread)
    ticks: list[float] = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    start, end = window
    middle = (start + 0.3 * (end - start), end - 0.3 * (end - start))
    assert any(middle[0] < tick < middle[1] for tick in ticks)


def test_evaluate_many_reads_strided_views() -> None:
    rng = np.random.default_rng(3)
    hands = np.array([rng.permutation(52)[:7] for _ in range(500)], dtype=np.uint8)
    reversed_columns = hands[:, ::-1]
    assert not reversed_columns.flags.c_contiguous
    assert evaluate_many(reversed_columns, 7).tolist() == evaluate_many(hands, 7).tolist()


@pytest.mark.parametrize("kind", [bytes, bytearray])
def test_a_bad_hand_deep_in_a_long_batch_is_numbered_in_the_whole_batch(kind: type) -> None:
    codes = bytearray(bytes(CODES[:5]) * 40_000)
    codes[5 * 37_001 + 2] = 60
    with pytest.raises(CardError, match=r"hand 37001: card code 60 is outside 0\.\.51"):
        evaluate_many(kind(codes))
