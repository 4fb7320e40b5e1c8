"""The sentence under the table that says what the player can do now, and what else there is
to say beside it (the linked jackpot offline, a hint, a refused press or a notice): read off
the terminal as plain words, for the view (``view.snapshot``) and the tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from oasis_kiosk import Round, i18n
from oasis_kiosk.i18n import _, ngettext
from oasis_kiosk.machine.advisor import Advisor
from oasis_kiosk.machine.betting import least_on_boxes
from oasis_kiosk.machine.cash_out_kinds import payout_device
from oasis_kiosk.machine.intents import ACTION_INTENTS, Intent, intent_name
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.outcome import bonus_category
from oasis_kiosk.machine.terminal import Response, Terminal
from oasis_kiosk.machine.tilts import registered
from oasis_kiosk.ui.rules_text import hand_name

if TYPE_CHECKING:
    from oasis_kiosk._core import _LegalActions as LegalActions


def message_line(
    terminal: Terminal, live: set[Intent], cash: Callable[[int], str], advised: str, message: Response | None
) -> str:
    """The prompt, then what else there is to say: the linked jackpot offline, a hint, a
    refused press or a notice; each said once (a DEAL refused for the credit is refused for
    the reason the prompt already gives)."""
    offline = terminal.link_offline()
    said: list[str] = []
    for part in (
        prompt(terminal, live, cash),
        offline and sentence(offline.text(cash, intent_name)),
        advised,
        message and sentence(message.text(cash, intent_name)),
    ):
        if part and not any(part.rstrip(".") in earlier for earlier in said):
            said.append(part)
    return "   ".join(said)


def sentence(words: str) -> str:
    """A response's words (``handpay of €5.00 paid``) as a sentence of the line: its first
    letter capital, a full stop after it."""
    words = words[:1].upper() + words[1:]
    return words if words.endswith((".", "!", "?", ":")) else words + "."


def exchange_price(terminal: Terminal) -> int | None:
    """What EXCHANGE costs for the cards selected now; None when they may not be exchanged
    (none selected, or a number the profile does not exchange)."""
    round_ = terminal.round
    prices = round_.legal_actions().get("exchange") if round_ is not None else None
    if not prices or not terminal.selected:
        return None
    price = prices.get(len(terminal.selected))
    return int(price) if price is not None else None


def hint(terminal: Terminal, cash: Callable[[int], str], advisor: Advisor | None) -> str:
    """The strategy's best decision, given an ``advisor`` (only where the operator turned
    hints on: off by default, RULES.md §6, staff may not advise the player)."""
    round_ = terminal.round
    if advisor is None or round_ is None or terminal.mode is not Mode.IN_ROUND:
        return ""
    advice = advisor.advice(round_)
    if advice is None:
        return _("Hint: thinking…")
    best = advice.best
    if best.action == "exchange":
        decision = _("EXCHANGE cards {cards}").format(
            cards=", ".join(str(p + 1) for p in best.positions or ())
        )
    elif best.action == "insure":
        decision = _("INSURE {amount}").format(amount=cash(best.amount or 0))
    else:
        decision = intent_name(ACTION_INTENTS[best.action])
    return _("Hint: {decision}").format(decision=decision)


def _redraw_offer(box: int, legal: LegalActions, cash: Callable[[int], str]) -> str:
    """The offer of the dealer's redraw to the box that decides now (RULES.md §3.4)."""
    offers = []
    if "buy_dealer_card" in legal:
        offers.append(_("BUY CARD for {amount}").format(amount=cash(legal["buy_dealer_card"])))
    if "buy_game" in legal:
        offers.append(_("BUY GAME for {amount}").format(amount=cash(legal["buy_game"])))
    return _("Box {number}: the dealer does not qualify: {offers}, or DECLINE.").format(
        number=box + 1, offers=_(" or ").join(offers)
    )


def _between_rounds(terminal: Terminal, live: set[Intent], cash: Callable[[int], str]) -> str:
    """The prompt with no round on the table: what DEAL bets, or what keeps it dark; why
    BET − is dark at an ante above the one box's least; and how a box is bet alone."""
    parts = (_deal_prompt(terminal, live, cash), _least_on_boxes(terminal, cash), _bet_alone(terminal, live))
    return " ".join(part for part in parts if part)


def _bet_alone(terminal: Terminal, live: set[Intent]) -> str:
    """How a box is bet alone, where the table lets the antes differ (RULES.md §3.7)."""
    if Intent.CARD not in live:
        return ""
    if terminal.bet_box is not None:
        return _("BET steps box {box} alone; card {box} again: every box.").format(box=terminal.bet_box + 1)
    return _("Touch a box or press its card 1 to {boxes} to bet it alone.").format(boxes=terminal.boxes)


def _least_on_boxes(terminal: Terminal, cash: Callable[[int], str]) -> str:
    """The least ante on the boxes chosen, while the ante is at it and one box's is lower:
    BET − is dark for it (and BOXES' own notice, the same words, is not said again)."""
    betting, boxes = terminal.betting, terminal.boxes
    least = betting.antes_for(boxes)[0]
    if terminal.stepped_ante != least or least == betting.antes_for(1)[0]:
        return ""
    reason = sentence(least_on_boxes(boxes, least).text(cash)).removesuffix(".")
    return _("{reason}: {button} goes no lower.").format(reason=reason, button=intent_name(Intent.BET_DOWN))


def _deal_prompt(terminal: Terminal, live: set[Intent], cash: Callable[[int], str]) -> str:
    """What DEAL bets, or what keeps it dark."""
    if Intent.DEAL in live:
        placed = terminal.placed_at_deal()
        return _("Press DEAL to bet {amount} ({play} more for PLAY), or BET to change the ante.").format(
            amount=cash(placed), play=cash(terminal.upfront() - placed)
        )
    if terminal.credits > 0:
        reason = sentence(terminal.why_not(Intent.DEAL).text(cash, intent_name)).removesuffix(".")
        short = terminal.least_to_deal() - terminal.credits
        if short > 0 and terminal.upfront() > terminal.least_to_deal():  # nor is the least bet
            return _("{reason}: insert {more} more, or at least {least} more for the least bet.").format(
                reason=reason, more=cash(terminal.upfront() - terminal.credits), least=cash(short)
            )
        if short > 0:
            return _("{reason}: insert at least {more} more to play.").format(reason=reason, more=cash(short))
        return _("{reason}: lower the bet or insert money.").format(reason=reason)
    return _("Insert coins or notes to play.")


def _exchange_choice(terminal: Terminal, legal: LegalActions, cash: Callable[[int], str]) -> str:
    """EXCHANGE among the choices: its price once cards are selected, else how many may be."""
    price = exchange_price(terminal)
    if price is not None:
        return ngettext(
            "EXCHANGE {count} card for {amount}",
            "EXCHANGE {count} cards for {amount}",
            len(terminal.selected),
        ).format(count=len(terminal.selected), amount=cash(price))
    counts = [str(count) for count in sorted(legal["exchange"])]
    listed_counts = (
        counts[-1]
        if len(counts) == 1
        else _("{choices} or {last}").format(choices=", ".join(counts[:-1]), last=counts[-1])
    )
    return ngettext(
        "select {counts} card to EXCHANGE", "select {counts} cards to EXCHANGE", int(counts[-1])
    ).format(counts=listed_counts)


def prompt(terminal: Terminal, live: set[Intent], cash: Callable[[int], str]) -> str:
    """The one sentence that says what the player can do now (SCREEN.md)."""
    round_ = terminal.round
    mode = terminal.mode
    if mode is Mode.OPERATOR:
        return _("Operator menu: the game stands still until the key is turned back.")
    if mode is Mode.PAYING:
        words = payout_device(terminal.config).words
        return _(words.to_come_prompt).format(coins=terminal.payout_items)
    if mode is Mode.HANDPAY and terminal.handpay is not None:
        return _("Handpay of {amount}: please wait for the attendant.").format(amount=cash(terminal.handpay))
    if mode is Mode.JACKPOT_PENDING:
        return _("Jackpot pending: the award is being confirmed")
    if mode.calls_attendant:
        kind, detail = next(iter(terminal.tilts.items()))
        return _("Out of order: {reason} Please call the attendant.").format(reason=tilt_reason(kind, detail))
    if round_ is None:
        return _between_rounds(terminal, live, cash)
    legal = round_.legal_actions()
    if round_.phase == "insurance":
        return _(
            "INSURE {amount} (BET changes it) against a dealer who does not qualify, or DECLINE."
        ).format(amount=cash(terminal.insurance_amount or 0))
    if round_.phase == "purchase":
        return _redraw_offer(round_.current_box or 0, legal, cash)
    choices = []
    if "play" in legal:
        choices.append(_("PLAY for {amount}").format(amount=cash(legal["play"])))
    if "exchange" in legal:
        choices.append(_exchange_choice(terminal, legal, cash))
    if "buy_sixth_card" in legal:
        choices.append(_("buy a SIXTH CARD for {amount}").format(amount=cash(legal["buy_sixth_card"])))
    if "fold" in legal:
        choices.append(_("FOLD"))
    listed = (
        choices[-1]
        if len(choices) == 1
        else _("{choices} or {last}").format(choices=", ".join(choices[:-1]), last=choices[-1])
    )
    said = _("Box {number}: {choices}.").format(number=(round_.current_box or 0) + 1, choices=listed)
    dark = _dark_purchase(terminal, cash)
    if dark:
        said = f"{said} {sentence(dark)}"
    return " ".join((said, *_what_a_choice_gives_up(terminal, round_, legal)))


def _dark_purchase(terminal: Terminal, cash: Callable[[int], str]) -> str:
    """Why EXCHANGE or SIXTH CARD, which the rules offer the box, is dark: the credit the
    play bets to come need, or the one purchase a box makes; nothing when neither is."""
    credit = cash(terminal.credits)
    count = terminal.selection_kept_for_play()
    if count:
        return ngettext(
            "no EXCHANGE of {count} card: the credit {credit} must keep the play bets to come",
            "no EXCHANGE of {count} cards: the credit {credit} must keep the play bets to come",
            count,
        ).format(count=count, credit=credit)
    exchange, sixth = terminal.exchange_kept_for_play(), terminal.sixth_kept_for_play()
    if exchange and sixth:
        return _("no EXCHANGE or SIXTH CARD: the credit {credit} must keep the play bets to come").format(
            credit=credit
        )
    if exchange:
        return _("no EXCHANGE: the credit {credit} must keep the play bets to come").format(credit=credit)
    if sixth:
        return _("no SIXTH CARD: the credit {credit} must keep the play bets to come").format(credit=credit)
    bought = terminal.purchase_made()
    if bought is Intent.SIXTH:
        return _("no EXCHANGE: one purchase per box, and this box bought a SIXTH CARD")
    if bought is Intent.EXCHANGE:
        return _("no SIXTH CARD: one purchase per box, and this box exchanged")
    return ""


def _what_a_choice_gives_up(terminal: Terminal, round_: Round, legal: LegalActions) -> list[str]:
    """Said beside the choices, before a press binds anything: a bonus the hand wins, which
    FOLD gives up; while cards are selected, what EXCHANGE binds the box to or takes."""
    box = round_.current_box or 0
    stakes = round_.stakes(box)
    bonus = terminal.rules.get("bonus")
    said = []
    hand = round_.hand(box)
    if "fold" in legal and bonus and bonus["forfeited_by_fold"] and stakes and stakes["bonus"] and hand:
        category = bonus_category(round_.profile, round_.record(), box, hand.category)
        if category in bonus["pays"] or any(award["category"] == category for award in bonus["jackpot"]):
            said.append(_("{hand} wins the bonus: FOLD gives it up.").format(hand=hand_name(category)))
    exchange = terminal.rules.get("exchange")
    if exchange is None or exchange_price(terminal) is None:
        return said
    if exchange["must_play_after"]:
        said.append(_("After an exchange the play bet is compulsory."))
    if exchange["forfeits_bonus"] and stakes is not None and stakes["bonus"]:
        said.append(_("The bonus bet is lost by exchanging."))
    return said


def tilt_reason(kind: str, detail: str) -> str:
    """What the player reads of a tilt: its meaning in the player's language, and on an
    English screen the terminal's detail where it says more (the detail is written in
    English, for the attendant and the log, who read it in the event log)."""
    tilt = registered(kind)
    if tilt is None:  # a kind from an older release's state
        return detail if i18n.active() == "en" else _("An internal fault stopped the game.")
    meaning = tilt.label
    if i18n.active() != "en" or not tilt.detail_shown:
        return _(meaning)
    if detail.lower().rstrip(".") == meaning.lower().rstrip("."):
        return meaning
    return f"{meaning} ({detail})"
