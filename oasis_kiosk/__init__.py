"""Oasis Stud Poker kiosk terminal.

The game's rules, the hand evaluator and the shuffle live in the Rust core
(``oasis_kiosk._core``); this package re-exports its public names.
"""

from oasis_kiosk._core import (
    CATEGORIES,
    CardError,
    EntropyError,
    HandValue,
    Shoe,
    ShoeError,
    card_code,
    card_name,
    evaluate,
    evaluate_many,
    shuffled_deck,
)

__all__ = [
    "CATEGORIES",
    "CardError",
    "EntropyError",
    "HandValue",
    "Shoe",
    "ShoeError",
    "card_code",
    "card_name",
    "evaluate",
    "evaluate_many",
    "shuffled_deck",
]
