"""A bill validator on ITL's SSP serial protocol (NV9, NV10, NV200...), unencrypted.

Packets are ``STX SEQ/ID LEN DATA CRCL CRCH``: STX is 0x7F; the top bit of SEQ/ID flips
with every new command (a repeated command keeps it, so the validator answers a retry
without acting twice); the CRC is the forward CRC-16 (polynomial 0x8005, seed 0xFFFF) of
everything after STX; and any 0x7F after STX is sent twice.

A command whose reply is lost or corrupt is sent again, the same packet with the same
sequence bit, until the validator answers: it answers a repeated sequence bit with its last
reply again instead of acting twice, so no event is lost or doubled. Silence for the whole
time-out is a fault (the terminal tilts), and the unanswered command still goes first when
the validator answers again.

The host polls; each reply lists events. A note read with its channel is held in escrow:
the next poll stacks it, unless the host rejects it first (the cabinet does when it would
take the credits past their limit). A note is credited **only** on the "note credit"
event, which the validator sends once the note is past the point of return. A jam, a fraud
attempt or a removed cashbox is reported as a fault (the terminal tilts).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from oasis_kiosk.config import ConfigError, EsspDevice
from oasis_kiosk.hardware import money
from oasis_kiosk.hardware.money import DeviceError
from oasis_kiosk.hardware.serial_port import LineSettings, Port
from oasis_kiosk.hardware.wires import Wires

LINE = LineSettings(baud=9600, stop_bits=2)
"""ITL's units talk 8N2 at 9600 baud."""
STX = 0x7F

SYNC, RESET, SET_INHIBITS, POLL, REJECT, DISABLE, ENABLE = 0x11, 0x01, 0x02, 0x07, 0x08, 0x09, 0x0A
HOST_PROTOCOL = 0x06
OK = 0xF0
REPLIES = {
    0xF2: "command not known",
    0xF3: "wrong number of parameters",
    0xF4: "parameter out of range",
    0xF5: "command cannot be processed now",
    0xF6: "software error",
    0xF8: "command failed",
    0xFA: "encryption key not set",
}
# Poll events that carry a channel byte after them.
WITH_CHANNEL = {0xEF, 0xEE, 0xE6, 0xE1, 0xE2}
NOTE_READ, NOTE_CREDIT, REJECTING, REJECTED, STACKING, STACKED = 0xEF, 0xEE, 0xED, 0xEC, 0xCC, 0xEB
SAFE_JAM, UNSAFE_JAM, DISABLED, FRAUD, STACKER_FULL = 0xEA, 0xE9, 0xE8, 0xE6, 0xE7
CLEARED_FRONT, CLEARED_CASHBOX, CASHBOX_REMOVED, CASHBOX_REPLACED, SLAVE_RESET = 0xE1, 0xE2, 0xE3, 0xE4, 0xF1
FAULTS = {
    SAFE_JAM: "a note is jammed inside the validator (safe jam)",
    UNSAFE_JAM: "a note is jammed in the validator's path (unsafe jam)",
    FRAUD: "the validator reports a fraud attempt",
    STACKER_FULL: "the validator's stacker is full",
    CASHBOX_REMOVED: "the cashbox was removed",
}


class SspError(DeviceError):
    """The validator does not answer, or answers nonsense: a fault."""


def crc16(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x8005) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def encode(sequence: bool, address: int, data: bytes) -> bytes:
    """One packet, stuffed, ready for the wire."""
    body = bytes([(0x80 if sequence else 0) | address, len(data)]) + data
    crc = crc16(body)
    body += bytes([crc & 0xFF, crc >> 8])
    return bytes([STX]) + body.replace(b"\x7f", b"\x7f\x7f")


def read_packet(port: Port) -> tuple[int, bytes]:
    """Reads one packet (unstuffing it); returns its SEQ/ID byte and its data."""

    def byte() -> int:
        got = port.read(1)
        if not got:
            raise SspError("the bill validator does not answer")
        return got[0]

    while byte() != STX:
        pass  # noise before the start of a packet

    def unstuffed() -> int:
        value = byte()
        if value == STX and byte() != STX:
            raise SspError("a packet broke off: a lone STX inside it")
        return value

    header = bytes([unstuffed(), unstuffed()])
    data = bytes(unstuffed() for _ in range(header[1]))
    crc = unstuffed() | unstuffed() << 8
    if crc != crc16(header + data):
        raise SspError("a reply from the bill validator failed its CRC")
    return header[0], data


@dataclass(frozen=True)
class NoteCredit:
    value: int
    channel: int


@dataclass(frozen=True)
class NoteHeld:
    """A note read and held in escrow: the next poll stacks it, ``reject()`` returns it."""

    value: int
    channel: int


@dataclass(frozen=True)
class NoteEvent:
    """Something that moves no money: a note rejected, stacked, a cashbox put back."""

    name: str
    channel: int | None = None


@dataclass(frozen=True)
class ValidatorFault:
    reason: str


BillEvent = NoteCredit | NoteHeld | NoteEvent | ValidatorFault
NOTE_GONE = {
    "note_rejecting",
    "note_rejected",
    "note_cleared_from_front",
    "note_cleared_to_cashbox",
    "validator_reset",
}
"""The validator's events after which no note is held in escrow any more."""
NAMES = {
    REJECTING: "note_rejecting",
    REJECTED: "note_rejected",
    STACKING: "note_stacking",
    STACKED: "note_stacked",
    DISABLED: "validator_disabled",
    CLEARED_FRONT: "note_cleared_from_front",
    CLEARED_CASHBOX: "note_cleared_to_cashbox",
    CASHBOX_REPLACED: "cashbox_replaced",
    SLAVE_RESET: "validator_reset",
}


class EsspValidator:
    def __init__(
        self,
        port: Port,
        channel_values: dict[int, int],
        *,
        address: int = 0,
        timeout: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``timeout``: seconds of silence or corrupt replies to one command before it is a
        fault; ``clock`` measures them."""
        if not channel_values or not all(1 <= c <= 16 and v > 0 for c, v in channel_values.items()):
            raise ConfigError(f"channels are 1 to 16 with positive values, not {channel_values}")
        if not timeout > 0:
            raise ConfigError(f"the time-out is a positive number of seconds, not {timeout}")
        self.port = port
        self.channel_values = dict(channel_values)
        self.address = address
        self.timeout = timeout
        self._clock = clock
        self._sequence = False
        self._unanswered: tuple[int, bytes] | None = None
        """A command sent whose reply never came through: it is sent again before any other."""
        self._silent = False
        """A command timed out: until the validator answers, each call tries only once."""
        self._timeouts = 0
        """How many times the validator fell silent for a whole time-out."""
        self._held_back: list[BillEvent] = []
        """Events of a late poll reply that came in while another command went out."""
        self._return_held = False
        """A note read on a channel without a value waits in escrow to be returned."""
        self.enabled = False
        self._held: money.Held | None = None
        """The note held in escrow, as the polls have told it."""

    def command(self, code: int, data: bytes = b"") -> bytes:
        """Sends a command and returns the reply's data after the OK byte. A command left
        unanswered before is first sent again until the validator answers it."""
        if self._unanswered is not None:
            code_before, packet = self._unanswered
            late = self._exchange(packet)
            self._unanswered = None
            if code_before == POLL:
                self._held_back += self._events(self._accepted(POLL, late))
        self._sequence = not self._sequence
        packet = encode(self._sequence, self.address, bytes([code]) + data)
        self._unanswered = (code, packet)
        reply = self._exchange(packet)
        self._unanswered = None
        return self._accepted(code, reply)

    def _exchange(self, packet: bytes) -> bytes:
        """Sends ``packet`` again and again until a good reply in its sequence comes back, and
        returns that reply; SspError after the time-out (after one try when it timed out
        before: a dead validator must not hold up every frame)."""
        deadline = self._clock() + (0.0 if self._silent else self.timeout)
        while True:
            self.port.write(packet)
            try:
                header, reply = read_packet(self.port)
                if header & 0x7F != self.address or bool(header & 0x80) != bool(packet[1] & 0x80):
                    raise SspError("the bill validator answered out of sequence")
            except SspError as problem:
                if self._clock() >= deadline:
                    self._timeouts += 0 if self._silent else 1
                    self._silent = True
                    raise problem from None
                continue
            self._silent = False
            return reply

    @staticmethod
    def _accepted(code: int, reply: bytes) -> bytes:
        if not reply:
            raise SspError("an empty reply from the bill validator")
        if reply[0] != OK:
            meaning = REPLIES.get(reply[0], f"reply {reply[0]:#04x}")
            raise SspError(f"the bill validator refused command {code:#04x}: {meaning}")
        return reply[1:]

    def start(self) -> None:
        """SYNC, then accept every configured channel; the validator stays disabled."""
        self._sequence = False  # SYNC goes out with the bit set; the next command clears it
        self.command(SYNC)
        mask = sum(1 << (channel - 1) for channel in self.channel_values)
        self.command(SET_INHIBITS, bytes([mask & 0xFF, mask >> 8]))
        self.set_enabled(False)

    def set_enabled(self, enabled: bool) -> None:
        self.command(ENABLE if enabled else DISABLE)
        self.enabled = enabled

    def reject(self) -> None:
        """Returns the note held in escrow to the customer (SspError if none is held)."""
        self.command(REJECT)

    def poll(self) -> list[BillEvent]:
        """What the validator reports. Silence or nonsense for the whole time-out is one
        fault; while it lasts, further polls report nothing more."""
        timeouts = self._timeouts
        try:
            events = self._events(self.command(POLL))
        except SspError as error:
            still_silent = self._silent and self._timeouts == timeouts
            events = [] if still_silent else [ValidatorFault(str(error))]
        if self._return_held:  # a note of no known value: back to the customer
            self._return_held = False
            try:
                self.reject()
            except SspError as error:
                events.append(ValidatorFault(str(error)))
        held_back, self._held_back = self._held_back, []
        return held_back + events

    def money_events(self, kind: str) -> list[money.MoneyEvent]:
        """The validator's events as the cabinet's: a note held in escrow waits for the
        cabinet to take it (the next poll stacks it) or to refuse it."""
        events: list[money.MoneyEvent] = []
        for event in self.poll():
            match event:
                case NoteHeld(value=value, channel=channel):
                    self._held = money.Held(value, "note_read", "note", {"channel": channel, "value": value})
                    events.append(self._held)
                case NoteCredit(value=value):
                    self._held = None
                    events.append(money.Credit(value))
                case NoteEvent(name=name, channel=channel):
                    if name in NOTE_GONE:
                        self._held = None
                    events.append(money.Report(name, {"channel": channel}))
                case ValidatorFault(reason=reason):
                    events.append(money.Fault(self.fault_tilt(kind), reason))
        return events

    @property
    def largest(self) -> None:
        """Each note waits in escrow for the cabinet to take or refuse it by its value."""
        return None

    @property
    def held(self) -> money.Held | None:
        return self._held

    def refuse_held(self) -> None:
        self._held = None
        self.reject()

    def set_accepting(self, accepting: bool) -> None:
        if self.enabled != accepting:
            self.set_enabled(accepting)

    def fault_tilt(self, kind: str) -> str:
        return "bill_validator"

    def close(self) -> None:
        self.port.close()

    def _events(self, reply: bytes) -> list[BillEvent]:
        events: list[BillEvent] = []
        i = 0
        while i < len(reply):
            code = reply[i]
            channel = reply[i + 1] if code in WITH_CHANNEL and i + 1 < len(reply) else None
            i += 2 if code in WITH_CHANNEL else 1
            if code in (NOTE_CREDIT, NOTE_READ):
                if code == NOTE_READ and not channel:
                    continue  # still reading: nothing to say yet
                value = self.channel_values.get(channel or 0)
                if value is None:
                    what = "credited" if code == NOTE_CREDIT else "read (returned)"
                    events.append(
                        ValidatorFault(f"a note was {what} on channel {channel}, which has no value")
                    )
                    self._return_held = self._return_held or code == NOTE_READ
                elif code == NOTE_CREDIT:
                    events.append(NoteCredit(value, channel or 0))
                else:
                    events.append(NoteHeld(value, channel or 0))
            elif code in FAULTS:
                events.append(ValidatorFault(FAULTS[code]))
            elif code in NAMES:
                events.append(NoteEvent(NAMES[code], channel))
            else:
                events.append(NoteEvent(f"unknown_event_{code:#04x}"))
        return events


def build_validator(settings: EsspDevice, wires: Wires) -> EsspValidator:
    """A note validator on SSP at its serial port, as ``[devices]`` wires it, started."""
    validator = EsspValidator(wires.open_port("port", settings.port, LINE), settings.channels)
    validator.start()
    return validator
