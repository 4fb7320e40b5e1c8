"""The cabinet: its devices wired to the terminal.

Each frame the main loop calls ``step()``: button presses become the terminal's intents,
money a device has taken in is credited, device noise and rejected coins or notes go to
the event log, a device fault tilts the terminal, the UPS's power-fail signal stops the
terminal (and lets it go on when the power returns); then the lamps, the coin acceptor's
inhibit line and the bill validator's enable follow what is live.
"""

from __future__ import annotations

from collections.abc import Callable

from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.essp import EsspValidator, NoteCredit, NoteEvent, ValidatorFault
from oasis_kiosk.hardware.hopper import CoinOut, Hopper, HopperEmpty, PayoutDone, PayoutStopped
from oasis_kiosk.hardware.names import BUTTONS, SWITCHES
from oasis_kiosk.hardware.panel import Panel, Press
from oasis_kiosk.hardware.power import PowerFailInput
from oasis_kiosk.hardware.pulses import Credit, Fault, Glitch, Rejected
from oasis_kiosk.machine.terminal import Response, Terminal

SWITCH_INTENTS = {intent for edges in SWITCHES.values() for intent in edges}


class Cabinet:
    def __init__(
        self,
        terminal: Terminal,
        panel: Panel | None = None,
        acceptor: PulseAcceptor | None = None,
        bills: EsspValidator | PulseAcceptor | None = None,
        hopper: Hopper | None = None,
        power: PowerFailInput | None = None,
    ) -> None:
        """``acceptor`` takes coins; ``bills`` is a bill validator on SSP or in pulse mode;
        ``hopper`` pays out when the terminal cashes out by hopper; ``power`` is the UPS's
        power-fail signal."""
        self.terminal = terminal
        self.panel = panel
        self.acceptor = acceptor
        self.bills = bills
        self.hopper = hopper
        self.power = power
        self.testing = False
        """In the operator's hardware test: presses are reported, not played; lamps are the
        test's. Money a device takes in is still credited."""
        self.seen: list[str] = []
        """What the devices reported during the test, in order."""
        self.waking: Callable[[], object] | None = None
        """While the attract demo runs: a button press only wakes the game."""
        self.menu: Callable[[Press], None] | None = None
        """While the operator key is turned, button presses go here (the operator menu on
        screen) instead of to the game; the switches still go to the terminal."""
        self._outputs_for: set[str] | None = None
        """What was live when the lamps and inhibit lines were last set."""
        self._outputs_at = -1
        """The terminal's count of changes when they were last set."""
        self._read_switches()
        self.update_outputs()

    def _read_switches(self) -> None:
        """The switches and the power-fail line as they stand at start: a door opened while
        the cabinet was off is a door tilt, a door closed again clears one, and so on."""
        if self.panel is not None:
            for position in self.panel.switches():
                self.terminal.switch_stands(position)
        if self.power is not None:
            self._power_events(self.power)

    def step(self) -> list[Response]:
        """One frame: what each input did, money first, in order."""
        responses: list[Response] = []
        if self.acceptor is not None:
            responses += self._pulse_events("coin", self.acceptor)
        if isinstance(self.bills, PulseAcceptor):
            responses += self._pulse_events("bill", self.bills)
        elif self.bills is not None:
            for note in self.bills.poll():
                match note:
                    case NoteCredit(value=value):
                        responses.append(self.terminal.accept_money("bill", value))
                        self._saw(f"note {value} credited")
                    case NoteEvent(name=name, channel=channel):
                        self.terminal.device_event(name, channel=channel)
                    case ValidatorFault(reason=reason):
                        self.terminal.device_fault("bill_validator", reason)
        if self.hopper is not None:
            self._hopper_events(self.hopper)
        if self.power is not None:
            # After the money (credited while the database is still open), before the
            # buttons (refused once the power is failing).
            self._power_events(self.power)
        if self.panel is not None:
            for press in self.panel.poll():
                responses += self._route(press)
        if self.hopper is not None:
            self._hopper_events(self.hopper)  # a cash-out or the attendant's key just now
        if not self.testing:
            self.update_outputs()
        return responses

    def _route(self, press: Press) -> list[Response]:
        """A press goes to the hardware test, the attract demo (to end it), the operator menu
        or the game."""
        switch = press.intent in SWITCH_INTENTS
        if self.testing:
            self._saw(" ".join(str(part) for part in (press.intent, press.value) if part is not None))
            if not switch:
                return []  # a switch is a fact the terminal must know, test or not
        elif self.waking is not None and not switch:
            self.waking()  # the first press ends the attract demo and does nothing else
            return []
        elif (
            self.menu is not None
            and self.terminal.operator_key
            and not switch
            and not self.terminal.power_failure
        ):
            self.menu(press)
            return []
        return [self.terminal.handle(press.intent, press.value)]

    def touch(self, button: str) -> list[Response]:
        """A button touched on the screen: the same as its press on the panel."""
        intent, value = BUTTONS[button]
        responses = self._route(Press(intent, value))
        if self.hopper is not None:
            self._hopper_events(self.hopper)
        if not self.testing:
            self.update_outputs()
        return responses

    def _saw(self, what: str) -> None:
        if self.testing:
            self.seen.append(what)

    def start_test(self) -> None:
        """The operator's hardware test: lamps dark, inputs reported instead of played."""
        self.testing, self.seen = True, []
        if self.panel is not None:
            self.panel.show(set())

    def light(self, lamps: set[str]) -> None:
        """During the test: lights exactly these lamps (button names)."""
        if self.panel is not None:
            self.panel.show_lamps(lamps)

    def end_test(self) -> list[str]:
        self.testing = False
        self._outputs_for, self._outputs_at = None, -1  # the test set the lamps its own way
        self.update_outputs()
        return self.seen

    def _pulse_events(self, kind: str, device: PulseAcceptor) -> list[Response]:
        credited = []
        for event in device.poll():
            match event:
                case Credit(value=value):
                    credited.append(self.terminal.accept_money(kind, value))
                    self._saw(f"{kind} {value} credited")
                case Rejected(pulses=pulses):
                    self.terminal.device_event(f"{kind}_rejected", pulses=pulses)
                    self._saw(f"{kind} rejected: {pulses} pulses")
                case Glitch(width=width):
                    self.terminal.device_event(f"{kind}_line_noise", width_ms=round(width * 1000, 1))
                case Fault(reason=reason):
                    self.terminal.device_fault(f"{kind}_acceptor", reason)
        return credited

    def _hopper_events(self, hopper: Hopper) -> None:
        """Books what the hopper reported, in order, and runs its motor as the terminal asks:
        stopped first when the attendant's key stops a payout, so that the terminal fixes the
        handpay only once no coin can follow but a late one, booked against it."""
        if self.terminal.stopping:
            hopper.stop()
        for event in hopper.poll():
            match event:
                case CoinOut():
                    self.terminal.hopper_coin_out()
                case PayoutDone():
                    self.terminal.hopper_stopped(short=0)
                case HopperEmpty(short=short) | PayoutStopped(short=short):
                    self.terminal.hopper_stopped(short=short)
        if self.terminal.payout and not hopper.running:
            if self.terminal.stopping:  # stopped before the motor ever ran
                self.terminal.hopper_stopped(short=self.terminal.payout)
            else:
                hopper.start(self.terminal.payout)

    def _power_events(self, power: PowerFailInput) -> None:
        failing = power.poll()
        if failing is True:
            self.terminal.power_failing()
            self._saw("power failing")
        elif failing is False:
            self.terminal.power_restored()
            self._saw("power restored")

    def update_outputs(self) -> None:
        if self.terminal.changes == self._outputs_at:
            return  # nothing was taken since: what is live is what it was
        self._outputs_at = self.terminal.changes
        live = self.terminal.live()
        if live == self._outputs_for:
            return  # every frame asks; the lines only move when what is live changes
        self._outputs_for = live
        if self.panel is not None:
            self.panel.show(live)
        if self.acceptor is not None:
            self.acceptor.inhibited = "coin" not in live
        if isinstance(self.bills, PulseAcceptor):
            self.bills.inhibited = "bill" not in live
        elif self.bills is not None and self.bills.enabled != ("bill" in live):
            self.bills.set_enabled("bill" in live)
