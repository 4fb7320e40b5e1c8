"""A bill validator on ITL's SSP serial protocol (NV9, NV10, NV200...), unencrypted.

Packets are ``STX SEQ/ID LEN DATA CRCL CRCH``: STX is 0x7F; the top bit of SEQ/ID flips
with every new command (a repeated command keeps it, so the validator answers a retry
without acting twice); the CRC is the forward CRC-16 (polynomial 0x8005, seed 0xFFFF) of
everything after STX; and any 0x7F after STX is sent twice.

The host polls; each reply lists events. A note is credited **only** on the "note credit"
event, which the validator sends once the note is past the point of return. A jam, a fraud
attempt or a removed cashbox is reported as a fault (the terminal tilts); silence or a
corrupt reply after a retry is a fault too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

STX = 0x7F

SYNC, RESET, SET_INHIBITS, POLL, DISABLE, ENABLE, HOST_PROTOCOL = 0x11, 0x01, 0x02, 0x07, 0x09, 0x0A, 0x06
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


class Port(Protocol):
    """What the driver needs of a serial port (a ``serial.Serial`` has it)."""

    def write(self, data: bytes, /) -> int | None: ...

    def read(self, size: int = 1, /) -> bytes: ...


class SspError(Exception):
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
class NoteEvent:
    """Something that moves no money: a note read, rejected, stacked, a cashbox put back."""

    name: str
    channel: int | None = None


@dataclass(frozen=True)
class ValidatorFault:
    reason: str


BillEvent = NoteCredit | NoteEvent | ValidatorFault
NAMES = {
    NOTE_READ: "note_read",
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
        retries: int = 1,
        sleep: float = 0.0,
    ) -> None:
        if not channel_values or not all(1 <= c <= 16 and v > 0 for c, v in channel_values.items()):
            raise ValueError(f"channels are 1 to 16 with positive values, not {channel_values}")
        self.port = port
        self.channel_values = dict(channel_values)
        self.address = address
        self.retries = retries
        self._sleep = sleep
        self._sequence = False
        self.enabled = False

    def command(self, code: int, data: bytes = b"") -> bytes:
        """Sends a command and returns the reply's data after the OK byte."""
        self._sequence = not self._sequence
        packet = encode(self._sequence, self.address, bytes([code]) + data)
        error: SspError | None = None
        for _ in range(self.retries + 1):
            self.port.write(packet)
            try:
                header, reply = read_packet(self.port)
            except SspError as problem:
                error = problem
                time.sleep(self._sleep)
                continue
            if header & 0x7F != self.address or bool(header & 0x80) != self._sequence:
                error = SspError("the bill validator answered out of sequence")
                continue
            if not reply:
                raise SspError("an empty reply from the bill validator")
            if reply[0] != OK:
                meaning = REPLIES.get(reply[0], f"reply {reply[0]:#04x}")
                raise SspError(f"the bill validator refused command {code:#04x}: {meaning}")
            return reply[1:]
        raise error or SspError("the bill validator does not answer")

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

    def poll(self) -> list[BillEvent]:
        try:
            reply = self.command(POLL)
        except SspError as error:
            return [ValidatorFault(str(error))]
        events: list[BillEvent] = []
        i = 0
        while i < len(reply):
            code = reply[i]
            channel = reply[i + 1] if code in WITH_CHANNEL and i + 1 < len(reply) else None
            i += 2 if code in WITH_CHANNEL else 1
            if code == NOTE_CREDIT:
                value = self.channel_values.get(channel or 0)
                if value is None:
                    events.append(
                        ValidatorFault(f"a note was credited on channel {channel}, which has no value")
                    )
                else:
                    events.append(NoteCredit(value, channel or 0))
            elif code in FAULTS:
                events.append(ValidatorFault(FAULTS[code]))
            elif code in NAMES:
                if not (code == NOTE_READ and channel == 0):  # still reading: nothing to say yet
                    events.append(NoteEvent(NAMES[code], channel))
            else:
                events.append(NoteEvent(f"unknown_event_{code:#04x}"))
        return events
