"""Cash-out by hopper on mock pins: exact partial payouts, an empty hopper, a power cut."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from support import books

from oasis_kiosk.config import Config
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.hopper import CoinOut, Hopper, HopperEmpty, PayoutDone
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.terminal import Terminal

MOTOR, EXIT = 23, 24


def coin_leaves(factory: MockFactory) -> None:
    factory.pin(EXIT).drive_low()
    factory.pin(EXIT).drive_high()


def test_the_hopper_counts_coins_out_and_stops_at_the_count() -> None:
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, pin_factory=factory, clock=lambda: now[0])
    hopper.start(2)
    assert factory.pin(MOTOR).state
    coin_leaves(factory)
    coin_leaves(factory)
    assert hopper.poll() == [CoinOut(), CoinOut(), PayoutDone(2)]
    assert not factory.pin(MOTOR).state
    with pytest.raises(ValueError, match="at least one coin"):
        hopper.start(0)


def test_no_coin_within_the_timeout_means_empty() -> None:
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, timeout=2.0, pin_factory=factory, clock=lambda: now[0])
    hopper.start(5)
    now[0] = 1.0
    coin_leaves(factory)
    now[0] = 2.9
    assert hopper.poll() == [CoinOut()]
    now[0] = 3.1
    assert hopper.poll() == [HopperEmpty(coins=1, short=4)]
    assert not hopper.running


def cabinet_with_hopper(database: Path, factory: MockFactory, now: list[float]) -> Cabinet:
    config = Config(database=database, cashout="hopper", hopper_coin=100)
    terminal = Terminal(config, books(database))
    hopper = Hopper(MOTOR, EXIT, pin_factory=factory, clock=lambda: now[0])
    return Cabinet(terminal, hopper=hopper)


def test_a_payout_books_each_coin_and_handpays_the_rest(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    cabinet = cabinet_with_hopper(tmp_path / "kiosk.db", factory, now)
    terminal = cabinet.terminal
    terminal.handle("bill", 1000)
    terminal.handle("coin", 50)
    assert terminal.handle("cashout").message == "paying out 10 coin(s) of 100"
    assert terminal.live() == {"attendant", "door_open", "operator_key_on"}, (
        "only the attendant and the door while the hopper pays"
    )
    cabinet.step()
    for _ in range(10):
        coin_leaves(factory)
    cabinet.step()
    assert terminal.credits == 50
    assert terminal.handpay == 50, "what is below one coin is handpaid"
    assert terminal.store.meters()["hopper_out"] == 1000
    assert audit(terminal.store).ok


def test_an_empty_hopper_tilts_and_the_credits_left_stay(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    cabinet = cabinet_with_hopper(tmp_path / "kiosk.db", factory, now)
    terminal = cabinet.terminal
    terminal.handle("bill", 1000)
    terminal.handle("cashout")
    cabinet.step()
    for _ in range(4):
        coin_leaves(factory)
    now[0] += 5
    cabinet.step()
    assert terminal.credits == 600
    assert terminal.tilts == {"hopper_empty": "the hopper stopped 6 coin(s) short"}
    assert audit(terminal.store).ok


def test_a_power_cut_during_a_payout_keeps_the_coins_counted_and_tilts(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    cabinet = cabinet_with_hopper(database, factory, now)
    cabinet.terminal.handle("bill", 1000)
    cabinet.terminal.handle("cashout")
    cabinet.step()
    for _ in range(3):
        coin_leaves(factory)
    cabinet.step()
    cabinet.terminal.store.close()  # the power goes with 7 coins owed
    again = Terminal(Config(database=database, cashout="hopper"), books(database))
    assert again.credits == 700
    assert again.payout is None
    assert again.tilts == {"payout": "a hopper payout stopped with 7 coin(s) still owed"}
    assert audit(again.store).ok
