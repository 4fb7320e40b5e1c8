"""The button panel: one gpiozero Button per cabinet button and one LED (the lamp in it).

A press becomes an *intent* with an optional value (``card`` 3); ``poll()`` hands the
presses to the main loop in order, and ``show(live)`` lights the lamps of the buttons that
would do something now. The operator key and the door switch are switches: both edges count,
and ``switches()`` says where each stands (at start, before any edge).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from contextlib import ExitStack
from dataclasses import dataclass

from gpiozero import LED, DigitalInputDevice
from gpiozero.pins import Factory

from oasis_kiosk.config import ConfigError
from oasis_kiosk.machine.intents import BUTTONS, SWITCHES


@dataclass(frozen=True)
class Press:
    intent: str
    value: int | None = None


class Panel:
    def __init__(
        self,
        buttons: Mapping[str, int | str],
        lamps: Mapping[str, int | str],
        *,
        bounce_time: float | None = 0.02,
        pin_factory: Factory | None = None,
        lamp_factory: Factory | None = None,
    ) -> None:
        """``lamp_factory``: the lamps' own board (an output expander), if not ``pin_factory``'s."""
        unknown = sorted((set(buttons) | set(lamps)) - set(BUTTONS) - set(SWITCHES))
        if unknown:
            raise ConfigError(f"no such button or switch: {', '.join(unknown)}")
        self.wired = frozenset(buttons)
        """The names of the buttons and switches wired to it."""
        self._lock = threading.Lock()
        self._presses: list[Press] = []
        self._devices: list[DigitalInputDevice | LED] = []
        self._switches: dict[str, DigitalInputDevice] = {}
        for name, pin in buttons.items():
            # An input device rather than gpiozero's Button: a Button keeps a thread of its own
            # polling for a hold, which the panel never asks for.
            button = DigitalInputDevice(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
            if name in SWITCHES:
                self._switches[name] = button
                closed, opened = SWITCHES[name]
                button.when_activated = lambda intent=closed: self._queue(Press(intent))
                button.when_deactivated = lambda intent=opened: self._queue(Press(intent))
            else:
                intent, value = BUTTONS[name]
                button.when_activated = lambda press=Press(intent, value): self._queue(press)
            self._devices.append(button)
        self._lamps = {name: LED(pin, pin_factory=lamp_factory or pin_factory) for name, pin in lamps.items()}
        self._devices += self._lamps.values()
        self._lit: set[str] = set()  # gpiozero's LEDs start dark

    def _queue(self, press: Press) -> None:
        with self._lock:
            self._presses.append(press)

    def switches(self) -> list[str]:
        """The intent of each switch's position as it stands now (``door_open`` for an open
        door, ``operator_key_off`` for the key not turned...); a switch the button map does not
        wire stands at rest, so that nothing it left in the books stands for good."""
        return [
            SWITCHES[name][0 if name in self._switches and self._switches[name].is_active else 1]
            for name in SWITCHES
        ]

    def poll(self) -> list[Press]:
        with self._lock:
            presses, self._presses = self._presses, []
        return presses

    def show(self, live: AbstractSet[str], cards: set[int]) -> None:
        """Lights the lamp of every button whose intent is live; of the cards' buttons, those
        of the ``cards`` a press would select or unselect."""
        self._light({name for name in self._lamps if _lit(BUTTONS.get(name, (name, None)), live, cards)})

    def show_lamps(self, names: set[str]) -> None:
        """Lights exactly the lamps of these buttons (the hardware test)."""
        self._light(set(names) & set(self._lamps))

    def _light(self, lit: set[str]) -> None:
        """Writes only the lamps that change: each write goes through gpiozero's checks and
        the pin factory, and a change of mode (a deal, a count ending) would otherwise write
        every lamp of the panel in the frame that draws it."""
        for name in lit ^ self._lit:
            self._lamps[name].value = name in lit
        self._lit = lit

    def close(self) -> None:
        """Every line let go, whatever another's close raises."""
        with ExitStack() as closing:
            for device in self._devices:
                closing.callback(device.close)


def _lit(press: tuple[str, int | None], live: AbstractSet[str], cards: set[int]) -> bool:
    intent, value = press
    return intent in live and (intent != "card" or value in cards)
