"""The cabinet: its devices wired to the terminal.

Each frame the main loop calls ``step()``: button presses become the terminal's intents,
money a device has taken in is credited, device noise and rejected coins or notes go to
the event log, a device fault tilts the terminal, the UPS's power-fail signal stops the
terminal (and lets it go on when the power returns); then the lamps, the coin acceptor's
inhibit line and the bill validator's enable follow what is live.

No device money takes the credits past their limit: an acceptor is open only while the
largest coin or note it takes still fits in the terminal's ``room_for_money()``, and a note
the SSP validator holds in escrow is returned to the customer, before it is stacked, when
it does not fit (or money stopped being live meanwhile). While a note is held the coin
acceptor is inhibited, so that no coin takes its room.
"""

from __future__ import annotations

from collections.abc import Callable

from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.essp import EsspValidator, NoteCredit, NoteEvent, NoteHeld, SspError, ValidatorFault
from oasis_kiosk.hardware.hopper import CoinOut, Hopper, HopperEmpty, PayoutDone, PayoutStopped
from oasis_kiosk.hardware.names import BUTTONS, SWITCHES
from oasis_kiosk.hardware.panel import Panel, Press
from oasis_kiosk.hardware.power import PowerFailInput
from oasis_kiosk.hardware.pulses import Ambiguous, Credit, Fault, Glitch, Rejected
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.terminal import Response, Terminal

SWITCH_INTENTS = {intent for edges in SWITCHES.values() for intent in edges}
NOTE_GONE = {
    "note_rejecting",
    "note_rejected",
    "note_cleared_from_front",
    "note_cleared_to_cashbox",
    "validator_reset",
}
"""The validator's events after which no note is held in escrow any more."""


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
        self.held_note: NoteHeld | None = None
        """The note the SSP validator holds in escrow: its next poll stacks it."""
        self._outputs_for: tuple[set[str], bool, bool] | None = None
        """What was live, and whether coins and notes were taken, when the lamps and inhibit
        lines were last set."""
        self._outputs_at: tuple[int, NoteHeld | None] | None = None
        """The terminal's count of changes and the held note when they were last set."""
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
            responses += self._validator_events(self.bills)
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
        elif self.menu is not None and self.terminal.mode is Mode.OPERATOR and not switch:
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
        self._outputs_for, self._outputs_at = None, None  # the test set the lamps its own way
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
                case Ambiguous(pulses=pulses, reason=reason):
                    self.terminal.device_event(f"{kind}_ambiguous", pulses=pulses, reason=reason)
                    self._saw(f"{kind} ambiguous: {pulses} pulses, {reason}")
                case Glitch(width=width):
                    self.terminal.device_event(f"{kind}_line_noise", width_ms=round(width * 1000, 1))
                case Fault(reason=reason):
                    self.terminal.device_fault(f"{kind}_acceptor", reason)
        return credited

    def _validator_events(self, validator: EsspValidator) -> list[Response]:
        credited = []
        if self.held_note is not None and not self._may_take_note(self.held_note.value):
            self._return_note(validator, self.held_note)  # money came in, or stopped, since
        for note in validator.poll():
            match note:
                case NoteHeld(value=value, channel=channel):
                    self.terminal.device_event("note_read", channel=channel, value=value)
                    self.held_note = note
                    if not self._may_take_note(value):
                        self._return_note(validator, note)
                case NoteCredit(value=value):
                    self.held_note = None
                    credited.append(self.terminal.accept_money("bill", value))
                    self._saw(f"note {value} credited")
                case NoteEvent(name=name, channel=channel):
                    if name in NOTE_GONE:
                        self.held_note = None
                    self.terminal.device_event(name, channel=channel)
                case ValidatorFault(reason=reason):
                    self.terminal.device_fault("bill_validator", reason)
        return credited

    def _may_take_note(self, value: int) -> bool:
        return "bill" in self.terminal.live() and value <= self.terminal.room_for_money()

    def _return_note(self, validator: EsspValidator, note: NoteHeld) -> None:
        """Sends a held note back to the customer before it is stacked."""
        self.held_note = None
        try:
            validator.reject()
        except SspError as error:  # if the validator stacks it after all, it is credited
            self._validator_fault(f"a note of {note.value} could not be returned: {error}")
            return
        self.terminal.device_event("note_returned", value=note.value, room=self.terminal.room_for_money())
        self._saw(f"note {note.value} returned")

    def _validator_fault(self, reason: str) -> None:
        """A command to the validator failed: one tilt, not one a frame while it lasts."""
        if "bill_validator" not in self.terminal.tilts:
            self.terminal.device_fault("bill_validator", reason)

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
        if (self.terminal.changes, self.held_note) == self._outputs_at:
            return  # nothing was taken since: what is live is what it was
        self._outputs_at = (self.terminal.changes, self.held_note)
        live = self.terminal.live()
        room = self.terminal.room_for_money()
        # What is live follows the terminal's own lists of coins and notes; a pulse device's
        # table may hold a larger one, which must fit too.
        takes_coins = (
            "coin" in live
            and self.held_note is None
            and (self.acceptor is None or self.acceptor.largest <= room)
        )
        takes_bills = "bill" in live and (
            not isinstance(self.bills, PulseAcceptor) or self.bills.largest <= room
        )
        outputs = (live, takes_coins, takes_bills)
        if outputs == self._outputs_for:
            return  # every frame asks; the lines only move when what is live changes
        self._outputs_for = outputs
        if self.panel is not None:
            self.panel.show(live)
        if self.acceptor is not None:
            self.acceptor.inhibited = not takes_coins
        if isinstance(self.bills, PulseAcceptor):
            self.bills.inhibited = not takes_bills
        elif self.bills is not None and self.bills.enabled != takes_bills:
            try:
                self.bills.set_enabled(takes_bills)
            except SspError as error:
                self._validator_fault(str(error))
