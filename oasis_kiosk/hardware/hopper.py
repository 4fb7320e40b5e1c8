"""A coin hopper for cash-out: a motor output and a coin-exit sensor, paying coins of one
value (``[money] hopper_coin``).

``start(amount)`` runs the motor for ``amount`` in its coins; every coin that passes the
exit sensor is reported at once as ``Paid`` with the coin's value (so that the terminal
books each coin as it leaves, and a partial payout is recorded exactly); when the amount is
paid the motor stops and the payout ends. If no coin passes within ``timeout`` while the
motor runs, the hopper is empty or jammed: the motor stops and the payout ends short.
``stop()`` stops the motor at once (the attendant's key): the payout ends short, and a coin
that still falls is reported after the end. Its events are the money devices'
(``hardware/money.py``); it is a ``MoneyOut``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from oasis_kiosk.hardware.money import MoneyEvent, Paid, PayoutEnded


class Hopper:
    def __init__(
        self,
        motor_pin: int | str,
        exit_pin: int | str,
        *,
        coin: int,
        timeout: float = 2.0,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if coin < 1:
            raise ValueError(f"the hopper's coin is worth at least 1 minor unit, not {coin}")
        self._motor = DigitalOutputDevice(motor_pin, pin_factory=pin_factory)
        self._exit = DigitalInputDevice(exit_pin, pull_up=True, pin_factory=pin_factory)
        self._exit.when_activated = self._coin_passed
        self.coin = coin
        self.timeout = timeout
        self._clock = clock
        self._lock = threading.Lock()
        self._owed = 0
        self._paid = 0
        self._last_progress = 0.0
        self._events: list[MoneyEvent] = []

    @property
    def running(self) -> bool:
        return bool(self._motor.value)

    def start(self, amount: int) -> None:
        if amount < self.coin or amount % self.coin:
            raise ValueError(f"a payout is whole coins of {self.coin}, at least one, not {amount}")
        with self._lock:
            if self.running:
                raise RuntimeError("the hopper is already paying out")
            self._owed, self._paid, self._last_progress = amount, 0, self._clock()
            self._motor.on()

    def _coin_passed(self) -> None:
        with self._lock:
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
            if self.running and self._clock() - self._last_progress > self.timeout:
                self._motor.off()  # empty or jammed
                self._events.append(PayoutEnded(self._paid, self._owed - self._paid))
            events, self._events = self._events, []
        return events

    def close(self) -> None:
        self._motor.off()
        self._motor.close()
        self._exit.close()
