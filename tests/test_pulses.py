"""The pulse decoder on synthetic and recorded-style trains, and the coin acceptor on mock pins."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from support import books

from oasis_kiosk.config import PulseTiming, load_config
from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.build import build_cabinet
from oasis_kiosk.hardware.pulses import (
    AmbiguousTrain,
    KnownTrain,
    PulseDecoder,
    ShortPulse,
    StuckLine,
    UnknownTrain,
)
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.terminal import Terminal

TABLE = {1: 50, 2: 100, 4: 200, 10: 500}


def play(decoder: PulseDecoder, edges: list[tuple[float, bool]], until: float) -> list[object]:
    events: list[object] = []
    for at, active in edges:
        events += decoder.edge(active, at)
    events += decoder.tick(until)
    return events


def rounded(events: list[object]) -> list[object]:
    """The events with each glitch's width to the microsecond, to compare them exactly."""
    return [ShortPulse(round(event.width, 6)) if isinstance(event, ShortPulse) else event for event in events]


def train(start: float, pulses: int, width: float = 0.05, gap: float = 0.05) -> list[tuple[float, bool]]:
    edges = []
    for i in range(pulses):
        begin = start + i * (width + gap)
        edges += [(begin, True), (begin + width, False)]
    return edges


@pytest.mark.parametrize(("pulses", "value"), sorted(TABLE.items()))
def test_each_coin_is_its_pulse_count(pulses: int, value: int) -> None:
    assert play(PulseDecoder(TABLE), train(0.0, pulses), until=5.0) == [KnownTrain(value, pulses)]


def test_nothing_is_credited_before_the_train_ends() -> None:
    decoder = PulseDecoder(TABLE)
    events = play(decoder, train(0.0, 2), until=0.15 + 0.1)
    assert events == []
    assert decoder.tick(0.15 + 0.25) == [KnownTrain(100, 2)]
    assert decoder.tick(10.0) == [], "never credited twice"


def test_back_to_back_coins_are_two_coins() -> None:
    edges = train(0.0, 4) + train(0.35 + 0.25, 1)
    assert play(PulseDecoder(TABLE), edges, until=5.0) == [KnownTrain(200, 4), KnownTrain(50, 1)]


def test_a_lone_spike_is_a_glitch_and_credits_nothing() -> None:
    edges = [(1.0, True), (1.003, False)]
    assert rounded(play(PulseDecoder(TABLE), edges, until=5.0)) == [ShortPulse(0.003)]


def test_a_spike_between_the_pulses_of_a_train_is_noise_not_a_pulse() -> None:
    edges = sorted([*train(0.0, 2), (0.070, True), (0.074, False)])  # pulses 0-50 and 100-150 ms
    events = play(PulseDecoder(TABLE), edges, until=5.0)
    assert rounded(events) == [ShortPulse(0.004), KnownTrain(100, 2)]


def test_a_short_dropout_inside_a_pulse_is_bridged_one_pulse_not_two() -> None:
    """The first pulse (0-50 ms) drops out from 20 to 21.5 ms: still one pulse."""
    edges = sorted([*train(0.0, 2), (0.020, False), (0.0215, True)])
    assert play(PulseDecoder(TABLE), edges, until=5.0) == [KnownTrain(100, 2)]
    # The same coin with two dropouts in each pulse.
    edges = sorted([*train(0.0, 4), *[(at + d, up) for at in (0.0, 0.1, 0.2, 0.3) for d, up in DROPS]])
    assert play(PulseDecoder(TABLE), edges, until=5.0) == [KnownTrain(200, 4)]


DROPS = [(0.010, False), (0.012, True), (0.030, False), (0.0335, True)]


def test_a_dropout_longer_than_bridged_is_ambiguous_never_an_extra_pulse() -> None:
    """Bridging only 1 ms, the 1.5 ms dropout splits the first pulse in two, 1.5 ms apart:
    closer than any two pulses of a train, so the train is not credited at all (3 pulses
    would be no coin here, but 1 + 1 could have read as a 100)."""
    timing = PulseTiming(dropout_ms=1)
    edges = sorted([*train(0.0, 1), (0.020, False), (0.0215, True)])
    assert play(PulseDecoder(TABLE, timing), edges, until=5.0) == [
        AmbiguousTrain(2, "a gap of 1.5 ms after pulse 1, outside 10 to 150 ms")
    ]


def test_two_trains_closer_than_the_end_of_coin_quiet_are_ambiguous_not_a_third_coin() -> None:
    """A 100 (2 pulses, 0-150 ms) and a 50 starting 170 ms later: longer than any gap
    inside a train, shorter than the quiet that ends one. Never credited as a 4-pulse 200."""
    edges = train(0.0, 2) + train(0.15 + 0.17, 1)
    assert play(PulseDecoder(TABLE), edges, until=5.0) == [
        AmbiguousTrain(3, "a gap of 170 ms after pulse 2, outside 10 to 150 ms")
    ]
    two_hundreds = train(0.0, 2) + train(0.15 + 0.18, 2)
    assert play(PulseDecoder(TABLE), two_hundreds, until=5.0) == [
        AmbiguousTrain(4, "a gap of 180 ms after pulse 2, outside 10 to 150 ms")
    ]
    # 210 ms apart, the quiet has ended the first train: two coins.
    apart = train(0.0, 2) + train(0.15 + 0.21, 2)
    assert play(PulseDecoder(TABLE), apart, until=5.0) == [KnownTrain(100, 2), KnownTrain(100, 2)]


def test_a_train_cut_by_a_held_line_is_ambiguous_and_the_line_a_fault() -> None:
    edges = [(0.0, True), (0.05, False), (0.1, True), (0.4, False)]
    assert play(PulseDecoder(TABLE), edges, until=5.0) == [
        AmbiguousTrain(1, "the line was held active after pulse 1"),
        StuckLine("the line is held active: jammed or tampered"),
    ]


def test_a_train_that_matches_no_coin_is_rejected_not_guessed() -> None:
    assert play(PulseDecoder(TABLE), train(0.0, 3), until=5.0) == [UnknownTrain(3)]


def test_a_held_line_is_a_fault_reported_once() -> None:
    decoder = PulseDecoder(TABLE)
    assert decoder.edge(True, 0.0) == []
    assert decoder.tick(0.1) == []
    assert decoder.tick(0.2) == [StuckLine("the line is held active: jammed or tampered")]
    assert decoder.tick(3.0) == []
    assert decoder.edge(False, 3.5) == []
    assert play(decoder, train(4.0, 1), until=9.0) == [KnownTrain(50, 1)], "it works again once released"


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
    assert events == [KnownTrain(TABLE[p], p) for p in coins]


def test_recorded_style_trains_with_noise_and_dropouts() -> None:
    """The same wandering trains with a 1-4 ms dropout in the middle of every pulse and a
    1-8 ms spike in the middle of every gap: every coin comes out, in order, none extra."""
    rng = random.Random(7)
    coins = [rng.choice(sorted(TABLE)) for _ in range(200)]
    edges, at, spikes = [], 0.0, 0
    for pulses in coins:
        for number in range(pulses):
            width, gap = rng.uniform(0.03, 0.07), rng.uniform(0.03, 0.09)
            middle, drop = at + width / 2, rng.uniform(0.001, 0.004)
            edges += [(at, True), (middle, False), (middle + drop, True), (at + width, False)]
            if number < pulses - 1:
                spike = at + width + gap / 2
                edges += [(spike, True), (spike + rng.uniform(0.001, 0.008), False)]
                spikes += 1
            at += width + gap
        at += rng.uniform(0.25, 0.6)
    events = play(PulseDecoder(TABLE), edges, until=at + 5)
    assert [e for e in events if not isinstance(e, ShortPulse)] == [KnownTrain(TABLE[p], p) for p in coins]
    assert sum(isinstance(e, ShortPulse) for e in events) == spikes


def test_timing_must_make_sense() -> None:
    with pytest.raises(ValueError, match="pulse_min_ms 200 < pulse_max_ms 150 is false"):
        PulseTiming(pulse_min_ms=200)
    with pytest.raises(ValueError, match="gap_max_ms 150 < quiet_ms 150 is false"):
        PulseTiming(quiet_ms=150)
    with pytest.raises(ValueError, match="dropout_ms 10 < gap_min_ms 10 is false"):
        PulseTiming(dropout_ms=10)
    with pytest.raises(ValueError, match=r"dropout_ms: a whole number of milliseconds, 1 or more, not 0\.5"):
        PulseTiming(dropout_ms=0.5)  # type: ignore[arg-type]
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
    assert acceptor.poll() == [KnownTrain(100, 2)]
    assert acceptor.poll() == []
    acceptor.close()


def test_merged_coins_at_the_trains_own_spacing_are_one_train() -> None:
    """Two trains run together at the spacing of one train's own pulses are one train to
    any decoder: its count is credited if it is a coin, rejected otherwise, never split by
    guessing. (An acceptor finishes one coin's train before the next: docs/cabinet.md.)"""
    one_and_two = train(0.0, 1) + train(0.1, 2)  # a 50 and a 100 back to back: 3 pulses
    assert play(PulseDecoder(TABLE), one_and_two, until=5.0) == [UnknownTrain(3)]
    two_and_two = train(0.0, 2) + train(0.2, 2)  # two 100s run together: 4 pulses, a 200
    assert play(PulseDecoder(TABLE), two_and_two, until=5.0) == [KnownTrain(200, 4)]


def test_the_configured_window_reaches_the_decoder_and_the_cabinet_logs_what_it_rejects(
    tmp_path: Path,
) -> None:
    """A slow acceptor's window from the configuration: 100 ms pulses are valid, a 30 ms
    one is noise; a train with a gap too long is logged as ambiguous; only the clean
    train is credited."""
    path = tmp_path / "config.toml"
    path.write_text(
        "[devices]\nbuttons = { attendant = 7 }\n"
        "[devices.coin_acceptor]\npulse = 17\ninhibit = 27\npulses = { 1 = 50, 2 = 100 }\n"
        "pulse_min_ms = 40\npulse_max_ms = 130\ngap_min_ms = 60\ngap_max_ms = 130\nquiet_ms = 300\n"
    )
    config = load_config(path, database=tmp_path / "kiosk.db")
    factory, now = MockFactory(), [0.0]
    terminal = Terminal(config, books(config.database))
    cabinet = build_cabinet(config, terminal, pin_factory=factory, clock=lambda: now[0])
    assert isinstance(cabinet.acceptor, PulseAcceptor)
    assert cabinet.acceptor.timing == PulseTiming(
        pulse_min_ms=40, pulse_max_ms=130, gap_min_ms=60, gap_max_ms=130, quiet_ms=300
    )
    line = factory.pin(17)

    def pulses(*widths_and_gaps: float) -> None:
        for index, seconds in enumerate(widths_and_gaps):
            line.drive_low() if index % 2 == 0 else line.drive_high()
            now[0] += seconds
        line.drive_high()

    pulses(0.1, 0.1, 0.1)  # a 100: two 100 ms pulses 100 ms apart
    now[0] += 0.4
    pulses(0.03)  # noise
    now[0] += 0.4
    pulses(0.1, 0.2, 0.1)  # a gap of 200 ms: longer than gap_max, shorter than quiet
    now[0] += 0.4
    cabinet.step()
    assert terminal.credits == 100
    events = [(e["kind"], e["detail"]) for e in terminal.store.events() if e["kind"].startswith("coin_")]
    assert events == [
        ("coin_line_noise", {"width_ms": 30.0}),
        ("coin_ambiguous", {"pulses": 2, "reason": "a gap of 200 ms after pulse 1, outside 60 to 130 ms"}),
    ]
    meters = terminal.store.meters()
    assert (meters["coin_line_noise"], meters["coin_ambiguous"]) == (1, 1), (
        "glitches and ambiguous trains are counted"
    )
    assert audit(terminal.store).ok
