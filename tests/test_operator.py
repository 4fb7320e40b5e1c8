"""The operator menu's logic: key and PIN, period meters, logged settings."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pygame
import pytest
from support import REDRAW_DECK, books, golden_oasis_two_boxes, logged_in_menu, settled

from oasis_kiosk import load_profile, returns
from oasis_kiosk.cli import main
from oasis_kiosk.config import Config, ConfigError, ReturnBounds
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.events import sentence
from oasis_kiosk.machine.intents import BUTTONS
from oasis_kiosk.machine.operator import (
    MIN_PIN_LENGTH,
    PIN_DIGITS,
    PIN_TRIES,
    OperatorError,
    OperatorMenu,
    ReturnsUnknownError,
    hash_pin,
    pin_matches,
)
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.ui import render
from oasis_kiosk.ui.scenes.operator.screen import OperatorScreen

PIN = "243512"


def open_menu(menu: OperatorMenu) -> None:
    menu.terminal.handle("operator_key_on")
    menu.login(PIN)


def close_menu(menu: OperatorMenu) -> None:
    menu.terminal.handle("operator_key_off")


@pytest.fixture
def menu(tmp_path: Path) -> OperatorMenu:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    with terminal.store.transaction():
        terminal.store.set_state("operator_pin", hash_pin(PIN))
    return OperatorMenu(terminal)


def test_the_pin_is_a_salted_hash() -> None:
    one, two = hash_pin(PIN), hash_pin(PIN)
    assert one != two, "a fresh salt each time"
    assert PIN not in one
    assert pin_matches(PIN, one)
    assert pin_matches(PIN, two)
    assert not pin_matches("243513", one)
    assert not pin_matches(PIN, "garbage")
    with pytest.raises(OperatorError, match="6 to 12 of the digits 1 to 5"):
        hash_pin("12a451")


def test_a_pin_typed_on_the_panel_has_at_least_ten_thousand_combinations() -> None:
    panel_digits = {str(value) for intent, value in BUTTONS.values() if intent == "card"}
    assert panel_digits == set(PIN_DIGITS), "a PIN is made of exactly what the card buttons type"
    assert len(PIN_DIGITS) ** MIN_PIN_LENGTH >= 10_000
    assert len(PIN_DIGITS) ** (MIN_PIN_LENGTH - 1) < 10_000, "and no longer than it needs"
    for too_weak in ("2468", "12345", "9" * 6, "123450", "1" * 13):
        with pytest.raises(OperatorError, match="a PIN is 6 to 12 of the digits 1 to 5"):
            hash_pin(too_weak)
    assert pin_matches("5" * 12, hash_pin("5" * 12))


def test_the_panel_types_every_pin_digit_and_logs_in(menu: OperatorMenu) -> None:
    cabinet = Cabinet(menu.terminal)
    screen = OperatorScreen(menu.terminal, cabinet, pygame.Surface((640, 480)))
    menu.terminal.handle("operator_key_on")
    for digit in PIN:
        screen.press(Press("card", int(digit)))
    assert screen.pin == PIN
    screen.press(Press("deal"))
    assert screen.menu.logged_in
    screen.close()
    pygame.font.init()
    render.forget()  # fonts another test kept before it quit pygame cannot draw
    screen.draw()
    keys = {label for _area, label in screen.hotspots}
    assert keys == {*PIN_DIGITS, "clear", "enter"}, "the touch keypad offers the PIN's digits"


def test_a_pin_set_before_its_rules_changed_still_opens_the_menu(menu: OperatorMenu) -> None:
    with menu.store.transaction():  # a stored hash of an older, shorter PIN
        menu.store.set_state("operator_pin", "scrypt$" + legacy_hash("2468"))
    menu.terminal.handle("operator_key_on")
    menu.login("2468")
    assert menu.logged_in


def legacy_hash(pin: str) -> str:
    salt = bytes(16)
    return f"{salt.hex()}${hashlib.scrypt(pin.encode(), salt=salt, dklen=32, n=2**14, r=8, p=1).hex()}"


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_pins_wait_longer_each_time_then_lock_until_the_attendant(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    with terminal.store.transaction():
        terminal.store.set_state("operator_pin", hash_pin(PIN))
    clock = Clock()
    menu = OperatorMenu(terminal, clock=clock)
    terminal.handle("operator_key_on")
    waits = []
    for _ in range(1, PIN_TRIES):
        with pytest.raises(OperatorError, match="wrong PIN") as wrong:
            menu.login("111111")
        with pytest.raises(OperatorError, match=r"wait (\d+) s") as refused:
            menu.login(PIN)  # even the right PIN waits
        assert not menu.logged_in
        wait = int(re.findall(r"wait (\d+) s", str(refused.value))[0])
        assert f"wait {wait} s" in str(wrong.value), "the wrong PIN says the wait too"
        waits.append(wait)
        clock.now += wait - 1
        with pytest.raises(OperatorError, match="wait 1 s"):
            menu.login(PIN)
        clock.now += 1
    assert all(shorter < longer for shorter, longer in pairwise(waits)), waits
    failed = [e for e in terminal.store.events(50) if e["kind"] == "operator_login_failed"]
    assert [e["detail"]["failures"] for e in failed] == list(range(1, PIN_TRIES))
    with pytest.raises(OperatorError, match="locked"):
        menu.login("222222")  # the fifth wrong PIN in a row
    assert "pin_lockout" in terminal.tilts
    clock.now += 3600
    with pytest.raises(OperatorError, match="locked"):
        menu.login(PIN)  # time does not open a lockout
    assert not menu.logged_in

    terminal.store.close()  # a restart keeps the lockout and the count
    again = Terminal(Config(database=database), books(database))
    menu = OperatorMenu(again, clock=clock)
    assert "pin_lockout" in again.tilts
    with pytest.raises(OperatorError, match="locked"):
        menu.login(PIN)
    again.handle("operator_key_off")
    assert "attendant" in again.live()
    assert again.handle("attendant").ok, "the attendant's key clears the lockout"
    assert "pin_lockout" not in again.tilts
    again.handle("operator_key_on")
    with pytest.raises(OperatorError, match="locked"):
        menu.login("333333")  # still wrong in a row: locked again at once
    again.handle("operator_key_off")
    again.handle("attendant")
    again.handle("operator_key_on")
    clock.now += 3600
    menu.login(PIN)
    assert menu.logged_in
    assert again.store.get_state("pin_failures")["count"] == 0, "a right PIN resets the count"
    menu.logout()
    with pytest.raises(OperatorError, match="wrong PIN: wait 2 s"):
        menu.login("444444")


def test_a_clock_set_back_does_not_stretch_the_wait(menu: OperatorMenu) -> None:
    clock = Clock()
    menu = OperatorMenu(menu.terminal, clock=clock)
    menu.terminal.handle("operator_key_on")
    with pytest.raises(OperatorError, match="wrong PIN"):
        menu.login("111111")
    clock.now -= 86_400  # the clock went back a day
    with pytest.raises(OperatorError, match="wait 2 s"):
        menu.login(PIN)
    clock.now += 2
    menu.login(PIN)
    assert menu.logged_in


def test_the_menu_needs_the_key_and_the_pin(menu: OperatorMenu) -> None:
    with pytest.raises(OperatorError, match="log in first"):
        menu.meters()
    with pytest.raises(OperatorError, match="turn the operator key"):
        menu.login(PIN)
    assert menu.terminal.handle("operator_key_on").ok
    assert menu.terminal.live() == {"operator_key_off", "door_open"}, "the game stands still"
    with pytest.raises(OperatorError, match="wrong PIN"):
        menu.login("111111")
    menu.clock = lambda: 1e12  # past the wait after a wrong PIN
    menu.login(PIN)
    assert menu.meters()["credits"] == 0
    kinds = [e["kind"] for e in menu.events()]
    assert kinds[-2:] == ["operator_login_failed", "operator_login"]
    menu.terminal.handle("operator_key_off")
    with pytest.raises(OperatorError, match="log in first"):
        menu.meters()
    assert "operator_logout" in [e["kind"] for e in menu.store.events(3)]


def test_a_period_reset_leaves_the_lifetime_meters_and_the_audit_alone(menu: OperatorMenu) -> None:
    menu.terminal.handle("bill", 5000)
    open_menu(menu)
    menu.reset_period()
    close_menu(menu)
    menu.terminal.handle("coin", 200)
    open_menu(menu)
    assert menu.period_meters()["total_in"] == 200
    assert menu.meters()["total_in"] == 5200
    assert audit(menu.store).ok
    assert any(e["kind"] == "period_meters_reset" for e in menu.events())


def test_jackpot_parameters_are_logged_and_survive_a_restart(menu: OperatorMenu, tmp_path: Path) -> None:
    open_menu(menu)
    with pytest.raises(OperatorError, match="maximum 5 is below base 10"):
        menu.set_jackpot(base=10, rate="0.1", maximum=5)
    with pytest.raises(OperatorError, match=r"rate: 'lots' is not a number such as 0\.1 or 3/20"):
        menu.set_jackpot(base=10, rate="lots", maximum=50)
    menu.set_jackpot(base=200_000, rate="1/1000", maximum=900_000)
    menu.set_language("cs")
    changes = [e["detail"] for e in menu.events() if e["kind"] == "configuration_changed"]
    # The last: the first start logged the jackpot it started with.
    change = {"detail": [c for c in changes if c["setting"] == "jackpot"][-1]}
    assert change["detail"]["after"] == {"base": 200_000, "rate": "1/1000", "maximum": 900_000}
    assert change["detail"]["before"]["base"] == 1_000_000
    menu.store.close()
    database = tmp_path / "kiosk.db"
    again = Terminal(Config(database=database), books(database))
    assert again.config.jackpot.rate == Fraction(1, 1000)
    assert again.config.language == "cs"
    # The start logs the settings in force: it had logged the file's jackpot as changed
    # back, while the menu's went on playing.
    logged = [e["detail"] for e in again.store.events() if e["kind"] == "configuration_changed"]
    assert len(logged) == len(changes), f"no change since the menu's: {logged[len(changes) :]}"


def test_the_attract_volume_is_checked_logged_and_survives_a_restart(
    menu: OperatorMenu, tmp_path: Path
) -> None:
    with pytest.raises(OperatorError, match="log in first"):
        menu.set_attract_volume(5)
    open_menu(menu)
    for wrong in (11, -1, True, "5"):
        with pytest.raises(OperatorError, match="the attract volume is 0 to 10"):
            menu.set_attract_volume(wrong)  # type: ignore[arg-type]
    assert menu.terminal.config.attract_volume == 3, "the default, untouched"
    menu.set_attract_volume(0)
    assert menu.terminal.config.attract_volume == 0
    (change,) = [
        e["detail"]
        for e in menu.events()
        if e["kind"] == "configuration_changed" and e["detail"]["setting"] == "attract_volume"
    ]
    assert (change["before"], change["after"]) == (3, 0)
    menu.store.close()
    database = tmp_path / "kiosk.db"
    assert Terminal(Config(database=database), books(database)).config.attract_volume == 0


def test_an_operator_credit_is_on_the_ledger_with_its_reason(menu: OperatorMenu) -> None:
    open_menu(menu)
    with pytest.raises(OperatorError, match="a positive whole amount and a reason"):
        menu.add_credit(500, " ")
    with pytest.raises(OperatorError, match="a positive whole amount"):
        menu.add_credit(True, "refund")
    menu.add_credit(500, "refund: note jammed")
    assert menu.terminal.credits == 500
    (row,) = [row for row in menu.store.ledger() if row.kind == "operator_credit"]
    assert row.detail == {"reason": "refund: note jammed"}
    assert menu.meters()["operator_credits"] == 500
    assert audit(menu.store).ok


def test_the_rules_change_between_rounds_only_and_whole(menu: OperatorMenu, tmp_path: Path) -> None:
    menu.terminal.handle("bill", 5000)
    menu.terminal.handle("deal")
    open_menu(menu)
    with pytest.raises(OperatorError, match="cannot change while a round is open"):
        menu.set_rules("golden-oasis")
    close_menu(menu)
    menu.terminal.handle("fold")
    open_menu(menu)
    with pytest.raises(OperatorError, match="cannot change while credits are on"):
        menu.set_rules("golden-oasis")
    close_menu(menu)
    assert menu.terminal.handle("cashout").ok
    assert menu.terminal.handle("attendant").ok, "the attendant pays the credits by hand"
    open_menu(menu)
    with pytest.raises(OperatorError, match=r"table\.ante_min: minimum 20000 is above the maximum"):
        menu.set_rules("standard", {"table": {"ante_min": 20000}})
    assert menu.terminal.profile.id == "standard", "a refused change changes nothing"
    cabinet = menu.terminal.config
    menu.terminal.config = replace(cabinet, credit_limit=1400)
    with pytest.raises(
        OperatorError, match=r"credit_limit: 1400 is below the least a round of golden-oasis needs"
    ):
        menu.set_rules("golden-oasis")
    assert menu.terminal.profile.id == "standard", "rules no credit could ever deal are refused"
    menu.terminal.config = cabinet
    house_variant = {"table": {"max_payout": 300000}}
    with pytest.raises(ReturnsUnknownError):
        menu.set_rules("golden-oasis", house_variant)
    # Its return computed once (a few rounds: a wide interval the loose bounds accept) and booked.
    menu.terminal.config = replace(menu.terminal.config, return_bounds=ReturnBounds(return_max=2.0))
    menu.book_returns(
        returns.compute(load_profile("golden-oasis", house_variant), rounds=2000, seed=bytes(32))
    )
    menu.set_rules("golden-oasis", house_variant)
    assert menu.terminal.profile.id == "golden-oasis"
    close_menu(menu)
    menu.terminal.handle("bill", 5000)
    assert menu.terminal.handle("deal").ok
    menu.store.close()
    database = tmp_path / "kiosk.db"
    again = Terminal(Config(database=database), books(database))
    assert again.profile.id == "golden-oasis", "the operator's rules outlive a restart"
    assert again.profile.to_dict()["table"]["max_payout"] == 300000
    assert again.round is not None
    assert audit(again.store).ok


def test_the_speed_is_checked_logged_and_survives_a_restart(menu: OperatorMenu, tmp_path: Path) -> None:
    with pytest.raises(OperatorError, match="log in first"):
        menu.set_speed("fast")
    open_menu(menu)
    for wrong in ("faster", "", 2):
        with pytest.raises(OperatorError, match="the speed is 'normal' or 'fast', not"):
            menu.set_speed(wrong)  # type: ignore[arg-type]
    assert menu.terminal.config.speed == "normal", "the default, untouched"
    menu.set_speed("fast")
    assert menu.terminal.config.speed == "fast"
    (change,) = [
        e["detail"]
        for e in menu.events()
        if e["kind"] == "configuration_changed" and e["detail"]["setting"] == "speed"
    ]
    assert (change["before"], change["after"]) == ("normal", "fast")
    menu.store.close()
    database = tmp_path / "kiosk.db"
    assert Terminal(Config(database=database), books(database)).config.speed == "fast"


def test_the_jackpot_is_reset_only_upwards_and_its_hits_are_listed(menu: OperatorMenu) -> None:
    open_menu(menu)
    with pytest.raises(OperatorError, match="only a hit lowers it"):
        menu.reset_jackpot()
    menu.set_jackpot(base=1_200_000, rate="0.01", maximum=6_000_000)
    menu.reset_jackpot()
    assert menu.terminal.jackpot.value == 1_200_000
    assert audit(menu.store).ok
    assert menu.jackpot_hits() == []


def test_the_meters_page_lists_the_registry_in_its_order_and_money_as_money() -> None:
    from oasis_kiosk.i18n import money
    from oasis_kiosk.machine.meters import METERS, page_order
    from oasis_kiosk.ui.scenes.operator.meters import meter_row

    meters = {"coins_in_200": 3, "power_ups": 2, "bills_in_1000": 1, "coins_in_50": 4, "total_in": 1150}
    ordered = sorted(meters, key=page_order)
    assert ordered == ["bills_in_1000", "coins_in_50", "coins_in_200", "total_in", "power_ups"]
    cash = lambda amount: money(amount, "EUR", 100)  # noqa: E731
    assert meter_row("total_in", 1150, cash) == ("Total in", "€11.50")
    assert meter_row("power_ups", 2, cash) == ("Power-ups", "2")
    assert meter_row("coins_in_200", 3, cash) == ("Coins of €2.00", "3")
    assert next(iter(METERS)) == "credits"


def test_the_recall_replays_each_hand_from_the_deal_through_each_exchange(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    profile = "russian-three-box"
    terminal = Terminal(
        Config(database=database, profile=profile),
        books(database, profile),
        seed_for_round=seeds_from(bytes(32)),
    )
    for _ in range(4):
        terminal.handle("bill", 5000)
    terminal.handle("boxes")
    terminal.handle("deal")
    for intent, card in (("card", 1), ("card", 3), ("exchange", None)):
        assert terminal.handle(intent, card).ok
    while terminal.round is not None:
        assert terminal.handle("play").ok
    menu = logged_in_menu(terminal)
    (recalled,) = menu.recall(1)
    settlement = settled(recalled)
    dealer, first, second = menu.recalled_hands(recalled)
    assert (dealer.box, first.box, second.box) == (None, 0, 1)
    dealt, exchanged = first.steps
    assert (dealt.action, exchanged.action) == ("dealt", "exchange")
    assert exchanged.positions == (0, 2)
    assert [p for p, card in enumerate(dealt.cards) if card != exchanged.cards[p]] == [0, 2]
    assert exchanged.cards == settlement["boxes"][0]["cards"]
    assert [step.action for step in second.steps] == ["dealt"]
    assert dealer.steps[-1].cards == settlement["dealer_cards"], (
        "the dealer's hidden cards as they were turned"
    )


def test_the_recall_names_the_dealers_redraw_after_the_purchase_that_bought_it(tmp_path: Path) -> None:
    """Box 2 buys the game, box 1 declines after it: the dealer's new card came of the
    purchase, not of box 1's DECLINE, the last action before his draw."""
    terminal = golden_oasis_two_boxes(tmp_path / "kiosk.db", REDRAW_DECK)
    for intent in ["play", "play", "buy_game", "decline"]:
        assert terminal.handle(intent).ok, intent
    menu = logged_in_menu(terminal)
    (recalled,) = menu.recall(1)
    assert [action["action"] for action in recalled["record"]["actions"]][-2:] == ["buy_game", "decline"]
    dealer, *_boxes = menu.recalled_hands(recalled)
    assert [step.action for step in dealer.steps] == ["dealt", "buy_game"]
    assert dealer.steps[-1].cards == settled(recalled)["dealer_cards"]


def test_stored_rules_whose_profile_file_is_gone_name_the_way_out_and_forget_setting_takes_it(
    menu: OperatorMenu, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The menu chose a house profile file, later removed: every start had failed, with no
    command to play the configuration file's rules again short of a RAM clear."""
    house = tmp_path / "house.toml"
    house.write_text((Path(returns.__file__).parent / "profiles" / "standard.toml").read_text())
    open_menu(menu)
    menu.set_rules(str(house))
    menu.terminal.handle("operator_key_off")
    assert menu.terminal.handle("bill", 5000).ok
    menu.store.close()
    house.unlink()
    database = tmp_path / "kiosk.db"
    with pytest.raises(ConfigError, match=r"oasis-kiosk forget-setting rules --db"):
        Terminal(Config(database=database), books(database))
    capsys.readouterr()
    assert main(["forget-setting", "rules", "--db", str(database)]) == 0
    assert "forgotten" in capsys.readouterr().out
    again = Terminal(Config(database=database), books(database))
    assert again.profile.id == "standard"
    assert again.credits == 5000, "the credit kept"
    (forgotten,) = [e for e in again.store.events() if e["kind"] == "setting_forgotten"]
    assert forgotten["detail"]["before"]["profile"] == str(house)
    assert forgotten["detail"]["credits"] == 5000, "the credit on when the rules changed is logged"
    assert sentence(forgotten, str) == (
        "Stored setting rules forgotten: the configuration file's is in force"
    )
    again.store.close()
    capsys.readouterr()
    assert main(["forget-setting", "rules", "--db", str(database)]) == 0
    assert "nothing changed" in capsys.readouterr().out


def test_stored_rules_the_books_cannot_count_in_are_blamed_on_the_store_with_the_way_out(
    menu: OperatorMenu, tmp_path: Path
) -> None:
    """The menu's rules, kept in the books, whose profile file was edited to count other
    minor units: the refusal had named the configuration file, which holds no such rules."""
    house = tmp_path / "house.toml"
    house.write_text((Path(returns.__file__).parent / "profiles" / "standard.toml").read_text())
    open_menu(menu)
    menu.set_rules(str(house))
    menu.store.close()
    house.write_text(house.read_text().replace("minor_units = 100", "minor_units = 1"))
    database = tmp_path / "kiosk.db"
    with pytest.raises(
        ConfigError, match=r"the stored setting rules: .*oasis-kiosk forget-setting rules --db"
    ):
        Terminal(Config(database=database), books(database))


def test_a_change_of_rules_in_the_menu_is_logged_once(menu: OperatorMenu, tmp_path: Path) -> None:
    """The menu logged it, and the next start logged it again as the configuration's."""
    open_menu(menu)
    menu.set_rules("caribbean")
    logged = len([e for e in menu.events() if e["kind"] == "configuration_changed"])
    menu.store.close()
    database = tmp_path / "kiosk.db"
    again = Terminal(Config(database=database), books(database))
    assert again.profile.id == "caribbean"
    changes = [e["detail"] for e in again.store.events() if e["kind"] == "configuration_changed"]
    assert changes[logged:] == [], "the start finds the rules as the menu logged them"
