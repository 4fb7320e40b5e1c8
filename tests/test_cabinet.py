"""The cabinet's devices on mock pins, driving a real terminal."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest
from fake_essp import FakeValidator
from gpiozero import GPIODevice
from gpiozero.pins.mock import MockFactory
from support import books

from oasis_kiosk.config import Config
from oasis_kiosk.hardware import essp
from oasis_kiosk.hardware.acceptor import PulseAcceptor
from oasis_kiosk.hardware.cabinet import Cabinet, Taken
from oasis_kiosk.hardware.desktop import MockCabinet, SwitchPin
from oasis_kiosk.hardware.essp import EsspValidator
from oasis_kiosk.hardware.hopper import Hopper
from oasis_kiosk.hardware.panel import Panel, Press
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.money_kinds import BILL, COIN
from oasis_kiosk.machine.terminal import Terminal, seeds_from

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
    terminal = Terminal(config, books(database), seed_for_round=seeds_from(bytes(32)))
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
    terminal = Terminal(Config(database=database), books(database))
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
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, credit_limit=6000), books(database))
    peer = FakeValidator()
    validator = EsspValidator(peer, {1: 500, 2: 1000, 4: 5000}, clock=peer.clock)
    validator.start()
    cabinet = Cabinet(terminal, bills=validator)
    assert peer.enabled, "bills are live: the validator takes notes"
    peer.insert(4)
    for _ in range(4):
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
    terminal = Terminal(Config(database=database), books(database))
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
    assert cabinet.end_test() == [Taken(COIN, 100), Press("card", 2), Press("deal")]
    assert terminal.round is None, "DEAL in the test deals nothing"
    assert terminal.credits == 100, "a coin taken in the test is still money"
    assert not factory.pin(21).state, "after the test the lamps follow the game again: FOLD is dark"


def test_the_hardware_test_opens_the_acceptor_in_the_operator_menu_and_books_each_coin(
    tmp_path: Path,
) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    acceptor = PulseAcceptor(
        COIN_PIN, INHIBIT_PIN, {2: 100, 4: 200}, pin_factory=factory, clock=lambda: now[0]
    )
    cabinet = Cabinet(terminal, acceptor=acceptor)
    terminal.handle("operator_key_on")
    cabinet.step()
    assert factory.pin(INHIBIT_PIN).state, "the operator menu takes no money"
    cabinet.start_test()
    assert not factory.pin(INHIBIT_PIN).state, "the hardware test opens the acceptor"
    coin(factory, now, 2)
    cabinet.step()
    coin(factory, now, 4)
    cabinet.step()
    assert cabinet.seen == [Taken(COIN, 100), Taken(COIN, 200)]
    assert terminal.credits == 300, "money taken in the test is money"
    assert [(row.kind, row.amount) for row in terminal.store.ledger()][-2:] == [
        ("coin_in", 100),
        ("coin_in", 200),
    ]
    kinds = [event["kind"] for event in terminal.store.events(20)]
    assert "credited_while_inhibited" not in kinds, "the acceptor was open: nothing to explain"
    cabinet.end_test()
    assert factory.pin(INHIBIT_PIN).state, "the test over, the menu takes no money again"
    assert audit(terminal.store).ok


def test_a_note_held_in_escrow_during_the_hardware_test_is_stacked_and_credited(tmp_path: Path) -> None:
    terminal, peer, cabinet = ssp_cabinet(tmp_path, 100_000)
    terminal.handle("operator_key_on")
    cabinet.step()
    assert not peer.enabled
    cabinet.start_test()
    assert peer.enabled, "the hardware test enables the validator"
    peer.insert(2)
    for _ in range(4):
        cabinet.step()
    assert essp.REJECT not in peer.commands
    assert cabinet.seen == [Taken(BILL, 1000)]
    assert terminal.credits == 1000
    cabinet.end_test()
    assert not peer.enabled
    assert audit(terminal.store).ok


BILL_PULSE_PIN, BILL_INHIBIT_PIN = 22, 23


def test_the_coin_line_closes_when_the_largest_coin_no_longer_fits(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, credit_limit=1500), books(database))
    acceptor = PulseAcceptor(
        COIN_PIN, INHIBIT_PIN, {1: 50, 2: 100, 10: 500}, pin_factory=factory, clock=lambda: now[0]
    )
    cabinet = Cabinet(terminal, acceptor=acceptor)
    coin(factory, now, 10)
    coin(factory, now, 10)
    cabinet.step()
    assert terminal.room_for_money() == 500
    assert not factory.pin(INHIBIT_PIN).state, "a coin of 500 still fits"
    coin(factory, now, 1)
    cabinet.step()
    assert terminal.credits == 1050
    assert terminal.room_for_money() == 450
    assert "coin" not in terminal.live()
    assert factory.pin(INHIBIT_PIN).state, "a coin of 500 would go past the limit: the acceptor is inhibited"
    assert terminal.handle("coin", 50).ok is False, "not live: even a small coin by hand is refused"
    assert terminal.credits == 1050


def test_the_acceptors_own_largest_coin_keeps_it_inhibited(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, credit_limit=1500), books(database))
    # The acceptor takes a coin of 1000 the money section does not list.
    acceptor = PulseAcceptor(
        COIN_PIN, INHIBIT_PIN, {1: 50, 20: 1000}, pin_factory=factory, clock=lambda: now[0]
    )
    cabinet = Cabinet(terminal, acceptor=acceptor)
    assert not factory.pin(INHIBIT_PIN).state
    for _ in range(12):
        coin(factory, now, 1)
    cabinet.step()
    assert terminal.credits == 600
    assert "coin" in terminal.live(), "the money section's largest coin, 500, fits"
    assert factory.pin(INHIBIT_PIN).state, "but the acceptor's coin of 1000 would not"


def test_a_pulse_bill_validator_is_inhibited_when_the_largest_bill_no_longer_fits(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    config = Config(database=database, credit_limit=8000, bills=(500, 1000, 5000))
    terminal = Terminal(config, books(database))
    bills = PulseAcceptor(
        BILL_PULSE_PIN,
        BILL_INHIBIT_PIN,
        {1: 500, 2: 1000, 10: 5000},
        pin_factory=factory,
        clock=lambda: now[0],
    )
    cabinet = Cabinet(terminal, bills=bills)
    factory.pin(BILL_PULSE_PIN).drive_high()
    for pulses in (10, 2, 2):  # 5000, then 1000 twice
        for _ in range(pulses):
            factory.pin(BILL_PULSE_PIN).drive_low()
            now[0] += 0.05
            factory.pin(BILL_PULSE_PIN).drive_high()
            now[0] += 0.05
        now[0] += 0.3
        cabinet.step()
    assert terminal.credits == 7000
    assert "bill" not in terminal.live()
    assert factory.pin(BILL_INHIBIT_PIN).state, "a bill of 5000 would go past the limit"


def ssp_cabinet(
    tmp_path: Path, credit_limit: int, acceptor: PulseAcceptor | None = None, **config: Any
) -> tuple[Terminal, FakeValidator, Cabinet]:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, credit_limit=credit_limit, **config), books(database))
    peer = FakeValidator()
    validator = EsspValidator(peer, {1: 500, 2: 1000, 4: 5000}, clock=peer.clock)
    validator.start()
    return terminal, peer, Cabinet(terminal, acceptor=acceptor, bills=validator)


def test_a_note_that_would_go_past_the_limit_is_rejected_in_escrow_and_one_that_fits_is_credited(
    tmp_path: Path,
) -> None:
    # The money section lists notes up to 1000; the validator also reads a 5000 note.
    terminal, peer, cabinet = ssp_cabinet(tmp_path, 6000, bills=(500, 1000))
    terminal.handle("bill", 1000)
    terminal.handle("bill", 500)
    assert peer.enabled, "a note of 1000 fits: the validator takes notes"
    peer.insert(4)
    for _ in range(5):
        cabinet.step()
    assert terminal.credits == 1500, "5000 would take the credits to 6500: the note went back"
    assert essp.REJECT in peer.commands
    assert peer.escrow is None
    kinds = [event["kind"] for event in terminal.store.events(20)]
    assert "note_returned" in kinds
    assert "note_rejected" in kinds
    peer.insert(2)
    for _ in range(5):
        cabinet.step()
    assert terminal.credits == 2500, "a note that fits is stacked and credited"
    assert peer.commands.count(essp.REJECT) == 1
    assert audit(terminal.store).ok


def test_a_held_note_is_returned_when_a_coin_took_its_room_before_it_stacked(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    acceptor = PulseAcceptor(
        COIN_PIN, INHIBIT_PIN, {1: 50, 10: 500}, pin_factory=factory, clock=lambda: now[0]
    )
    terminal, peer, cabinet = ssp_cabinet(tmp_path, 6000, acceptor, bills=(500, 1000))
    for _ in range(4):
        terminal.handle("bill", 1000)  # credits 4000: room for 2000
    cabinet.step()
    assert not factory.pin(INHIBIT_PIN).state
    peer.insert(2)
    cabinet.step()
    cabinet.step()  # the note of 1000 is read and held: it fits
    assert peer.escrow == 2
    assert factory.pin(INHIBIT_PIN).state, "while a note is held, no coin may start"
    coin(factory, now, 10)  # coins that were already on their way
    coin(factory, now, 10)
    coin(factory, now, 1)
    for _ in range(5):
        cabinet.step()
    assert terminal.credits == 5050, "the coins came first; the note would have gone past the limit"
    assert essp.REJECT in peer.commands
    assert peer.escrow is None
    assert audit(terminal.store).ok


def test_a_held_note_is_returned_when_the_terminal_tilts(tmp_path: Path) -> None:
    terminal, peer, cabinet = ssp_cabinet(tmp_path, 100_000)
    peer.insert(1)
    cabinet.step()
    cabinet.step()
    assert peer.escrow == 1
    terminal.device_fault("coin_acceptor", "the line is held active: jammed or tampered")
    for _ in range(4):
        cabinet.step()
    assert terminal.credits == 0
    assert not peer.enabled
    assert "note_rejected" in [event["kind"] for event in terminal.store.events(20)]


DOOR, KEY = 26, 19


def cabinet_at_start(database: Path, *, door_open: bool = False, key_turned: bool = False) -> Cabinet:
    """A cabinet started with its switches as they stand: a closed switch holds its line low."""
    factory = MockFactory(pin_class=SwitchPin)
    for pin, closed in ((DOOR, door_open), (KEY, key_turned)):
        if closed:
            factory.pin(pin).drive_low()
    terminal = Terminal(Config(database=database), books(database))
    panel = Panel({"door": DOOR, "operator_key": KEY}, {}, bounce_time=None, pin_factory=factory)
    return Cabinet(terminal, panel)


def test_a_door_opened_while_the_cabinet_was_off_is_a_door_tilt_at_start(tmp_path: Path) -> None:
    terminal = cabinet_at_start(tmp_path / "kiosk.db", door_open=True).terminal
    assert terminal.tilts == {"door": "the door is open"}
    assert terminal.store.meters()["door_opens"] == 1
    assert "deal" not in terminal.live()
    assert audit(terminal.store).ok


def test_a_door_tilt_from_before_the_power_cut_clears_when_the_door_stands_closed(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    before = Terminal(Config(database=database), books(database))
    before.handle("door_open")
    before.store.close()
    terminal = cabinet_at_start(database).terminal
    assert "door" not in terminal.tilts
    assert [e["kind"] for e in terminal.store.events()][-1] == "door_close"
    assert terminal.store.meters()["door_opens"] == 1, "the door opened once"


def test_the_operator_key_turned_at_start_is_the_operator_key_on(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = cabinet_at_start(database, key_turned=True).terminal
    assert terminal.operator_key
    assert terminal.live() == {"door_open", "operator_key_off"}
    terminal.store.close()
    again = cabinet_at_start(database).terminal
    assert not again.operator_key, "turned back while the cabinet was off"


def test_switches_standing_as_the_books_knew_them_change_nothing(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    first = cabinet_at_start(database, door_open=True, key_turned=True).terminal
    first.store.close()
    again = cabinet_at_start(database, door_open=True, key_turned=True).terminal
    assert again.store.meters()["door_opens"] == 1, "the same open door is not counted again"
    assert again.operator_key


def test_a_switch_no_longer_wired_leaves_no_tilt_or_key_standing_that_nothing_could_clear(
    tmp_path: Path,
) -> None:
    """The door and the key were open and turned when the cabinet went off; it is started
    with a button map that wires neither: their tilt and the operator's mode had stood for
    good (the attendant had nothing to clear, the credit could not be cashed out)."""
    database = tmp_path / "kiosk.db"
    first = cabinet_at_start(database, door_open=True, key_turned=True).terminal
    assert first.handle("bill", 5000).ok is False, "the door is open"
    first.handle("operator_key_off")
    first.handle("door_close")
    assert first.handle("bill", 5000).ok
    first.handle("door_open")
    first.handle("operator_key_on")
    first.store.close()
    terminal = Terminal(Config(database=database), books(database))
    Cabinet(terminal, Panel({"deal": 5}, {}, bounce_time=None, pin_factory=MockFactory(pin_class=SwitchPin)))
    assert "door" not in terminal.tilts
    assert not terminal.operator_key
    assert terminal.handle("cashout").ok
    assert audit(terminal.store).ok


def test_a_desktop_cabinet_starts_with_the_switches_where_the_terminal_left_them(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    terminal.handle("door_open")
    terminal.handle("operator_key_on")
    mock = MockCabinet(terminal)
    assert mock.closed("door")
    assert mock.closed("operator_key")
    assert MockCabinet(terminal, switches={"door": False}).terminal.tilts == {}


def test_a_closed_cabinet_lets_its_terminal_and_books_go(tmp_path: Path) -> None:
    """gpiozero keeps an open device's callbacks for the life of the process, and with them
    the cabinet, its terminal and the books' open files: a kiosk that built cabinets anew
    (each test does) ran out of file descriptors."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    peer = FakeValidator()
    validator = EsspValidator(peer, {1: 500}, clock=peer.clock)
    validator.start()
    mock = MockCabinet(terminal)
    cabinet = Cabinet(terminal, bills=validator)
    terminal.store.close()
    left = weakref.ref(terminal)
    mock.close()
    cabinet.close()
    assert peer.closed, "the validator's port is closed"
    del terminal, mock, cabinet, validator
    gc.collect()
    assert left() is None, "nothing keeps the terminal of a closed cabinet"


def test_a_line_that_fails_to_close_leaves_no_other_line_of_its_device_open() -> None:
    """The first line's close raising had left the device's other lines claimed."""
    factory, now = MockFactory(), [0.0]
    panel = Panel({"deal": 5, "door": 26}, {"deal": 20}, bounce_time=None, pin_factory=factory)
    acceptor = PulseAcceptor(COIN_PIN, INHIBIT_PIN, {1: 50}, pin_factory=factory, clock=lambda: now[0])
    hopper = Hopper(23, 24, coin=100, pin_factory=factory, clock=lambda: now[0])
    for device in (panel, acceptor, hopper):
        lines = [line for line in vars(device).values() if isinstance(line, GPIODevice)]
        lines += getattr(device, "_devices", [])
        first = lines[0]

        def broken() -> None:
            raise OSError("the line is gone")

        first.close = broken
        with pytest.raises(OSError, match="the line is gone"):
            device.close()
        assert all(line.closed for line in lines[1:]), f"{type(device).__name__}: every other line let go"
        del first.close  # its own again, for the collector
        first.close()


def test_every_event_a_pulse_acceptor_names_is_said_in_the_log_and_every_refusal_counted(
    monkeypatch: Any,
) -> None:
    """An acceptor names its events after what it is wired as (``coin_rejected``): each name
    it can make has a sentence in the event log (machine/events.py), and each refusal and
    glitch a meter of its name (machine/meters.py), for a coin acceptor and a note one alike."""
    from oasis_kiosk.hardware import pulses
    from oasis_kiosk.hardware.money import Glitch, Rejected
    from oasis_kiosk.machine.events import SENTENCES
    from oasis_kiosk.machine.meters import COUNTED_DEVICE_EVENTS

    seen = [
        pulses.UnknownTrain(pulses=3),
        pulses.AmbiguousTrain(pulses=2, reason="a gap too long"),
        pulses.ShortPulse(width=0.001),
    ]
    acceptor = PulseAcceptor(COIN_PIN, INHIBIT_PIN, {1: 50}, pin_factory=MockFactory())
    monkeypatch.setattr(acceptor, "poll", lambda: list(seen))
    for kind in ("coin", "bill"):
        named = [event for event in acceptor.money_events(kind) if isinstance(event, Rejected | Glitch)]
        assert len(named) == len(seen)
        assert [event.event for event in named if event.event not in SENTENCES] == [], "said in words"
        assert [event.event for event in named if event.event not in COUNTED_DEVICE_EVENTS] == [], "counted"


def test_every_event_the_note_validator_and_the_cabinet_name_is_said_in_the_log() -> None:
    """The SSP validator's reports, the note it reads into escrow and the one the cabinet
    gives back each have a sentence in the event log (machine/events.py)."""
    from oasis_kiosk.machine.events import SENTENCES

    named = {*essp.NAMES.values(), *essp.NOTE_GONE, "note_read", "note_returned"}
    assert sorted(named - set(SENTENCES)) == []
