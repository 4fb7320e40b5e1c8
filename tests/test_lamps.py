"""A lit lamp is a promise: its button does something now. Random sessions on a cabinet
with a hopper press only buttons whose lamps are lit (or, for the buttons without a lamp,
whose intent the terminal calls live) and check that none is refused."""

from __future__ import annotations

import random

import pytest
from support import memory_books

from oasis_kiosk.config import Config
from oasis_kiosk.hardware.desktop import UNLIT, MockCabinet
from oasis_kiosk.machine.intents import BUTTONS
from oasis_kiosk.machine.terminal import Terminal

RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = [rank + suit for rank in RANKS for suit in SUITS]
PROFILES = [("standard", "EUR", (5000,)), ("golden-oasis", "EUR", (5000,)), ("stand-a", "RUB", (50000,))]
"""Each with its currency and the note the walk inserts."""


def shuffled(seed: int) -> str:
    cards = DECK[:]
    random.Random(seed).shuffle(cards)
    return " ".join(cards)


def lit_buttons(mock: MockCabinet) -> list[str]:
    """The buttons whose lamps are lit, and those without a lamp whose intent is live."""
    mock.advance(0)  # the cabinet's step: the lamps follow what the terminal last took
    lamps = mock.wiring.lamps
    lit = [name for name, pin in lamps.items() if mock.lamp_factory.pin(pin).state]
    live = mock.terminal.live()
    return sorted([*lit, *(name for name in UNLIT if BUTTONS[name][0] in live)])


@pytest.mark.parametrize("seed", range(6))
def test_every_lit_button_does_something_when_pressed(seed: int) -> None:
    choose = random.Random(seed)
    profile, currency, bills = PROFILES[seed % len(PROFILES)]
    terminal = Terminal(
        Config(profile=profile, cashout="hopper", hopper_coin=100, bills=bills),
        memory_books(currency),
        deck_for_round=lambda number: shuffled(seed * 1000 + number),
    )
    mock = MockCabinet(terminal)
    pressed: list[str] = []
    for _ in range(600):
        roll = choose.random()
        if roll < 0.08:
            terminal.handle("bill", bills[0])
            continue
        if roll < 0.2:
            mock.advance(choose.choice([0.05, 0.3, 2.0]))
            continue
        lit = lit_buttons(mock)
        if not lit:
            mock.advance(1.0)
            continue
        button = choose.choice(lit)
        if button == "cashout" and choose.random() < 0.9:
            continue  # most sessions play on: a cash-out ends them
        # The cabinet's button, or the keyboard's key, which the terminal takes between two
        # steps of the cabinet (the hopper's motor has not yet answered a stop).
        intent, value = BUTTONS[button]
        responses = mock.press(button) if choose.random() < 0.5 else [terminal.handle(intent, value)]
        pressed.append(button)
        assert responses, f"{button} was lit and pressed, and nothing answered (after {pressed[-8:]})"
        refused = [response.message for response in responses if not response.ok]
        assert not refused, f"{button} was lit and refused: {refused} (after {pressed[-8:]})"
    assert {"deal", "cashout", "attendant"} <= set(pressed), "the walk reached the money's buttons"
    assert any(button.startswith("card") for button in pressed), ("and the cards", pressed)
