"""The operator menu's logic: key and PIN, period meters, logged settings."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from support import books

from oasis_kiosk.config import Config
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.operator import OperatorError, OperatorMenu, hash_pin, pin_matches
from oasis_kiosk.machine.terminal import Terminal


def open_menu(menu: OperatorMenu) -> None:
    menu.terminal.handle("operator_key_on")
    menu.login("2468")


def close_menu(menu: OperatorMenu) -> None:
    menu.terminal.handle("operator_key_off")


@pytest.fixture
def menu(tmp_path: Path) -> OperatorMenu:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    with terminal.store.transaction():
        terminal.store.set_state("operator_pin", hash_pin("2468"))
    return OperatorMenu(terminal)


def test_the_pin_is_a_salted_hash() -> None:
    one, two = hash_pin("2468"), hash_pin("2468")
    assert one != two, "a fresh salt each time"
    assert "2468" not in one
    assert pin_matches("2468", one)
    assert pin_matches("2468", two)
    assert not pin_matches("2469", one)
    assert not pin_matches("2468", "garbage")
    with pytest.raises(OperatorError, match="4 to 12 digits"):
        hash_pin("12a4")


def test_the_menu_needs_the_key_and_the_pin(menu: OperatorMenu) -> None:
    with pytest.raises(OperatorError, match="log in first"):
        menu.meters()
    with pytest.raises(OperatorError, match="turn the operator key"):
        menu.login("2468")
    assert menu.terminal.handle("operator_key_on").ok
    assert menu.terminal.live() == {"operator_key_off", "door_open"}, "the game stands still"
    with pytest.raises(OperatorError, match="wrong PIN"):
        menu.login("1111")
    menu.login("2468")
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
    with pytest.raises(OperatorError, match="0 < base <= maximum"):
        menu.set_jackpot(base=10, rate="0.1", maximum=5)
    with pytest.raises(OperatorError, match="not a share"):
        menu.set_jackpot(base=10, rate="lots", maximum=50)
    menu.set_jackpot(base=200_000, rate="3/20", maximum=900_000)
    menu.set_language("cs")
    changes = [e["detail"] for e in menu.events() if e["kind"] == "configuration_changed"]
    change = {"detail": next(c for c in changes if c["setting"] == "jackpot")}
    assert change["detail"]["after"] == {"base": 200_000, "rate": "3/20", "maximum": 900_000}
    assert change["detail"]["before"]["base"] == 1_000_000
    menu.store.close()
    database = tmp_path / "kiosk.db"
    again = Terminal(Config(database=database), books(database))
    assert again.config.jackpot.rate == Fraction(3, 20)
    assert again.config.language == "cs"


def test_an_operator_credit_is_on_the_ledger_with_its_reason(menu: OperatorMenu) -> None:
    open_menu(menu)
    with pytest.raises(OperatorError, match="a positive whole amount and a reason"):
        menu.add_credit(500, " ")
    with pytest.raises(OperatorError, match="a positive whole amount"):
        menu.add_credit(True, "refund")  # type: ignore[arg-type]
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
    menu.set_rules("golden-oasis", {"table": {"max_payout": 300000}})
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


def test_the_denomination_is_one_of_the_usual(menu: OperatorMenu) -> None:
    open_menu(menu)
    with pytest.raises(OperatorError, match="a credit is 1, 5, 10"):
        menu.set_denomination(3)
    menu.set_denomination(10)
    assert menu.store.get_state("denomination") == 10


def test_the_jackpot_is_reset_only_upwards_and_its_hits_are_listed(menu: OperatorMenu) -> None:
    open_menu(menu)
    with pytest.raises(OperatorError, match="only a hit lowers it"):
        menu.reset_jackpot()
    menu.set_jackpot(base=1_200_000, rate="0.1", maximum=6_000_000)
    menu.reset_jackpot()
    assert menu.terminal.jackpot.value == 1_200_000
    assert audit(menu.store).ok
    assert menu.jackpot_hits() == []
