"""The cabinet: its devices wired to the terminal.

Each frame the main loop calls ``step()``: button presses become the terminal's intents,
money a device has taken in is credited, device noise and rejected coins or notes go to
the event log, a device fault tilts the terminal, the UPS's power-fail signal stops the
terminal (and lets it go on when the power returns), a linked jackpot's award the link
agent has is credited; then the lamps, the coin acceptor's inhibit line and the bill
validator's enable follow what is live.

No device money takes the credits past their limit: an acceptor is open only while the
largest coin or note it takes still fits in the terminal's ``room_for_money()``, and a note
the SSP validator holds in escrow is returned to the customer, before it is stacked, when
it does not fit (or money stopped being live meanwhile). While a note is held the coin
acceptor is inhibited, so that no coin takes its room.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from oasis_kiosk.hardware.money import (
    Credit,
    DeviceError,
    Fault,
    Glitch,
    Held,
    MoneyEvent,
    MoneyIn,
    MoneyOut,
    Paid,
    PayoutEnded,
    Rejected,
    Report,
)
from oasis_kiosk.hardware.panel import Panel, Press
from oasis_kiosk.hardware.power import PowerFailInput
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.intents import BUTTONS, KEY_SWITCHES, SWITCHES, Intent
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.money_kinds import BILL, COIN, MONEY_KINDS, MoneyKind
from oasis_kiosk.machine.terminal import Response, Terminal
from oasis_kiosk.machine.tilts import TiltKind

SWITCH_INTENTS = {intent for edges in SWITCHES.values() for intent in edges}


@dataclass(frozen=True)
class Taken:
    """Money a device took in during the hardware test: a ``kind`` of ``value`` minor units."""

    kind: MoneyKind
    value: int


@dataclass(frozen=True)
class Reported:
    """What a device reported during the hardware test, as the event log has it: a coin
    or note refused or given back, the mains failing or back."""

    kind: str
    detail: Mapping[str, Any] = field(default_factory=dict)


Seen = Press | Taken | Reported
"""An input the hardware test saw: a press or a switch, money taken in, or a report; the
screen says each in its language."""


COAST = 0.5
"""Seconds a coin may still fall from the hopper after its motor stops (a real one's: a
coin or two within a few hundred milliseconds)."""


class Cabinet:
    def __init__(
        self,
        terminal: Terminal,
        panel: Panel | None = None,
        acceptor: MoneyIn | None = None,
        bills: MoneyIn | None = None,
        hopper: MoneyOut | None = None,
        power: PowerFailInput | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        wait: Callable[[float], None] = time.sleep,
    ) -> None:
        """``acceptor`` takes coins and ``bills`` notes, each whatever its wire
        (``hardware/money.py``); ``hopper`` is the payout device (a ``MoneyOut``), started
        with the amount the terminal's cash-out owes through it; ``power`` is the UPS's
        power-fail signal. ``clock`` and ``wait`` time the hopper's last coins as the kiosk
        stops (``shut_down``): the devices' own time on mock pins."""
        self._clock, self._wait = clock, wait
        self.terminal = terminal
        self.panel = panel
        self.acceptor = acceptor
        self.bills = bills
        self.hopper = hopper
        self.power = power
        self.testing = False
        """In the operator's hardware test: presses are reported, not played; lamps are the
        test's; the acceptors take money (it is credited) even in the operator menu, so that
        they can be tried."""
        self.seen: list[Seen] = []
        """What the devices reported during the test, in order."""
        self.waking: Callable[[], object] | None = None
        """While the attract demo runs or the dealer's reveal plays: a button press only ends
        or hurries it."""
        self.revealing = False
        """While the dealer's reveal plays on the screen: the lamps are dark, as the screen's
        buttons are (DEAL lit by a win paid back, or ATTENDANT by a handpay, would tell the
        outcome before the cards)."""
        self.menu: Callable[[Press], None] | None = None
        """While the operator key is turned, button presses go here (the operator menu on
        screen) instead of to the game; the switches still go to the terminal."""
        self._outputs_for: tuple[set[Intent], set[int], dict[MoneyKind, bool]] | None = None
        """What was live, and whether coins and notes were taken, when the lamps and inhibit
        lines were last set."""
        self._outputs_at: tuple[int, tuple[int | None, ...], bool] | None = None
        """The terminal's count of changes and what the devices held in escrow when they were
        last set."""
        self._answers: tuple[int, set[Intent], set[int], set[MoneyKind], int] | None = None
        """The terminal's count of changes when it was last asked what is live, and its
        answers (``_answers_now``)."""
        self._closed = False
        self._read_switches()
        self.update_outputs()

    def close(self) -> None:
        """The devices let go of their lines and ports, the hopper's motor stopped first and
        each closed whatever another's close raises; nothing more is booked. Until then
        gpiozero keeps each device's callbacks, and the terminal they reach, alive. Closing
        again does nothing."""
        if self._closed:
            return
        self._closed = True
        with ExitStack() as closing:  # the last pushed is closed first
            for device in (self.panel, self.power, self.acceptor, self.bills, self.hopper):
                if device is not None:
                    closing.callback(device.close)

    def shut_down(self) -> None:
        """The kiosk stops: what the hopper reported since the last frame is booked, and if
        it still pays, its motor stops and each coin falling within ``COAST`` is booked too
        (one left unbooked would be handpaid again at the next start, which pays the rest as
        after a power cut). Then the devices close, whatever the booking raised."""
        try:
            if self.hopper is not None and not self._closed:
                self._last_coins(self.hopper)
        finally:
            self.close()

    def _last_coins(self, hopper: MoneyOut) -> None:
        for event in hopper.money_events():  # since the last frame: a payout's own end too
            self._book(None, event, None)
        if not hopper.running:
            return
        hopper.stop()
        end = self._clock() + COAST
        while True:
            for event in hopper.money_events():
                if not isinstance(event, PayoutEnded):  # the stop's own: the next start's to end
                    self._book(None, event, None)
            if self._clock() >= end:
                return
            self._wait(COAST / 10)

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
        for kind, device in self._money_devices():
            responses += self._money_events(kind, device)
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
        # Each frame of the screen's loop and each input of a headless script pass here.
        self.terminal.follow_link()  # a linked jackpot's award, once the link agent has it
        self.update_outputs()
        return responses

    def _route(self, press: Press) -> list[Response]:
        """A press goes to the hardware test, the attract demo (to end it), the operator menu
        or the game."""
        switch = press.intent in SWITCH_INTENTS
        if self.testing:
            self._saw(press)
            if not switch:
                return []  # a switch is a fact the terminal must know, test or not
        elif self.waking is not None and not switch:
            self.waking()  # ends the attract demo or hurries the reveal, and does nothing else
            return []
        elif self.menu is not None and self.terminal.mode is Mode.OPERATOR and not switch:
            self.menu(press)
            return []
        return [self.terminal.handle(press.intent, press.value)]

    def touch(self, button: str) -> list[Response]:
        """A button touched on the screen: the same as its press on the panel, but for the
        attendant's key (``KEY_SWITCHES``), which a touch only names: a player would pay his
        own handpay. The self-test finds a wiring without the key (``machine/selftest.py``)."""
        intent, value = BUTTONS[button]
        if intent in KEY_SWITCHES:
            return [
                Response(
                    False,
                    N_("{intent} is the attendant's key: please call the attendant"),
                    {"intent": intent},
                )
            ]
        responses = self._route(Press(intent, value))
        if self.hopper is not None:
            self._hopper_events(self.hopper)
        self.update_outputs()
        return responses

    def _saw(self, what: Seen) -> None:
        if self.testing:
            self.seen.append(what)

    def start_test(self) -> None:
        """The operator's hardware test: lamps dark, inputs reported instead of played, the
        acceptors open."""
        self.testing, self.seen = True, []
        if self.panel is not None:
            self.panel.show(set(), set())
        # the acceptors open for the test, which has money rules of its own (``_money_live``)
        self._outputs_for, self._outputs_at, self._answers = None, None, None
        self.update_outputs()

    def light(self, lamps: set[str]) -> None:
        """During the test: lights exactly these lamps (button names)."""
        if self.panel is not None:
            self.panel.show_lamps(lamps)

    def end_test(self) -> list[Seen]:
        self.testing = False
        # the test set the lamps its own way
        self._outputs_for, self._outputs_at, self._answers = None, None, None
        self.update_outputs()
        return self.seen

    def _money_devices(self) -> list[tuple[MoneyKind, MoneyIn]]:
        """Each device that takes money in, with what it is wired as."""
        wired = ((COIN, self.acceptor), (BILL, self.bills))
        return [(kind, device) for kind, device in wired if device is not None]

    def _money_events(self, kind: MoneyKind, device: MoneyIn) -> list[Response]:
        """What a device that takes money in reported, booked; returns the credits' responses."""
        held = device.held
        if held is not None and not self._may_take(kind, held.value):
            self._refuse_held(kind, device, held)  # money came in, or stopped, since
        booked = [self._book(kind, event, device) for event in device.money_events(kind.name)]
        return [response for response in booked if response is not None]

    def _book(self, kind: MoneyKind | None, event: MoneyEvent, escrow: MoneyIn | None) -> Response | None:
        """One event of any money device, in and out alike (``hardware/money.py``): the
        vocabulary is acted on here and nowhere else. ``kind``: what a device that takes
        money in is wired as (None: one that pays out); ``escrow``: the device that holds an
        item it reports ``Held``, to give it back if it may not be taken. Returns a
        credit's response."""
        match event:
            case Credit(value=value):
                if kind is None:  # a payout device cannot take money in: never booked, never lost
                    self._device_fault(TiltKind.FAULT, f"the payout device reported {value} taken in")
                    return None
                response = self.terminal.accept_money(kind, value, opened=kind in self._money_live())
                self._saw(Taken(kind, value))
                return response
            case Held(value=value, event=name, detail=detail):
                self.terminal.device_event(name, **detail)
                if kind is not None and escrow is not None and not self._may_take(kind, value):
                    self._refuse_held(kind, escrow, event)
            case Rejected(event=name, detail=detail):
                self.terminal.device_event(name, **detail)
                self._saw(Reported(name, detail))
            case Glitch(event=name, detail=detail) | Report(event=name, detail=detail):
                self.terminal.device_event(name, **detail)
            case Fault(tilt=tilt, reason=reason):
                self._device_fault(tilt, reason)
            case Paid(value=value):
                self.terminal.payout_item_paid(value)
            case PayoutEnded(short=short, tilt=tilt):
                self.terminal.payout_ended(short=short, tilt=tilt)
        return None

    def _may_take(self, kind: MoneyKind, value: int) -> bool:
        return kind in self._money_live() and value <= self.terminal.room_for_money()

    def _money_live(self, live: set[Intent] | None = None) -> set[MoneyKind]:
        """The money the devices may take in now: what the game takes, and during the
        hardware test what the terminal lists and has room for, in the operator menu too,
        as long as its books are open. ``live``: the terminal's live intents, when the caller
        has asked for them already (each asking reads the books)."""
        if not self.testing:
            if live is None:
                live = self.terminal.live()
            return {kind for name, kind in MONEY_KINDS.items() if name in live}
        if self.terminal.mode in {Mode.BOOKS_FAULT, Mode.POWERING_DOWN}:
            return set()
        room = self.terminal.room_for_money()
        return {kind for kind in MONEY_KINDS.values() if kind.fits(self.terminal.config, room)}

    def _refuse_held(self, kind: MoneyKind, device: MoneyIn, held: Held) -> None:
        """Gives the item held in escrow back to the customer before it is taken."""
        item, value = held.item, held.value
        try:
            device.refuse_held()
        except DeviceError as error:  # if the device takes it after all, it is credited
            self._device_fault(
                device.fault_tilt(kind.name), f"a {item} of {value} could not be returned: {error}"
            )
            return
        room = self.terminal.room_for_money()
        self.terminal.device_event(f"{item}_returned", value=value, room=room)
        self._saw(Reported(f"{item}_returned", {"value": value, "room": room}))

    def _device_fault(self, tilt: str, reason: str) -> None:
        """A command to a device failed: one tilt, not one a frame while it lasts."""
        if tilt not in self.terminal.tilts:
            self.terminal.device_fault(tilt, reason)

    def _hopper_events(self, hopper: MoneyOut) -> None:
        """Books what the payout device reported, in order, and runs it as the terminal asks:
        started with the amount owed, stopped first when the attendant's key stops a payout,
        so that the terminal fixes the handpay only once no item can follow but a late one,
        booked against it."""
        if self.terminal.stopping:
            hopper.stop()
        for event in hopper.money_events():
            self._book(None, event, None)
        if self.terminal.payout and not hopper.running:
            if self.terminal.stopping:  # stopped before the motor ever ran
                self.terminal.payout_ended(short=self.terminal.payout)
            else:
                hopper.start(self.terminal.payout)

    def _power_events(self, power: PowerFailInput) -> None:
        failing = power.poll()
        if failing is True:
            self.terminal.power_failing()
            self._saw(Reported("power_failing", {"credits": self.terminal.credits}))
        elif failing is False:
            self.terminal.power_restored()
            self._saw(Reported("power_restored"))

    def update_outputs(self) -> None:
        devices = self._money_devices()
        held = tuple(device.held.value if device.held else None for _, device in devices)
        if (self.terminal.changes, held, self.revealing) == self._outputs_at:
            return  # nothing was taken since: what is live is what it was
        self._outputs_at = (self.terminal.changes, held, self.revealing)
        live_now, cards_now, money, room = self._answers_now()
        live, cards = (set(), set()) if self.revealing else (live_now, cards_now)
        # What is live follows the terminal's own lists of coins and notes; a device that
        # takes money straight in may know a larger one, which must fit too. While a note is
        # held in escrow no coin may take its room.
        holding = any(value is not None for value in held)
        accepting = {
            kind: kind in money
            and (device.largest is None or device.largest <= room)
            and not (kind is COIN and holding)
            for kind, device in devices
        }
        outputs = (live, cards, accepting)
        if outputs == self._outputs_for:
            return  # every frame asks; the lines only move when what is live changes
        self._outputs_for = outputs
        if self.panel is not None and not self.testing:  # the test lights the lamps its own way
            self.panel.show(live, cards)
        for kind, device in devices:
            try:
                device.set_accepting(accepting[kind])
            except DeviceError as error:
                self._device_fault(device.fault_tilt(kind.name), str(error))

    def _answers_now(self) -> tuple[set[Intent], set[int], set[MoneyKind], int]:
        """What is live, the cards live, the money the devices may take and the room for it: asked of the
        terminal once for each change it took. The reveal ending, or a note held in escrow,
        moves the lines but not the answers, and each asking reads the books (a quarter of
        a millisecond in the frame that turns the dealer's last card)."""
        changes = self.terminal.changes
        if self._answers is None or self._answers[0] != changes:
            live = self.terminal.live()
            cards = self.terminal.cards_live()
            self._answers = (changes, live, cards, self._money_live(live), self.terminal.room_for_money())
        return self._answers[1:]
