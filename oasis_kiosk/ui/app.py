"""The kiosk's window: a fixed-timestep loop that feeds input to the cabinet and draws the
game screen when something changed.

On a desktop the keyboard presses the cabinet's buttons through its mock pins
(``hardware/keyboard.py``); the screen only reads the terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from oasis_kiosk import CATEGORIES
from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.hardware.keyboard import Keyboard
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import help, render
from oasis_kiosk.ui.layout import Box, Layout, layout

STEP = 1 / 60  # the fixed update step, seconds
MAX_STEPS = 5  # catch-up steps per frame at most, so that a stall never snowballs

# What the message line says the player can do, by intent.
ACTION_WORDS = {
    "deal": "DEAL",
    "play": "PLAY",
    "fold": "FOLD",
    "exchange": "EXCHANGE",
    "sixth": "SIXTH CARD",
    "insure": "INSURE",
    "decline": "DECLINE",
    "buy_card": "BUY DEALER'S CARD",
    "buy_game": "BUY THE GAME",
    "cashout": "CASH OUT",
    "bet": "BET",
    "bonus": "BONUS",
}


class App:
    def __init__(
        self, terminal: Terminal, size: tuple[int, int] = (1280, 720), fullscreen: bool = False
    ) -> None:
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.screen = pygame.display.set_mode((0, 0) if fullscreen else size, flags)
        pygame.display.set_caption("Oasis Stud Poker")
        self.terminal = terminal
        self.cabinet = MockCabinet(terminal)
        self.keyboard = Keyboard(self.cabinet)
        self.message = ""
        """What the last input did (shown beside the prompt)."""
        self.dirty = True
        self.showing_help = False
        """The rules and paytables of the active profile over the table (HELP toggles it)."""
        self.running = True
        self.clock = pygame.time.Clock()
        self._lag = 0.0

    @property
    def layout(self) -> Layout:
        width, height = self.screen.get_size()
        return layout(width, height, max(self.terminal.boxes, 1))

    def key(self, name: str) -> None:
        """A key press, as pygame names it."""
        if name == "escape":
            self.running = False
            return
        said = self.keyboard.key(name)
        if said is not None:
            self.showing_help = said == "help" and not self.showing_help
            self.message = "" if said == "help" else said
            self.dirty = True

    def frame(self) -> None:
        """One frame: input, fixed-step updates (capped), and a redraw only if needed."""
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.running = False
            elif event.type == pygame.KEYDOWN:
                self.key(pygame.key.name(event.key))
        self._lag = min(self._lag + self.clock.tick(60) / 1000, MAX_STEPS * STEP)
        while self._lag >= STEP:
            self.cabinet.advance(STEP)  # the devices' own timing: pulse trains, the hopper
            self._lag -= STEP
        if self.dirty:
            self.draw()
            pygame.display.flip()
            self.dirty = False

    def run(self) -> None:
        while self.running:
            self.frame()
        pygame.quit()

    def screenshot(self, path: Path) -> None:
        self.draw()
        pygame.image.save(self.screen, str(path))

    # Drawing.

    def draw(self) -> None:
        screen, lay, terminal = self.screen, self.layout, self.terminal
        rules = terminal.rules
        currency, minor = rules["table"]["currency"], rules["table"]["minor_units"]

        def cash(amount: int) -> str:
            return render.money(amount, currency, minor)

        screen.fill(render.FELT)
        pygame.draw.rect(screen, render.FELT_DARK, _rect(lay.paytable))
        self._write(
            f"PROGRESSIVE JACKPOT  {cash(terminal.jackpot.value)}", lay.jackpot, lay.medium, render.GOLD
        )

        round_ = terminal.round
        last = None if round_ else last_settlement(terminal)
        self._label("DEALER", lay.dealer, lay)
        if round_:
            dealer: list[Any] = round_.dealer_cards
        else:
            dealer = last["dealer_cards"] if last else [None] * 5
        self._cards(dealer, lay.dealer, lay, face_down_dim=round_ is None and last is None)
        if last:
            verdict = "qualifies" if last["dealer_qualifies"] else "does not qualify"
            said = f"{help.NAMES[last['dealer_hand']['category']]}: the dealer {verdict}"
            self.screen.blit(
                render.text(said, lay.medium, render.WHITE),
                (lay.dealer.x + lay.card_w // 4, lay.dealer.bottom - lay.medium * 3 // 2),
            )
        for index, box in enumerate(lay.boxes):
            self._label(f"BOX {index + 1}", box, lay)
            if round_ is not None:
                cards = round_.box_cards(index) if index < round_.box_count else None
                selected = terminal.selected if round_.current_box == index else set()
                self._cards(cards or [None] * 5, box, lay, selected=selected)
                hand = round_.hand(index) if index < round_.box_count else None
                caption = help.NAMES[hand.category] if hand is not None else ""
            elif last and index < len(last["boxes"]):
                settled = last["boxes"][index]
                self._cards(settled["cards"], box, lay)
                caption = f"{help.NAMES[settled['hand']['category']]}: {OUTCOMES[settled['outcome']]}, {cash(settled['net'])}"
            else:
                self._cards([None] * 5, box, lay, face_down_dim=True)
                caption = ""
            if caption:
                surface = render.text(caption, lay.medium, render.GOLD if last else render.WHITE)
                screen.blit(surface, (box.x + lay.card_w // 4, box.bottom - lay.medium * 2))
        self._paytable(
            lay, round_.hand(round_.current_box or 0) if round_ and round_.current_box is not None else None
        )
        if self.showing_help:
            self._help(lay, cash)
        live = terminal.live()
        self._write(prompt(terminal, live, cash), lay.message, lay.medium, render.WHITE)
        if self.message:
            self._write(self.message, lay.message, lay.small, render.DIM, right=True)
        bet = terminal.ante * terminal.boxes
        meters = f"CREDIT {cash(terminal.credits)}    BET {cash(bet)}    WIN {cash(last_win(terminal))}"
        self._write(meters, lay.meters, lay.large, render.GOLD, right=False)
        buttons = "  ".join(word for intent, word in ACTION_WORDS.items() if intent in live)
        surface = render.text(buttons, lay.medium, render.LIVE)
        screen.blit(surface, (lay.meters.right - surface.get_width() - lay.small, lay.meters.y + lay.small))

    def _write(
        self, content: str, box: Box, size: int, colour: tuple[int, int, int], right: bool = False
    ) -> None:
        surface = render.text(content, size, colour)
        x = box.right - surface.get_width() - size // 2 if right else box.x + size // 2
        self.screen.blit(surface, (x, box.y + (box.h - surface.get_height()) // 2))

    def _label(self, content: str, box: Box, lay: Layout) -> None:
        self.screen.blit(
            render.text(content, lay.small, render.WHITE), (box.x + lay.small, box.y + lay.small // 2)
        )

    def _cards(
        self,
        cards: list[Any],
        box: Box,
        lay: Layout,
        selected: set[int] | frozenset[int] = frozenset(),
        face_down_dim: bool = False,
    ) -> None:
        gap = lay.card_w // 8
        total = len(cards) * lay.card_w + (len(cards) - 1) * gap
        x = box.x + (box.w - total) // 2
        y = box.y + (box.h - lay.card_h) // 2
        for position, name in enumerate(cards):
            lift = lay.card_h // 8 if position in selected else 0
            surface = render.card(name, lay.card_w, lay.card_h)
            if face_down_dim and name is None:
                surface = surface.copy()
                surface.set_alpha(90)
            self.screen.blit(surface, (x + position * (lay.card_w + gap), y - lift))

    def _help(self, lay: Layout, cash: Callable[[int], str]) -> None:
        """The rules over the table, the paytables in the right column."""
        table = Box(0, lay.jackpot.y, lay.paytable.x, lay.message.y)
        pygame.draw.rect(self.screen, render.FELT_DARK, _rect(table))
        pygame.draw.rect(self.screen, render.FELT_DARK, _rect(lay.paytable))
        size, margin = lay.small + 2, lay.small
        y = table.y + margin
        for number, line in enumerate(help.rules_lines(self.terminal.rules, cash)):
            colour = render.GOLD if number == 0 else render.WHITE
            for wrapped in _wrap(line, size, table.w - 2 * margin):
                self.screen.blit(render.text(wrapped, size, colour), (table.x + margin, y))
                y += size
            y += size // 3
        rows = [("PAYTABLE (play bet)", ""), *help.paytable_rows(self.terminal.rules)]
        bonus = help.bonus_rows(self.terminal.rules, cash)
        if bonus:
            rows += [("", ""), ("BONUS", ""), *bonus]
        height = lay.paytable.h // (len(rows) + 1)
        for i, (left, right) in enumerate(rows):
            row = Box(lay.paytable.x, lay.paytable.y + i * height, lay.paytable.w, height)
            colour = render.GOLD if not right else render.WHITE
            self._write(left, row, lay.small, colour)
            if right:
                self._write(right, row, lay.small, colour, right=True)

    def _paytable(self, lay: Layout, hand: Any) -> None:
        rows = sorted(self.terminal.rules["paytable"].items(), key=lambda row: -CATEGORIES.index(row[0]))
        height = lay.paytable.h // (len(rows) + 2)
        self._write(
            "PAYTABLE (play bet)",
            Box(lay.paytable.x, lay.paytable.y, lay.paytable.w, height),
            lay.small,
            render.GOLD,
        )
        for i, (category, odds) in enumerate(rows, start=1):
            row = Box(lay.paytable.x, lay.paytable.y + i * height, lay.paytable.w, height)
            lit = hand is not None and hand.category == category
            if lit:
                pygame.draw.rect(self.screen, render.GOLD, _rect(row), width=2)
            colour = render.GOLD if lit else render.WHITE
            self._write(help.NAMES[category], row, lay.small, colour)
            self._write(f"{odds}:1", row, lay.small, colour, right=True)


def prompt(terminal: Terminal, live: set[str], cash: Any) -> str:
    """The one sentence that says what the player can do now (SCREEN.md)."""
    round_ = terminal.round
    if terminal.operator_key:
        return "Operator menu: the game stands still until the key is turned back."
    if terminal.payout:
        return f"Paying out: {terminal.payout} coin(s) to come."
    if terminal.handpay is not None:
        return f"Handpay of {cash(terminal.handpay)}: please wait for the attendant."
    if terminal.tilts:
        return f"Out of order: {next(iter(terminal.tilts.values()))}. Please call the attendant."
    if round_ is None:
        if "deal" in live:
            return (
                f"Press DEAL to play for {cash(terminal.ante * terminal.boxes)}, or BET to change the ante."
            )
        return "Insert coins or notes to play."
    legal = round_.legal_actions()
    if round_.phase == "insurance":
        return (
            f"INSURE up to {cash(legal['insure']['max'])} against a dealer who does not qualify, or DECLINE."
        )
    if round_.phase == "purchase":
        offers = [
            f"{ACTION_WORDS[intent]} for {cash(legal[name])}"
            for intent, name in (("buy_card", "buy_dealer_card"), ("buy_game", "buy_game"))
            if name in legal
        ]
        return f"The dealer does not qualify: {' or '.join(offers)}, or DECLINE."
    choices = []
    if "play" in legal:
        choices.append(f"PLAY for {cash(legal['play'])}")
    if "exchange" in legal:
        choices.append("select cards and EXCHANGE")
    if "buy_sixth_card" in legal:
        choices.append(f"buy a SIXTH CARD for {cash(legal['buy_sixth_card'])}")
    if "fold" in legal:
        choices.append("FOLD")
    return (
        f"Box {(round_.current_box or 0) + 1}: "
        + ", ".join(choices[:-1])
        + (" or " if len(choices) > 1 else "")
        + choices[-1]
        + "."
    )


OUTCOMES = {
    "folded": "folded",
    "dealer_not_qualified": "dealer does not qualify",
    "dealer_still_not_qualified": "dealer still does not qualify",
    "won": "won",
    "lost": "lost",
    "push": "stand-off",
    "protected": "protected",
    "void": "void: stakes returned",
}


def last_settlement(terminal: Terminal) -> dict[str, Any] | None:
    """The last round's settlement, shown until the next deal."""
    rounds = terminal.store.rounds(last=1)
    if not rounds or rounds[-1]["state"] != "settled":
        return None
    settlement: dict[str, Any] = rounds[-1]["settlement"]
    return settlement


def last_win(terminal: Terminal) -> int:
    """What the last settled round paid back (stakes included), for the WIN meter."""
    settlement = None if terminal.round is not None else last_settlement(terminal)
    if settlement is None:
        return 0
    return int(settlement.get("paid", 0)) + int(settlement.get("jackpot_awards", 0))


def _wrap(line: str, size: int, width: int) -> list[str]:
    """Breaks a line into pieces no wider than ``width`` pixels at this font size."""
    pieces: list[str] = []
    current = ""
    for word in line.split():
        candidate = f"{current} {word}".strip()
        if current and render.font(size).size(candidate)[0] > width:
            pieces.append(current)
            current = word
        else:
            current = candidate
    return [*pieces, current] if current else pieces


def _rect(box: Box) -> pygame.Rect:
    return pygame.Rect(box.x, box.y, box.w, box.h)
