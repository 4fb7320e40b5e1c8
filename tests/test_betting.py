"""Betting without tedium: BET and BET − step the ante, MAX BET, BONUS through its stakes,
REPEAT BET deals the last round's bets in one press, and a bet that cannot be dealt says why."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import books

from oasis_kiosk import i18n
from oasis_kiosk._core import SHIPPED_PROFILES, BetError, Profile, Round
from oasis_kiosk.config import Config
from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.hardware.script import run
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.betting import Bets, Betting
from oasis_kiosk.machine.intents import Intent, intent_name
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.rules import load_profile
from oasis_kiosk.ui import prompt, view

SEEDS = seeds_from(bytes(32))


def terminal(database: Path, profile: str = "standard") -> Terminal:
    config = Config(database=database, profile=profile)
    return Terminal(config, books(database, config.profile), seed_for_round=SEEDS)


def press(t: Terminal, *intents: str) -> None:
    for intent in intents:
        response = t.handle(intent)
        assert response.ok, response.message


def settle(t: Terminal) -> None:
    """Plays the round in the cheapest way: fold every box, decline every offer."""
    while t.round is not None:
        live = t.live()
        press(t, "fold" if "fold" in live else "decline")


def test_bet_steps_the_ante_up_and_round_and_bet_down_steps_it_back(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    antes = t.betting.antes_for(1)
    assert t.ante == antes[0]
    assert "bet_down" not in t.live(), "nothing below the least ante"
    refused = t.handle("bet_down")
    assert not refused.ok
    assert t.ante == antes[0]
    press(t, "bet", "bet")
    assert t.ante == antes[2]
    press(t, "bet_down")
    assert t.ante == antes[1]
    t.antes = (antes[-1],)
    press(t, "bet")
    assert t.ante == antes[0], "one BET button wraps round to the least ante"


def test_max_bet_takes_the_greatest_ante_the_credit_deals(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    t.handle("bill", 5000)
    press(t, "max_bet")
    assert t.credits >= t.upfront()
    bigger = t.betting.antes_for(1)[t.betting.antes_for(1).index(t.ante) + 1]
    assert t.profile.deal_needs(bigger) > t.credits, "the next ante up could not be dealt"
    assert "max_bet" not in t.live(), "already the greatest"
    press(t, "deal")
    assert t.round is not None


def test_max_bet_without_the_credit_for_any_ante_takes_the_tables_greatest(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    press(t, "max_bet")
    assert t.ante == t.betting.antes_for(1)[-1]


def test_bonus_steps_through_its_stakes_and_the_round_takes_the_chosen_one(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    stakes = t.profile.bonus_stakes(t.ante)
    assert len(stakes) > 2, "standard's odds bonus is 2 to 5 EUR"
    seen = []
    for _ in range(len(stakes) + 1):
        press(t, "bonus")
        seen.append(t.bonus_stake)
    assert seen == [*stakes, 0], "each stake once, least first, then off"
    press(t, "bonus", "bonus")
    t.handle("bill", 5000)
    credits = t.credits
    press(t, "deal")
    assert t.round is not None
    assert t.round.record()["bonus"] == [stakes[1]]
    assert credits - t.credits == t.ante + stakes[1]


def test_the_bonus_button_shows_the_stake_chosen(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    labels = {name: label for name, label, _lit in view.buttons(t, t.live(), view.cash_for(t))}
    assert labels[Intent.BONUS] == "BONUS OFF"
    press(t, "bonus", "bonus")
    labels = {name: label for name, label, _lit in view.buttons(t, t.live(), view.cash_for(t))}
    assert labels[Intent.BONUS] == f"BONUS {view.cash_for(t)(t.profile.bonus_stakes(t.ante)[1])}"


def test_a_privilege_fee_follows_the_ante(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db", "golden-oasis")
    press(t, "bonus")
    assert t.bonus_stake == t.profile.standard_bonus_stake(t.ante) == 60
    press(t, "bet")
    assert t.bonus_stake == t.profile.standard_bonus_stake(t.ante), "the fee at the new ante"
    press(t, "bet_down")
    assert t.bonus_stake == 60


def test_repeat_bet_deals_the_last_rounds_bets_in_one_press(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    assert "repeat_bet" not in t.live()
    refused = t.handle("repeat_bet")
    assert not refused.ok
    assert refused.message == "repeat_bet: no round has been dealt yet"
    t.handle("bill", 5000)
    t.handle("bill", 5000)
    press(t, "bet", "bonus", "bonus", "boxes", "deal")
    dealt = Bets.alike(1100, 2, 300)
    assert t.bets == dealt
    settle(t)
    assert "repeat_bet" not in {name for name, _label, _lit in view.buttons(t, t.live(), view.cash_for(t))}, (
        "DEAL deals the same bets"
    )
    press(t, "bet", "bet", "bonus", "boxes", "boxes")  # bets changed after the round
    assert t.bets == Bets.alike(1300, 1, 400)
    assert "repeat_bet" in {name for name, _label, _lit in view.buttons(t, t.live(), view.cash_for(t))}
    rounds = len(t.store.rounds())
    press(t, "repeat_bet")
    assert t.round is not None, "dealt in the same press"
    assert t.bets == dealt
    assert t.round.record()["bonus"] == [300, 300]
    settle(t)
    assert len(t.store.rounds()) == rounds + 1
    assert audit(t.store).ok


def test_repeat_bet_the_credit_cannot_deal_says_why_and_changes_nothing(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    t.handle("bill", 5000)
    press(t, "max_bet", "deal")
    needs = t.upfront()
    settle(t)  # the fold loses the ante: too little is left for the same bets
    press(t, "bet_down")
    before = (t.bets, t.credits, len(t.store.rounds()))
    assert "repeat_bet" not in t.live()
    response = t.handle("repeat_bet")
    assert not response.ok
    assert response.message == (
        f"repeat_bet needs {needs}, its play bets included; the credit is {t.credits}"
    )
    assert (t.bets, t.credits, len(t.store.rounds())) == before


def test_an_exchange_the_credit_cannot_leave_room_for_is_said_not_silently_dropped(tmp_path: Path) -> None:
    """Three boxes dealt on €100: the credit left must keep the play bets to come (RULES.md
    §2.7), so no exchange is offered. The prompt had dropped EXCHANGE without a word, and a
    card pressed said only "CARD is not live now"."""
    t = terminal(tmp_path / "kiosk.db")
    for _ in range(2):
        assert t.handle("bill", 5000).ok
    press(t, "boxes", "boxes", "bonus", "deal")
    assert t.round is not None
    assert "exchange" not in t.round.legal_actions()
    cash = view.cash_for(t)
    shown = prompt.prompt(t, t.live(), cash)
    kept = f"No EXCHANGE: the credit {cash(t.credits)} must keep the play bets to come"
    assert kept in shown, shown
    refused = t.handle("card", 5)
    assert not refused.ok
    assert (
        refused.text(cash, intent_name)
        == f"CARD: the credit {cash(t.credits)} must keep the play bets to come"
    )


def golden_oasis_dealt(database: Path, credit: int) -> Terminal:
    """A Golden Oasis round dealt on one box with the bonus (which the sixth card needs)."""
    t = terminal(database, "golden-oasis")
    assert t.handle("bill", credit).ok
    if not t.bonus_stake:
        press(t, "bonus")
    press(t, "deal")
    assert t.round is not None
    return t


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_a_sixth_card_the_credit_cannot_leave_room_for_is_said(tmp_path: Path, language: str) -> None:
    """Golden Oasis dealt on €20: SIXTH CARD is dark, as EXCHANGE is, because the credit
    left must keep the play bet to come; the prompt had said so for EXCHANGE only."""
    t = golden_oasis_dealt(tmp_path / "kiosk.db", 2000)
    assert t.round is not None
    assert "buy_sixth_card" not in t.round.legal_actions()
    cash = view.cash_for(t)
    i18n.use(language)
    try:
        shown = prompt.prompt(t, t.live(), cash)
        refused = t.handle("sixth")
        said = refused.text(cash, intent_name)
        sixth, credit = i18n._("SIXTH CARD"), cash(t.credits)
    finally:
        i18n.use("en")
    assert not refused.ok
    if language == "en":
        assert f"No EXCHANGE or SIXTH CARD: the credit {credit} must keep the play bets to come" in shown
        assert said == f"SIXTH CARD: the credit {credit} must keep the play bets to come"
    assert shown.count(sixth) == 1, shown  # named once, with the reason
    assert shown.count(credit) == 1, shown
    assert said.startswith(sixth), said
    assert credit in said, said


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_one_purchase_per_box_is_said_when_it_darkens_the_other(tmp_path: Path, language: str) -> None:
    """A Golden Oasis box buys a sixth card or exchanges, not both: the other button went
    dark without a word, and its press said only that it was not possible now."""
    bought = golden_oasis_dealt(tmp_path / "sixth.db", 5000)
    press(bought, "sixth")
    exchanged = golden_oasis_dealt(tmp_path / "exchange.db", 5000)
    assert exchanged.handle("card", 1).ok
    press(exchanged, "exchange")
    i18n.use(language)
    try:
        shown = {t: prompt.prompt(t, t.live(), view.cash_for(t)) for t in (bought, exchanged)}
        said = {
            t: t.handle(intent).text(view.cash_for(t), intent_name)
            for t, intent in ((bought, "exchange"), (exchanged, "sixth"))
        }
        dark = {bought: i18n._("EXCHANGE"), exchanged: i18n._("SIXTH CARD")}
        english = {
            bought: "no EXCHANGE: one purchase per box, and this box bought a SIXTH CARD",
            exchanged: "no SIXTH CARD: one purchase per box, and this box exchanged",
        }
        why = {t: i18n._(message) for t, message in english.items()}
    finally:
        i18n.use("en")
    if language == "en":
        assert said[bought] == "EXCHANGE: one purchase per box, and this box bought a SIXTH CARD"
        assert said[exchanged] == "SIXTH CARD: one purchase per box, and this box exchanged"
    for t in (bought, exchanged):
        assert language == "en" or why[t] != english[t], "translated"
        assert why[t][0].upper() + why[t][1:] in shown[t], shown[t]
        assert said[t].startswith(dark[t]), said[t]
        assert said[t] != dark[t] + " is not possible now", said[t]


def test_the_prompt_names_what_the_bet_needs_and_the_credit(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    assert prompt.prompt(t, t.live(), view.cash_for(t)) == "Insert coins or notes to play."
    t.handle("coin", 200)
    t.handle("coin", 200)
    shown = prompt.prompt(t, t.live(), view.cash_for(t))
    cash = view.cash_for(t)
    assert shown == (
        f"DEAL needs {cash(t.upfront())}, its play bets included; "
        f"the credit is {cash(t.credits)}: insert at least {cash(t.upfront() - t.credits)} more to play."
    ), "at the least bet, lowering it cannot help"
    t.handle("bill", 5000)
    while t.upfront() <= t.credits:  # a higher ante than the credit deals
        press(t, "bet")
    shown = prompt.prompt(t, t.live(), view.cash_for(t))
    assert shown.endswith(": lower the bet or insert money."), "the least bet is dealt with this credit"


def test_a_bet_above_the_least_that_no_credit_deals_names_both_sums_to_insert(tmp_path: Path) -> None:
    """MAX BET on too little credit sets the table's most: the prompt says what this bet
    lacks and what the least bet lacks, not only the latter (which would not light DEAL)."""
    t = terminal(tmp_path / "kiosk.db")
    t.handle("coin", 200)
    press(t, "max_bet")
    assert t.upfront() > t.least_to_deal() > t.credits
    cash = view.cash_for(t)
    assert prompt.prompt(t, t.live(), cash) == (
        f"DEAL needs {cash(t.upfront())}, its play bets included; the credit is {cash(t.credits)}: "
        f"insert {cash(t.upfront() - t.credits)} more, "
        f"or at least {cash(t.least_to_deal() - t.credits)} more for the least bet."
    )


def test_a_deal_refused_for_the_credit_says_its_reason_once(tmp_path: Path) -> None:
    """The prompt already says what DEAL needs; the refused press's own message, the same
    sentence, is not said again after it (it filled both lines at 800x480)."""
    t = terminal(tmp_path / "kiosk.db")
    t.handle("coin", 50)
    refused = t.handle("deal")
    assert not refused.ok
    line = view.snapshot(t, refused).prompt
    cash = view.cash_for(t)
    reason = f"DEAL needs {cash(t.upfront())}, its play bets included"
    assert line.count(reason) == 1, line
    assert line == prompt.prompt(t, t.live(), cash)


def test_the_bets_and_the_last_rounds_survive_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = terminal(database)
    t.handle("bill", 5000)
    press(t, "bonus", "bonus", "bet", "deal")
    settle(t)
    press(t, "bonus")
    bets, last = t.bets, t.last_bets
    t.store.close()
    again = terminal(database)
    assert (again.bets, again.last_bets) == (bets, last)


def test_books_of_the_earlier_bonus_switch_take_the_standard_stake(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = terminal(database)
    with t.store.transaction():
        state = t.store.get_state("terminal")
        del state["bonus_stake"], state["last_bets"]
        t.store.set_state("terminal", {**state, "bonus": True})
    t.store.close()
    again = terminal(database)
    assert again.bonus_stake == again.profile.standard_bonus_stake(again.ante)
    assert again.last_bets is None


def test_books_of_an_earlier_release_bet_one_ante_on_every_box(tmp_path: Path) -> None:
    """They kept one ante and a count of boxes, the last round's bets too: read as every box
    at that ante."""
    database = tmp_path / "kiosk.db"
    t = terminal(database)
    ante = t.betting.antes_for(2)[1]
    with t.store.transaction():
        state = t.store.get_state("terminal")
        del state["antes"]
        old = {"ante": ante, "boxes": 2, "bonus_stake": 0}
        t.store.set_state("terminal", {**state, **old, "last_bets": old})
    t.store.close()
    again = terminal(database)
    assert again.antes == (ante, ante)
    assert again.last_bets == Bets.alike(ante, 2, 0)
    assert again.books_fault is None


@pytest.mark.parametrize(
    ("field", "damaged"),
    [
        ("last_bets", {"ante": 1000}),
        ("last_bets", {"ante": -1, "boxes": 1, "bonus_stake": 0}),
        ("last_bets", {"ante": "1000", "boxes": 1, "bonus_stake": 0}),
        ("last_bets", {"antes": [], "bonus_stake": 0}),
        ("last_bets", {"antes": [1000, -1], "bonus_stake": 0}),
        ("last_bets", {"antes": ["1000"], "bonus_stake": 0}),
        ("last_bets", {"antes": 1000, "bonus_stake": 0}),
        ("antes", []),
        ("antes", [1000, -1]),
        ("antes", ["1000"]),
        ("antes", [True]),
    ],
)
def test_damaged_bets_in_the_books_are_named_and_stand_the_terminal_still(
    tmp_path: Path, field: str, damaged: object
) -> None:
    database = tmp_path / "kiosk.db"
    t = terminal(database)
    with t.store.transaction():
        t.store.set_state("terminal", {**t.store.get_state("terminal"), field: damaged})
    t.store.close()
    again = terminal(database)
    assert again.books_fault is not None
    assert field in again.books_fault
    assert again.live() == set(), "books that fail their check stand still"


def test_a_script_bets_with_the_betting_buttons(tmp_path: Path) -> None:
    cab = MockCabinet(terminal(tmp_path / "kiosk.db"))
    script = tmp_path / "bets.txt"
    script.write_text("bill 5000\nbonus\ndeal\nfold\nmax bet\nbet down\nrepeat bet\nfold\n")
    lines: list[str] = []
    run(cab, script, report=lines.append, sleep=lambda seconds: None)
    t = cab.terminal
    first, second = t.store.rounds()
    assert not any("skipped" in line for line in lines), lines
    assert first["record"]["antes"] == second["record"]["antes"], "REPEAT BET dealt the same ante"
    assert second["record"]["bonus"] == [t.profile.bonus_stakes(t.ante)[0]]
    assert audit(t.store).ok


def test_the_last_rounds_chips_leave_the_table_when_a_new_bet_is_placed(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    t.handle("bill", 5000)
    press(t, "deal")
    settle(t)
    shown = view.snapshot(t).boxes
    assert shown[0].cards, "the last round stays on the table until a bet is placed"
    press(t, "bet")
    (staged,) = view.snapshot(t).boxes
    assert staged.cards == ()
    assert staged.bets == (("ante", t.ante),)
    press(t, "bet_down")
    assert t.bets == t.last_bets
    assert view.snapshot(t).boxes[0].cards == (), "gone for good, though the bets are as they were"


def test_the_staged_bets_of_every_box_are_drawn_where_they_are(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")  # standard: three boxes, two looked at, the third blind
    press(t, "boxes", "boxes", "bonus")
    play_bet = t.profile.prices(t.ante)["play_bet"]
    stakes = [box.bets for box in view.snapshot(t).boxes]
    looked_at = (("ante", t.ante), ("bonus", t.bonus_stake))
    assert stakes == [looked_at, looked_at, (*looked_at, ("play", play_bet))]
    t.handle("bill", 5000)
    t.handle("bill", 5000)
    press(t, "deal")
    assert [box.bets for box in view.snapshot(t).boxes][2] == (
        ("ante", t.ante),
        ("play", play_bet),
        ("bonus", t.bonus_stake),
    ), "the blind box's play bet is placed at the deal, as staged"


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_boxes_raising_the_ante_to_the_several_box_least_says_so_and_why_bet_down_is_dark(
    tmp_path: Path, language: str
) -> None:
    """Golden Oasis takes two boxes at an ante of at least €15.00: BOXES at €5.00 raised the
    ante there silently (the bet jumped from €5.60 to €33.00, BET − dark for no reason said)."""
    t = terminal(tmp_path / "kiosk.db", "golden-oasis")
    t.handle("bill", 10000)
    one, two = t.betting.antes_for(1)[0], t.betting.antes_for(2)[0]
    assert one < two
    i18n.use(language)
    try:
        cash = view.cash_for(t)
        quiet = view.snapshot(t).prompt
        assert cash(two) not in quiet, "one box: nothing to say"
        assert intent_name(Intent.BET_DOWN) not in quiet
        raised = t.handle("boxes")
        assert (raised.ok, raised.notice) == (True, True), "the screen says what the press did"
        assert t.ante == two
        line = view.snapshot(t, raised).prompt
        assert cash(two) in line, line
        assert "bet_down" not in t.live()
        assert intent_name(Intent.BET_DOWN) in line, "why BET − is dark"
        press(t, "bet", "bet_down")
        assert intent_name(Intent.BET_DOWN) in view.snapshot(t).prompt, "said as long as it is dark for it"
        kept = t.handle("boxes")  # back to one box, whose least is lower: the ante stays
        assert t.ante == two
        assert not kept.notice
        assert intent_name(Intent.BET_DOWN) not in view.snapshot(t, kept).prompt
    finally:
        i18n.use("en")


def test_a_box_bet_alone_takes_an_ante_of_its_own_where_the_table_lets_antes_differ(tmp_path: Path) -> None:
    """RULES.md §3.7: on russian-three-box "antes may differ"; the terminal had bet one ante on
    every box. A card button between rounds chooses the box BET steps alone; the deal takes
    each box's own ante, the books settle each at its own, and a restart keeps them."""
    database = tmp_path / "kiosk.db"
    t = terminal(database, "russian-three-box")
    for _ in range(4):
        t.handle("bill", 5000)
    press(t, "boxes", "boxes")
    assert t.boxes == 3
    assert "card" in t.live()
    assert t.cards_live() == {1, 2, 3}
    least = t.ante
    t.handle("card", 2)
    assert t.bet_box == 1
    press(t, "bet", "bet")
    assert t.antes == (least, t.betting.antes_for(3)[2], least), "box 2 alone"
    said = prompt.prompt(t, t.live(), view.cash_for(t))
    assert "BET steps box 2 alone" in said
    refused = t.handle("card", 4)
    assert not refused.ok
    assert refused.message == "card 4: 3 box(es) are bet on"
    t.handle("card", 2)  # again: every box alike
    assert t.bet_box is None
    press(t, "deal")
    assert t.round is not None
    assert t.round.record()["antes"] == list(t.antes)
    settle(t)
    (settled,) = t.last_rounds(1)
    assert [box["ante"]["stake"] for box in settled["settlement"]["boxes"]] == list(t.antes)
    assert audit(t.store).ok
    t.store.close()
    again = terminal(database, "russian-three-box")
    assert again.antes == (least, again.betting.antes_for(3)[2], least)
    assert again.last_bets is not None
    assert again.last_bets.antes == again.antes, "REPEAT BET deals the antes again"
    again.handle("card", 3)
    again.store.close()
    restarted = terminal(database, "russian-three-box")
    assert restarted.bet_box == 2, "the box BET steps alone is on the books: a power cut keeps it"
    restarted.store.close()


def test_where_the_antes_are_alike_no_box_is_bet_alone(tmp_path: Path) -> None:
    """golden-oasis plays two boxes only with identical antes: the card buttons choose no box,
    and BET steps both."""
    t = terminal(tmp_path / "kiosk.db", "golden-oasis")
    for _ in range(4):
        t.handle("bill", 5000)
    press(t, "boxes")
    assert "card" not in t.live()
    assert not t.handle("card", 2).ok
    press(t, "bet")
    assert len(set(t.antes)) == 1


def test_max_bet_on_a_box_alone_takes_the_greatest_the_credit_deals_beside_the_others(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db", "standard")
    for _ in range(3):
        t.handle("bill", 5000)
    press(t, "boxes")
    t.handle("card", 1)
    press(t, "max_bet")
    first, second = t.antes
    assert second == t.betting.antes_for(2)[0], "the other box stays"
    assert t.betting.needs(t.bets) <= t.credits
    assert first == t.betting.max_ante(t.bets, t.credits, 0)
    larger = [ante for ante in t.betting.antes_for(2) if ante > first]
    assert not larger or t.betting.needs(Bets((larger[0], second), t.bonus_stake)) > t.credits


def test_a_change_of_rules_to_antes_alike_forgets_the_box_bet_alone(tmp_path: Path) -> None:
    """A box chosen on standard stayed chosen after the operator switched to golden-oasis,
    whose antes are identical: the next look at the lamps asked the core for differing antes,
    and the kiosk went out of order for good."""
    from support import logged_in_menu

    from oasis_kiosk.config import ReturnBounds

    database = tmp_path / "kiosk.db"
    config = Config(database=database, profile="standard", return_bounds=ReturnBounds(return_max=1.05))
    t = Terminal(config, books(database, "standard"), seed_for_round=SEEDS)
    press(t, "boxes")
    t.handle("card", 2)
    assert t.bet_box == 1
    menu = logged_in_menu(t)
    menu.set_rules("golden-oasis")
    assert t.bet_box is None
    assert len(set(t.antes)) == 1
    assert t.handle("operator_key_off").ok
    assert {"bet", "boxes"} <= t.live(), "the lamps are asked without an error"
    assert t.handle("bill", 5000).ok
    assert not t.tilts


def _deals(profile: Profile, bets: Bets) -> bool:
    """A round of the core starts with these bets."""
    try:
        Round(profile, list(bets.antes), bets.bonus_stake)
    except BetError:
        return False
    return True


@pytest.mark.parametrize("name", SHIPPED_PROFILES)
def test_the_bets_betting_allows_are_the_bets_a_round_starts_with(name: str) -> None:
    """DEAL and REPEAT BET light for bets the core deals and no others: box counts, antes
    (several boxes' higher minimum, antes alike) and bonus stakes out of the table's too."""
    profile = load_profile(name)
    betting = Betting(profile)
    least, *_, most = betting.antes_for(1)
    stakes = [0, 1, *profile.bonus_stakes(least), *profile.bonus_stakes(most), 10**9]
    antes = [0, least - 1, least, least + 1, most, most + 1, *betting.antes_for(2)[:2]]
    tried = [Bets((ante,), stake) for ante in antes for stake in stakes]
    tried += [Bets((first, second), stake) for first in antes[2:] for second in antes[2:] for stake in stakes]
    tried += [Bets.alike(least, boxes, 0) for boxes in range(1, betting.most_boxes + 2)]
    for bets in tried:
        assert betting.allows(bets) == _deals(profile, bets), bets
    assert betting.antes_may_differ == any(
        len(set(bets.antes)) > 1 and _deals(profile, bets) for bets in tried
    )


def test_repeat_bet_of_bets_the_rules_no_longer_take_says_so(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db", "golden-oasis")
    t.handle("bill", 5000)
    unequal = Bets(tuple(t.betting.antes_for(2)[:2]), 0)
    assert not t.betting.allows(unequal), "golden-oasis bets every box at one ante"
    response = t.betting.why_not_dealt(Intent.REPEAT_BET, unequal, t.credits)
    assert not response.ok
    assert response.message == "repeat_bet: the last round's bets are not allowed now"
    assert Intent.REPEAT_BET not in t.betting.lit(t.bets, unequal, t.credits)


def test_a_selection_the_credit_cannot_exchange_is_said_with_its_count(tmp_path: Path) -> None:
    """Box 2 of three may exchange one card on this credit, not two, which would leave less
    than its play bet: with two selected the prompt had still asked to "select 1 card", and
    EXCHANGE said only that it was not possible now."""
    database = tmp_path / "kiosk.db"
    config = Config(database=database, profile="russian-three-box")
    deck = "As Ad Ac Kd 2h / Qs Qh 7d 7c 3s / 9h 8h 6h 4h 2c / Ks Kh 4c 5c 9d Th Jh 5s"
    t = Terminal(config, books(database, config.profile), deck_for_round=lambda number: deck)
    for _ in range(4):
        assert t.handle("bill", 5000).ok
    press(t, "boxes", "boxes")
    assert t.handle("card", 2).ok  # box 2's ante alone
    press(t, *["bet"] * 5)
    assert t.handle("card", 3).ok
    press(t, "max_bet", "bonus", "deal", "fold")
    for card in (4, 5):
        assert t.handle("card", card).ok
    assert t.round is not None
    offered = t.round.legal_actions()["exchange"]
    assert 1 in offered
    assert 2 not in offered
    cash = view.cash_for(t)
    said = f"the credit {cash(t.credits)} must keep the play bets to come"
    assert f"No EXCHANGE of 2 cards: {said}" in prompt.prompt(t, t.live(), cash)
    refused = t.handle("exchange")
    assert not refused.ok
    assert refused.text(cash, intent_name) == f"EXCHANGE (2 selected): {said}"
