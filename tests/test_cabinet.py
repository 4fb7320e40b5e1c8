"""The cabinet's devices on mock pins, driving a real terminal."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory

from oasis_kiosk.config import Config
from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.panel import Panel
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.store.db import Store

COIN_PIN, INHIBIT_PIN = 17, 27


def coin(factory: MockFactory, now: list[float], pulses: int) -> None:
    for _ in range(pulses):
        factory.pin(COIN_PIN).drive_low()
        now[0] += 0.05
        factory.pin(COIN_PIN).drive_high()
        now[0] += 0.05
    now[0] += 0.3


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_coins_and_buttons_play_a_round_and_the_lamps_follow(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    config = Config(database=database, credit_limit=3500)
    terminal = Terminal(config, Store(database), seed_for_round=seeds_from(bytes(32)))
    panel = Panel(
        {"deal": 5, "fold": 6, "door": 26}, {"deal": 20, "fold": 21}, bounce_time=None, pin_factory=factory
    )
    acceptor = PulseAcceptor(
        COIN_PIN, INHIBIT_PIN, {1: 50, 2: 100, 10: 500}, pin_factory=factory, clock=lambda: now[0]
    )
    cabinet = Cabinet(terminal, panel, acceptor)
    assert not factory.pin(INHIBIT_PIN).state, "the acceptor takes coins while credits are below the limit"
    assert not factory.pin(20).state, "no credit: DEAL is dark"

    coin(factory, now, 10)
    coin(factory, now, 10)
    cabinet.step()
    assert terminal.credits == 1000
    assert not factory.pin(20).state, "the ante alone: DEAL waits for the play bet too"
    for _ in range(4):
        coin(factory, now, 10)
    cabinet.step()
    assert terminal.credits == 3000
    assert factory.pin(20).state, "DEAL lights up"

    coin(factory, now, 3)  # no such coin
    coin(factory, now, 10)
    cabinet.step()
    assert terminal.credits == 3500
    assert factory.pin(INHIBIT_PIN).state, "at the credit limit the acceptor is inhibited"
    assert [e["detail"] for e in terminal.store.events() if e["kind"] == "coin_rejected"] == [{"pulses": 3}]

    press(factory, 5)
    cabinet.step()
    assert terminal.round is not None
    assert factory.pin(21).state, "FOLD is live in the round"
    press(factory, 6)
    cabinet.step()
    assert terminal.round is None

    factory.pin(26).drive_low()  # the door opens
    cabinet.step()
    assert factory.pin(INHIBIT_PIN).state
    assert "door" in terminal.tilts
    assert audit(terminal.store).ok


def test_a_jammed_acceptor_tilts_the_terminal(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), Store(database))
    acceptor = PulseAcceptor(COIN_PIN, INHIBIT_PIN, {1: 50}, pin_factory=factory, clock=lambda: now[0])
    cabinet = Cabinet(terminal, acceptor=acceptor)
    factory.pin(COIN_PIN).drive_low()
    now[0] += 1.0
    cabinet.step()
    assert terminal.tilts == {"coin_acceptor": "the line is held active: jammed or tampered"}
    assert factory.pin(INHIBIT_PIN).state
    assert terminal.live() == {"attendant", "door_open", "operator_key_on"}


def test_notes_from_an_ssp_validator_are_credited_and_it_is_enabled_only_when_bills_are_live(
    tmp_path: Path,
) -> None:
    from fake_essp import FakeValidator

    from oasis_kiosk.hardware import essp
    from oasis_kiosk.hardware.essp import EsspValidator

    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, credit_limit=6000), Store(database))
    peer = FakeValidator()
    validator = EsspValidator(peer, {1: 500, 2: 1000, 4: 5000})
    validator.start()
    cabinet = Cabinet(terminal, bills=validator)
    assert peer.enabled, "bills are live: the validator takes notes"
    peer.events = [bytes([essp.NOTE_READ, 4]), bytes([essp.NOTE_CREDIT, 4, essp.STACKING])]
    cabinet.step()
    cabinet.step()
    assert terminal.credits == 5000
    peer.events = [bytes([essp.NOTE_CREDIT, 2])]  # taken just before the limit closed it
    cabinet.step()
    assert terminal.credits == 6000, "a stacked note is always credited"
    assert not peer.enabled, "at the limit the validator is disabled"
    peer.events = [bytes([essp.UNSAFE_JAM])]
    cabinet.step()
    assert "bill_validator" in terminal.tilts
    assert audit(terminal.store).ok


def test_the_hardware_test_reports_inputs_and_lights_lamps_without_playing(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), Store(database))
    panel = Panel({"deal": 5, "card2": 13}, {"deal": 20, "fold": 21}, bounce_time=None, pin_factory=factory)
    acceptor = PulseAcceptor(COIN_PIN, INHIBIT_PIN, {2: 100}, pin_factory=factory, clock=lambda: now[0])
    cabinet = Cabinet(terminal, panel, acceptor)
    cabinet.start_test()
    cabinet.light({"fold"})
    assert (factory.pin(20).state, factory.pin(21).state) == (False, True)
    press(factory, 13)
    coin(factory, now, 2)
    cabinet.step()
    press(factory, 5)
    cabinet.step()
    assert cabinet.end_test() == ["coin 100 credited", "card 2", "deal"]
    assert terminal.round is None, "DEAL in the test deals nothing"
    assert terminal.credits == 100, "a coin taken in the test is still money"
    assert not factory.pin(21).state, "after the test the lamps follow the game again: FOLD is dark"
