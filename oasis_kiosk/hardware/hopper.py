"""A coin hopper for cash-out: a motor output and a coin-exit sensor, paying coins of one
value (``[money] hopper_coin``).

``start(amount)`` runs the motor for ``amount`` in its coins; every coin that passes the
exit sensor is reported at once as ``Paid`` with the coin's value (so that the terminal
books each coin as it leaves, and a partial payout is recorded exactly); when the amount is
paid the motor stops and the payout ends. If no coin passes within ``timeout`` while the
motor runs, the hopper is empty or jammed: the motor stops and the payout ends short.

A coin is counted once it has covered the sensor for ``exit_min_ms`` (a clearing shorter
than ``EXIT_DROPOUT`` inside it bridged: one coin, counted once), whether it has cleared it
yet or not, so that a coin stuck at the exit is booked before the motor stops or the power
goes. A narrower spike is noise on the line (``Glitch``, logged, never booked out, for a
coin booked that never left would short the player). A sensor covered longer than
``exit_max_ms`` is a coin stuck at the exit (counted already) or a failed sensor: the motor
stops and the payout ends short, as when jammed, and no payout starts while it stays
covered.
``stop()`` stops the motor at once (the attendant's key): the payout ends short, and a coin
that still falls is reported after the end. Its events are the money devices'
(``hardware/money.py``); it is a ``MoneyOut``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import ExitStack

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from oasis_kiosk.config import ConfigError, HopperDevice
from oasis_kiosk.errors import InputError
from oasis_kiosk.hardware.money import Glitch, MoneyEvent, Paid, PayoutEnded
from oasis_kiosk.hardware.wires import Wires
from oasis_kiosk.machine.tilts import TiltKind

EXIT_DROPOUT = 0.003
"""Seconds the exit sensor may clear inside one coin's passage (a hole or an edge letting
the light through) and the passage go on: one coin, counted once."""
EXIT_BLOCKED = TiltKind.HOPPER_EXIT_BLOCKED
"""The event, and the tilt, of an exit sensor covered past ``exit_max_ms``."""


class Hopper:
    def __init__(
        self,
        motor_pin: int | str,
        exit_pin: int | str,
        *,
        coin: int,
        timeout: float = 2.0,
        exit_min_ms: int = 5,
        exit_max_ms: int = 250,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if coin < 1:
            raise ConfigError(f"the hopper's coin is worth at least 1 minor unit, not {coin}")
        if not 0 < exit_min_ms < exit_max_ms:
            raise ConfigError(
                f"the exit sensor's window needs 0 < exit_min_ms < exit_max_ms, not {exit_min_ms} and {exit_max_ms}"
            )
        self._motor = DigitalOutputDevice(motor_pin, pin_factory=pin_factory)
        self._exit = DigitalInputDevice(exit_pin, pull_up=True, pin_factory=pin_factory)
        self._exit.when_activated = self._covered
        self._exit.when_deactivated = self._cleared
        self.coin = coin
        self.timeout = timeout
        self.exit_min = exit_min_ms / 1000
        self.exit_max = exit_max_ms / 1000
        self._clock = clock
        self._lock = threading.Lock()
        self._owed = 0
        self._paid = 0
        self._last_progress = 0.0
        self._covered_at: float | None = None
        """When the exit sensor was last covered, while it stays covered."""
        self._passage: tuple[float, bool] | None = None
        """The coin passing the sensor, its dropouts bridged: when it first covered it, and
        whether it was counted."""
        self._cleared_at: float | None = None
        """When the sensor last cleared: a cover within ``EXIT_DROPOUT`` is the same coin."""
        self._blocked = False
        """The sensor was covered past ``exit_max``: reported once, until it clears."""
        self._events: list[MoneyEvent] = []

    @property
    def running(self) -> bool:
        return bool(self._motor.value)

    def start(self, amount: int) -> None:
        """Runs the motor for ``amount``; not while the exit sensor is covered (a coin stuck
        there, or a failed sensor), when the payout ends at once, nothing paid."""
        if amount < self.coin or amount % self.coin:
            raise InputError(f"a payout is whole coins of {self.coin}, at least one, not {amount}")
        with self._lock:
            if self.running:
                raise RuntimeError("the hopper is already paying out")
            self._owed, self._paid, self._last_progress = amount, 0, self._clock()
            if self._exit.is_active:
                covered = 0.0 if self._covered_at is None else self._clock() - self._covered_at
                self._events.append(Glitch(EXIT_BLOCKED, {"width_ms": _ms(covered)}))
                self._events.append(PayoutEnded(0, amount, EXIT_BLOCKED))
                return
            self._motor.on()

    def _covered(self) -> None:
        with self._lock:
            now, cleared_at = self._clock(), self._cleared_at
            if self._passage is None or cleared_at is None or now - cleared_at >= EXIT_DROPOUT:
                self._passage_over()
                self._passage = (now, False)
            self._cleared_at, self._covered_at = None, now

    def _cleared(self) -> None:
        with self._lock:
            now = self._clock()
            self._covered_at, self._cleared_at = None, now
            self._blocked = False
            self._count_if_long_enough(now)

    def _count_if_long_enough(self, now: float) -> None:
        """Counts the coin passing once it has covered the sensor ``exit_min`` (the lock
        held): as it clears, or while it still covers it, so that a coin stuck at the exit
        is booked before the motor stops or the power goes. None is counted for a cover
        that began before the hopper was made: it was booked by the run that saw it begin."""
        if self._passage is None:
            return
        started, counted = self._passage
        if not counted and now - started >= self.exit_min:
            self._passage = (started, True)
            self._coin_passed()

    def _passage_over(self) -> None:
        """The sensor stayed clear past a dropout (the lock held): a passage never long
        enough to be a coin was noise on the line."""
        if self._passage is not None and not self._passage[1] and self._cleared_at is not None:
            width = self._cleared_at - self._passage[0]
            self._events.append(Glitch("hopper_exit_noise", {"width_ms": _ms(width)}))
        self._passage = None

    def _coin_passed(self) -> None:
        """A coin counted at the exit (the lock held)."""
        if not self.running:
            self._events.append(Paid(self.coin))  # a coin falling after the stop still left
            return
        self._paid += self.coin
        self._last_progress = self._clock()
        self._events.append(Paid(self.coin))
        if self._paid >= self._owed:
            self._motor.off()
            self._events.append(PayoutEnded(self._paid, short=0))

    def stop(self) -> None:
        with self._lock:
            if not self.running:
                return
            self._motor.off()
            self._events.append(PayoutEnded(self._paid, self._owed - self._paid))

    def money_events(self) -> list[MoneyEvent]:
        with self._lock:
            now = self._clock()
            if self._cleared_at is not None and now - self._cleared_at >= EXIT_DROPOUT:
                self._passage_over()
                self._cleared_at = None
            elif self._covered_at is not None:
                self._count_if_long_enough(now)
            covered_at = self._covered_at
            if covered_at is not None and not self._blocked and now - covered_at > self.exit_max:
                self._blocked = True
                self._events.append(Glitch(EXIT_BLOCKED, {"width_ms": _ms(now - covered_at)}))
                if self.running:
                    self._motor.off()
                    self._events.append(PayoutEnded(self._paid, self._owed - self._paid, EXIT_BLOCKED))
            if self.running and now - self._last_progress > self.timeout:
                self._motor.off()  # empty or jammed
                self._events.append(PayoutEnded(self._paid, self._owed - self._paid))
            events, self._events = self._events, []
        return events

    def close(self) -> None:
        """The motor stopped, and both lines let go whatever that raises."""
        with ExitStack() as closing:
            closing.callback(self._exit.close)
            closing.callback(self._motor.close)
            self._motor.off()


def _ms(seconds: float) -> float:
    """A width as the log gives it: milliseconds to a tenth."""
    return round(seconds * 1000, 1)


def build_hopper(settings: HopperDevice, wires: Wires) -> Hopper:
    """The hopper as ``[devices]`` wires it, paying out ``money.hopper_coin``."""
    return Hopper(
        settings.motor,
        settings.exit,
        coin=wires.config.hopper_coin,
        timeout=settings.timeout,
        exit_min_ms=settings.exit_min_ms,
        exit_max_ms=settings.exit_max_ms,
        pin_factory=wires.pin_factory,
        clock=wires.clock,
    )
