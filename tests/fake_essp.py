"""A fake SSP bill validator for the tests: the validator's end of the serial line."""

from __future__ import annotations

from oasis_kiosk.hardware import essp
from oasis_kiosk.hardware.essp import crc16, encode


class FakeValidator:
    """The validator's side of the serial line: checks every packet the host sends (CRC,
    stuffing, address, sequence), acts on it once, and answers as a real unit would."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.events: list[bytes] = []
        self.commands: list[int] = []
        self.enabled = False
        self.inhibit_mask = 0
        self.synced = False
        self.expected_sequence: bool | None = None
        self.last_reply = b""
        self.drop_next_reply = False
        self.corrupt_next_reply = False

    def write(self, data: bytes) -> int:
        self.inbox += data
        self._serve()
        return len(data)

    def read(self, size: int = 1) -> bytes:
        chunk, self.outbox = bytes(self.outbox[:size]), self.outbox[size:]
        return chunk

    def _serve(self) -> None:
        assert self.inbox[0] == essp.STX
        raw = bytes(self.inbox[1:]).replace(b"\x7f\x7f", b"\x7f")
        self.inbox.clear()
        header, length = raw[0], raw[1]
        data, crc = raw[2 : 2 + length], raw[2 + length] | raw[3 + length] << 8
        assert crc == crc16(raw[: 2 + length]), "the host sent a bad CRC"
        assert header & 0x7F == 0, "the host addressed another unit"
        sequence = bool(header & 0x80)
        if data[0] != essp.SYNC and self.expected_sequence is not None and sequence != self.expected_sequence:
            reply = self.last_reply  # a retransmission: answer again, do not act again
        else:
            reply = self._act(data)
            self.expected_sequence = not sequence
        self.last_reply = reply
        packet = encode(sequence, 0, reply)
        if self.corrupt_next_reply:
            self.corrupt_next_reply = False
            packet = packet[:-1] + bytes([packet[-1] ^ 0xFF])
        if self.drop_next_reply:
            self.drop_next_reply = False
            return
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
        elif code == essp.POLL:
            events = self.events.pop(0) if self.events else b""
            return bytes([essp.OK]) + events
        elif code not in (essp.SYNC,):
            return bytes([0xF2])
        return bytes([essp.OK])
