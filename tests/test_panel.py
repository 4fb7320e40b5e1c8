"""The button panel on gpiozero's mock pins."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from oasis_kiosk.hardware.panel import Panel, Press


def test_presses_become_intents_and_lamps_follow_what_is_live() -> None:
    factory = MockFactory()
    panel = Panel(
        {"play": 5, "fold": 6, "card3": 13, "door": 26},
        {"play": 20, "fold": 21},
        bounce_time=None,
        pin_factory=factory,
    )
    for pin in (5, 13, 6):
        factory.pin(pin).drive_low()
        factory.pin(pin).drive_high()
    factory.pin(26).drive_low()
    factory.pin(26).drive_high()
    assert panel.poll() == [
        Press("play"),
        Press("card", 3),
        Press("fold"),
        Press("door_open"),
        Press("door_close"),
    ]
    assert panel.poll() == []
    panel.show({"play", "deal"}, set())
    assert (factory.pin(20).state, factory.pin(21).state) == (True, False)
    panel.close()


def test_an_unknown_button_is_refused() -> None:
    with pytest.raises(ValueError, match="no such button or switch: jackpot"):
        Panel({"jackpot": 4}, {}, pin_factory=MockFactory())
