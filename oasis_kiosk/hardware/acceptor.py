"""A pulse-mode money acceptor: a pulse line in, an inhibit line out. Coin acceptors work
this way, and so do bill validators set to pulse mode; only the pulse table differs.

gpiozero calls back on each edge (from its own thread on a real pin factory); the edges go
through the pulse decoder under a lock, and the main loop collects the decoded events with
``poll()`` (the decoder's own events) or ``money_events()`` (the cabinet's vocabulary,
``hardware/money.py``). The inhibit output disables the acceptor whenever the machine cannot
take money: the cabinet sets it from whether ``coin`` (or ``bill``) is live.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import ExitStack

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from oasis_kiosk.config import PulseDevice, PulseTiming
from oasis_kiosk.hardware import money, pulses
from oasis_kiosk.hardware.pulses import PulseDecoder, PulseEvent
from oasis_kiosk.hardware.wires import Wires


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
        self._pending: list[PulseEvent] = []
        self._line.when_activated = lambda: self._edge(True)
        self._line.when_deactivated = lambda: self._edge(False)

    def _edge(self, active: bool) -> None:
        with self._lock:
            self._pending += self._decoder.edge(active, self._clock())

    def poll(self) -> list[PulseEvent]:
        """The events decoded since the last poll, in order (call it every frame)."""
        with self._lock:
            events = self._pending + self._decoder.tick(self._clock())
            self._pending = []
        return events

    def money_events(self, kind: str) -> list[money.MoneyEvent]:
        """The decoded trains as the cabinet's events, named after ``kind``."""
        events: list[money.MoneyEvent] = []
        for event in self.poll():
            match event:
                case pulses.KnownTrain(value=value):
                    events.append(money.Credit(value))
                case pulses.UnknownTrain(pulses=count):
                    events.append(money.Rejected(f"{kind}_rejected", {"pulses": count}))
                case pulses.AmbiguousTrain(pulses=count, reason=reason):
                    events.append(money.Rejected(f"{kind}_ambiguous", {"pulses": count, "reason": reason}))
                case pulses.ShortPulse(width=width):
                    events.append(money.Glitch(f"{kind}_line_noise", {"width_ms": round(width * 1000, 1)}))
                case pulses.StuckLine(reason=reason):
                    events.append(money.Fault(self.fault_tilt(kind), reason))
        return events

    @property
    def held(self) -> money.Held | None:
        """A pulse acceptor holds nothing: a coin is in the cashbox when its train ends."""
        return None

    def refuse_held(self) -> None:
        raise money.DeviceError("a pulse acceptor holds nothing in escrow")

    def set_accepting(self, accepting: bool) -> None:
        self.inhibited = not accepting

    def fault_tilt(self, kind: str) -> str:
        return f"{kind}_acceptor"

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
        """Both lines let go, whatever either's close raises."""
        with ExitStack() as closing:
            closing.callback(self._inhibit.close)
            closing.callback(self._line.close)


def build_pulse_acceptor(settings: PulseDevice, wires: Wires) -> PulseAcceptor:
    """A coin acceptor or bill validator in pulse mode, as ``[devices]`` wires it."""
    return PulseAcceptor(
        settings.pulse,
        settings.inhibit,
        settings.pulses,
        settings.timing,
        pin_factory=wires.pin_factory,
        clock=wires.clock,
    )
