"""The SSP bill validator driver against a fake validator on the other end of the line."""

from __future__ import annotations

import pytest
from fake_essp import FakeValidator

from oasis_kiosk.hardware import essp
from oasis_kiosk.hardware.essp import (
    EsspValidator,
    NoteCredit,
    NoteEvent,
    SspError,
    ValidatorFault,
    encode,
)

CHANNELS = {1: 500, 2: 1000, 3: 2000, 4: 5000}


@pytest.fixture
def peer() -> FakeValidator:
    return FakeValidator()


def test_the_crc_is_the_ssp_crc() -> None:
    # A SYNC packet to unit 0 with the sequence bit set, as ITL's documents give it.
    assert encode(True, 0, bytes([essp.SYNC])) == bytes([0x7F, 0x80, 0x01, 0x11, 0x65, 0x82])


def test_a_7f_inside_a_packet_is_sent_twice() -> None:
    packet = encode(False, 0, bytes([0x7F, 0x01]))
    assert packet[0] == 0x7F
    assert packet[1:].count(b"\x7f\x7f") >= 1
    assert bytes(packet[1:]).replace(b"\x7f\x7f", b"\x7f")[2:4] == b"\x7f\x01"


def test_start_syncs_sets_the_channels_and_leaves_it_disabled(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS)
    validator.start()
    assert peer.commands == [essp.SYNC, essp.SET_INHIBITS, essp.DISABLE]
    assert peer.inhibit_mask == 0b1111
    assert not peer.enabled
    validator.set_enabled(True)
    assert peer.enabled


def test_a_note_is_credited_only_on_the_credit_event(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS)
    validator.start()
    peer.events = [
        bytes([essp.NOTE_READ, 0]),
        bytes([essp.NOTE_READ, 3, essp.STACKING]),
        bytes([essp.NOTE_CREDIT, 3, essp.STACKING]),
        bytes([essp.STACKED]),
        bytes([essp.NOTE_READ, 2, essp.REJECTING]),
        bytes([essp.REJECTED]),
    ]
    events = [event for _ in range(6) for event in validator.poll()]
    assert [e for e in events if isinstance(e, NoteCredit)] == [NoteCredit(2000, 3)]
    assert NoteEvent("note_read", 3) in events
    assert NoteEvent("note_rejected") in events


def test_jams_fraud_and_a_removed_cashbox_are_faults(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS)
    validator.start()
    peer.events = [bytes([essp.UNSAFE_JAM]), bytes([essp.FRAUD, 2]), bytes([essp.CASHBOX_REMOVED])]
    faults = [event for _ in range(3) for event in validator.poll()]
    assert faults == [
        ValidatorFault("a note is jammed in the validator's path (unsafe jam)"),
        ValidatorFault("the validator reports a fraud attempt"),
        ValidatorFault("the cashbox was removed"),
    ]


def test_a_lost_reply_is_retried_without_acting_twice(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS)
    validator.start()
    peer.events = [bytes([essp.NOTE_CREDIT, 4])]
    peer.drop_next_reply = True  # the validator acted, but its answer was lost
    assert validator.poll() == [NoteCredit(5000, 4)], "the retry gets the same answer"
    assert validator.poll() == [], "and the note is not credited twice"
    assert peer.commands.count(essp.POLL) == 2


def test_a_corrupt_reply_is_retried_then_a_silent_validator_is_a_fault(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS)
    validator.start()
    peer.corrupt_next_reply = True
    peer.events = [bytes([essp.NOTE_CREDIT, 1])]
    assert validator.poll() == [NoteCredit(500, 1)]

    class Silent:
        def write(self, data: bytes) -> int:
            return len(data)

        def read(self, size: int = 1) -> bytes:
            return b""

    assert EsspValidator(Silent(), CHANNELS).poll() == [ValidatorFault("the bill validator does not answer")]


def test_a_refused_command_says_why(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS)
    with pytest.raises(SspError, match="command cannot be processed now"):
        validator.command(essp.ENABLE)  # before SYNC


def test_channels_must_be_real() -> None:
    with pytest.raises(ValueError, match="channels are 1 to 16"):
        EsspValidator(FakeValidator(), {0: 500})
