"""The help screen's text is written from each profile."""

from __future__ import annotations

import re
from collections.abc import Callable
from copy import deepcopy
from typing import TYPE_CHECKING

import pytest

from oasis_kiosk import BetError, Round, i18n, load_profile, profile_names
from oasis_kiosk.i18n import money
from oasis_kiosk.ui.rules_text import bonus_rows, hand_name, paytable_rows, rules_lines

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk._core import _PurchaseRules as PurchaseRules


def cash_in(profile: str) -> Callable[[int], str]:
    table = load_profile(profile).to_dict()["table"]
    return lambda amount: money(amount, table["currency"], table["minor_units"])


def help_at(name: str, ante: int | None = None) -> list[str]:
    """The help's sentences for a box at `ante` (the least ante when none is given)."""
    profile = load_profile(name)
    return rules_lines(
        profile.to_dict(), cash_in(name), profile, ante if ante is not None else profile.allowed_antes()[0]
    )


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
    assert "A box either exchanges or buys a sixth card, not both." in golden, "the core's one purchase"
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
    least = profile.allowed_antes()[0]
    anyway = deepcopy(rules)
    needing = 0
    for option in (anyway.get("sixth_card"), anyway.get("buy_game"), anyway.get("buy_dealer_card")):
        if option:
            needing += bool(option.get("needs_bonus"))
            option["needs_bonus"] = False
    i18n.use(language)
    try:
        lines = rules_lines(rules, cash_in(name), profile, least)
        without = rules_lines(anyway, cash_in(name), profile, least)
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


def rules_of(name: str) -> ProfileRules:
    return load_profile(name).to_dict()


def help_of(name: str, rules: ProfileRules) -> list[str]:
    """The help's sentences for `rules` (a profile's, perhaps changed) at the least ante."""
    profile = load_profile(name)
    return rules_lines(rules, cash_in(name), profile, profile.allowed_antes()[0])


def with_all(lines: list[str], *words: str) -> list[str]:
    return [line for line in lines if all(word in line for word in words)]


@pytest.mark.parametrize("name", [name for name in profile_names() if rules_of(name).get("protection")])
def test_the_protection_names_every_hand_it_protects_and_its_cap(name: str) -> None:
    """golden-oasis protects the royal flush as well as the straight flush, and the half it
    pays stops at the table's maximum (RULES.md §3.5): the help said "a straight flush"."""
    rules = rules_of(name)
    cap = cash_in(name)(rules["table"]["max_payout"])
    names = [hand_name(category) for category in rules["protection"]["categories"]]
    assert with_all(help_at(name), *names), names
    assert with_all(help_at(name), "half", cap)
    changed = deepcopy(rules)
    changed["protection"]["categories"] = ["FourOfAKind"]
    assert with_all(help_of(name, changed), "Four of a kind")


@pytest.mark.parametrize("name", [name for name in profile_names() if rules_of(name).get("insurance")])
def test_the_insurance_stops_at_the_table_maximum(name: str) -> None:
    cap = cash_in(name)(rules_of(name)["table"]["max_payout"])
    assert with_all(help_at(name), "insure", cap)


def redraws(name: str) -> list[PurchaseRules]:
    rules = rules_of(name)
    return [option for option in (rules.get("buy_game"), rules.get("buy_dealer_card")) if option]


@pytest.mark.parametrize("name", [name for name in profile_names() if redraws(name)])
def test_the_redraw_says_which_hand_may_buy_it_and_what_a_dealer_still_out_leaves(name: str) -> None:
    """Buying the game (golden-oasis) is open to Ace-King or better only, and a dealer who
    still does not qualify returns the ante and the play bet, the fee lost: the purchase gives
    up the ante's 1:1 win where the profile pays it (RULES.md §3.2, §3.4)."""
    rules = rules_of(name)
    lines = help_at(name)
    least = redraws(name)[0].get("min_category")
    if least:
        assert with_all(lines, "change his highest card", f"{hand_name(least)} or better")
    assert with_all(lines, "still does not qualify", "the fee is lost")
    assert bool(with_all(lines, "gives up the ante's 1:1 win")) == (
        rules["game"]["no_qualify_ante"] == "pays"
    )
    changed = deepcopy(rules)
    for option in (changed.get("buy_game"), changed.get("buy_dealer_card")):
        if option:
            option["min_category"] = "TwoPair"
    changed["game"]["no_qualify_ante"] = "returned"
    lines = help_of(name, changed)
    assert with_all(lines, "change his highest card", "Two pair or better")
    assert not with_all(lines, "gives up")


def staked_bonus(name: str) -> bool:
    bonus = rules_of(name).get("bonus")
    return bonus is not None and bonus["kind"] != "privilege"


@pytest.mark.parametrize("name", [name for name in profile_names() if staked_bonus(name)])
def test_the_bonus_says_what_the_profile_decides(name: str) -> None:
    """Folding, the cards judged and the jackpot as the profile says them, never one house's
    words for every house."""
    rules = rules_of(name)
    bonus = rules["bonus"]
    for folding_loses in (True, False):
        changed = deepcopy(rules)
        changed["bonus"]["forfeited_by_fold"] = folding_loses
        lines = help_of(name, changed)
        assert bool(with_all(lines, "Folding loses the bonus")) == folding_loses
        assert bool(with_all(lines, "even after a fold")) != folding_loses
    assert bool(with_all(help_at(name), "five cards as dealt")) == (bonus["judged_on"] == "dealt")
    for award in bonus["jackpot"]:
        assert with_all(help_at(name), hand_name(award["category"]), "jackpot", "stake is not returned")
    if not bonus["jackpot"]:
        assert not with_all(help_at(name), "jackpot")


def test_the_bonus_stakes_said_are_those_the_core_takes() -> None:
    """A greatest stake off the profile's steps (2 to 4.50 in steps of 1) is not one a box may
    stake: the help names the greatest the core takes, as BONUS steps through them."""
    profile = load_profile("standard", {"bonus": {"stake_min": 200, "stake_max": 450, "stake_step": 100}})
    ante = profile.allowed_antes()[0]
    assert profile.bonus_stakes(ante) == [200, 300, 400]
    lines = rules_lines(profile.to_dict(), cash_in("standard"), profile, ante)
    assert with_all(lines, "Bonus bet €2.00 to €4.00,"), lines
