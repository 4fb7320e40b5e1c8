"""A round's hands as they went: each hand as dealt and after every action that changed
it, replayed from the round's record. The operator's recall, the console's and the player's
history of the last rounds all read it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from oasis_kiosk._core import OasisError, Profile, Round
from oasis_kiosk.store.db import Store

if TYPE_CHECKING:
    from oasis_kiosk._core import _RoundRecord as RoundRecord
    from oasis_kiosk.store.db.rounds import StoredRound


DECK_WITHHELD = {"withheld": "until the round is settled"}
DEALER_PURCHASES = {"buy_dealer_card", "buy_game"}
"""The boxes' purchases of the dealer's redraw (RULES.md §3.4): his new card is theirs."""


def disclosed(round_: StoredRound) -> dict[str, Any]:
    """A round as it is printed outside the kiosk: one still in play without its deck, whose
    seed gives the dealer's hole cards and every card still to come (RULES.md §6: nothing
    lets the outcome be known before the reveal). A settled round is printed whole."""
    shown: dict[str, Any] = dict(round_)
    if round_["state"] == "open":
        shown["record"] = {**round_["record"], "deck": DECK_WITHHELD}
    return shown


@dataclass(frozen=True)
class Step:
    """A hand's cards as dealt, or after an action of the round changed them."""

    action: str
    """``dealt``, the round's action (``exchange``, ``buy_dealer_card``...), or ``settled``:
    the hand the settlement judged, where it is other cards."""
    cards: list[str | None]
    """None: a dealer's card never turned."""
    positions: tuple[int, ...] = ()
    """The cards an exchange took, 0-based."""


@dataclass(frozen=True)
class RecalledHand:
    box: int | None
    """None: the dealer's."""
    steps: list[Step]


def replayed_hands(profile: Profile, round_: StoredRound) -> list[RecalledHand]:
    """The dealer's hand and each box's, as dealt and after each action that changed it, by
    replaying the round's record one action further at a time. A card turned or a box
    looked at later shows where it was dealt: a step is a card taken or replaced."""
    record: RoundRecord = round_["record"]
    actions = record["actions"]
    seen: list[list[list[str | None]]] = []  # each hand's cards after none, one, two... actions
    for done in range(len(actions) + 1):
        replayed = Round.replay(profile, {**record, "actions": actions[:done]})
        boxes: list[list[str | None]] = [
            [*(replayed.box_cards(box) or [])] for box in range(replayed.box_count)
        ]
        seen.append([replayed.dealer_cards, *boxes])
    settled = settled_cards(round_)
    hands = []
    for hand, dealt in enumerate(seen[0]):
        steps = [Step("dealt", dealt)]
        bought = None  # the dealer draws after every box decided: of the purchase, not the last decision
        for action, cards in zip(actions, (state[hand] for state in seen[1:]), strict=True):
            last = steps[-1]
            if action["action"] in DEALER_PURCHASES:
                bought = action["action"]
            if _replaced(last.cards, cards):
                positions = tuple(action["positions"]) if action["action"] == "exchange" else ()
                name = bought if hand == 0 and bought else action["action"]
                steps.append(Step(name, cards, positions))
            elif last.cards:
                turned = [after or before for before, after in zip(last.cards, cards, strict=True)]
                steps[-1] = replace(last, cards=turned)
            else:
                steps[-1] = replace(last, cards=cards)
        if settled and settled[hand] != steps[-1].cards:
            steps.append(Step("settled", settled[hand]))
        hands.append(RecalledHand(hand - 1 if hand else None, steps))
    return hands


def recalled_hands(store: Store, round_: StoredRound) -> list[RecalledHand]:
    """A round's hands through its play (``replayed_hands``), under the rules it was played
    by; a record that no longer replays (the audit says why) shows its hands as settled."""
    try:
        return replayed_hands(store.profile(round_["profile"]), round_)
    except OasisError:
        hands = enumerate(settled_cards(round_))
        return [RecalledHand(hand - 1 if hand else None, [Step("settled", cards)]) for hand, cards in hands]


def settled_cards(round_: StoredRound) -> list[list[str | None]]:
    """The dealer's cards and each box's as the settlement judged them; none before it."""
    if round_["state"] != "settled" or round_["settlement"]["void"]:
        return []
    settlement = round_["settlement"]
    judged = [settlement["dealer_cards"], *(box["cards"] for box in settlement["boxes"])]
    return [list(cards) for cards in judged]  # copied: a list[str] is no list[str | None] to mypy


def _replaced(before: list[str | None], after: list[str | None]) -> bool:
    """Whether a card of a hand already seen was taken, added or replaced."""
    if not before:
        return False
    return len(after) != len(before) or any(
        was is not None and was != now for was, now in zip(before, after, strict=True)
    )
