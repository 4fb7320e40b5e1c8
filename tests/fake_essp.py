"""A fake SSP bill validator for the tests: the validator's end of the serial line."""

from __future__ import annotations

from oasis_kiosk.hardware import essp
from oasis_kiosk.hardware.essp import crc16, encode

READ_TIMEOUT = 0.1
"""Seconds a read waits for a byte that does not come (the serial port's time-out)."""
BYTE_TIME = 11 / 9600
"""Seconds one byte takes on the line at 9600 baud, 8N2."""


class FakeValidator:
    """The validator's side of the serial line: checks every packet the host sends (CRC,
    stuffing, address, sequence), acts on a command whose sequence bit is new, answers a
    repeated one with its last reply again without acting, and keeps time as the line
    would (``clock``): a byte takes its time, a missing reply the read time-out."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.events: list[bytes] = []
        """The payloads the coming polls answer with, one a poll, after OK."""
        self.commands: list[int] = []
        """The commands acted on (a repeated one is not acted on again)."""
        self.received: list[bytes] = []
        """Every packet the host sent, as sent."""
        self.enabled = False
        self.inhibit_mask = 0
        self.synced = False
        self.last_sequence: bool | None = None
        self.last_reply = b""
        self.escrow: int | None = None
        """The channel of the note held in escrow: the next poll stacks it."""
        self.drop_replies = 0
        """This many coming replies are lost on the line."""
        self.corrupt_replies = 0
        """This many coming replies arrive with a bad CRC."""
        self.closed = False
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def insert(self, channel: int) -> None:
        """A customer pushes in a note of ``channel``: the coming polls see it read, then held
        in escrow (read with its channel) until the host stacks it (its next poll) or rejects
        it. A disabled validator or an inhibited channel returns it by itself."""
        self.events.append(bytes([essp.NOTE_READ, 0]))
        if self.enabled and self.inhibit_mask >> (channel - 1) & 1:
            self.events.append(bytes([essp.NOTE_READ, channel]))
        else:
            self.events += [bytes([essp.REJECTING]), bytes([essp.REJECTED])]

    def write(self, data: bytes) -> int:
        self.now += len(data) * BYTE_TIME
        self.inbox += data
        self._serve()
        return len(data)

    def read(self, size: int = 1) -> bytes:
        chunk, self.outbox = bytes(self.outbox[:size]), self.outbox[size:]
        self.now += len(chunk) * BYTE_TIME if chunk else READ_TIMEOUT
        return chunk

    def close(self) -> None:
        self.closed = True

    def _serve(self) -> None:
        assert self.inbox[0] == essp.STX
        self.received.append(bytes(self.inbox))
        raw = bytes(self.inbox[1:]).replace(b"\x7f\x7f", b"\x7f")
        self.inbox.clear()
        header, length = raw[0], raw[1]
        data, crc = raw[2 : 2 + length], raw[2 + length] | raw[3 + length] << 8
        assert crc == crc16(raw[: 2 + length]), "the host sent a bad CRC"
        assert header & 0x7F == 0, "the host addressed another unit"
        sequence = bool(header & 0x80)
        if data[0] != essp.SYNC and sequence == self.last_sequence:
            reply = self.last_reply  # the same sequence bit again: the host lost the reply
        else:
            reply = self._act(data)
            self.last_sequence, self.last_reply = sequence, reply
        packet = encode(sequence, 0, reply)
        if self.drop_replies:
            self.drop_replies -= 1
            return
        if self.corrupt_replies:
            self.corrupt_replies -= 1
            packet = packet[:-1] + bytes([packet[-1] ^ 0xFF])
        self.outbox += packet

    def _act(self, data: bytes) -> bytes:
        code = data[0]
        self.commands.append(code)
        if code == essp.SYNC:
            self.synced = True
        elif not self.synced:
            return bytes([0xF5])
        if code == essp.SET_INHIBITS:
            self.inhibit_mask = data[1] | data[2] << 8
        elif code in (essp.ENABLE, essp.DISABLE):
            self.enabled = code == essp.ENABLE
        elif code == essp.REJECT:
            if self.escrow is None:
                return bytes([0xF5])  # no note to return
            self.escrow = None
            self.events[:0] = [bytes([essp.REJECTING]), bytes([essp.REJECTED])]
        elif code == essp.POLL:
            if self.escrow is not None:  # the host let it go: the note is stacked
                self.events[:0] = [
                    bytes([essp.STACKING]),
                    bytes([essp.NOTE_CREDIT, self.escrow, essp.STACKED]),
                ]
                self.escrow = None
            events = self.events.pop(0) if self.events else b""
            if len(events) >= 2 and events[0] == essp.NOTE_READ and events[1]:
                self.escrow = events[1]
            return bytes([essp.OK]) + events
        elif code != essp.SYNC:
            return bytes([0xF2])
        return bytes([essp.OK])
