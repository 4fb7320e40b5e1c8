"""The help screen's text, written from the active profile itself, so that it can never
disagree with the rules the terminal plays. Pure: no pygame."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from oasis_kiosk import CATEGORIES

NAMES = {
    "HighCard": "High card",
    "AceKing": "Ace-King",
    "OnePair": "One pair",
    "TwoPair": "Two pair",
    "ThreeOfAKind": "Three of a kind",
    "Straight": "Straight",
    "Flush": "Flush",
    "FullHouse": "Full house",
    "FourOfAKind": "Four of a kind",
    "StraightFlush": "Straight flush",
    "RoyalFlush": "Royal flush",
}


def _antes(ratio: str) -> str:
    return f"{ratio} ante" + ("" if ratio == "1" else "s")


def rules_lines(rules: dict[str, Any], cash: Callable[[int], str]) -> list[str]:
    """The rules of the profile as short sentences."""
    table, game, boxes = rules["table"], rules["game"], rules["boxes"]
    lines = [
        rules["name"],
        f"Ante {cash(table['ante_min'])} to {cash(table['ante_max'])}. "
        f"The play bet is {game['play_multiple']} antes.",
        f"The dealer qualifies with {NAMES[game['qualifier']]} or better. If he does not, the ante "
        + ("wins 1:1" if game["no_qualify_ante"] == "pays" else "is returned")
        + " and the play bet is returned.",
        "Beat a qualifying dealer: the ante wins 1:1, the play bet by the paytable; a tie returns both.",
        f"Maximum payout per box {cash(table['max_payout'])}, counting "
        + ("the play bet's win." if game["cap"] == "play" else "the ante's and the play bet's wins."),
    ]
    if boxes["max"] > 1:
        blind = boxes["max"] - boxes["looked_at"]
        lines.append(
            f"Up to {boxes['max']} boxes, decided one after another"
            + (f"; {blind} more blind (ante and play bet up front, no decision)." if blind else ".")
        )
    exchange = rules.get("exchange")
    if exchange:
        for number, exchange_round in enumerate(exchange["rounds"], start=1):
            fees = ", ".join(
                f"{count} card(s) for {_antes(fee)}" for count, fee in exchange_round["fees"].items()
            )
            which = "Exchange" if number == 1 else "Then one more exchange"
            lines.append(f"{which}: {fees}.")
        if exchange.get("must_play_after"):
            lines.append("After an exchange the play bet is compulsory.")
        if exchange.get("forfeits_bonus"):
            lines.append("Exchanging loses the bonus bet.")
    bonus = rules.get("bonus")
    if bonus:
        if bonus["kind"] == "privilege":
            lines.append("Bonus: a fee of a tenth of the ante, always kept; it opens the options below.")
        else:
            lines.append(
                f"Bonus bet {cash(bonus['stake_min'])}"
                + (f" to {cash(bonus['stake_max'])}" if bonus["stake_max"] != bonus["stake_min"] else "")
                + ", paid whatever the dealer holds; folding loses it."
            )
    for key, sentence in (
        ("sixth_card", "Buy a sixth card for {fee}: the best five of six count."),
        ("buy_game", "If the dealer does not qualify, buy the game for {fee}: the hands are compared."),
        ("buy_dealer_card", "If the dealer does not qualify, pay {fee} for him to change his highest card."),
    ):
        option = rules.get(key)
        if option:
            needs = " (with the bonus)" if option.get("needs_bonus") else ""
            lines.append(sentence.format(fee=_antes(option["fee"])) + needs)
    if rules.get("insurance"):
        lines.append(
            f"With {NAMES[rules['insurance']['min_category']]} or better, insure against a dealer who "
            "does not qualify: up to the hand's payment."
        )
    if rules.get("protection"):
        lines.append("A straight flush that is not paid in full is paid half its expected payment.")
    return lines


def paytable_rows(rules: dict[str, Any]) -> list[tuple[str, str]]:
    rows = sorted(rules["paytable"].items(), key=lambda row: -CATEGORIES.index(row[0]))
    return [(NAMES[category], f"{odds}:1") for category, odds in rows]


def bonus_rows(rules: dict[str, Any], cash: Callable[[int], str]) -> list[tuple[str, str]]:
    bonus = rules.get("bonus")
    if not bonus or bonus["kind"] == "privilege":
        return []
    rows = []
    jackpot = {award["category"]: award["share"] for award in bonus.get("jackpot", [])}
    for category in reversed(CATEGORIES):
        if category in jackpot:
            share = jackpot[category]
            rows.append((NAMES[category], "JACKPOT" if share == "1" else f"{share} of the jackpot"))
        elif category in bonus["pays"]:
            amount = bonus["pays"][category]
            rows.append((NAMES[category], cash(amount) if bonus["kind"] == "fixed" else f"{amount}:1"))
    return rows
