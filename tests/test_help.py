"""The help screen's text is written from each profile."""

from __future__ import annotations

import pytest

from oasis_kiosk import load_profile, profile_names
from oasis_kiosk.i18n import money
from oasis_kiosk.ui.help import bonus_rows, paytable_rows, rules_lines


def cash_in(profile: str) -> object:
    table = load_profile(profile).to_dict()["table"]
    return lambda amount: money(amount, table["currency"], table["minor_units"])


@pytest.mark.parametrize("name", profile_names())
def test_every_profile_has_its_help(name: str) -> None:
    rules = load_profile(name).to_dict()
    lines = rules_lines(rules, cash_in(name))  # type: ignore[arg-type]
    assert lines[0] == rules["name"]
    assert any("qualifies with Ace-King or better" in line for line in lines)
    assert paytable_rows(rules)[0] == ("RoyalFlush", "Royal flush", "100:1")


def test_the_help_says_what_each_house_does() -> None:
    golden = rules_lines(load_profile("golden-oasis").to_dict(), cash_in("golden-oasis"))  # type: ignore[arg-type]
    assert (
        "Exchange: 1 card(s) for 1 ante, 2 card(s) for 1.5 antes, 3 card(s) for 1.5 antes, 5 card(s) for 1 ante."
        in golden
    )
    assert any(line.startswith("Buy a sixth card for 1 ante") for line in golden)
    stand_c = rules_lines(load_profile("stand-c").to_dict(), cash_in("stand-c"))  # type: ignore[arg-type]
    assert "Then one more exchange: 1 card(s) for 2 antes." in stand_c
    assert "Maximum payout per box RUB200,000.00, counting the ante's and the play bet's wins." in stand_c
    czech = load_profile("czech").to_dict()
    assert bonus_rows(czech, cash_in("czech"))[-1] == ("ThreeOfAKind", "Three of a kind", "CZK100.00")  # type: ignore[arg-type]
    standard = load_profile("standard").to_dict()
    assert bonus_rows(standard, cash_in("standard"))[0] == ("RoyalFlush", "Royal flush", "JACKPOT")  # type: ignore[arg-type]
    assert paytable_rows(load_profile("stand-a").to_dict())[2] == ("FourOfAKind", "Four of a kind", "15:1")
