"""What the cabinet's devices report: money taken in, events and faults, the UPS's power
failing and returning, the start-up self-test, and the switches (the door, the operator's
key).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oasis_kiosk.errors import InputError
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.meters import COUNTED_DEVICE_EVENTS
from oasis_kiosk.machine.money_kinds import MONEY_KINDS, MoneyKind
from oasis_kiosk.machine.response import Response
from oasis_kiosk.machine.terminal.cash_out import CashOut
from oasis_kiosk.machine.terminal.inputs import Inputs
from oasis_kiosk.machine.terminal.money_in import credited
from oasis_kiosk.machine.tilts import TiltKind, tilt_kind

POWER_FAIL = "the power is failing: play and money stop until it returns"


class Devices(Inputs, CashOut):
    """Books what the devices report, each report in a transaction of its own."""

    def accept_money(self, kind: MoneyKind, value: int, opened: bool = False) -> Response:
        """Money a device has taken in (a coin in the cashbox, a stacked note): it is credited
        whatever the state, since the player has paid it. The inhibit lines keep this rare
        while money is not live; when it happens anyway it is logged, unless the cabinet
        ``opened`` the device for it (the operator's hardware test). Money that arrives
        during a round is there for the next one."""

        def credit() -> Response:
            if kind not in MONEY_KINDS.values() or isinstance(value, bool) or value <= 0:
                raise InputError(f"{kind!r} {value} is not money a device takes in")
            if kind.name not in self.live() and not opened:
                self.store.event("credited_while_inhibited", kind=kind.name, value=value)
            self._credit(kind, value)
            return credited(kind, value)

        return self._commit(credit)

    def device_event(self, name: str, **detail: Any) -> Response:
        """Logs what a device reported that moves no money (noise, a rejected coin); what a
        lab counts (``COUNTED_DEVICE_EVENTS``) goes on a meter of its name too."""

        def log() -> Response:
            self.store.event(name, **detail)
            if name in COUNTED_DEVICE_EVENTS:
                self.store.add_meter(name, 1)
            return Response(True, name)

        return self._commit(log)

    def device_fault(self, kind: str, message: str) -> Response:
        """A device fault: a tilt that stops play and money until the attendant clears it."""

        def tilt() -> Response:
            self._tilt(tilt_kind(kind), message)
            return Response(True, message)

        return self._commit(tilt)

    def power_failing(self) -> Response:
        """The UPS signals that the mains is gone: the tilt and its event are committed, then
        the database is checkpointed and closed (open only to read, for the screen), so that
        nothing is being written when the battery gives out. The acceptors are inhibited and
        every button refused until ``power_restored()``."""
        if self.power_failure:
            return Response(True, "power failing")

        def stop() -> Response:
            self.store.event("power_failing", credits=self.credits, round_id=self.round_id)
            self._tilt(TiltKind.POWER_FAIL, POWER_FAIL)
            return Response(True, "power failing")

        response = self._commit(stop)
        self._close_store()
        self.power_failure = True
        return response

    def power_restored(self) -> Response:
        """The mains is back before the shutdown (or was there when the terminal started): the
        database opens for writing again and the power-fail tilt clears."""
        if self.power_failure:
            self.store.reopen()
            self.power_failure = False
        if TiltKind.POWER_FAIL not in self.tilts:
            return Response(True, "power on")

        def clear() -> Response:
            self.store.event("power_restored", credits=self.credits)
            self._clear_tilt(TiltKind.POWER_FAIL)
            return Response(True, "power restored")

        return self._commit(clear)

    def record_self_test(self, problems: Sequence[str]) -> Response:
        """The start-up self-test's findings (``machine/selftest.py``), logged. Any finding
        is a tilt that keeps the money devices inhibited; the attendant's key does not clear
        it, only a start whose self-test passes."""

        def record() -> Response:
            self.store.event("self_test", problems=list(problems))
            if problems:
                self._tilt(TiltKind.SELF_TEST, "self-test failed: " + "; ".join(problems))
                return Response(False, "self-test failed")
            self._clear_tilt(TiltKind.SELF_TEST)
            return Response(True, "self-test passed")

        return self._commit(record)

    def switch_stands(self, position: str) -> Response | None:
        """A switch found in ``position`` (its intent: ``door_open``, ``operator_key_off``...)
        at start: taken as that edge if the books last knew it the other way (it moved while
        the cabinet was off), else nothing."""
        known = {
            Intent.DOOR_OPEN: TiltKind.DOOR in self.tilts,
            Intent.DOOR_CLOSE: TiltKind.DOOR not in self.tilts,
            Intent.OPERATOR_KEY_ON: self.operator_key,
            Intent.OPERATOR_KEY_OFF: not self.operator_key,
        }
        if position not in known:
            raise InputError(f"{position!r} is not a switch position (positions: {', '.join(known)})")
        return None if known[Intent(position)] else self.handle(position)

    def _on_door_open(self, value: int | None) -> Response:
        self.store.add_meter("door_opens", 1)
        self.store.event("door_open")
        self._tilt(TiltKind.DOOR, "the door is open")
        return Response(True, N_("door open"))

    def _on_door_close(self, value: int | None) -> Response:
        self._clear_tilt(TiltKind.DOOR)
        self.store.event("door_close")
        return Response(True, N_("door closed"))

    def _on_operator_key_on(self, value: int | None) -> Response:
        self.operator_key = True
        self.store.event("operator_key_on")
        return Response(True, N_("operator key turned: the game stands still"))

    def _on_operator_key_off(self, value: int | None) -> Response:
        self.operator_key = False
        self.store.event("operator_key_off")
        return Response(True, N_("operator key back: the game goes on"))
