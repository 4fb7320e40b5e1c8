"""The pulse decoder on synthetic and recorded-style trains, and the coin acceptor on mock pins."""

from __future__ import annotations

import random

import pytest
from gpiozero.pins.mock import MockFactory

from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.pulses import Credit, Fault, Glitch, PulseDecoder, PulseTiming, Rejected

TABLE = {1: 50, 2: 100, 4: 200, 10: 500}


def play(decoder: PulseDecoder, edges: list[tuple[float, bool]], until: float) -> list[object]:
    events: list[object] = []
    for at, active in edges:
        events += decoder.edge(active, at)
    events += decoder.tick(until)
    return events


def train(start: float, pulses: int, width: float = 0.05, gap: float = 0.05) -> list[tuple[float, bool]]:
    edges = []
    for i in range(pulses):
        begin = start + i * (width + gap)
        edges += [(begin, True), (begin + width, False)]
    return edges


@pytest.mark.parametrize(("pulses", "value"), sorted(TABLE.items()))
def test_each_coin_is_its_pulse_count(pulses: int, value: int) -> None:
    assert play(PulseDecoder(TABLE), train(0.0, pulses), until=5.0) == [Credit(value, pulses)]


def test_nothing_is_credited_before_the_train_ends() -> None:
    decoder = PulseDecoder(TABLE)
    events = play(decoder, train(0.0, 2), until=0.15 + 0.1)
    assert events == []
    assert decoder.tick(0.15 + 0.25) == [Credit(100, 2)]
    assert decoder.tick(10.0) == [], "never credited twice"


def test_back_to_back_coins_are_two_coins() -> None:
    edges = train(0.0, 4) + train(0.35 + 0.25, 1)
    assert play(PulseDecoder(TABLE), edges, until=5.0) == [Credit(200, 4), Credit(50, 1)]


def test_a_glitch_inside_a_train_is_noise_not_a_pulse() -> None:
    edges = train(0.0, 2)
    edges.insert(2, (0.055, True))
    edges.insert(3, (0.058, False))
    events = play(PulseDecoder(TABLE), sorted(edges), until=5.0)
    assert events == [Glitch(pytest.approx(0.003)), Credit(100, 2)]


def test_a_train_that_matches_no_coin_is_rejected_not_guessed() -> None:
    assert play(PulseDecoder(TABLE), train(0.0, 3), until=5.0) == [Rejected(3)]


def test_a_held_line_is_a_fault_reported_once() -> None:
    decoder = PulseDecoder(TABLE)
    assert decoder.edge(True, 0.0) == []
    assert decoder.tick(0.1) == []
    assert decoder.tick(0.2) == [Fault("the line is held active: jammed or tampered")]
    assert decoder.tick(3.0) == []
    assert decoder.edge(False, 3.5) == []
    assert play(decoder, train(4.0, 1), until=9.0) == [Credit(50, 1)], "it works again once released"


def test_recorded_style_trains_with_jitter() -> None:
    """Pulse widths 30-70 ms and gaps 30-90 ms, as real acceptors wander, between coins
    spaced by 250-600 ms: every coin comes out, in order, none extra."""
    rng = random.Random(42)
    coins = [rng.choice(sorted(TABLE)) for _ in range(200)]
    edges, at = [], 0.0
    for pulses in coins:
        for _ in range(pulses):
            width = rng.uniform(0.03, 0.07)
            edges += [(at, True), (at + width, False)]
            at += width + rng.uniform(0.03, 0.09)
        at += rng.uniform(0.25, 0.6)
    events = play(PulseDecoder(TABLE), edges, until=at + 5)
    assert events == [Credit(TABLE[p], p) for p in coins]


def test_timing_must_make_sense() -> None:
    with pytest.raises(ValueError, match="min_width < max_width < train_gap"):
        PulseTiming(min_width=0.2, max_width=0.1)
    with pytest.raises(ValueError, match="pulse counts >= 1"):
        PulseDecoder({0: 50})


def test_the_acceptor_decodes_mock_pin_edges_and_drives_its_inhibit() -> None:
    factory = MockFactory()
    now = [0.0]
    acceptor = PulseAcceptor(17, 27, TABLE, pin_factory=factory, clock=lambda: now[0])
    pin = factory.pin(17)
    assert acceptor.inhibited, "inhibited until the machine says otherwise"
    assert factory.pin(27).state
    acceptor.inhibited = False
    assert not factory.pin(27).state
    for _ in range(2):
        pin.drive_low()
        now[0] += 0.05
        pin.drive_high()
        now[0] += 0.05
    assert acceptor.poll() == []
    now[0] += 0.3
    assert acceptor.poll() == [Credit(100, 2)]
    assert acceptor.poll() == []
    acceptor.close()


def test_merged_coins_read_as_one_train_and_are_credited_only_if_the_table_has_it() -> None:
    """Two coins whose trains run together (less than the train gap apart) are one train to
    any pulse acceptor: its count is credited if it is a coin, rejected otherwise, never
    split by guessing."""
    one_and_two = train(0.0, 1) + train(0.1, 2)  # a 50 and a 100 back to back: 3 pulses
    assert play(PulseDecoder(TABLE), one_and_two, until=5.0) == [Rejected(3)]
    two_and_two = train(0.0, 2) + train(0.2, 2)  # two 100s run together: 4 pulses, a 200
    assert play(PulseDecoder(TABLE), two_and_two, until=5.0) == [Credit(200, 4)]
