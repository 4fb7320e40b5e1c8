"""The recall page: a round of the last 25, each hand's cards as dealt and after each
exchange or draw, what each came to, the round's actions and its money."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import pygame

from oasis_kiosk import i18n
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.i18n import N_, _
from oasis_kiosk.machine.intents import ACTION_INTENTS, BUTTON_LABELS
from oasis_kiosk.machine.recall import RecalledHand, Step
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import cards, render
from oasis_kiosk.ui.rules_text import hand_name
from oasis_kiosk.ui.scenes.operator.page import OperatorPage
from oasis_kiosk.ui.view import box_result, cash_for, jackpot_awards

if TYPE_CHECKING:
    from oasis_kiosk._core import _RecordedAction as RecordedAction
    from oasis_kiosk.store.db.rounds import StoredRound

ROUND_STATES = {"open": N_("open"), "settled": N_("settled"), "voided": N_("voided")}
CARDS_X = 7
"""Where the cards begin, in text sizes from the left: the hands' names go before them."""
RESULT_LINES = 3
"""The lines a hand's result may take beside its last cards (its hand, outcome and net)."""


class RecallPage(OperatorPage):
    """The recall page: the round shown (the scroll), its boxes' page, and its drawing."""

    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        super().__init__(terminal, cabinet, screen)
        self.box_page = 0
        """Which of the recalled round's pages of boxes is shown."""

    def _draw_recall(self, top: int) -> None:
        """A round of the last 25 (PLAY: older, FOLD: newer): the dealer's hand and each
        box's, as dealt and after each exchange or draw, the boxes paged (EXCHANGE) where they
        do not fit together; under them the actions and the money."""
        rounds = self.menu.recall(25)
        if not rounds:
            self._lines(top, [(_("No rounds yet."), "")])
            return
        self.scroll = min(self.scroll, len(rounds) - 1)
        shown = rounds[-1 - self.scroll]
        cash = cash_for(self.terminal)
        size, width, height = self.size, self.screen.get_width(), self.screen.get_height()
        header = _("Round {number} ({count} kept; PLAY: older, FOLD: newer)   {when}   {state}").format(
            number=shown["id"],
            count=len(rounds),
            when=i18n.local_time(shown["started_at"]),
            state=_(ROUND_STATES[shown["state"]]),
        )
        self.screen.blit(self._fitted(header, render.GOLD, width - size * 2), (size, top))
        footer = self.foot - size * 3 - self.line_height  # the actions, then the money and the boxes' pages
        hands = self.menu.recalled_hands(shown)
        said = _hands_said(shown, len(hands), cash)
        if hands:
            dealer, *boxes = hands
            cards_top = top + size * 2 + self.line_height  # under the positions' numbers
            pages, card_w, card_h = _box_pages(
                len(dealer.steps),
                [len(box.steps) for box in boxes],
                footer - cards_top,
                size,
                self.floor,
                width,
                height,
            )
            self.box_page %= len(pages)
            self._draw_positions(top + size * 2, card_w)
            steps = range(len(dealer.steps))
            y = self._draw_hand(cards_top, _("Dealer"), dealer, said[0], (card_w, card_h), steps)
            for box, steps in pages[self.box_page]:
                name = _("Box {number}").format(number=box + 1)
                y = self._draw_hand(y, name, boxes[box], said[box + 1], (card_w, card_h), steps)
            if len(pages) > 1:
                self._draw_box_pages(pages, footer + self.line_height)
        actions = _("Actions: {actions}").format(actions=_actions_said(shown["record"]["actions"], cash))
        self.screen.blit(self._shortened(actions, render.WHITE, width - size * 2), (size, footer))
        money = self._shortened(_money_said(shown, cash), render.WHITE, width // 2 - size)
        self.screen.blit(money, (size, footer + self.line_height + (size * 2 - money.get_height()) // 2))

    def _draw_positions(self, y: int, card_w: int) -> None:
        """The card positions 1 to 5 over the columns of cards, as the actions name them."""
        size = self.size
        for position in range(5):
            number = render.text(str(position + 1), size, render.DIM)
            x = CARDS_X * size + position * (card_w + size // 3) + (card_w - number.get_width()) // 2
            self.screen.blit(number, (x, y))

    def _draw_hand(
        self, y: int, name: str, hand: RecalledHand, said: str, card_size: tuple[int, int], steps: range
    ) -> int:
        """A hand's ``steps`` one under another (its name beside the first), the cards a
        step changed framed, what made each step beside it, and under the last what the hand
        came to; the y under it."""
        size, width = self.size, self.screen.get_width()
        card_w, card_h = card_size
        cards_x = size * CARDS_X
        for number in steps:
            step = hand.steps[number]
            middle = y + card_h // 2
            if number == steps.start:
                label = self._fitted(name, render.WHITE, cards_x - size * 2, bold=True)
                self.screen.blit(label, (size, middle - label.get_height() // 2))
            before = hand.steps[number - 1].cards if number else step.cards
            for position, card in enumerate(step.cards):
                x = cards_x + position * (card_w + size // 3)
                self.screen.blit(cards.card(card, card_w, card_h), (x, y))
                if position >= len(before) or before[position] != card:
                    pygame.draw.rect(
                        self.screen, render.GOLD, (x - 2, y - 2, card_w + 4, card_h + 4), width=2
                    )
            x = cards_x + len(step.cards) * (card_w + size // 3) + size
            shown = [self._shortened(_step_said(step), render.DIM, width - x - size)]
            if number == len(hand.steps) - 1 and said:  # what the hand came to, its amount whole
                shown += self._wrapped(said, render.WHITE, width - x - size, RESULT_LINES)
            line_y = middle - sum(piece.get_height() for piece in shown) // 2
            for piece in shown:
                self.screen.blit(piece, (x, line_y))
                line_y += piece.get_height()
            y += card_h + size // 2
        return y

    def _draw_box_pages(self, pages: list[list[Part]], y: int) -> None:
        """The button to the next page of boxes (as EXCHANGE), saying which is shown and
        what the next holds."""
        width = self.screen.get_width()
        area = pygame.Rect(width // 2 + self.size, y, width // 2 - self.size * 2, self.size * 2)
        label = _("Page {page} of {pages} ({next})").format(
            page=self.box_page + 1, pages=len(pages), next=_next_page_said(pages, self.box_page)
        )
        render.button(self.screen, area, label, True, self.size)
        self.hotspots.append((area, "boxes"))


Part = tuple[int, range]
"""A box on a page of the recall, and which of its steps are shown there."""


def _next_page_said(pages: list[list[Part]], page: int) -> str:
    """What EXCHANGE shows after ``page``: the box going on there, the boxes there, or from
    the last page the first again."""
    if page == len(pages) - 1:
        return _("EXCHANGE: back to page 1")
    following = pages[page + 1]
    (first, steps), last = following[0], following[-1][0]
    if first == last:
        box = _("EXCHANGE: box {box} continued") if steps.start else _("EXCHANGE: box {box}")
        return box.format(box=first + 1)
    return _("EXCHANGE: boxes {first} to {last}").format(first=first + 1, last=last + 1)


def _box_pages(
    dealer_steps: int, box_steps: list[int], room: int, size: int, floor: int, width: int, height: int
) -> tuple[list[list[Part]], int, int]:
    """The boxes on each page of the recall (and of each, the steps), and the cards' width
    and height to fit ``room``: as large as the screen allows, smaller (down to a size still
    read at a glance, and never so small that their ranks fall under the text ``floor``) to
    fit every box on one page, and where they can, the dealer's hand and the longest box's
    together; then as many boxes on a page as fit under the dealer's, a box too long for a
    page of its own going on over the next."""
    gap = size // 2
    readable = cards.card_height_for(floor)
    largest = max(min(width // 18, height // 11) * 7 // 5, readable)
    smallest = max(min(largest, size * 4), readable)
    every = dealer_steps + sum(box_steps)
    longest = dealer_steps + max(box_steps, default=0)
    card_h = max(min(largest, max(room // every - gap, smallest), room // longest - gap), readable)
    rows = max(room // (card_h + gap) - dealer_steps, 1)
    pages: list[list[Part]] = [[]]
    used = 0
    for box, steps in enumerate(box_steps):
        if pages[-1] and used + steps > rows:
            pages.append([])
            used = 0
        first = 0
        while True:
            shown = min(steps - first, rows - used)
            pages[-1].append((box, range(first, first + shown)))
            used, first = used + shown, first + shown
            if first >= steps:
                break
            pages.append([])
            used = 0
    return pages, card_h * 5 // 7, card_h


def _hands_said(round_: StoredRound, hands: int, cash: Callable[[int], str]) -> list[str]:
    """What the dealer's hand and each box's came to, as settled (a box's hand, outcome and
    net, its jackpot award included, in the words the table said it: ``view.box_result``);
    nothing before."""
    if round_["state"] != "settled" or round_["settlement"]["void"]:
        return [""] * hands
    settlement = round_["settlement"]
    awards = jackpot_awards(settlement)
    boxes = [box_result(box, awards.get(box["box"], 0), cash) for box in settlement["boxes"]]
    return [hand_name(settlement["dealer_hand"]["category"]), *boxes]


def _money_said(round_: StoredRound, cash: Callable[[int], str]) -> str:
    if round_["state"] == "open":
        return _("Open round: it resumes at its decision.")
    if round_["state"] == "voided" or round_["settlement"]["void"]:
        return _("Voided: {reason}").format(reason=round_["settlement"]["void"])
    settlement = round_["settlement"]
    paid = settlement["paid"] + settlement.get("jackpot_awards", 0)
    return _("Collected {collected}, paid {paid}").format(
        collected=cash(settlement["collected"]), paid=cash(paid)
    )


def _step_said(step: Step) -> str:
    """What made a hand's step: the deal, an exchange (its cards 1 to 5), a draw bought, or
    the hand the settlement judged."""
    if step.action == "exchange":
        return _("Cards {positions} exchanged").format(positions=_positions(step.positions))
    said = {"dealt": N_("As dealt"), "settled": N_("Final hand")}.get(step.action)
    return _(said) if said else _action_name(step.action)


def _actions_said(actions: list[RecordedAction], cash: Callable[[int], str]) -> str:
    """A round's actions from its record, box by box: the button, and the cards exchanged
    (1 to 5) or the amount insured."""
    by_box: dict[int, list[str]] = {}
    for action in actions:
        said = _action_name(action["action"])
        if action["action"] == "exchange" and action["positions"]:
            said += " " + _positions(action["positions"])
        if action["action"] == "insure" and action["amount"]:
            said += " " + cash(action["amount"])
        by_box.setdefault(action["box"], []).append(said)
    boxes = [
        _("Box {number}: {actions}").format(number=box + 1, actions=", ".join(said))
        for box, said in by_box.items()
    ]
    return "; ".join(boxes) or "-"


def _action_name(action: str) -> str:
    """A round's action by the name of the button that takes it."""
    label = BUTTON_LABELS[ACTION_INTENTS[action]] if action in ACTION_INTENTS else None
    return _(label) if label else action.replace("_", " ")


def _positions(positions: Iterable[int]) -> str:
    """Card positions as the player counts them, 1 to 5 from the left."""
    return ", ".join(str(position + 1) for position in positions)
