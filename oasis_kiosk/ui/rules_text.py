"""The rules in words, written from the active profile itself, so that they can never
disagree with the rules the terminal plays, in the active language: HELP's sentences, the
paytable's and the bonus's rows, the hands' names (the game, the attract mode and the
operator's recall read them). Pure: no pygame."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from oasis_kiosk import CATEGORIES
from oasis_kiosk.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from oasis_kiosk._core import _PriceList as PriceList
    from oasis_kiosk._core import _ProfileRules as ProfileRules

RANK_TEXT = {"T": "10"}
"""A rank as a card's index prints it, where the code's one letter is not."""
NAMES = {
    "HighCard": N_("High card"),
    "AceKing": N_("Ace-King"),
    "OnePair": N_("One pair"),
    "TwoPair": N_("Two pair"),
    "ThreeOfAKind": N_("Three of a kind"),
    "Straight": N_("Straight"),
    "Flush": N_("Flush"),
    "FullHouse": N_("Full house"),
    "FourOfAKind": N_("Four of a kind"),
    "StraightFlush": N_("Straight flush"),
    "RoyalFlush": N_("Royal flush"),
}


def hand_name(category: str) -> str:
    return _(NAMES[category])


def _fees(fees: list[tuple[int, int]], cash: Callable[[int], str]) -> str:
    return ", ".join(
        ngettext("{count} card for {fee}", "{count} cards for {fee}", count).format(
            count=count, fee=cash(fee)
        )
        for count, fee in fees
    )


def rules_lines(rules: ProfileRules, cash: Callable[[int], str], prices: PriceList) -> list[str]:
    """The rules of the profile as short sentences; fees as the core prices them for a box at
    the ante of `prices` (`Profile.prices`)."""
    return [
        rules["name"],
        *_game_lines(rules, cash),
        *_boxes_lines(rules, cash),
        *_fee_lines(rules, cash, prices),
        *_exchange_lines(rules),
        *_bonus_lines(rules, cash, prices),
        *_purchase_lines(rules, cash, prices),
        *_cover_lines(rules),
    ]


def _game_lines(rules: ProfileRules, cash: Callable[[int], str]) -> list[str]:
    """The table's antes, the play bet, the dealer's qualifier, how a box wins and its cap."""
    table, game = rules["table"], rules["game"]
    qualifier = hand_name(game["qualifier"])
    return [
        _("Ante {low} to {high}. The play bet is {multiple} antes.").format(
            low=cash(table["ante_min"]), high=cash(table["ante_max"]), multiple=game["play_multiple"]
        ),
        (
            _(
                "The dealer qualifies with {hand} or better. If he does not, the ante wins 1:1 and the play bet is returned."
            )
            if game["no_qualify_ante"] == "pays"
            else _(
                "The dealer qualifies with {hand} or better. If he does not, the ante and the play bet are returned."
            )
        ).format(hand=qualifier),
        _("Beat a qualifying dealer: the ante wins 1:1, the play bet by the paytable; a tie returns both."),
        (
            _("Maximum payout per box {amount}, counting the play bet's win.")
            if game["cap"] == "play"
            else _("Maximum payout per box {amount}, counting the ante's and the play bet's wins.")
        ).format(amount=cash(table["max_payout"])),
    ]


def _boxes_lines(rules: ProfileRules, cash: Callable[[int], str]) -> list[str]:
    """How several boxes are played, where a player may take more than one."""
    boxes = rules["boxes"]
    if boxes["max"] <= 1:
        return []
    blind = boxes["max"] - boxes["looked_at"]
    lines = [
        (
            _(
                "Up to {boxes} boxes, the first {looked_at} decided one after another, the others blind (ante and play bet up front, no decision)."
            )
            if blind
            else _("Up to {boxes} boxes, decided one after another.")
        ).format(boxes=boxes["max"], looked_at=boxes["looked_at"])
    ]
    if boxes.get("min_ante_multi"):
        lines.append(
            _("With several boxes the ante is at least {amount}.").format(
                amount=cash(boxes["min_ante_multi"])
            )
        )
    if boxes.get("identical_antes"):
        lines.append(_("Every box has the same ante."))
    if boxes.get("max_exchange_multi"):
        lines.append(
            ngettext(
                "With several boxes an exchange takes at most {count} card.",
                "With several boxes an exchange takes at most {count} cards.",
                boxes["max_exchange_multi"],
            ).format(count=boxes["max_exchange_multi"])
        )
    return lines


def _fee_lines(rules: ProfileRules, cash: Callable[[int], str], prices: PriceList) -> list[str]:
    """The ante the prices are at, and what each exchange costs (cheaper with the bonus,
    where it is)."""
    lines = []
    if prices["exchanges"] or prices["sixth_card"] is not None or prices["redraw"] is not None:
        lines.append(_("Prices at an ante of {ante}:").format(ante=cash(prices["ante"])))
    for number, exchange_fees in enumerate(prices["exchanges"], start=1):
        fees = [(fee["count"], fee["fee"]) for fee in exchange_fees if fee["fee"] is not None]
        which = _("Exchange: {fees}.") if number == 1 else _("Then one more exchange: {fees}.")
        lines.append(which.format(fees=_fees(fees, cash)))
        cheaper = [
            (fee["count"], fee["with_bonus"])
            for fee in exchange_fees
            if fee["with_bonus"] is not None and fee["with_bonus"] != fee["fee"]
        ]
        if rules.get("bonus") and cheaper:
            lines.append(_("With the bonus: {fees}.").format(fees=_fees(cheaper, cash)))
    return lines


def _exchange_lines(rules: ProfileRules) -> list[str]:
    """What an exchange binds the box to."""
    exchange = rules.get("exchange")
    lines = []
    if exchange:
        if exchange.get("must_play_after"):
            lines.append(_("After an exchange the play bet is compulsory."))
        if exchange.get("forfeits_bonus"):
            lines.append(_("Exchanging loses the bonus bet."))
    return lines


def _bonus_lines(rules: ProfileRules, cash: Callable[[int], str], prices: PriceList) -> list[str]:
    """The bonus: a privilege's fee, or the bet's stakes."""
    bonus = rules.get("bonus")
    if not bonus:
        return []
    if bonus["kind"] == "privilege":
        return [
            _("Bonus: a fee of {fee}, always kept; it opens the options below.").format(
                fee=cash(prices["bonus"] or 0)
            )
        ]
    if bonus["stake_max"] != bonus["stake_min"]:
        return [
            _("Bonus bet {low} to {high}, paid whatever the dealer holds; folding loses it.").format(
                low=cash(bonus["stake_min"]), high=cash(bonus["stake_max"])
            )
        ]
    return [
        _("Bonus bet {amount}, paid whatever the dealer holds; folding loses it.").format(
            amount=cash(bonus["stake_min"])
        )
    ]


def _purchase_lines(rules: ProfileRules, cash: Callable[[int], str], prices: PriceList) -> list[str]:
    """What a box may buy (a sixth card, the dealer's redraw) and at what price, and whether
    only a box with the bonus bet may (said inside the sentence)."""
    sixth = (
        N_("Buy a sixth card for {fee}: the best five of six count."),
        N_("Buy a sixth card for {fee} if the box has the bonus bet: the best five of six count."),
    )
    # Buying the game is the same redraw as buying the dealer's card (RULES.md §3.4).
    redraw = (
        N_("If the dealer does not qualify, pay {fee} for him to change his highest card."),
        N_(
            "If the dealer does not qualify, a box with the bonus bet may pay {fee} for him to "
            "change his highest card."
        ),
    )
    lines = []
    for option, (anyway, with_bonus), fee in (
        (rules.get("sixth_card"), sixth, prices["sixth_card"]),
        (rules.get("buy_game"), redraw, prices["redraw"]),
        (rules.get("buy_dealer_card"), redraw, prices["redraw"]),
    ):
        if option and fee is not None:
            lines.append(_(with_bonus if option.get("needs_bonus") else anyway).format(fee=cash(fee)))
    return lines


def _cover_lines(rules: ProfileRules) -> list[str]:
    """What covers a strong hand: the insurance a box may buy, the protection it is given."""
    lines = []
    if rules.get("insurance"):
        lines.append(
            _(
                "With {hand} or better, insure against a dealer who does not qualify: up to the hand's payment."
            ).format(hand=hand_name(rules["insurance"]["min_category"]))
        )
    if rules.get("protection"):
        lines.append(_("A straight flush that is not paid in full is paid half its expected payment."))
    return lines


def paytable_rows(rules: ProfileRules) -> list[tuple[str, str, str]]:
    """(category, its name, its odds), best first."""
    rows = sorted(rules["paytable"].items(), key=lambda row: -CATEGORIES.index(row[0]))
    return [(category, hand_name(category), f"{odds}:1") for category, odds in rows]


def bonus_rows(rules: ProfileRules, cash: Callable[[int], str]) -> list[tuple[str, str, str]]:
    """(category, its name, what the bonus pays), best first; none for a privilege fee."""
    bonus = rules.get("bonus")
    if not bonus or bonus["kind"] == "privilege":
        return []
    rows: list[tuple[str, str, str]] = []
    jackpot = {award["category"]: award["share"] for award in bonus.get("jackpot", [])}
    for category in reversed(CATEGORIES):
        if category in jackpot:
            share = jackpot[category]
            pays = _("JACKPOT") if share == "1" else _("{share} of the jackpot").format(share=share)
            rows.append((category, hand_name(category), pays))
        elif category in bonus["pays"]:
            amount = bonus["pays"][category]
            pays = cash(amount) if bonus["kind"] == "fixed" else f"{amount}:1"
            rows.append((category, hand_name(category), pays))
    return rows
