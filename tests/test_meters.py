"""The meters as every listing shows them: in the order a lab reads them, and every
registered meter there, 0 where nothing moved it yet."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from support import books, logged_in_menu

from oasis_kiosk.cli import main
from oasis_kiosk.config import Config
from oasis_kiosk.machine.audit import OVERPAID
from oasis_kiosk.machine.cash_out_kinds import PAYOUT_DEVICES, PayoutDevice
from oasis_kiosk.machine.events import MONEY_IN_AND_OUT, SENTENCES
from oasis_kiosk.machine.intents import INTENTS, Intent
from oasis_kiosk.machine.ledger_kinds import MONEY_IN, MONEY_OUT, WAGERED, WON
from oasis_kiosk.machine.meters import METERS, denomination, every_meter
from oasis_kiosk.machine.money_kinds import MONEY_KINDS, MoneyKind
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.machine.tilts import TILTS

LAB_ORDER = ["credits", "coin_in", "coin_out", "games_won", "jackpots_paid", "handpays"]
"""What a lab reads first, before the notes and coins by denomination."""
AFTER_DENOMINATIONS = ["games_played", "door_opens"]


def test_every_registered_meter_is_listed_in_the_labs_order_with_zero_where_untouched() -> None:
    listed = every_meter({"bills_in_1000": 1, "coins_in_200": 3, "power_ups": 2, "a_new_meter": 5})
    names = list(listed)
    assert names[: len(LAB_ORDER)] == LAB_ORDER
    after = names.index(AFTER_DENOMINATIONS[0])
    assert names[len(LAB_ORDER) : after] == ["bills_in_1000", "coins_in_200"], "notes, then coins"
    assert names[after : after + len(AFTER_DENOMINATIONS)] == AFTER_DENOMINATIONS
    assert names[-1] == "a_new_meter", "a meter the registry does not know comes last"
    assert set(METERS) <= set(listed)
    assert listed["coin_in"] == 0
    assert listed["power_ups"] == 2


def test_the_denominations_taken_are_listed_with_zero_until_one_comes_in() -> None:
    listed = every_meter({"coins_in_200": 3}, Config(coins=(50, 200), bills=(1000, 500)))
    denominations = [name for name in listed if name.startswith(("coins_in_", "bills_in_"))]
    assert denominations == ["bills_in_500", "bills_in_1000", "coins_in_50", "coins_in_200"]
    assert listed["coins_in_50"] == 0
    assert listed["coins_in_200"] == 3


def played(tmp_path: Path) -> Terminal:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    terminal.handle("bill", 2000)
    return terminal


def test_the_command_lists_the_meters_as_the_menu_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = played(tmp_path)
    listed = list(every_meter(logged_in_menu(terminal).meters(), terminal.config))
    assert main(["meters", "--db", str(tmp_path / "kiosk.db")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == listed
    assert lines[1].split() == ["coin_in", "0"], "an untouched meter is 0, as on the menu"
    assert main(["meters", "--json", "--db", str(tmp_path / "kiosk.db")]) == 0
    meters = json.loads(capsys.readouterr().out)
    assert list(meters) == listed
    assert meters["bills_in_2000"] == 1
    assert meters["jackpots_paid"] == 0


def test_both_columns_of_the_menu_list_every_meter_from_zero(tmp_path: Path) -> None:
    menu = logged_in_menu(played(tmp_path))
    menu.reset_period()
    lifetime, period = menu.meters(), menu.period_meters()
    assert list(every_meter(period)) == list(every_meter(lifetime))
    assert every_meter(period)["total_in"] == 0
    assert every_meter(lifetime)["total_in"] == 2000
    assert period["credits"] == lifetime["credits"] == 2000, "the credits on now, whatever the period"


@pytest.mark.parametrize("kind", MONEY_KINDS.values(), ids=lambda kind: kind.name)
def test_each_kind_of_money_is_an_intent_a_ledger_row_and_a_meter_the_listings_and_the_log_know(
    kind: MoneyKind,
) -> None:
    assert INTENTS[Intent(kind.name)].takes_value, "its intent carries the value taken in"
    assert kind.ledger_kind in MONEY_IN, "its ledger row counts as money in"
    assert kind.ledger_kind in MONEY_IN_AND_OUT, "the event log shows its row"
    assert kind.ledger_kind in SENTENCES, "in a sentence"
    value = kind.accepted(Config())[0]
    assert denomination(kind.meter(value)) == (kind.meter_label, value), "the meters page labels its meter"
    assert kind.meter(value) in every_meter({}, Config()), "every listing shows its meters"


@pytest.mark.parametrize("device", PAYOUT_DEVICES.values(), ids=lambda device: device.name)
def test_each_payout_device_names_meters_and_tilts_the_registries_label_and_the_audit_counts(
    device: PayoutDevice,
) -> None:
    assert {device.meter, device.overpaid} <= set(METERS), "the meters page labels its meters"
    assert {device.stopped_short, device.overpaid} <= set(TILTS), "the tilt panel explains its tilts"
    assert device.overpaid in OVERPAID, "the audit sums its unowed items on their meter"


def meter_names_written(source: str) -> list[str]:
    """The meter names a module passes to ``add_meter`` as written words."""
    return [
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "add_meter"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]


def test_every_meter_a_module_adds_to_by_name_is_registered() -> None:
    """A meter's name written by hand in the module that adds to it ("coin_out" is in five) is
    one the registry knows: a misspelt one would start a meter no listing labels and the
    audit never checks."""
    package = Path(__file__).resolve().parent.parent / "oasis_kiosk"
    written = {
        (module.relative_to(package).as_posix(), name)
        for module in package.rglob("*.py")
        for name in meter_names_written(module.read_text(encoding="utf-8"))
    }
    assert len(written) > 10, "the terminal's modules add to their meters by name"
    assert [(module, name) for module, name in sorted(written) if name not in METERS] == []
    assert meter_names_written('store.add_meter("coin_outt", 5)') == ["coin_outt"]


def test_the_hub_signs_each_kind_of_ledger_row_as_the_books_do() -> None:
    """The hub's check of a ledger row's sign (migration 0016's trigger) lists the kinds
    again, in SQL: a kind the books add (``ledger_kinds``) needs a migration that names it,
    or the hub would take its amount with either sign."""
    migrations = Path(__file__).resolve().parent.parent / "oasis_kiosk" / "floor" / "migrations"
    trigger = [path for path in sorted(migrations.glob("*.sql")) if "signed_money()" in path.read_text()][-1]
    lists = re.findall(
        r"kind IN \(([^)]*)\) THEN\s+PERFORM hub\.payload_signed\(NEW, '\{amount\}', (-?1)",
        trigger.read_text(),
    )
    signed = {sign: set(re.findall(r"'(\w+)'", kinds)) for kinds, sign in lists}
    assert signed == {"1": {*MONEY_IN, *WON}, "-1": {*WAGERED, *MONEY_OUT}}
