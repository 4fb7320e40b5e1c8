"""The terminal: money in and out, rounds posted to the ledger, jackpot, tilts, resume, audit."""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from support import books, logged_in_menu, memory_books, settled

from oasis_kiosk import i18n
from oasis_kiosk.config import Config, ConfigError, JackpotConfig, load_config
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.events import event_log, sentence
from oasis_kiosk.machine.intents import intent_name
from oasis_kiosk.machine.jackpot import JackpotState, contribute, hit
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.machine.tilts import TILTS, TiltKind
from oasis_kiosk.store.db import StoreError
from oasis_kiosk.ui.view import cash_for

SEEDS = seeds_from(bytes(32))


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "kiosk.db"


TRIPS_WIN = "As Ad Ac Kd 2h / Ks Kh 4c 5c 9d"  # three aces beat the dealer's kings


def terminal(database: Path, config: Config | None = None) -> Terminal:
    config = config or Config(database=database)
    return Terminal(config, books(database, config.profile), seed_for_round=SEEDS)


def feed(t: Terminal, *inputs: str) -> list[bool]:
    results = []
    for line in inputs:
        intent, *value = line.split()
        results.append(t.handle(intent, int(value[0]) if value else None).ok)
    return results


def test_coins_and_bills_are_credited_by_denomination_and_refused_otherwise(database: Path) -> None:
    t = terminal(database)
    assert feed(t, "coin 200", "coin 200", "bill 1000", "coin 3", "bill 20") == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert t.credits == 1400
    meters = t.store.meters()
    assert (meters["coins_in_200"], meters["bills_in_1000"], meters["total_in"]) == (2, 1, 1400)
    refused = [e for e in t.store.events() if e["kind"] == "refused"]
    assert refused[-1]["detail"]["reason"] == "a bill of 20 is not accepted (accepted: 500, 1000, 2000, 5000)"
    assert audit(t.store).ok


def test_money_above_the_credit_limit_is_refused(database: Path) -> None:
    t = terminal(database, Config(database=database, credit_limit=1500, bills=(500, 1000)))
    assert feed(t, "bill 1000", "coin 500", "coin 50") == [True, True, False]
    assert "coin" not in t.live()
    assert t.credits == 1500


def test_a_round_posts_its_wagers_fees_and_wins(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 5000", "deal")
    assert t.round is not None
    assert t.credits == 5000 - 1000
    t.handle("card", 1)
    assert t.handle("exchange").ok
    assert t.credits == 5000 - 1000 - 1000
    assert t.handle("play").ok
    assert t.round is None
    (settled,) = t.store.rounds()
    settlement = settled["settlement"]
    assert t.credits == 5000 + settlement["net"]
    kinds = [row.kind for row in t.store.ledger()]
    assert kinds[:4] == ["jackpot_reset", "bill_in", "wager", "fee"]
    assert kinds[4] == "wager"
    meters = t.store.meters()
    assert meters["coin_in"] == settlement["collected"] == 4000
    assert meters["coin_out"] == settlement["paid"]
    assert meters["games_played"] == 1
    assert audit(t.store).ok


def test_what_the_credit_cannot_pay_is_not_live(database: Path) -> None:
    t = terminal(database)
    feed(t, "coin 500", "coin 500")
    # The ante alone is not enough: a deal keeps the play bet in reserve (RULES.md §2.7).
    assert "deal" not in t.live()
    response = t.handle("deal")
    assert not response.ok
    assert response.message == "deal needs 3000, its play bets included; the credit is 1000"
    feed(t, "bill 2000")
    assert "deal" in t.live()
    t.handle("deal")
    assert {"fold", "play"} <= t.live()
    assert "exchange" not in t.live(), "after the fee the play bet could not be paid"


def test_an_exchange_that_would_leave_too_little_for_the_play_bet_says_so(database: Path) -> None:
    # czech-exchange at 20 Kč: a deal needs 60 (ante and play bet); with 80 a one-card
    # exchange (20) is offered, a two-card one (40) would leave 20 for a play bet of 40.
    t = terminal(database, Config(database=database, profile="czech-exchange"))
    feed(t, "bill 5000", "bill 2000", "bill 1000", "deal", "card 1", "card 2")
    response = t.handle("exchange")
    assert not response.ok
    assert response.text(str) == "exchange (2 selected): the credit 6000 must keep the play bets to come"
    assert response.reason == (
        "not enough credit to play after an exchange: it costs 4000, the play bets to come need 4000 "
        "and the credit is 6000"
    ), "the log keeps the core's reason"


def test_a_round_resumes_after_a_restart_at_the_same_decision(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 5000", "bet", "deal", "card 2")
    cards = t.round.box_cards(0) if t.round else None
    t.store.close()  # the power goes

    again = terminal(database)
    assert again.round is not None
    assert again.round.box_cards(0) == cards
    assert again.selected == {1}
    assert again.ante == 1100
    assert again.credits == 5000 - 1100
    assert again.store.meters()["power_ups"] == 2
    assert audit(again.store).open_round == again.round_id
    again.handle("fold")
    assert audit(again.store).ok


def test_a_round_resumes_under_the_rules_it_was_dealt_with(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 5000", "deal")
    record = t.round.record() if t.round else None
    t.store.close()
    changed = Config(database=database, profile_overrides={"table": {"max_payout": 400000}})
    again = terminal(database, changed)
    assert again.round is not None
    assert again.round.record() == record
    again.handle("fold")
    assert audit(again.store).ok


def test_the_handpay_locks_the_terminal_until_the_attendant_pays(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 2000", "cashout")
    assert t.live() == {"attendant", "door_open", "operator_key_on"}
    assert not t.handle("coin", 100).ok
    assert t.credits == 2000
    t.store.close()
    again = terminal(database)
    assert again.handpay == 2000, "the lock-up survives a restart"
    assert again.handle("attendant").ok
    assert again.credits == 0
    meters = again.store.meters()
    assert (meters["handpays"], meters["total_out"]) == (2000, 2000)
    assert audit(again.store).ok


def test_an_open_door_is_a_tilt_that_stops_money_and_play(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 5000", "door_open")
    assert t.live() == {"attendant", "door_close", "operator_key_on"}
    assert not t.handle("deal").ok
    t.store.close()
    again = terminal(database)
    assert "door" in again.tilts
    assert again.handle("door_close").ok
    assert "deal" in again.live()
    assert again.store.meters()["door_opens"] == 1


def test_jackpot_contributions_are_exact_and_never_lost() -> None:
    config = JackpotConfig(base=1000, rate=Fraction(3, 20), maximum=1010)
    state = JackpotState.fresh(config)
    added = 0
    for _ in range(10):  # 10 stakes of 150 x 0.15 = 225 in all
        state, whole = contribute(state, config, 150)
        added += whole
    assert added == 225
    assert state.value == 1010, "the meter stops at its maximum"
    assert state.overflow == 215
    assert state.carry == 0
    state, whole = contribute(state, config, 1)
    assert (whole, state.carry) == (0, Fraction(3, 20)), "a part of a unit is carried, not rounded"
    state, award, house = hit(state, config, Fraction(1))
    assert award == 1010
    assert house == 1000, "the house puts the base back"
    assert state.value == 1010, "then the overflow fills the meter up to the maximum"
    assert state.overflow == 205


def test_a_royal_flush_with_the_bonus_wins_the_jackpot(database: Path) -> None:
    config = Config(
        database=database, jackpot=JackpotConfig(base=500_000, rate=Fraction(1, 2), maximum=900_000)
    )
    t = Terminal(config, books(database), deck_for_round=lambda number: "As Ks Qs Js Ts / 2c 2d 4h 5h 7c")
    feed(t, "bill 5000", "bonus", "deal")
    meter_before = t.jackpot.value
    assert meter_before == 500_000 + 100, "half of the 200 stake went to the meter"
    t.handle("play")
    rows = [row for row in t.store.ledger() if row.kind == "jackpot_hit"]
    assert [row.amount for row in rows] == [meter_before]
    assert t.jackpot.value == 500_000
    assert t.store.meters()["jackpots_paid"] == meter_before
    assert t.credits == 5000 + 1000 + 2000 * 100 - 200 + meter_before
    assert audit(t.store).ok
    assert [(hit["round"], hit["amount"]) for hit in logged_in_menu(t).jackpot_hits()] == [(1, meter_before)]


def test_a_share_of_every_lost_ante_feeds_the_jackpot_where_the_operator_adds_it(database: Path) -> None:
    """RULES.md §3.6: the terminal takes a share of every bonus stake, "and the operator may
    add a share of lost antes"; the configuration had no key for it. A lost ante, played or
    folded, puts its exact share on the meter (the fractions carried), and the books agree."""
    jackpot = JackpotConfig(
        base=500_000, rate=Fraction(1, 100), maximum=900_000, lost_ante_rate=Fraction(1, 3)
    )
    decks = iter(["2s 3d 7c 9h Jd / Ks Kh 4c 5c 9d", "2s 3d 7c 9h Jd / Ks Kh 4c 5c 9d", TRIPS_WIN])
    t = Terminal(
        Config(database=database, jackpot=jackpot), books(database), deck_for_round=lambda n: next(decks)
    )
    feed(t, "bill 5000", "bill 5000", "bill 5000", "deal")
    ante, before = t.ante, t.jackpot.value
    t.handle("play")  # lost to the dealer's kings
    assert t.jackpot.value == before + ante // 3
    feed(t, "deal", "fold")
    assert t.jackpot.value == before + (2 * ante) // 3, "a folded ante is lost too; the thirds carried"
    meter = t.jackpot.value
    feed(t, "deal", "play")  # won: the ante comes back, nothing is added
    assert t.jackpot.value == meter
    lost = [row.detail for row in t.store.ledger() if row.kind == "jackpot_contribution"]
    assert [detail["lost_ante"] for detail in lost] == [ante, ante]
    assert t.store.meters()["jackpot_contributions"] == meter - before
    assert audit(t.store).ok
    t.store.close()


def test_the_menus_jackpot_parameters_keep_the_files_share_of_lost_antes(database: Path) -> None:
    """The menu sets base, rate and maximum: the configuration's share of lost antes stays,
    after a restart too."""
    fed = replace(JackpotConfig(), lost_ante_rate=Fraction(1, 1000))
    t = Terminal(Config(database=database, jackpot=fed), books(database))
    logged_in_menu(t).set_jackpot(base=fed.base, rate="0.01", maximum=fed.maximum + 100_000)
    assert t.config.jackpot == replace(fed, maximum=fed.maximum + 100_000)
    (changed,) = [event for event in t.store.events() if event["kind"] == "configuration_changed"][-1:]
    assert changed["detail"]["after"]["lost_ante_rate"] == "1/1000", "the log does not read as if it went"
    t.store.close()
    again = Terminal(Config(database=database, jackpot=fed), books(database))
    assert again.config.jackpot == replace(fed, maximum=fed.maximum + 100_000)
    again.store.close()


def test_a_jackpot_paid_by_hand_is_among_the_menus_last_hits(database: Path) -> None:
    """The menu's jackpot page said "Last hits: none" right after a hit over the handpay
    limit, which the ledger books as the round's handpaid win."""
    t = Terminal(
        Config(database=database, handpay_limit=100_000),
        books(database),
        deck_for_round=lambda number: "As Ks Qs Js Ts / 2c 2d 4h 5h 7c",
    )
    feed(t, "bill 5000", "bonus", "deal")
    meter_before = t.jackpot.value
    t.handle("play")
    assert t.handpay is not None, "over the limit: the attendant pays it"
    t.handle("attendant")
    assert [(hit["round"], hit["amount"]) for hit in logged_in_menu(t).jackpot_hits()] == [(1, meter_before)]


def test_the_audit_finds_a_tampered_ledger_and_meter(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 5000", "deal", "fold")
    assert audit(t.store).ok
    t.store.close()
    raw = sqlite3.connect(database)
    raw.execute("UPDATE meters SET value = value + 100 WHERE name = 'coin_in'")
    raw.execute("UPDATE ledger SET amount = amount - 1 WHERE kind = 'bill_in'")
    raw.commit()
    raw.close()
    report = audit(books(database))
    assert not report.ok
    joined = "\n".join(report.problems)
    assert "meter coin_in is 1100, the ledger says 1000" in joined
    assert "credits 4999 but total in" in joined or "credits 4000" in joined
    assert "meter total_in is 5000, the ledger says 4999" in joined


def test_a_damaged_database_is_a_tilt_never_a_fresh_start(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 5000")
    t.store.close()
    data = bytearray(database.read_bytes())
    data[:16] = b"not a database!!"
    database.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="cannot open the database"):
        books(database)
    assert database.read_bytes()[:16] == b"not a database!!", "nothing was written over it"


def test_configuration_errors_name_the_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    for text, message in [
        ("[terminal]\ncredit_limit = -5", "terminal.credit_limit: a whole amount in minor units, not -5"),
        ("[terminal]\ncolour = 1", "unknown key terminal.colour"),
        ("[money]\ncoins = [100, 100]", "money.coins: [100, 100] lists an amount twice"),
        ("[jackpot]\nrate = 'lots'", "jackpot.rate: 'lots' is not a number"),
        ("[jackpot]\nbase = 10\nmaximum = 5", "jackpot.maximum 5 is below jackpot.base 10"),
        ("[terminal]\nprofile = 'holdem'", "terminal.profile: no profile 'holdem'"),
        ("[profile_overrides.table]\nante_min = 20000", "terminal.profile: standard.toml: table.ante_min"),
        ("[terminal\n", "Expected ']'"),
        ("[sound]\nvolume = 3", "unknown section [sound]"),
    ]:
        path.write_text(text)
        with pytest.raises(
            ConfigError, match=rf"{path}: .*{message}".replace("[", r"\[").replace("]", r"\]")
        ):
            load_config(path)
    path.write_text("[terminal]\nprofile = 'golden-oasis'\ncredit_limit = 500000\n[jackpot]\nrate = '3/20'\n")
    config = load_config(path, database=tmp_path / "db")
    assert (config.profile, config.credit_limit, config.jackpot.rate) == (
        "golden-oasis",
        500000,
        Fraction(3, 20),
    )
    assert replace(config, credit_limit=1).credit_limit == 1


def test_a_database_that_fails_mid_input_tilts_and_commits_nothing(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 5000", "deal")
    record = t.round.record() if t.round else None
    # Another connection holds the write lock: the next input cannot commit.
    blocker = sqlite3.connect(database, timeout=0)
    blocker.execute("BEGIN IMMEDIATE")
    t.store._db.execute("PRAGMA busy_timeout = 0")
    response = t.handle("fold")
    assert not response.ok
    assert response.message.startswith("database error:")
    assert "database" in t.tilts
    assert t.live() == {"attendant", "door_open", "operator_key_on"}
    assert t.round is not None
    assert t.round.record() == record, "the round is back to what the database holds"
    blocker.rollback()
    blocker.close()


def test_free_play_never_touches_the_real_database(database: Path) -> None:
    t = terminal(database)
    feed(t, "bill 5000")
    before = database.read_bytes()
    demo = Terminal(Config(database=database), memory_books())
    assert demo.credits == 0
    feed(demo, "bill 5000", "deal", "fold")
    assert demo.store.meters()["games_played"] == 1
    assert database.read_bytes() == before
    assert "games_played" not in t.store.meters()


def test_bet_chooses_the_insurance_amount_and_insure_stakes_it(database: Path) -> None:
    # Trips for the player; the dealer (2c 2d ...) qualifies with a lower pair.
    config = Config(database=database, profile="golden-oasis")
    t = Terminal(config, books(database), deck_for_round=lambda number: "7s 7h 7d Kc 2h / 2c 2d 4h 5h 9c")
    feed(t, "bill 5000", "bill 5000", "deal", "play")
    assert t.round is not None
    assert t.round.phase == "insurance"
    legal = t.round.legal_actions()["insure"]
    amounts = t.insurance_amounts()
    assert amounts[0] == legal["min"]
    assert amounts[-1] == legal["max"]
    assert all(b - a == amounts[1] - amounts[0] for a, b in itertools.pairwise(amounts[:-1]))
    assert len(amounts) <= 11
    assert "bet" in t.live()
    assert t.insurance_amount == legal["max"], "the largest amount until the player chooses"
    credits = t.credits
    assert feed(t, "bet", "bet") == [True, True]
    assert t.insurance_amount == amounts[1]
    assert feed(t, "bet_down") == [True]
    assert t.insurance_amount == amounts[0]
    assert "bet_down" not in t.live(), "nothing below the least amount"
    assert feed(t, "bet") == [True]
    assert t.insurance_amount == amounts[1]
    assert feed(t, "insure") == [True]
    insured = [row for row in t.store.ledger() if row.kind == "wager" and row.detail.get("bet") == "insure"]
    assert [row.amount for row in insured] == [-amounts[1]]
    assert t.insurance is None
    assert t.credits - credits == -amounts[1] + settled(t.store.rounds(last=1)[-1])["paid"]


def test_several_boxes_take_the_profile_s_higher_minimum_ante(database: Path) -> None:
    t = Terminal(Config(database=database, profile="golden-oasis"), books(database))
    feed(t, "bill 5000", "bill 5000")
    assert t.ante == 500
    assert feed(t, "boxes") == [True]
    assert (t.boxes, t.ante) == (2, 1500), "two boxes: the ante rises to the profile's minimum"
    assert all(ante >= 1500 for ante in t.betting.antes_for(2))
    for _ in range(len(t.betting.antes_for(2))):
        feed(t, "bet")
        assert t.ante >= 1500, "BET never offers an ante two boxes cannot take"
    assert feed(t, "deal") == [True]
    assert t.round is not None
    assert t.round.box_count == 2


def test_each_tilt_is_cleared_as_its_registry_entry_says(database: Path) -> None:
    t = terminal(database)
    feed(t, "door_open")
    t.device_fault("hopper_empty", "the hopper stopped with coins still owed: 2")
    assert set(t.tilts) == {"door", "hopper_empty"}
    assert feed(t, "attendant") == [True]
    assert set(t.tilts) == {"door"}, "the door clears when it closes, not by the key"
    assert feed(t, "attendant") == [False]
    feed(t, "door_close")
    assert t.tilts == {}


def test_every_kind_of_tilt_has_its_entry_in_the_registry() -> None:
    """The code raises tilts by ``TiltKind`` (a misspelt kind is mypy's error, not the
    cabinet's): each kind has what the screen, the key and the log read of it."""
    assert list(TILTS) == list(TiltKind)


def test_a_tilt_missing_from_the_registry_is_a_fault_that_names_it(database: Path) -> None:
    t = terminal(database)
    t.device_fault("ticket_printer", "out of paper")
    assert "ticket_printer" not in t.tilts
    assert "ticket_printer is not a tilt of machine/tilts.py" in t.tilts["fault"]


@pytest.mark.parametrize("decision", ["play", "fold"])
def test_a_selection_made_on_one_box_is_not_the_next_boxs(database: Path, decision: str) -> None:
    """Each box is decided before the next is seen (RULES.md §3.7): cards chosen on the first
    and left unexchanged are no discard of the second's."""
    t = terminal(database)
    feed(t, "bill 5000", "bill 5000", "boxes", "deal", "card 2", decision)
    assert t.round is not None
    assert t.round.current_box == 1
    assert t.selected == set(), "the second box starts with nothing selected"
    assert "exchange" not in t.live()
    assert not t.handle("exchange").ok
    assert [action["action"] for action in t.round.record()["actions"]] == [decision]


@pytest.mark.parametrize(
    ("kept", "profile"),
    [
        (("boxes", "boxes"), "golden-oasis"),  # three boxes saved; golden-oasis plays at most two
        (("boxes", "bet", "bet", "bet"), "golden-oasis"),  # two boxes at an ante it does not take
    ],
)
def test_a_restart_under_other_rules_fits_the_saved_bets_to_them(
    database: Path, kept: tuple[str, ...], profile: str
) -> None:
    """The bets kept in the books were placed under the last rules; a restart under rules
    that refuse them must fit them (as a change of rules between rounds does), not fail at
    every lamp and prompt."""
    t = Terminal(Config(database=database, profile="standard"), books(database))
    feed(t, "bill 5000", "bill 5000", "bill 5000", *kept)
    del t
    again = Terminal(Config(database=database, profile=profile), books(database))
    assert again.betting.allows(again.bets), again.bets
    assert again.bets == again.betting.fitted(again.bets)
    live = again.live()
    assert "deal" in live
    assert feed(again, "deal") == [True]


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_a_press_of_an_action_the_table_never_offers_says_so(database: Path, language: str) -> None:
    """The standard table sells no dealer's card: BUY CARD had said it was "not possible
    now", as if it might be later."""
    t = terminal(database)
    assert "buy_dealer_card" not in {
        action for _phase, actions in t.profile.offered_actions() for action in actions
    }
    between = t.handle("buy_card")
    assert t.handle("bill", 5000).ok
    assert t.handle("deal").ok
    during = t.handle("buy_card")
    i18n.use(language)
    try:
        said = [refused.text(cash_for(t), intent_name) for refused in (between, during)]
        expected = i18n._("{intent}: this table does not offer it").format(intent=i18n._("BUY CARD"))
        logged = [
            sentence(event, cash_for(t)) for event in event_log(t.store, 50) if event["kind"] == "refused"
        ]
    finally:
        i18n.use("en")
    assert not between.ok
    assert not during.ok
    assert said == [expected, expected]
    if language == "en":
        assert expected == "BUY CARD: this table does not offer it"
        assert logged == ["Input refused: BUY CARD: this table does not offer it"] * 2, (
            "no reason of the round's"
        )
    else:
        assert expected != "BUY CARD: this table does not offer it", "translated"
