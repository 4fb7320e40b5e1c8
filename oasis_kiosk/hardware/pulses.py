"""Decoding pulse trains: a coin acceptor (or a bill validator in pulse mode) reports each
coin as a train of N pulses on one line; the pulse count says which coin.

The decoder is pure logic fed with line edges and the passing of time, so that recorded
and synthetic trains test it exactly. Its window (``PulseTiming``, per acceptor in the
configuration: ``config/devices.py``) says what a valid train looks like:

- the line going inactive for less than ``dropout_ms`` inside a pulse is bridged: one
  pulse, not two;
- a pulse narrower than ``pulse_min_ms`` is noise (a ``ShortPulse``): counted and logged,
  never a pulse, wherever it falls;
- a pulse wider than ``pulse_max_ms``, or a line held active that long, is a ``StuckLine``
  (a jammed or tampered acceptor): the machine tilts and inhibits the acceptor;
- the pulses of one train are ``gap_min_ms`` to ``gap_max_ms`` apart; ``quiet_ms`` without
  a pulse ends the train. A train is credited (a ``KnownTrain``) only if every gap was in
  the window and its count is in the table: a gap outside it (two trains run together, a
  pulse split by a long dropout) makes the train an ``AmbiguousTrain``, a count the table
  lacks an ``UnknownTrain``.
  Neither is ever credited as some other coin.
"""

from __future__ import annotations

from dataclasses import dataclass

from oasis_kiosk.config import ConfigError, PulseTiming

MS = 0.001


@dataclass(frozen=True)
class KnownTrain:
    """A complete train that matches the table."""

    value: int
    pulses: int


@dataclass(frozen=True)
class UnknownTrain:
    """A complete, well-formed train whose count matches nothing."""

    pulses: int


@dataclass(frozen=True)
class AmbiguousTrain:
    """A complete train that is not one well-formed train: never credited."""

    pulses: int
    reason: str


@dataclass(frozen=True)
class ShortPulse:
    """A pulse too short to be one (seconds)."""

    width: float


@dataclass(frozen=True)
class StuckLine:
    """The line stayed active too long."""

    reason: str


PulseEvent = KnownTrain | UnknownTrain | AmbiguousTrain | ShortPulse | StuckLine


class PulseDecoder:
    def __init__(self, pulses_to_value: dict[int, int], timing: PulseTiming | None = None) -> None:
        if not pulses_to_value or any(p < 1 or v < 1 for p, v in pulses_to_value.items()):
            raise ConfigError(f"a pulse table maps pulse counts >= 1 to values >= 1, not {pulses_to_value}")
        self.table = dict(pulses_to_value)
        self.timing = timing or PulseTiming()
        self._pulse_start: float | None = None
        """When the pulse under way started (its dropouts bridged)."""
        self._dropped_at: float | None = None
        """When the line went inactive in the pulse under way: its end, unless the line
        comes back within ``dropout_ms``."""
        self._count = 0
        self._last_end: float | None = None
        self._irregular: str | None = None
        """Why the train under way is not a well-formed one (None: it is, so far)."""
        self._faulted = False

    def edge(self, active: bool, at: float) -> list[PulseEvent]:
        """The line became active (a pulse starts) or inactive (it ends) at time ``at``."""
        events = self.tick(at)
        if active:
            if self._dropped_at is not None:
                self._dropped_at = None  # a dropout shorter than dropout_ms: the same pulse
            elif self._pulse_start is None:
                self._pulse_start = at
        elif self._pulse_start is not None and self._dropped_at is None:
            self._dropped_at = at
        # An end without a start: the start came before power-up.
        return events

    def tick(self, now: float) -> list[PulseEvent]:
        """Time has passed: ends a pulse once its dropout outlasts ``dropout_ms``, reports a
        stuck line, ends a train after ``quiet_ms`` without a pulse."""
        timing = self.timing
        events: list[PulseEvent] = []
        start, dropped = self._pulse_start, self._dropped_at
        if start is not None and dropped is not None and now - dropped >= timing.dropout_ms * MS:
            events += self._pulse_ended(start, dropped)
        start = self._pulse_start
        if (
            start is not None
            and self._dropped_at is None
            and not self._faulted
            and now - start > timing.pulse_max_ms * MS
        ):
            self._faulted = True
            events += self._train_lost("the line was held active")
            events.append(StuckLine("the line is held active: jammed or tampered"))
        quiet = self._last_end is not None and now - self._last_end >= timing.quiet_ms * MS
        if quiet and self._pulse_start is None and self._count:
            events.append(self._train_ended())
        return events

    def _pulse_ended(self, start: float, end: float) -> list[PulseEvent]:
        self._pulse_start, self._dropped_at = None, None
        width = end - start
        if self._faulted:
            self._faulted = False  # the line came back; the fault was reported once
            return []
        timing = self.timing
        if width < timing.pulse_min_ms * MS:
            return [ShortPulse(width)]
        if width > timing.pulse_max_ms * MS:
            lost = self._train_lost(f"a pulse of {width / MS:.0f} ms")
            return [
                *lost,
                StuckLine(f"a pulse of {width / MS:.0f} ms is wider than {timing.pulse_max_ms} ms"),
            ]
        if self._count and self._last_end is not None and self._irregular is None:
            gap = start - self._last_end
            if not timing.gap_min_ms * MS <= gap <= timing.gap_max_ms * MS:
                self._irregular = (
                    f"a gap of {round(gap / MS, 1):g} ms after pulse {self._count}, outside "
                    f"{timing.gap_min_ms} to {timing.gap_max_ms} ms"
                )
        self._count += 1
        self._last_end = end
        return []

    def _train_ended(self) -> KnownTrain | UnknownTrain | AmbiguousTrain:
        count, irregular = self._count, self._irregular
        self._count, self._last_end, self._irregular = 0, None, None
        if irregular is not None:
            return AmbiguousTrain(count, irregular)
        value = self.table.get(count)
        return KnownTrain(value, count) if value is not None else UnknownTrain(count)

    def _train_lost(self, why: str) -> list[PulseEvent]:
        """The train under way cannot be read any more (a fault in it)."""
        if not self._count:
            return []
        count = self._count
        self._count, self._last_end, self._irregular = 0, None, None
        return [AmbiguousTrain(count, f"{why} after pulse {count}")]
