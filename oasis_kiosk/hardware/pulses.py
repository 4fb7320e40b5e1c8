"""Decoding pulse trains: a coin acceptor (or a bill validator in pulse mode) reports each
coin as a train of N pulses on one line; the pulse count says which coin.

The decoder is pure logic fed with line edges and the passing of time, so that recorded
and synthetic trains test it exactly:

- a pulse narrower than ``min_width`` is noise: logged, never counted;
- a pulse wider than ``max_width``, or a line held active that long, is a fault (a jammed
  or tampered acceptor): the machine tilts and inhibits the acceptor;
- pulses closer than ``train_gap`` belong to one train; a longer quiet ends it, and the
  train becomes a coin if its count is in the table, or is rejected (never credited,
  never guessed) if it is not.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PulseTiming:
    """Seconds. Typical acceptors send 20-100 ms pulses 50-100 ms apart."""

    min_width: float = 0.010
    max_width: float = 0.150
    train_gap: float = 0.200

    def __post_init__(self) -> None:
        if not 0 < self.min_width < self.max_width < self.train_gap:
            raise ValueError(
                f"pulse timing needs 0 < min_width < max_width < train_gap, not {self.min_width}, "
                f"{self.max_width}, {self.train_gap}"
            )


@dataclass(frozen=True)
class Credit:
    """A complete train that matches the table."""

    value: int
    pulses: int


@dataclass(frozen=True)
class Rejected:
    """A complete train whose count matches nothing."""

    pulses: int


@dataclass(frozen=True)
class Glitch:
    """A pulse too short to be one."""

    width: float


@dataclass(frozen=True)
class Fault:
    """The line stayed active too long."""

    reason: str


Event = Credit | Rejected | Glitch | Fault


class PulseDecoder:
    def __init__(self, pulses_to_value: dict[int, int], timing: PulseTiming | None = None) -> None:
        if not pulses_to_value or any(p < 1 or v < 1 for p, v in pulses_to_value.items()):
            raise ValueError(f"a pulse table maps pulse counts >= 1 to values >= 1, not {pulses_to_value}")
        self.table = dict(pulses_to_value)
        self.timing = timing or PulseTiming()
        self._pulse_start: float | None = None
        self._count = 0
        self._last_end: float | None = None
        self._faulted = False

    def edge(self, active: bool, at: float) -> list[Event]:
        """The line became active (a pulse starts) or inactive (it ends) at time ``at``."""
        events = self.tick(at)
        if active:
            if self._pulse_start is None:
                self._pulse_start = at
            return events
        if self._pulse_start is None:
            return events  # an end without a start: the start came before power-up
        width = at - self._pulse_start
        self._pulse_start = None
        if self._faulted:
            self._faulted = False  # the line came back; the fault was reported once
            return events
        if width < self.timing.min_width:
            events.append(Glitch(width))
        elif width > self.timing.max_width:
            events.append(
                Fault(f"a pulse of {width * 1000:.0f} ms is wider than {self.timing.max_width * 1000:.0f} ms")
            )
            self._count = 0
        else:
            self._count += 1
            self._last_end = at
        return events

    def tick(self, now: float) -> list[Event]:
        """Time has passed: ends a train after a long enough quiet, reports a stuck line."""
        events: list[Event] = []
        if (
            self._pulse_start is not None
            and not self._faulted
            and now - self._pulse_start > self.timing.max_width
        ):
            self._faulted = True
            self._count = 0
            events.append(Fault("the line is held active: jammed or tampered"))
        quiet = self._last_end is not None and now - self._last_end > self.timing.train_gap
        if quiet and self._pulse_start is None and self._count:
            count, self._count, self._last_end = self._count, 0, None
            value = self.table.get(count)
            events.append(Credit(value, count) if value is not None else Rejected(count))
        return events
