"""Oasis Stud Poker kiosk terminal.

The game's rules, the hand evaluator and the shuffle live in the Rust core
(``oasis_kiosk._core``); this package re-exports its public names and loads the shipped
rule profiles (``oasis_kiosk.rules``). Every error the kiosk raises for bad input, a refused
action or a failed device derives from ``OasisError``.
"""

import os

# pygame greets on stdout when first imported; the kiosk's output is for the operator.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from oasis_kiosk._core import (
    CATEGORIES,
    Advice,
    AnalysisError,
    BetError,
    CardError,
    Choice,
    EntropyError,
    HandValue,
    IllegalAction,
    OasisError,
    Profile,
    ProfileError,
    RecordError,
    Round,
    Shoe,
    ShoeError,
    SimulationError,
    card_code,
    card_name,
    evaluate,
    evaluate_many,
    exact_analysis,
    shuffled_deck,
    side_bet_bound,
    simulate,
)
from oasis_kiosk.rules import load_profile, profile_names

__all__ = [
    "CATEGORIES",
    "Advice",
    "AnalysisError",
    "BetError",
    "CardError",
    "Choice",
    "EntropyError",
    "HandValue",
    "IllegalAction",
    "OasisError",
    "Profile",
    "ProfileError",
    "RecordError",
    "Round",
    "Shoe",
    "ShoeError",
    "SimulationError",
    "card_code",
    "card_name",
    "evaluate",
    "evaluate_many",
    "exact_analysis",
    "load_profile",
    "profile_names",
    "shuffled_deck",
    "side_bet_bound",
    "simulate",
]
