"""The UPS's power-fail signal on mock pins: the terminal stops taking money and play, its
database is checkpointed and closed, and it all comes back when the power returns."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from support import books, memory_books

from oasis_kiosk.config import ConfigError, load_config
from oasis_kiosk.hardware.build import build_cabinet
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.desktop import SwitchPin
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store, StoreError

WIRING = """
[devices]
buttons = { deal = 5, attendant = 6, door = 26 }
lamps = { deal = 20 }
coin_acceptor = { pulse = 17, inhibit = 27, pulses = { 1 = 50, 2 = 100 } }
power_fail = 25
"""
COIN, INHIBIT, DEAL, ATTENDANT, DOOR, DEAL_LAMP, POWER, KEY = 17, 27, 5, 6, 26, 20, 25, 16


class Cab:
    """A wired cabinet on mock pins with its own clock."""

    def __init__(self, tmp_path: Path, wiring: str = WIRING, held_low: tuple[int, ...] = ()) -> None:
        """``held_low``: lines pulled low before the cabinet starts (the UPS failing)."""
        path = tmp_path / "config.toml"
        path.write_text(wiring)
        self.database = tmp_path / "kiosk.db"
        self.config = load_config(path, database=self.database)
        self.factory = MockFactory(pin_class=SwitchPin)
        for pin in held_low:
            self.factory.pin(pin).drive_low()
        self.now = 0.0
        self.terminal = Terminal(self.config, books(self.database))
        self.cabinet: Cabinet = build_cabinet(
            self.config, self.terminal, pin_factory=self.factory, clock=lambda: self.now, bounce_time=None
        )

    def pin(self, number: int) -> MockFactory:
        return self.factory.pin(number)

    def coin(self, pulses: int) -> None:
        for _ in range(pulses):
            self.pin(COIN).drive_low()
            self.now += 0.05
            self.pin(COIN).drive_high()
            self.now += 0.05
        self.now += 0.3

    def press(self, pin: int) -> None:
        self.pin(pin).drive_low()
        self.pin(pin).drive_high()

    def step(self, seconds: float = 0.0) -> None:
        self.now += seconds
        self.cabinet.step()

    def events(self) -> list[str]:
        return [event["kind"] for event in self.terminal.store.events(last=1000)]


def wal(database: Path) -> Path:
    return database.with_name(database.name + "-wal")


def test_a_power_failure_stops_money_and_play_and_closes_the_books(tmp_path: Path) -> None:
    cab = Cab(tmp_path)
    terminal = cab.terminal
    cab.step()
    cab.coin(2)
    cab.coin(2)
    cab.step()
    assert terminal.credits == 200
    assert not cab.pin(INHIBIT).state, "coins are taken"
    assert wal(cab.database).exists()

    cab.pin(POWER).drive_low()  # the UPS pulls the line: the mains is gone
    cab.step()
    assert not terminal.power_failure, "a change counts once the line has held it"
    cab.step(0.06)
    assert terminal.power_failure
    assert terminal.tilts["power_fail"].startswith("the power is failing")
    assert cab.pin(INHIBIT).state, "the coin acceptor is inhibited"
    assert not cab.pin(DEAL_LAMP).state
    assert not terminal.store.writable
    assert not wal(cab.database).exists(), "the log was checkpointed into the file and the file closed"
    assert cab.events()[-2:] == ["power_failing", "tilt"]
    assert terminal.credits == 200, "the screen still reads the last committed state"

    logged = len(cab.events())
    cab.press(DEAL)
    cab.press(ATTENDANT)
    cab.step()
    assert len(cab.events()) == logged, "refused without a word to the closed database"
    assert "power_fail" in terminal.tilts
    with pytest.raises(StoreError, match="the database is closed"), terminal.store.transaction():
        pass

    cab.pin(DOOR).drive_low()  # a physical fact: booked all the same
    cab.coin(2)  # money the acceptor took although inhibited: credited all the same
    cab.step()
    assert terminal.store.meters()["door_opens"] == 1
    assert terminal.credits == 300
    assert cab.events()[-3:] == ["credited_while_inhibited", "door_open", "tilt"], (
        "money first, then the switches"
    )
    assert not terminal.store.writable, "closed again after each of them"
    assert not wal(cab.database).exists()

    cab.pin(POWER).drive_high()  # the mains is back
    cab.step()
    cab.step(0.5)
    assert terminal.power_failure, "the power must hold for a second first"
    cab.step(0.6)
    assert not terminal.power_failure
    assert terminal.store.writable
    assert "power_fail" not in terminal.tilts
    assert cab.events()[-2:] == ["power_restored", "tilt_cleared"]
    cab.pin(DOOR).drive_high()
    cab.step()
    assert not terminal.tilts
    assert not cab.pin(INHIBIT).state, "coins are taken again"
    cab.coin(1)
    cab.step()
    assert terminal.credits == 350
    assert audit(terminal.store).ok


def test_the_operator_key_turned_while_the_power_fails_is_booked_and_the_failure_still_shows(
    tmp_path: Path,
) -> None:
    """The key is a physical fact like the door: turned back on battery, the books know it, and
    the power's return finds the game, not an operator menu with no key in the lock."""
    cab = Cab(tmp_path, WIRING.replace("door = 26 }", f"door = 26, operator_key = {KEY} }}"))
    terminal = cab.terminal
    cab.step()
    cab.pin(KEY).drive_low()  # the attendant turns the key
    cab.step()
    assert (terminal.operator_key, terminal.mode) == (True, Mode.OPERATOR)

    cab.pin(POWER).drive_low()
    cab.step()
    cab.step(0.06)
    assert (terminal.operator_key, terminal.mode) == (True, Mode.POWERING_DOWN), (
        "a failing mains is what the screen says, key or not"
    )
    assert terminal.live() == {"door_open", "operator_key_off"}, "only the switches count"
    logged = len(cab.events())
    cab.press(DEAL)
    cab.step()
    assert len(cab.events()) == logged

    cab.pin(KEY).drive_high()  # the key comes out while the cabinet runs on its battery
    cab.step()
    assert (terminal.operator_key, terminal.mode) == (False, Mode.POWERING_DOWN)
    assert cab.events()[-1] == "operator_key_off"
    assert not terminal.store.writable, "closed again after booking it"

    cab.pin(POWER).drive_high()
    cab.step()
    cab.step(1.1)
    assert terminal.mode is Mode.BETTING, "the game, not the operator's menu"
    assert audit(terminal.store).ok


def test_a_spike_on_the_line_is_not_a_power_failure(tmp_path: Path) -> None:
    cab = Cab(tmp_path)
    cab.step()
    cab.pin(POWER).drive_low()
    cab.step(0.01)
    cab.pin(POWER).drive_high()
    cab.step(0.1)
    cab.pin(POWER).drive_low()
    cab.step(0.04)
    cab.pin(POWER).drive_high()
    cab.step(0.1)
    assert not cab.terminal.power_failure
    assert "power_failing" not in cab.events()


def test_a_start_during_a_power_failure_stops_at_once_and_a_later_start_clears_it(tmp_path: Path) -> None:
    cab = Cab(tmp_path, held_low=(POWER,))
    assert cab.terminal.power_failure, "the line as it stands at start, no confirmation needed"
    cab.terminal.store.close()  # the battery gives out

    assert "power_fail" in Store(cab.database, read_only=True).get_state("terminal")["tilts"], (
        "committed before"
    )
    again = Cab(tmp_path)
    assert not again.terminal.power_failure
    assert "power_fail" not in again.terminal.tilts
    assert again.events()[-2:] == ["power_restored", "tilt_cleared"]


def test_a_power_fail_line_driven_high(tmp_path: Path) -> None:
    cab = Cab(tmp_path, WIRING.replace("power_fail = 25", 'power_fail = { pin = 25, active = "high" }'))
    assert cab.config.devices.power_fail == POWER
    assert cab.config.devices.power_fail_active_high
    cab.step()
    assert not cab.terminal.power_failure, "pulled down: the power is on"
    cab.pin(POWER).drive_high()
    cab.step()
    cab.step(0.1)
    assert cab.terminal.power_failure


@pytest.mark.parametrize(
    ("wiring", "message"),
    [
        ("buttons = { deal = 25 }\npower_fail = 25", "devices.power_fail: pin 25 is already buttons.deal"),
        (
            "power_fail = 25\nhopper = { motor = 25, exit = 24 }",
            "devices.hopper.motor: pin 25 is already power_fail",
        ),
        ("power_fail = { pin = 25, active = 'sometimes' }", "devices.power_fail.active: 'low' or 'high'"),
        ("power_fail = { pin = 25, edge = 'low' }", "unknown key devices.power_fail.edge"),
        ("power_fail = { pin = 60 }", "devices.power_fail.pin: a BCM pin number 0 to 53, not 60"),
        ("power_fail = true", "devices.power_fail: a BCM pin number 0 to 53, not True"),
    ],
)
def test_power_fail_wiring_errors_name_the_key(tmp_path: Path, wiring: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[devices]\n{wiring}\n")
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        load_config(path)


def test_closing_checkpoints_and_keeps_the_file_readable_until_reopened(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    store = books(database)
    with store.transaction():
        store.post("coin_in", 100)
    assert store.close(keep_reading=True), "nothing held the checkpoint back"
    assert not wal(database).exists()
    assert store.credits() == 100
    with pytest.raises(StoreError, match="closed"), store.transaction():
        store.post("coin_in", 100)
    store.reopen()
    with store.transaction():
        store.post("coin_in", 50)
    store.close()
    with pytest.raises(StoreError, match="cannot read"):
        store.credits()
    assert books(database).credits() == 150


def test_a_reader_holding_the_log_leaves_it_for_the_next_start(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    store = books(database)
    with store.transaction():
        store.post("coin_in", 100)
    reader = sqlite3.connect(database, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT COUNT(*) FROM ledger").fetchone() == (1,)
    with store.transaction():
        store.post("coin_in", 100)
    started = time.monotonic()
    assert not store.close(), "the reader's snapshot keeps the log"
    assert time.monotonic() - started < 2, "a failing power supply does not wait for a reader"
    reader.close()
    assert books(database).credits() == 200, "committed all the same"


def test_an_in_memory_database_cannot_be_closed_and_still_read() -> None:
    store = memory_books()
    with pytest.raises(StoreError, match="in-memory"):
        store.close(keep_reading=True)
    assert store.writable
    with store.transaction():
        store.post("coin_in", 100)
    assert store.credits() == 100
