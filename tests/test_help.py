"""The help screen's text is written from each profile."""

from __future__ import annotations

import re
from collections.abc import Callable
from copy import deepcopy

import pytest

from oasis_kiosk import BetError, Round, i18n, load_profile, profile_names
from oasis_kiosk.i18n import money
from oasis_kiosk.ui.rules_text import bonus_rows, paytable_rows, rules_lines


def cash_in(profile: str) -> Callable[[int], str]:
    table = load_profile(profile).to_dict()["table"]
    return lambda amount: money(amount, table["currency"], table["minor_units"])


def help_at(name: str, ante: int | None = None) -> list[str]:
    """The help's sentences for a box at `ante` (the least ante when none is given)."""
    profile = load_profile(name)
    prices = profile.prices(ante if ante is not None else profile.allowed_antes()[0])
    return rules_lines(profile.to_dict(), cash_in(name), prices)


@pytest.mark.parametrize("name", profile_names())
def test_every_profile_has_its_help(name: str) -> None:
    rules = load_profile(name).to_dict()
    lines = help_at(name)
    assert lines[0] == rules["name"]
    assert any("qualifies with Ace-King or better" in line for line in lines)
    assert paytable_rows(rules)[0] == ("RoyalFlush", "Royal flush", "100:1")


def test_the_help_says_what_each_house_does() -> None:
    golden = help_at("golden-oasis", 1000)
    assert "Prices at an ante of €10.00:" in golden
    assert (
        "Exchange: 1 card for €10.00, 2 cards for €15.00, 3 cards for €15.00, 5 cards for €10.00." in golden
    )
    assert "With the bonus: 2 cards for €10.00." in golden
    assert any(line.startswith("Buy a sixth card for €10.00") for line in golden)
    stand_c = help_at("stand-c")
    assert "Then one more exchange: 1 card for RUB200.00." in stand_c
    assert "Maximum payout per box RUB200,000.00, counting the ante's and the play bet's wins." in stand_c
    czech = load_profile("czech").to_dict()
    assert bonus_rows(czech, cash_in("czech"))[-1] == ("ThreeOfAKind", "Three of a kind", "CZK100.00")
    standard = load_profile("standard").to_dict()
    assert bonus_rows(standard, cash_in("standard"))[0] == ("RoyalFlush", "Royal flush", "JACKPOT")
    assert paytable_rows(load_profile("stand-a").to_dict())[2] == ("FourOfAKind", "Four of a kind", "15:1")


def test_the_help_states_each_fee_the_round_charges_at_the_ante() -> None:
    """golden-oasis's privilege fee is 0.60 at a 5-euro ante, not a tenth of it (RULES.md §3.3):
    the help prints what the round takes."""
    golden = load_profile("golden-oasis")
    for ante, fee in ((500, "€0.60"), (1000, "€1.00")):
        lines = help_at("golden-oasis", ante)
        assert f"Bonus: a fee of {fee}, always kept; it opens the options below." in lines
        round_ = Round(golden, ante, bonus=True, seed=bytes(32))
        assert cash_in("golden-oasis")(round_.stakes(0)["bonus"]) == fee  # type: ignore[index]


@pytest.mark.parametrize("name", profile_names())
def test_every_exchange_fee_in_the_help_is_the_rounds_price(name: str) -> None:
    profile = load_profile(name)
    ante = profile.allowed_antes()[-1]
    prices = profile.prices(ante)
    for fees in prices["exchanges"][:1]:
        round_ = Round(profile, ante, seed=bytes(32))
        offered = round_.legal_actions(0).get("exchange", {})
        assert {fee["count"]: fee["fee"] for fee in fees if fee["fee"] is not None} == offered


def test_prices_refuse_an_ante_the_table_does_not_allow() -> None:
    with pytest.raises(BetError, match="does not allow an ante of 501"):
        load_profile("golden-oasis").prices(501)


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
@pytest.mark.parametrize("name", profile_names())
def test_a_purchase_that_needs_the_bonus_says_so_inside_its_sentence(name: str, language: str) -> None:
    """The words "(with the bonus)" stood after the sentence's full stop ("… из шести. (со ставкой на
    бонус)"): the condition is part of the sentence."""
    profile = load_profile(name)
    rules = profile.to_dict()
    prices = profile.prices(profile.allowed_antes()[0])
    anyway = deepcopy(rules)
    needing = 0
    for option in (anyway.get("sixth_card"), anyway.get("buy_game"), anyway.get("buy_dealer_card")):
        if option:
            needing += bool(option.get("needs_bonus"))
            option["needs_bonus"] = False
    i18n.use(language)
    try:
        lines = rules_lines(rules, cash_in(name), prices)
        without = rules_lines(anyway, cash_in(name), prices)
        bonus = i18n._("BONUS")
    finally:
        i18n.use("en")
    for line in lines:
        assert not re.search(r"[.!?]\s*\(", line), f"words after the full stop: {line!r}"
    conditional = [line for line in lines if line not in without]
    assert len(conditional) == needing
    for line in conditional:
        assert bonus.lower()[:4] in line.lower(), f"the bonus it needs is named: {line!r}"
        assert line.endswith("."), line
