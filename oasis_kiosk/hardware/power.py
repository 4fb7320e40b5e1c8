"""The UPS's power-fail signal: one input line that goes active when the mains is gone and
the cabinet runs on its battery or capacitors.

The main loop polls it every frame. A change counts once the line has held it for a while,
so that a spike on a long cable does not stop the game: the failure after ``confirm``
seconds, the return of the power only after ``restore`` seconds of steady mains, so that a
flickering supply does not open and close the database many times a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory


class PowerFailInput:
    def __init__(
        self,
        pin: int | str,
        *,
        active_high: bool = False,
        confirm: float = 0.05,
        restore: float = 1.0,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``active_high``: the UPS drives the line high on a failure (the input is pulled
        down); by default it pulls the line low, as an open-collector output does."""
        self._line = DigitalInputDevice(pin, pull_up=not active_high, pin_factory=pin_factory)
        self.confirm = confirm
        self.restore = restore
        self._clock = clock
        self._reported: bool | None = None
        self._changed_at: float | None = None
        """When the line began to differ from what was last reported."""

    def poll(self) -> bool | None:
        """True when the power has just failed, False when it has just come back (the first
        poll reports the line as it stands), None when nothing changed."""
        active = bool(self._line.is_active)
        now = self._clock()
        if self._reported is None:
            self._reported = active
            return active
        if active == self._reported:
            self._changed_at = None
            return None
        if self._changed_at is None:
            self._changed_at = now
        if now - self._changed_at < (self.confirm if active else self.restore):
            return None
        self._reported, self._changed_at = active, None
        return active

    @property
    def failing(self) -> bool:
        """What was last reported: the power is failing."""
        return bool(self._reported)

    def close(self) -> None:
        self._line.close()
