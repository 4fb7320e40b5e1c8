"""The words both kinds of PAR sheet and report share: the names of hands, outcomes and ways of
betting a box, and nets in antes, percents and money as the sheets write them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from oasis_kiosk import i18n

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules


def hand_name(category: str) -> str:
    """``"ThreeOfAKind"`` -> ``"three of a kind"``, ``"AceKing"`` -> ``"ace-king"``."""
    if category == "AceKing":
        return "ace-king"
    return " ".join(word.lower() for word in re.findall(r"[A-Z][a-z]*", category))


OUTCOME_WORDS = {
    "dealer_not_qualified": "dealer does not qualify",
    "dealer_still_not_qualified": "dealer still does not qualify (card bought)",
    "push": "push",
    "protected": "straight flush protection",
    "folded": "player folds",
    "lost": "dealer wins",
}
"""The sheets' words for the core's outcome names (``won_<category>`` aside)."""


def outcome_name(outcome: str) -> str:
    """A tallied outcome in words: ``"won_Flush"`` -> ``"player wins with flush"``."""
    if outcome.startswith("won_"):
        return f"player wins with {hand_name(outcome.removeprefix('won_'))}"
    return OUTCOME_WORDS.get(outcome, outcome)


def antes(net: int, ante: int) -> str:
    """A net amount in antes: whole where it is whole, else to four places."""
    if net % ante == 0:
        return f"{net // ante:+,d}" if net else "0"
    return f"{net / ante:+.4f}"


def percent(value: float, ci95: float | None = None) -> str:
    """``0.947757`` -> ``94.7757 %``; with a 95 % half-interval, ``94.7757 % ± 0.0500``."""
    if ci95 is None:
        return f"{value * 100:.4f} %"
    return f"{value * 100:.4f} % ± {ci95 * 100:.4f}"


def estimate(value: float, ci95: float) -> str:
    """A return with its 95 % half-interval, or ``(exact)`` where it has none (counted, not
    simulated): ``94.7757 % (exact)``."""
    return percent(value, ci95) if ci95 else f"{percent(value)} (exact)"


def money(amount: int, rules: ProfileRules) -> str:
    """An amount in the table's minor units, ``500`` -> ``5.00 EUR``, exact and in English
    whatever the kiosk's language (``i18n.money_with_currency_code``)."""
    table = rules["table"]
    return i18n.money_with_currency_code(amount, table["currency"], table["minor_units"])


PLAY_WORDS = {
    "without_bonus": "without the bonus bet",
    "for_main": "with the bonus bet, every decision for the main game alone",
    "blind": "a blind box",
}


def play_words(play: str, rules: ProfileRules) -> str:
    """A way of betting and playing a box other than the standard bet (``figures.BoxPlay``)."""
    bonus = rules.get("bonus")
    if play == "without_bonus" and bonus is not None and bonus["kind"] == "privilege":
        return "without the privilege fee"
    return PLAY_WORDS[play]
