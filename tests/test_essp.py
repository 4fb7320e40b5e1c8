"""The SSP bill validator driver against a fake validator on the other end of the line."""

from __future__ import annotations

import pytest
from fake_essp import FakeValidator

from oasis_kiosk.hardware import essp
from oasis_kiosk.hardware.essp import (
    EsspValidator,
    NoteCredit,
    NoteEvent,
    NoteHeld,
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
    validator = EsspValidator(peer, CHANNELS, clock=peer.clock)
    validator.start()
    validator.set_enabled(True)
    peer.insert(3)
    events = [event for _ in range(5) for event in validator.poll()]
    assert events == [
        NoteHeld(2000, 3),
        NoteEvent("note_stacking"),
        NoteCredit(2000, 3),
        NoteEvent("note_stacked"),
    ]


def test_a_held_note_the_host_rejects_goes_back_uncredited(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS, clock=peer.clock)
    validator.start()
    validator.set_enabled(True)
    peer.insert(4)
    assert validator.poll() == []  # still reading
    assert validator.poll() == [NoteHeld(5000, 4)]
    validator.reject()
    events = [event for _ in range(4) for event in validator.poll()]
    assert events == [NoteEvent("note_rejecting"), NoteEvent("note_rejected")]
    assert peer.escrow is None


def test_a_note_read_on_a_channel_without_a_value_is_returned_and_a_fault(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, {1: 500}, clock=peer.clock)
    validator.start()
    peer.inhibit_mask = 0b11  # the validator was set up with a second channel
    validator.set_enabled(True)
    peer.insert(2)
    events = [event for _ in range(4) for event in validator.poll()]
    assert ValidatorFault("a note was read (returned) on channel 2, which has no value") in events
    assert NoteEvent("note_rejected") in events
    assert not [event for event in events if isinstance(event, NoteCredit)]


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


def polls_sent(peer: FakeValidator) -> list[bytes]:
    return [packet for packet in peer.received if packet[3] == essp.POLL]


@pytest.mark.parametrize("corrupt", [1, 2, 3, 10])
def test_corrupt_replies_repeat_the_same_poll_and_credit_the_note_once(
    peer: FakeValidator, corrupt: int
) -> None:
    validator = EsspValidator(peer, CHANNELS, clock=peer.clock)
    validator.start()
    peer.events = [bytes([essp.NOTE_CREDIT, 4]), bytes([essp.STACKED])]
    peer.corrupt_replies = corrupt  # the validator acted, but its answers arrive damaged
    assert validator.poll() == [NoteCredit(5000, 4)], "the repeated poll gets the same answer"
    sent = polls_sent(peer)
    assert len(sent) == corrupt + 1
    assert len(set(sent)) == 1, "every retry is the same packet, with the same sequence bit"
    assert validator.poll() == [NoteEvent("note_stacked")], "the good reply after is not a new credit"
    assert validator.poll() == []
    assert peer.commands.count(essp.POLL) == 3, "the validator acted once for each poll"
    assert len(set(polls_sent(peer)[-2:])) == 2, "the next poll toggles the sequence bit"


def test_lost_replies_are_retried_until_the_validator_answers(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS, clock=peer.clock)
    validator.start()
    peer.events = [bytes([essp.NOTE_CREDIT, 2])]
    peer.drop_replies = 12  # a second and more of silence, within the time-out
    assert validator.poll() == [NoteCredit(1000, 2)]
    assert validator.poll() == []
    assert peer.commands.count(essp.POLL) == 2


def test_a_silent_validator_is_a_fault_after_the_time_out_and_its_credit_is_kept(
    peer: FakeValidator,
) -> None:
    validator = EsspValidator(peer, CHANNELS, timeout=2.0, clock=peer.clock)
    validator.start()
    peer.events = [bytes([essp.NOTE_CREDIT, 1])]
    peer.drop_replies = 10**6
    began = peer.now
    (fault,) = validator.poll()
    assert isinstance(fault, ValidatorFault)
    assert "does not answer" in fault.reason
    assert 2.0 <= peer.now - began < 2.5, "it gives up after its time-out"
    began = peer.now
    assert validator.poll() == [], "still silent: the fault is not said again every frame"
    assert peer.now - began < 0.5, "nor does every frame wait the whole time-out"
    peer.drop_replies = 0  # the validator is back
    assert validator.poll() == [NoteCredit(500, 1)], "the same poll again: its credit is not lost"
    assert validator.poll() == []
    assert len(set(polls_sent(peer)[:-2])) == 1, "until it was answered, the one poll went out"
    assert peer.commands.count(essp.POLL) == 3


def test_a_reply_lost_before_another_command_is_not_lost(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS, timeout=1.0, clock=peer.clock)
    validator.start()
    peer.events = [bytes([essp.NOTE_CREDIT, 3])]
    peer.drop_replies = 10**6
    assert isinstance(validator.poll()[0], ValidatorFault)
    peer.drop_replies = 0
    validator.set_enabled(False)  # the unanswered poll goes first, then the new command
    assert peer.commands[-2:] == [essp.POLL, essp.DISABLE]
    assert validator.poll() == [NoteCredit(2000, 3)]
    assert validator.poll() == []


def test_a_validator_that_never_answers_is_a_fault() -> None:
    class Silent:
        now = 0.0

        def write(self, data: bytes) -> int:
            return len(data)

        def read(self, size: int = 1) -> bytes:
            self.now += 0.1
            return b""

        def close(self) -> None:
            pass

    port = Silent()
    validator = EsspValidator(port, CHANNELS, clock=lambda: port.now)
    assert validator.poll() == [ValidatorFault("the bill validator does not answer")]
    assert 3.0 <= port.now < 3.5, "a few seconds by default"


def test_a_refused_command_says_why(peer: FakeValidator) -> None:
    validator = EsspValidator(peer, CHANNELS)
    with pytest.raises(SspError, match="command cannot be processed now"):
        validator.command(essp.ENABLE)  # before SYNC


def test_channels_must_be_real() -> None:
    with pytest.raises(ValueError, match="channels are 1 to 16"):
        EsspValidator(FakeValidator(), {0: 500})
