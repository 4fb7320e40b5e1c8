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
    from oasis_kiosk._core import Profile
    from oasis_kiosk._core import _PriceList as PriceList
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk._core import _PurchaseRules as PurchaseRules

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


def rules_lines(rules: ProfileRules, cash: Callable[[int], str], profile: Profile, ante: int) -> list[str]:
    """The rules of the profile as short sentences; fees and bonus stakes as the core prices
    and allows them for a box at `ante` (`Profile.prices`, `Profile.bonus_stakes`)."""
    prices = profile.prices(ante)
    return [
        rules["name"],
        *_game_lines(rules, cash),
        *_boxes_lines(rules, cash),
        *_fee_lines(rules, cash, prices),
        *_exchange_lines(rules),
        *_bonus_lines(rules, cash, prices, profile.bonus_stakes(ante)),
        *_purchase_lines(rules, cash, prices),
        *_cover_lines(rules, cash),
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


def _bonus_lines(
    rules: ProfileRules, cash: Callable[[int], str], prices: PriceList, stakes: list[int]
) -> list[str]:
    """The bonus: a privilege's fee, or the bet's stakes (``stakes``: those the core allows,
    least first), the cards it is judged on, what a fold does to it and the hands that win
    the jackpot (RULES.md §3.6)."""
    bonus = rules.get("bonus")
    if not bonus:
        return []
    if bonus["kind"] == "privilege":
        return [
            _("Bonus: a fee of {fee}, always kept; it opens the options below.").format(
                fee=cash(prices["bonus"] or 0)
            )
        ]
    low, high = (stakes[0], stakes[-1]) if stakes else (0, 0)
    lines = [
        _("Bonus bet {low} to {high}, paid whatever the dealer holds.").format(low=cash(low), high=cash(high))
        if high != low
        else _("Bonus bet {amount}, paid whatever the dealer holds.").format(amount=cash(low))
    ]
    exchange = rules.get("exchange")
    changes = rules.get("sixth_card") or (exchange and not exchange["forfeits_bonus"])
    if bonus["judged_on"] == "dealt":
        lines.append(_("The bonus is judged on the five cards as dealt."))
    elif changes:
        lines.append(_("The bonus is judged on the final hand."))
    lines.append(
        _("Folding loses the bonus bet.")
        if bonus["forfeited_by_fold"]
        else _("The bonus bet stands even after a fold.")
    )
    for award in bonus["jackpot"]:
        wins = (
            _(
                "{hand} wins the progressive jackpot instead of its bonus payment; the bonus stake is not returned."
            )
            if award["share"] == "1"
            else _(
                "{hand} wins {share} of the progressive jackpot instead of its bonus payment; the bonus stake is not returned."
            )
        )
        lines.append(wins.format(hand=hand_name(award["category"]), share=award["share"]))
    return lines


def _purchase_lines(rules: ProfileRules, cash: Callable[[int], str], prices: PriceList) -> list[str]:
    """What a box may buy (a sixth card, the dealer's redraw) and at what price, and whether
    only a box with the bonus bet may (said inside the sentence)."""
    sixth = (
        N_("Buy a sixth card for {fee}: the best five of six count."),
        N_("Buy a sixth card for {fee} if the box has the bonus bet: the best five of six count."),
    )
    lines = []
    option, fee = rules.get("sixth_card"), prices["sixth_card"]
    if option and fee is not None:
        lines.append(_(sixth[1] if option.get("needs_bonus") else sixth[0]).format(fee=cash(fee)))
        if prices["exchanges"]:  # one purchase per box (the core's rule)
            lines.append(_("A box either exchanges or buys a sixth card, not both."))
    # Buying the game is the same redraw as buying the dealer's card (RULES.md §3.4).
    for option in (rules.get("buy_game"), rules.get("buy_dealer_card")):
        if option and prices["redraw"] is not None:
            lines.extend(_redraw_lines(rules, option, cash(prices["redraw"])))
    return lines


REDRAW = {
    (False, False): N_("If the dealer does not qualify, pay {fee} for him to change his highest card."),
    (True, False): N_(
        "If the dealer does not qualify, a box with the bonus bet may pay {fee} for him to "
        "change his highest card."
    ),
    (False, True): N_(
        "If the dealer does not qualify, a box with {hand} or better may pay {fee} for him to "
        "change his highest card."
    ),
    (True, True): N_(
        "If the dealer does not qualify, a box with {hand} or better and the bonus bet may pay "
        "{fee} for him to change his highest card."
    ),
}
"""The dealer's redraw offered, by (whether it needs the bonus bet, whether it needs a hand)."""


def _redraw_lines(rules: ProfileRules, option: PurchaseRules, fee: str) -> list[str]:
    """Who may buy the dealer's redraw and for what (RULES.md §3.2, §3.4), and what it leaves
    when he still does not qualify: the ante and the play bet back, the fee lost, and where a
    dealer who does not qualify pays the ante 1:1, that win given up."""
    least = option.get("min_category")
    offer = _(REDRAW[bool(option.get("needs_bonus")), bool(least)])
    outcome = (
        _(
            "If he then qualifies, the hands are compared; if he still does not qualify, the ante and the play bet are returned and the fee is lost: buying gives up the ante's 1:1 win."
        )
        if rules["game"]["no_qualify_ante"] == "pays"
        else _(
            "If he then qualifies, the hands are compared; if he still does not qualify, the ante and the play bet are returned and the fee is lost."
        )
    )
    return [offer.format(fee=fee, hand=hand_name(least) if least else ""), outcome]


def _cover_lines(rules: ProfileRules, cash: Callable[[int], str]) -> list[str]:
    """What covers a strong hand: the insurance a box may buy, the protection it is given;
    both stop at the table's maximum payout (RULES.md §3.5)."""
    lines = []
    cap = cash(rules["table"]["max_payout"])
    if rules.get("insurance"):
        lines.append(
            _(
                "With {hand} or better, insure against a dealer who does not qualify: from one ante up to the hand's payment, never more than {amount}."
            ).format(hand=hand_name(rules["insurance"]["min_category"]), amount=cap)
        )
    if rules.get("protection"):
        hands = ", ".join(hand_name(category) for category in rules["protection"]["categories"])
        lines.append(
            _(
                "Protected hands: {hands}. One that would not be paid in full (the dealer does not qualify, ties or holds a higher hand) keeps its ante and play bet and wins half of ante + play bet × odds, at most {amount}."
            ).format(hands=hands, amount=cap)
        )
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
