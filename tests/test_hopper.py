"""Cash-out by hopper on mock pins: exact partial payouts, an empty hopper, a power cut."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from gpiozero import GPIODevice
from gpiozero.pins.mock import MockFactory
from support import books, memory_books

from oasis_kiosk import OasisError, i18n
from oasis_kiosk.config import Config
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.hardware.hopper import Hopper
from oasis_kiosk.hardware.money import Fault, Glitch, MoneyEvent, Paid, PayoutEnded
from oasis_kiosk.hardware.panel import Panel
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui.prompt import prompt
from oasis_kiosk.ui.view import cash_for, last_settlement, overlay

MOTOR, EXIT = 23, 24


EXIT_PULSE = 0.02
"""Seconds a coin covers the exit sensor as it leaves (a real hopper's coin: 10 to 40 ms)."""


def coin_leaves(factory: MockFactory, now: list[float]) -> None:
    """A coin passes the exit sensor, covering it ``EXIT_PULSE`` of the hopper's clock, and
    the sensor stays clear as long before the next."""
    factory.pin(EXIT).drive_low()
    now[0] += EXIT_PULSE
    factory.pin(EXIT).drive_high()
    now[0] += EXIT_PULSE


def test_the_hopper_counts_coins_out_and_stops_at_the_count() -> None:
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, coin=100, pin_factory=factory, clock=lambda: now[0])
    hopper.start(200)
    assert factory.pin(MOTOR).state
    coin_leaves(factory, now)
    coin_leaves(factory, now)
    assert hopper.money_events() == [Paid(100), Paid(100), PayoutEnded(paid=200, short=0)]
    assert not factory.pin(MOTOR).state
    for amount in (0, 50, 150):
        with pytest.raises(ValueError, match=f"whole coins of 100, at least one, not {amount}"):
            hopper.start(amount)


def test_stopping_the_hopper_stops_the_motor_and_a_late_coin_is_reported_after() -> None:
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, coin=100, pin_factory=factory, clock=lambda: now[0])
    hopper.start(500)
    coin_leaves(factory, now)
    hopper.stop()
    assert not factory.pin(MOTOR).state
    coin_leaves(factory, now)
    assert hopper.money_events() == [Paid(100), PayoutEnded(paid=100, short=400), Paid(100)]
    hopper.stop()
    assert hopper.money_events() == [], "a stopped hopper stops once"


def test_no_coin_within_the_timeout_means_empty() -> None:
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, coin=100, timeout=2.0, pin_factory=factory, clock=lambda: now[0])
    hopper.start(500)
    now[0] = 1.0
    coin_leaves(factory, now)
    now[0] = 2.9
    assert hopper.money_events() == [Paid(100)]
    now[0] = 3.1
    assert hopper.money_events() == [PayoutEnded(paid=100, short=400)]
    assert not hopper.running


def test_noise_on_the_exit_sensor_is_logged_and_never_a_coin() -> None:
    """A spike narrower than a coin (a loose wire, a motor's interference) is no coin: a
    coin booked out that never left would short the player by its value."""
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, coin=100, pin_factory=factory, clock=lambda: now[0])
    hopper.start(200)
    line = factory.pin(EXIT)
    for _ in range(3):
        line.drive_low()
        now[0] += 0.001
        line.drive_high()
        now[0] += 0.010
    coin_leaves(factory, now)
    assert hopper.money_events() == [
        *[Glitch("hopper_exit_noise", {"width_ms": 1.0})] * 3,
        Paid(100),
    ]
    assert hopper.running, "one coin of two is out"


def test_a_coin_whose_cover_drops_out_for_an_instant_is_one_coin() -> None:
    """A coin's hole or edge lets the light through for a millisecond: the sensor clears and
    is covered again within one passage, which was booked as two coins."""
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, coin=100, pin_factory=factory, clock=lambda: now[0])
    hopper.start(300)
    line = factory.pin(EXIT)
    line.drive_low()
    now[0] += 0.010
    line.drive_high()
    now[0] += 0.001
    line.drive_low()
    now[0] += 0.010
    line.drive_high()
    now[0] += 0.020
    assert hopper.money_events() == [Paid(100)]


def test_a_coin_stuck_at_the_exit_is_counted_once_and_stops_the_payout() -> None:
    """A coin that covers the sensor long enough is a coin, counted while it still covers
    it; one that stays past ``exit_max_ms`` stops the motor, the payout short by the coins
    not yet out. When it falls it is not counted again (it was paid once, and a stuck coin
    booked as not owed had been paid twice by the cash-out that followed)."""
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, coin=100, pin_factory=factory, clock=lambda: now[0])
    hopper.start(300)
    coin_leaves(factory, now)
    factory.pin(EXIT).drive_low()
    now[0] += 0.2
    assert hopper.money_events() == [Paid(100), Paid(100)], "covered for 200 ms: a coin, slow"
    assert hopper.running
    now[0] += 0.1
    assert hopper.money_events() == [
        Glitch("hopper_exit_blocked", {"width_ms": 300.0}),
        PayoutEnded(paid=200, short=100, tilt="hopper_exit_blocked"),
    ]
    assert not hopper.running
    factory.pin(EXIT).drive_high()
    now[0] += 0.02
    assert hopper.money_events() == []


def test_no_payout_starts_while_the_exit_sensor_is_covered() -> None:
    """A sensor failed covered stopped the first payout, and the next ran its motor blind
    until the empty timeout: while the sensor stays covered no payout starts, every time."""
    factory, now = MockFactory(), [0.0]
    hopper = Hopper(MOTOR, EXIT, coin=100, pin_factory=factory, clock=lambda: now[0])
    hopper.start(300)
    factory.pin(EXIT).drive_low()  # the sensor fails covered
    now[0] += 0.3
    assert hopper.money_events()[-1] == PayoutEnded(paid=100, short=200, tilt="hopper_exit_blocked")
    for _ in range(2):
        hopper.start(200)
        assert not factory.pin(MOTOR).state
        events = hopper.money_events()
        assert [type(event) for event in events] == [Glitch, PayoutEnded]
        assert events[-1] == PayoutEnded(paid=0, short=200, tilt="hopper_exit_blocked")
        now[0] += 1


def test_a_power_cut_while_a_coin_covers_the_exit_loses_no_coin(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    cabinet = cashing_out_500(database, factory, now)
    coin_leaves(factory, now)
    factory.pin(EXIT).drive_low()  # the second coin at the exit
    now[0] += 0.035
    cabinet.step()
    cabinet.terminal.store.close()  # the power goes with the coin on the sensor
    again = Terminal(Config(database=database, cashout="hopper", hopper_coin=100), books(database))
    assert again.store.meters()["hopper_out"] == 200
    assert again.handpay == 300, "what the coins did not pay, by hand, once"
    assert audit(again.store).ok


def test_a_noisy_exit_sensor_takes_nothing_from_the_credits(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    cabinet = cashing_out_500(tmp_path / "kiosk.db", factory, now)
    terminal = cabinet.terminal
    for _ in range(10):
        factory.pin(EXIT).drive_low()
        now[0] += 0.0005
        factory.pin(EXIT).drive_high()
        now[0] += 0.010
    for _ in range(2):
        coin_leaves(factory, now)
    cabinet.step()
    assert terminal.store.meters()["hopper_out"] == 200, "two coins left, not twelve"
    assert terminal.payout == 300
    noise = [e["detail"] for e in terminal.store.events(last=100) if e["kind"] == "hopper_exit_noise"]
    assert noise == [{"width_ms": 0.5}] * 10
    assert audit(terminal.store).ok


def test_an_exit_blocked_tilt_outlives_a_power_cut_and_the_attendant_clears_it(tmp_path: Path) -> None:
    """The power goes while the exit-blocked tilt stands: it stands again at the start, with
    the coins still owed on the credits, and the attendant's key clears it."""
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    cabinet = cashing_out_500(database, factory, now)
    coin_leaves(factory, now)
    factory.pin(EXIT).drive_low()  # the sensor fails covered
    now[0] += 0.3
    cabinet.step()
    assert list(cabinet.terminal.tilts) == ["hopper_exit_blocked"]
    cabinet.terminal.store.close()
    again = Terminal(Config(database=database, cashout="hopper", hopper_coin=100), books(database))
    assert list(again.tilts) == ["hopper_exit_blocked"]
    assert again.credits == 300
    assert again.handle("attendant").ok
    assert not again.tilts
    assert audit(again.store).ok


def cashing_out_500(database: Path, factory: MockFactory, now: list[float]) -> Cabinet:
    """A cabinet paying out 5 coins of 100 for a note of 500, its hopper started."""
    cabinet = cabinet_with_hopper(database, factory, now)
    cabinet.terminal.handle("bill", 500)
    cabinet.terminal.handle("cashout")
    cabinet.step()
    return cabinet


def cabinet_with_hopper(database: Path, factory: MockFactory, now: list[float]) -> Cabinet:
    config = Config(database=database, cashout="hopper", hopper_coin=100)
    terminal = Terminal(config, books(database))
    hopper = Hopper(MOTOR, EXIT, coin=100, pin_factory=factory, clock=lambda: now[0])
    return Cabinet(terminal, hopper=hopper, clock=lambda: now[0], wait=passing(now))


def passing(now: list[float], then: Callable[[], None] = lambda: None) -> Callable[[float], None]:
    """A wait on the hopper's virtual clock: its time passes, and ``then`` happens."""

    def wait(seconds: float) -> None:
        now[0] += seconds
        then()

    return wait


def test_a_payout_books_each_coin_and_handpays_the_rest(tmp_path: Path) -> None:
    factory, now = MockFactory(), [0.0]
    cabinet = cabinet_with_hopper(tmp_path / "kiosk.db", factory, now)
    terminal = cabinet.terminal
    terminal.handle("bill", 1000)
    terminal.handle("coin", 50)
    assert terminal.handle("cashout").message == "paying out 10 × 100"
    assert terminal.live() == {"attendant", "door_open", "operator_key_on"}, (
        "only the attendant and the door while the hopper pays"
    )
    cabinet.step()
    for _ in range(10):
        coin_leaves(factory, now)
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
        coin_leaves(factory, now)
    now[0] += 5
    cabinet.step()
    assert terminal.credits == 600
    assert terminal.tilts == {"hopper_empty": "the hopper stopped with coins still owed: 6"}
    assert audit(terminal.store).ok


def test_a_jammed_coin_freed_after_a_payout_ended_short_is_paid_from_the_credits_once(tmp_path: Path) -> None:
    """A payout ended short (jammed), then the jammed coin dropped into the tray: it had been
    booked as a coin nothing owed, at no credit, so the credits still held it, and the next
    cash-out paid it again (600 out of a hopper for a note of 500)."""
    factory, now = MockFactory(), [0.0]
    cabinet = cashing_out_500(tmp_path / "kiosk.db", factory, now)
    terminal = cabinet.terminal
    for _ in range(2):
        coin_leaves(factory, now)
    cabinet.step()
    now[0] += 5  # no coin within the time-out: ended 3 coins short
    cabinet.step()
    assert "hopper_empty" in terminal.tilts
    assert terminal.credits == 300
    coin_leaves(factory, now)  # the attendant frees the jam: the coin drops
    cabinet.step()
    assert terminal.credits == 200, "the freed coin is the cash-out's, paid from the credits"
    assert "hopper_overpaid" not in terminal.tilts
    assert terminal.handle("attendant").ok
    assert terminal.handle("cashout").ok
    cabinet.step()
    while cabinet.hopper is not None and cabinet.hopper.running:
        coin_leaves(factory, now)
        cabinet.step()
    meters = terminal.store.meters()
    assert terminal.credits == 0
    assert meters["hopper_out"] == 500
    assert meters.get("hopper_overpaid", 0) == 0
    assert audit(terminal.store).ok


def test_an_exit_sensor_covered_past_its_bound_tilts_naming_the_sensor_not_an_empty_hopper(
    tmp_path: Path,
) -> None:
    """A coin stuck at the exit, or the sensor failed covered, stops the payout: the tilt
    says so and that the last coin counted may not have reached the tray (it had said the
    hopper was empty, sending the attendant to refill it); the next cash-out, with the
    sensor still covered, tilts the same, and nothing is paid twice."""
    factory, now = MockFactory(), [0.0]
    cabinet = cashing_out_500(tmp_path / "kiosk.db", factory, now)
    terminal = cabinet.terminal
    coin_leaves(factory, now)
    factory.pin(EXIT).drive_low()  # the sensor fails covered
    now[0] += 0.3
    cabinet.step()
    assert terminal.store.meters()["hopper_out"] == 200, "the covering counted once, as a coin"
    assert terminal.credits == 300
    assert list(terminal.tilts) == ["hopper_exit_blocked"]
    assert "coins still owed: 3" in terminal.tilts["hopper_exit_blocked"]
    terminal.handle("attendant")
    assert not terminal.tilts
    terminal.handle("cashout")
    cabinet.step()
    assert list(terminal.tilts) == ["hopper_exit_blocked"], "still covered: no payout starts"
    assert terminal.credits == 300
    assert terminal.store.meters()["hopper_out"] == 200
    assert audit(terminal.store).ok


def test_a_cover_of_the_exit_after_a_payout_that_never_ran_takes_nothing_from_the_credits(
    tmp_path: Path,
) -> None:
    """The sensor covered at the start: no payout ran, no coin fell. Cleaning it (a cover a
    coin long) is no coin of the player's: the credits stay, and the attendant sees a coin
    not owed; after a payout that ran dry, a coin once the attendant has cleared the tilt is
    not owed either."""
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    cabinet = cabinet_with_hopper(database, factory, now)
    terminal = cabinet.terminal
    terminal.handle("bill", 500)
    factory.pin(EXIT).drive_low()  # covered as the cash-out starts
    terminal.handle("cashout")
    cabinet.step()
    assert "hopper_exit_blocked" in terminal.tilts
    factory.pin(EXIT).drive_high()
    now[0] += EXIT_PULSE
    coin_leaves(factory, now)  # the attendant's cloth
    cabinet.step()
    assert terminal.credits == 500
    assert "hopper_overpaid" in terminal.tilts
    terminal.handle("attendant")
    assert not terminal.tilts
    terminal.handle("cashout")
    cabinet.step()
    now[0] += 5  # dry at once: 5 coins short
    cabinet.step()
    assert "hopper_empty" in terminal.tilts
    terminal.handle("attendant")
    coin_leaves(factory, now)
    cabinet.step()
    assert terminal.credits == 500, "a coin after the attendant cleared the tilt is not owed"
    assert "hopper_overpaid" in terminal.tilts
    assert audit(terminal.store).ok


def cashing_out_1050(database: Path, factory: MockFactory, now: list[float]) -> Cabinet:
    """A cabinet paying out 10 coins of 100 for credits of 1 050, its hopper started."""
    cabinet = cabinet_with_hopper(database, factory, now)
    cabinet.terminal.handle("bill", 1000)
    cabinet.terminal.handle("coin", 50)
    cabinet.terminal.handle("cashout")
    cabinet.step()
    return cabinet


def three_coins_paid_of_1050(database: Path, factory: MockFactory, now: list[float]) -> Cabinet:
    """The cash-out of 1 050 with 3 of its 10 coins out and booked: 7 coins and 50 owed."""
    cabinet = cashing_out_1050(database, factory, now)
    for _ in range(3):
        coin_leaves(factory, now)
    cabinet.step()
    return cabinet


def test_a_power_cut_during_a_payout_leaves_the_rest_owed_once_as_a_handpay(tmp_path: Path) -> None:
    factory = MockFactory()
    database = tmp_path / "kiosk.db"
    cabinet = three_coins_paid_of_1050(database, factory, [0.0])
    cabinet.terminal.store.close()  # the power goes with 7 coins and the 50 below a coin owed
    again = Terminal(Config(database=database, cashout="hopper"), books(database))
    assert again.payout is None
    assert again.handpay == 750, "what was not paid is owed, by hand"
    assert again.live() == {"attendant", "door_open", "operator_key_on"}
    assert again.handle("attendant").message == "handpay of 750 paid"
    assert again.credits == 0
    assert not again.handle("cashout").ok, "the same credits cannot be cashed out twice"
    meters = again.store.meters()
    assert (meters["hopper_out"], meters["handpays"], meters["total_out"]) == (300, 750, 1050)
    interrupted = [e["detail"] for e in again.store.events() if e["kind"] == "payout_interrupted"]
    assert interrupted == [{"coins_owed": 7, "device": "hopper"}]
    assert audit(again.store).ok


def test_a_power_cut_after_the_last_coin_before_the_payout_ended_still_handpays_the_rest(
    tmp_path: Path,
) -> None:
    """The last coin owed is booked the moment it leaves; the handpay of what is left below a
    coin is called for in the same transaction, so a cut before the hopper reports the end
    cannot leave a cash-out half done with credits on the meter."""
    factory = MockFactory()
    database = tmp_path / "kiosk.db"
    cabinet = cashing_out_1050(database, factory, [0.0])
    assert cabinet.terminal.payout_items == 10
    for _ in range(10):  # each coin booked as it leaves; the power goes before the end is read
        assert cabinet.terminal.payout_item_paid(100).ok
    cabinet.terminal.store.close()
    again = Terminal(Config(database=database, cashout="hopper"), books(database))
    assert again.payout is None
    assert again.handpay == 50, "the 50 below a coin is owed, by hand, as without the cut"
    assert again.handle("attendant").message == "handpay of 50 paid"
    assert again.credits == 0
    assert audit(again.store).ok


OWED = 4
"""Coins the cash-out in the walk below owes (with or without 50 below a coin)."""
CASHOUT, ATTENDANT = 5, 6


def test_every_interleaving_of_coins_and_the_attendants_key_pays_exactly_what_was_cashed_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Coins fall at every point of a payout the attendant stops: before the key, between
    the key and the motor stop, as the motor stops, after the stop with the handpay fixed,
    after the handpay was paid; every count at each point, with and without credits below
    a coin. Coins booked + handpaid is what was cashed out, every time; the rest is
    overpaid, on its meter and a tilt."""
    factory = MockFactory()
    panel = Panel({"cashout": CASHOUT, "attendant": ATTENDANT}, {}, bounce_time=None, pin_factory=factory)
    now = [0.0]
    hopper = Hopper(MOTOR, EXIT, coin=100, pin_factory=factory, clock=lambda: now[0])
    dropped, as_stopped = [0], [0]

    def drop(coins: int) -> None:
        for _ in range(coins):
            coin_leaves(factory, now)
        dropped[0] += coins

    def stop_and_drop(stop: Callable[[], None] = hopper.stop) -> None:
        stop()
        drop(as_stopped[0])  # the instant the motor stops, before the terminal hears of it

    monkeypatch.setattr(hopper, "stop", stop_and_drop)
    walked = 0
    for before, between, as_stopped[0], after, after_paid, below in itertools.product(
        range(OWED + 2), range(3), range(3), range(3), range(2), (0, 50)
    ):
        case = (before, between, as_stopped[0], after, after_paid, below)
        terminal = Terminal(Config(cashout="hopper", hopper_coin=100), memory_books())
        cabinet = Cabinet(terminal, panel=panel, hopper=hopper)
        dropped[0] = 0

        def motor_first(terminal: Terminal = terminal) -> None:
            if terminal.handpay is not None:
                assert not hopper.running, "a handpay is fixed only once the motor stands"

        for _ in range(OWED):
            terminal.handle("coin", 100)
        if below:
            terminal.handle("coin", below)
        cashed_out = terminal.credits
        press(factory, CASHOUT)
        cabinet.step()
        assert hopper.running
        drop(before)
        cabinet.step()
        motor_first()
        factory.pin(ATTENDANT).drive_low()  # the key turns: the motor still runs
        drop(between)
        factory.pin(ATTENDANT).drive_high()
        cabinet.step()
        motor_first()
        assert not hopper.running, case
        assert terminal.payout is None, case
        assert not terminal.stopping, case
        drop(after)
        cabinet.step()
        motor_first()
        press(factory, ATTENDANT)  # pays the handpay, if one is left
        cabinet.step()
        drop(after_paid)
        cabinet.step()

        meters = terminal.store.meters()
        booked, handpaid = meters.get("hopper_out", 0), meters.get("handpays", 0)
        overpaid = meters.get("hopper_overpaid", 0)
        assert booked + handpaid == cashed_out, case
        assert booked + overpaid == dropped[0] * 100, case
        tilted = [e for e in terminal.store.events(last=1000) if e["detail"].get("kind") == "hopper_overpaid"]
        assert bool(tilted) == (overpaid > 0), case
        assert terminal.credits == 0, case
        assert terminal.handpay is None, case
        report = audit(terminal.store)
        assert report.ok, (case, report.problems)
        walked += 1
    assert walked == (OWED + 2) * 3 * 3 * 3 * 2 * 2


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_a_coin_with_no_payout_at_all_is_overpaid_and_tilts() -> None:
    terminal = Terminal(Config(cashout="hopper", hopper_coin=100), memory_books())
    mock = MockCabinet(terminal)
    terminal.handle("coin", 100)
    mock.drop_coin()
    mock.advance(0)
    assert terminal.credits == 100, "the player's credits are untouched"
    assert terminal.store.meters()["hopper_overpaid"] == 100
    assert "hopper_overpaid" in terminal.tilts
    assert audit(terminal.store).ok


def test_the_attendants_key_before_the_motor_ever_ran_handpays_it_all() -> None:
    terminal = Terminal(Config(cashout="hopper", hopper_coin=100), memory_books())
    mock = MockCabinet(terminal)
    terminal.handle("coin", 200)
    terminal.handle("cashout")  # not through the cabinet: its motor has not started yet
    assert terminal.handle("attendant").message == "A payout stopped before it was complete."
    assert "attendant" not in terminal.live(), "its lamp is dark until the hopper stands"
    refused = terminal.handle("attendant")
    assert not refused.ok
    assert refused.message == "the payout is stopping: what it did not pay is handpaid then"
    mock.advance(0)
    assert mock.cabinet.hopper is not None
    assert not mock.cabinet.hopper.running
    assert terminal.handpay == 200
    assert mock.press("attendant")[0].message == "handpay of 200 paid"
    assert audit(terminal.store).ok


class ScriptedPayout:
    """A payout device that reports what its script says: the ``MoneyOut`` contract as a
    ticket printer or another hopper would keep it."""

    def __init__(self, events: list[MoneyEvent]) -> None:
        self.events = events
        self.started: list[int] = []
        self.running = False

    def start(self, amount: int) -> None:
        self.started.append(amount)
        self.running = True

    def stop(self) -> None:
        self.running = False

    def money_events(self) -> list[MoneyEvent]:
        events, self.events = self.events, []
        if any(isinstance(event, PayoutEnded) for event in events):
            self.running = False
        return events

    def close(self) -> None:
        self.running = False


def test_any_payout_device_is_booked_logged_and_tilted_by_the_one_event_vocabulary(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, cashout="hopper", hopper_coin=100), books(database))
    device = ScriptedPayout([])
    cabinet = Cabinet(terminal, hopper=device)
    terminal.handle("bill", 500)
    terminal.handle("cashout")
    cabinet.step()
    assert device.started == [500]
    device.events = [
        Paid(100),
        Glitch("hopper_exit_noise", {"width_ms": 1.0}),
        Paid(100),
        PayoutEnded(paid=200, short=300),
    ]
    cabinet.step()
    assert terminal.credits == 300, "each item paid is booked out, the rest stays"
    assert terminal.tilts == {"hopper_empty": "the hopper stopped with coins still owed: 3"}
    logged = [(event["kind"], event["detail"]) for event in terminal.store.events()]
    assert ("hopper_exit_noise", {"width_ms": 1.0}) in logged, "a device's noise is logged"
    device.events = [Fault("hopper_overpaid", "the hopper's sensor failed")]
    cabinet.step()
    assert "hopper_overpaid" in terminal.tilts, "a device fault tilts the terminal"
    assert audit(terminal.store).ok


def test_a_payout_owes_the_amount_its_coins_are_worth(tmp_path: Path) -> None:
    cabinet = cashing_out_1050(tmp_path / "kiosk.db", MockFactory(), [0.0])
    assert cabinet.terminal.payout == 1000, "10 coins of 100, in minor units"
    assert cabinet.terminal.payout_items == 10


def test_the_screen_and_the_log_count_the_coins_a_payout_owes(tmp_path: Path) -> None:
    i18n.use("en")
    factory, now = MockFactory(), [0.0]
    cabinet = cashing_out_1050(tmp_path / "kiosk.db", factory, now)
    terminal = cabinet.terminal
    cash = cash_for(terminal)
    assert overlay(terminal, cash, last_settlement(terminal)) == (
        "payout",
        "PAYING OUT",
        "coins to come: 10",
    )
    for _ in range(3):
        coin_leaves(factory, now)
    cabinet.step()
    assert prompt(terminal, terminal.live(), cash) == "Paying out, coins to come: 7."
    assert terminal.handle("attendant").ok
    logged = {e["kind"]: e["detail"] for e in terminal.store.events() if e["kind"].startswith("payout_")}
    assert logged == {
        "payout_requested": {"coins": 10, "coin": 100, "device": "hopper"},
        "payout_stop_requested": {"coins_owed": 7, "device": "hopper"},
    }


def test_books_of_the_release_that_counted_the_payout_in_coins_resume_it_as_its_amount(
    tmp_path: Path,
) -> None:
    """That release kept the coins still owed under ``payout``: a restart reads them as
    coins of the hopper's coin, handpays them once and logs the same count."""
    factory = MockFactory()
    database = tmp_path / "kiosk.db"
    cabinet = three_coins_paid_of_1050(database, factory, [0.0])
    store = cabinet.terminal.store
    with store.transaction():
        state = {key: value for key, value in store.get_state("terminal").items() if key != "payout_owed"}
        store.set_state("terminal", {**state, "payout": 7})
    store.close()
    again = Terminal(Config(database=database, cashout="hopper", hopper_coin=100), books(database))
    interrupted = [e["detail"] for e in again.store.events() if e["kind"] == "payout_interrupted"]
    assert interrupted == [{"coins_owed": 7, "device": "hopper"}]
    assert (again.payout, again.handpay) == (None, 750)
    assert "payout" not in again.store.get_state("terminal"), "converted once, on load"
    assert again.handle("attendant").message == "handpay of 750 paid"
    meters = again.store.meters()
    assert (meters["hopper_out"], meters["handpays"], meters["total_out"]) == (300, 750, 1050)
    assert audit(again.store).ok


@pytest.mark.parametrize("value", [50, 150, 600], ids=["below a coin", "not whole coins", "more than owed"])
def test_an_item_whose_value_the_payout_does_not_owe_is_overpaid_and_tilts(value: int) -> None:
    terminal = Terminal(Config(cashout="hopper", hopper_coin=100), memory_books())
    device = ScriptedPayout([])
    cabinet = Cabinet(terminal, hopper=device)
    terminal.handle("bill", 500)
    terminal.handle("cashout")
    cabinet.step()
    device.events = [Paid(value)]
    cabinet.step()
    assert (terminal.credits, terminal.payout) == (500, 500), "nothing owed is paid by it"
    assert terminal.store.meters()["hopper_overpaid"] == value
    assert terminal.tilts["hopper_overpaid"] == f"the hopper paid a coin of {value} it did not owe"
    assert audit(terminal.store).ok


def test_an_item_paid_out_is_worth_something() -> None:
    with pytest.raises(ValueError, match="at least 1 minor unit, not 0"):
        Paid(0)
    with pytest.raises(ValueError, match="the hopper's coin is worth at least 1 minor unit, not 0"):
        Hopper(MOTOR, EXIT, coin=0, pin_factory=MockFactory())


def test_coins_counted_as_the_kiosk_stops_during_a_payout_are_booked_once(tmp_path: Path) -> None:
    """The kiosk stopped (systemd's SIGTERM) while the hopper paid: a coin counted after the
    last frame was never booked, and the next start handpaid it again; so was one still
    falling as the motor stopped."""
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    cabinet = cashing_out_500(database, factory, now)
    coin_leaves(factory, now)
    cabinet.step()
    coin_leaves(factory, now)  # after the last frame's step: the loop ends, the kiosk stops
    falls = iter([True])  # one coin, as the motor stops

    def a_coin_falls() -> None:
        if next(falls, False):
            coin_leaves(factory, now)

    cabinet._wait = passing(now, a_coin_falls)
    cabinet.shut_down()
    assert not factory.pin(MOTOR).state, "the motor stopped"
    cabinet.terminal.store.close()
    again = Terminal(cabinet.terminal.config, books(database))
    assert again.store.meters()["hopper_out"] == 300
    assert again.handpay == 200, "what the hopper did not pay is handpaid, once"
    assert audit(again.store).ok


def test_the_last_coin_counted_after_the_last_frame_ends_the_payout_as_the_kiosk_stops(
    tmp_path: Path,
) -> None:
    """The hopper stops its own motor at the last coin owed: that coin, counted after the
    last frame, had been left unbooked because the hopper no longer ran."""
    factory, now = MockFactory(), [0.0]
    database = tmp_path / "kiosk.db"
    cabinet = cashing_out_500(database, factory, now)
    for _ in range(4):
        coin_leaves(factory, now)
    cabinet.step()
    coin_leaves(factory, now)  # the fifth, after the last frame: the hopper stops itself
    cabinet.shut_down()
    cabinet.terminal.store.close()
    again = Terminal(cabinet.terminal.config, books(database))
    assert again.store.meters()["hopper_out"] == 500
    assert again.handpay is None
    assert again.payout is None
    assert audit(again.store).ok


def test_a_kiosk_stopping_on_closed_books_still_stops_the_hopper_and_lets_its_lines_go(
    tmp_path: Path,
) -> None:
    factory, now = MockFactory(), [0.0]
    cabinet = cashing_out_500(tmp_path / "kiosk.db", factory, now)
    coin_leaves(factory, now)
    cabinet.terminal.store.close()
    with contextlib.suppress(OasisError):  # the coin cannot be booked on closed books
        cabinet.shut_down()
    assert not factory.pin(MOTOR).state
    assert cabinet.hopper is not None
    assert all(line.closed for line in vars(cabinet.hopper).values() if isinstance(line, GPIODevice))
