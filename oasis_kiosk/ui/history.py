"""The player's history of the last rounds, as sentences for HELP's last pages: each
round's cards as dealt, every exchange or draw, the decisions and the result, and the
dealer's hand, from the rounds the books keep. Pure: no pygame."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from oasis_kiosk.i18n import _, local_time
from oasis_kiosk.machine.intents import ACTION_INTENTS, intent_name
from oasis_kiosk.machine.recall import RecalledHand
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui.rules_text import RANK_TEXT
from oasis_kiosk.ui.view import OUTCOMES, box_result, dealer_verdict, jackpot_awards

if TYPE_CHECKING:
    from oasis_kiosk._core import _BoxSettlement as BoxSettlement
    from oasis_kiosk._core import _RecordedAction as RecordedAction
    from oasis_kiosk.store.db.rounds import SettledRound, VoidedRound

HISTORY_ROUNDS = 10
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_text(card: str | None) -> str:
    """A card as the player reads it (``A♠``, ``10♥``); a card never turned as a dash."""
    if card is None:
        return "–"
    rank = card[:-1]
    return RANK_TEXT.get(rank, rank) + SUITS[card[-1]]


def _cards(cards: Sequence[str | None]) -> str:
    return " ".join(card_text(card) for card in cards)


def history_lines(terminal: Terminal, cash: Callable[[int], str], count: int = HISTORY_ROUNDS) -> list[str]:
    """A title and a sentence for each of the last ``count`` settled rounds, newest first."""
    settled = [round_ for round_ in terminal.last_rounds(count + 1) if round_["state"] != "open"][-count:]
    return [_("LAST ROUNDS"), *(_round_line(terminal, round_, cash) for round_ in reversed(settled))]


def _round_line(terminal: Terminal, round_: SettledRound | VoidedRound, cash: Callable[[int], str]) -> str:
    head = _("Round {number}, {time}").format(number=round_["id"], time=local_time(round_["started_at"]))
    if round_["state"] == "voided" or round_["settlement"]["void"]:
        void = _(OUTCOMES["void"])
        return f"{head}: {void}"
    settlement = round_["settlement"]
    hands = terminal.recalled_hands(round_)
    awards = jackpot_awards(settlement)
    boxes = [
        _box_story(hand, round_["record"]["actions"], box, awards.get(box["box"], 0), cash)
        for hand, box in zip(hands[1:], settlement["boxes"], strict=True)
    ]
    # The hand he revealed, then his redraw where a box bought it: the verdict names both.
    shown = [_cards(step.cards) for step in hands[0].steps] if settlement.get("dealer_revealed") else []
    dealer = _("Dealer: {cards}, {verdict}").format(
        cards=" → ".join(shown or [_cards(settlement["dealer_cards"])]),
        verdict=dealer_verdict(settlement),
    )
    return f"{head}: {'; '.join(boxes)}. {dealer}."


def _box_story(
    hand: RecalledHand,
    actions: list[RecordedAction],
    settled: BoxSettlement,
    award: int,
    cash: Callable[[int], str],
) -> str:
    """``Box 1: dealt …, EXCHANGE 5: …, PLAY → Three of a kind: won, +€70.00``."""
    changed = list(hand.steps[1:])  # the cards after each action that changed them, in order
    told = [_("dealt {cards}").format(cards=_cards(hand.steps[0].cards))]
    for action in (a for a in actions if a.get("box") == settled["box"]):
        said = intent_name(ACTION_INTENTS[action["action"]])
        if action["action"] == "exchange" and action["positions"]:
            said = f"{said} {', '.join(str(p + 1) for p in action['positions'])}"
        if action["action"] == "insure" and action["amount"]:
            said = f"{said} {cash(action['amount'])}"
        if changed and changed[0].action == action["action"]:
            said = f"{said}: {_cards(changed.pop(0).cards)}"
        told.append(said)
    story = ", ".join(told)
    return _("Box {number}: {story} → {result}").format(
        number=settled["box"] + 1, story=story, result=box_result(settled, award, cash)
    )
