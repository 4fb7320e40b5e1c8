"""A pulse-mode money acceptor: a pulse line in, an inhibit line out. Coin acceptors work
this way, and so do bill validators set to pulse mode; only the pulse table differs.

gpiozero calls back on each edge (from its own thread on a real pin factory); the edges go
through the pulse decoder under a lock, and the main loop collects the decoded events with
``poll()``. The inhibit output disables the acceptor whenever the machine cannot take
money: the terminal sets it from whether ``coin`` is live.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from oasis_kiosk.hardware.pulses import Event, PulseDecoder, PulseTiming


class PulseAcceptor:
    def __init__(
        self,
        pulse_pin: int | str,
        inhibit_pin: int | str,
        pulses_to_value: dict[int, int],
        timing: PulseTiming | None = None,
        *,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        # The acceptor pulls its open-collector output low for each pulse.
        self._line = DigitalInputDevice(pulse_pin, pull_up=True, pin_factory=pin_factory)
        self._inhibit = DigitalOutputDevice(inhibit_pin, initial_value=True, pin_factory=pin_factory)
        self._decoder = PulseDecoder(pulses_to_value, timing)
        self._clock = clock
        self._lock = threading.Lock()
        self._pending: list[Event] = []
        self._line.when_activated = lambda: self._edge(True)
        self._line.when_deactivated = lambda: self._edge(False)

    def _edge(self, active: bool) -> None:
        with self._lock:
            self._pending += self._decoder.edge(active, self._clock())

    def poll(self) -> list[Event]:
        """The events decoded since the last poll, in order (call it every frame)."""
        with self._lock:
            events = self._pending + self._decoder.tick(self._clock())
            self._pending = []
        return events

    @property
    def timing(self) -> PulseTiming:
        """The window a valid train must fit."""
        return self._decoder.timing

    @property
    def largest(self) -> int:
        """The most one coin (or note) in its pulse table is worth."""
        return max(self._decoder.table.values())

    @property
    def inhibited(self) -> bool:
        return bool(self._inhibit.value)

    @inhibited.setter
    def inhibited(self, value: bool) -> None:
        self._inhibit.value = value

    def close(self) -> None:
        self._line.close()
        self._inhibit.close()
