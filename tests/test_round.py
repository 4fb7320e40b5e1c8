"""The round engine through its Python API: profiles, setup, visibility, legality, replay."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from support import snapshot

from oasis_kiosk import (
    AnalysisError,
    BetError,
    IllegalAction,
    Profile,
    ProfileError,
    RecordError,
    Round,
    SimulationError,
    exact_analysis,
    load_profile,
    profile_names,
    simulate,
)
from oasis_kiosk._core import SHIPPED_PROFILES
from oasis_kiosk.rules import PROFILES

if TYPE_CHECKING:
    from oasis_kiosk._core import _RecordedAction as RecordedAction


def test_the_core_ships_every_profile_file_and_each_loads() -> None:
    """The core lists the profile files it was built with: a file added since fails here
    until `make build`, and a package without the core's profiles fails too."""
    assert profile_names() == list(SHIPPED_PROFILES)
    for name in SHIPPED_PROFILES:
        profile = load_profile(name)
        assert profile.id == name
        assert profile.to_dict()["id"] == name
        assert len(profile.digest) == 16


def test_profile_errors_name_the_file_the_field_and_the_reason(tmp_path: Any) -> None:
    with pytest.raises(
        ProfileError, match=f"no profile 'holdem': the shipped profiles are {', '.join(SHIPPED_PROFILES)}$"
    ):
        load_profile("holdem")
    with pytest.raises(ProfileError, match=r"standard\.toml: table\.ante_min: minimum 20000 is above"):
        load_profile("standard", "[table]\nante_min = 20000")
    broken = tmp_path / "house.toml"
    broken.write_text("id = 'house'\n")
    with pytest.raises(ProfileError, match=r"house\.toml: missing field `name`"):
        load_profile(broken)
    with pytest.raises(ProfileError, match=r"nowhere\.toml: cannot be read"):
        load_profile(tmp_path / "nowhere.toml")


def test_an_operator_profile_from_a_file_with_overrides(tmp_path: Any) -> None:
    copy = tmp_path / "copy.toml"
    copy.write_text((PROFILES / "standard.toml").read_text())
    profile = load_profile(copy, "id = 'house'\n[table]\nmax_payout = 500000")
    assert profile.id == "house"
    assert profile.to_dict()["table"]["max_payout"] == 500000


@pytest.mark.parametrize(
    ("profile", "antes", "bonus", "credit", "message"),
    [
        ("standard", 999, None, None, "box 1: ante 999 is not allowed: 1000 to 10000 in steps of 100"),
        ("standard", [1000] * 4, None, None, "standard plays 1 to 3 boxes, not 4"),
        ("stand-a", 10000, True, None, "stand-a has no bonus bet"),
        ("standard", 1000, 250, None, "box 1: the bonus stake is 200 to 500 in steps of 100, not 250"),
        ("golden-oasis", 1000, 60, None, "box 1: the bonus fee at an ante of 1000 is 100, not 60"),
        ("golden-oasis", [1500, 1600], None, None, "every box must have the same ante"),
        ("golden-oasis", [1000, 1000], None, None, "with several boxes the ante is at least 1500"),
        (
            "standard",
            [1000, 1000, 1000],
            None,
            8999,
            "antes, bonus stakes and play bets need 9000 and the credit is 8999",
        ),
        ("standard", [1000, 1000], [True], None, "1 bonus stakes for 2 boxes"),
    ],
)
def test_bets_that_cannot_start_a_round_are_refused(
    profile: str, antes: Any, bonus: Any, credit: int | None, message: str
) -> None:
    with pytest.raises(BetError, match=message.replace("(", r"\(")):
        Round(profile, antes, bonus=bonus, credit=credit)


def test_the_bonus_switch_takes_the_profiles_standard_stake() -> None:
    golden = load_profile("golden-oasis")
    assert golden.standard_bonus_stake(500) == 60  # seed 002's exception at a 5.00 ante
    assert golden.standard_bonus_stake(1000) == 100
    round_ = Round(golden, 500, bonus=True, credit=10_000)
    assert round_.credit == 10_000 - 500 - 60
    assert Round("czech", 2000, bonus=True).record()["bonus"] == [2000]
    assert Round("standard", [1000, 2000], bonus=[False, 300]).record()["bonus"] == [0, 300]


@pytest.mark.parametrize("profile_id", profile_names())
def test_every_listed_bonus_stake_is_one_a_round_takes_and_no_other(profile_id: str) -> None:
    profile = load_profile(profile_id)
    for ante in profile.allowed_antes():
        stakes = profile.bonus_stakes(ante)
        assert stakes == sorted(set(stakes))
        assert (stakes[0] if stakes else None) == profile.standard_bonus_stake(ante)
        for stake in stakes:
            assert Round(profile, ante, bonus=stake).record()["bonus"] == [stake]
        unlisted = {stakes[0] - 1, stakes[-1] + 1, *(s + 1 for s in stakes)} if stakes else {100}
        for stake in sorted(unlisted - {0, *stakes}):
            with pytest.raises(BetError):
                Round(profile, ante, bonus=stake)


def test_boxes_are_looked_at_one_after_another_and_blind_boxes_at_the_reveal() -> None:
    round_ = Round("standard", [1000, 1000, 1000], seed=bytes(32), credit=100_000)
    assert round_.credit == 100_000 - 3000 - 2000, "the blind box's play bet is taken up front"
    assert round_.box_cards(0) is not None
    assert round_.box_cards(1) is None
    assert round_.box_cards(2) is None
    assert round_.dealer_cards[:4] == [None] * 4
    assert round_.dealer_cards[4] is not None
    assert round_.legal_actions(1) == {}
    with pytest.raises(IllegalAction, match="it is box 1's turn, not box 2's"):
        round_.play(1)
    round_.fold()
    assert round_.current_box == 1
    assert round_.box_cards(1) is not None
    assert round_.box_cards(2) is None
    round_.fold()
    assert round_.phase in {"purchase", "settled"}
    assert round_.box_cards(2) is not None
    assert None not in round_.dealer_cards
    settlement = round_.settlement()
    assert [b["outcome"] for b in settlement["boxes"][:2]] == ["folded", "folded"]
    assert settlement["boxes"][2]["play"]["stake"] == 2000


def test_an_exchange_must_leave_credit_for_every_play_bet_to_come() -> None:
    # russian-three-box: antes 500 and 500, play bets 1000 each; after the stakes 2000 is left.
    round_ = Round("russian-three-box", [500, 500], credit=3000)
    assert round_.credit == 2000
    assert "exchange" not in round_.legal_actions()
    with pytest.raises(
        IllegalAction,
        match="not enough credit to play after an exchange: it costs 500, the play bets to come need 2000",
    ):
        round_.exchange([0])
    roomy = Round("russian-three-box", [500, 500], credit=3500)
    assert roomy.legal_actions()["exchange"] == {1: 500}


def test_a_round_is_dealt_only_when_the_credit_also_pays_the_play_bet() -> None:
    # The play bet is kept in reserve (RULES.md §2.7): no deal leaves fold as the only way out.
    with pytest.raises(BetError, match="play bets need 30000 and the credit is 15000"):
        Round("stand-b", 10000, credit=15000)
    round_ = Round("stand-b", 10000, credit=30000)
    assert round_.legal_actions() == {"fold": 0, "play": 20000}


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda r: r.exchange([0, 0]), r"positions \[0, 0\] are not distinct"),
        (lambda r: r.exchange([7]), r"positions \[7\] are not distinct positions 0 to 4"),
        (
            lambda r: r.exchange([0, 1, 2, 3]),
            r"an exchange of 4 card\(s\) is not offered now \(offered: 1, 2, 3, 5\)",
        ),
        (lambda r: r.buy_sixth_card(), "the sixth card needs the bonus bet"),
        (lambda r: r.insure(1000), "insurance is not possible now"),
        (lambda r: r.buy_game(), "buying the game is not possible now"),
        (lambda r: r.decline(), "declining is not possible now"),
        (lambda r: r.play(3), "there is no box 4 in this round"),
        # Numbers no position, box or amount can be: the core's refusal, not an OverflowError.
        (lambda r: r.exchange([-1]), r"card position -1 is out of range"),
        (lambda r: r.exchange([0, 2**70]), r"card position 1180591620717411303424 is out of range"),
        (lambda r: r.exchange([]), "an exchange takes at least one card"),
        (lambda r: r.play(-1), "box index -1 is out of range"),
        (lambda r: r.legal_actions(2**64), "box index 18446744073709551616 is out of range"),
        (lambda r: r.insure(2**63), "amount 9223372036854775808 is out of range"),
    ],
)
def test_an_illegal_action_is_refused_and_changes_nothing(action: Any, message: str) -> None:
    round_ = Round("golden-oasis", 1000, seed=bytes(range(32)), credit=50_000)
    before = snapshot(round_)
    with pytest.raises(IllegalAction, match=message):
        action(round_)
    assert snapshot(round_) == before


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: r.exchange([True]), "card position is a whole number, not True"),
        (lambda r: r.play(False), "box index is a whole number, not False"),
        (lambda r: r.legal_actions(True), "box index is a whole number, not True"),
        (lambda r: r.insure(True), "amount is a whole number, not True"),
        (lambda r: r.hand(False), "box index is a whole number, not False"),
    ],
)
def test_a_bool_is_no_position_box_or_amount(call: Any, message: str) -> None:
    """A bool is an int to Python: ``exchange([True])`` had exchanged the card at position 1
    and ``play(False)`` had played box 1."""
    round_ = Round("golden-oasis", 1000, seed=bytes(range(32)), credit=50_000)
    before = snapshot(round_)
    with pytest.raises(TypeError, match=message):
        call(round_)
    assert snapshot(round_) == before


def test_a_bool_is_no_ante_or_credit_but_a_bonus_bet_may_be_said_so() -> None:
    with pytest.raises(TypeError, match="ante is a whole number, not True"):
        Round("standard", True)
    with pytest.raises(TypeError, match="credit is a whole number, not True"):
        Round("standard", 1000, credit=True)
    assert Round("standard", 1000, bonus=True).stakes(0) is not None, "True: the standard bonus stake"


def test_repeated_positions_are_named_so_even_where_their_count_is_not_offered() -> None:
    round_ = Round("standard", 1000, seed=bytes(range(32)))
    with pytest.raises(IllegalAction, match=r"positions \[1, 1\] are not distinct"):
        round_.exchange([1, 1])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Round("standard", 2**70), "ante 1180591620717411303424 is out of range"),
        (lambda: Round("standard", [1000, -(2**70)]), "ante -1180591620717411303424 is out of range"),
        (lambda: Round("standard", 1000, credit=2**70), "credit 1180591620717411303424 is out of range"),
        (lambda: Round("standard", 1000, bonus=2**70), "bonus stake 1180591620717411303424 is out of range"),
        (lambda: load_profile("standard").prices(2**70), "ante 1180591620717411303424 is out of range"),
        (
            lambda: load_profile("standard").bonus_stakes(-(2**64)),
            "ante -18446744073709551616 is out of range",
        ),
        (lambda: load_profile("standard").allowed_antes(-1), "number of boxes -1 is out of range"),
        (lambda: load_profile("standard").deal_needs(-1), "box 1: ante -1 is not allowed"),
    ],
)
def test_a_bet_no_money_can_be_is_refused_as_a_bet_error(call: Any, message: str) -> None:
    with pytest.raises(BetError, match=message):
        call()


@pytest.mark.parametrize(
    ("call", "refusal", "message"),
    [
        (lambda: simulate("standard", 10, ante=2**70), SimulationError, "ante 1180591620717411303424 is out"),
        (lambda: simulate("standard", -1), SimulationError, "rounds -1 is out of range"),
        (lambda: simulate("standard", 2**64), SimulationError, "rounds 18446744073709551616 is out"),
        (
            lambda: exact_analysis("standard", ante=-(2**70)),
            AnalysisError,
            "ante -1180591620717411303424 is out",
        ),
    ],
)
def test_the_returns_refuse_a_number_no_money_can_be_with_their_own_error(
    call: Any, refusal: type[Exception], message: str
) -> None:
    """An ante or a count of rounds beyond any integer had left Python's OverflowError,
    which no caller catching the kiosk's errors (``par``) expects."""
    with pytest.raises(refusal, match=message):
        call()


def test_after_an_exchange_stand_a_must_play() -> None:
    round_ = Round("stand-a", 10000, seed=bytes(32), credit=10**7)
    round_.exchange([0, 1, 2, 3, 4])
    assert "fold" not in round_.legal_actions()
    with pytest.raises(IllegalAction, match="after an exchange the play bet is compulsory"):
        round_.fold()
    round_.play()
    assert round_.phase == "settled"


def test_a_round_replays_from_its_record_through_json() -> None:
    profile = load_profile("czech-exchange")
    round_ = Round(profile, 2000, bonus=True, credit=100_000)
    round_.exchange([0, 1])
    round_.play()
    if round_.phase == "purchase":
        round_.buy_dealer_card()
    record = json.loads(json.dumps(round_.record()))
    replayed = Round.replay(profile, json.dumps(record))
    assert replayed.settlement() == round_.settlement()
    assert replayed.credit == round_.credit
    assert Round.replay(profile, record).record() == round_.record()


def test_a_record_does_not_replay_under_other_rules_or_when_tampered() -> None:
    profile = load_profile("standard")
    round_ = Round(profile, 1000)
    round_.fold()
    record = round_.record()
    with pytest.raises(RecordError, match="played under profile standard"):
        Round.replay(load_profile("standard", "[table]\nmax_payout = 400000"), record)
    fold_then_play: list[RecordedAction] = [{"action": "fold", "box": 0}, {"action": "play", "box": 0}]
    with pytest.raises(RecordError, match=r"action 2 \(play, box 1\) does not replay: the round is settled"):
        Round.replay(profile, {**record, "actions": fold_then_play})
    with pytest.raises(RecordError, match="is not a 32-byte hexadecimal seed"):
        Round.replay(profile, {**record, "deck": {"seed": "xyz"}})
    with pytest.raises(RecordError, match="not a round record"):
        Round.replay(profile, "{}")


def test_a_misdealt_deck_voids_the_round_and_returns_every_stake() -> None:
    # A repeated card in a stacked deck is a misdeal: the integrity check after the round
    # finds it, and every stake and fee comes back.
    round_ = Round("standard", 1000, bonus=True, credit=50_000, deck="As As Kd Qh Jc / 2c 3d 4h 5s 7c / 9d")
    round_.exchange([4])
    round_.play()
    settlement = round_.settlement()
    assert settlement["void"] is not None
    assert "repeated [As]" in settlement["void"]
    assert settlement["net"] == 0
    assert round_.credit == 50_000
    assert settlement["boxes"][0]["outcome"] == "void"


def test_a_stacked_deck_needs_no_seed() -> None:
    with pytest.raises(BetError, match="a seed or a stacked deck, not both"):
        Round("standard", 1000, seed=bytes(32), deck="As Ks")
    round_ = Round("standard", 1000, deck=["As", "Ks", "Qs", "Js", "Ts"])
    assert round_.box_cards(0) == ["As", "Ks", "Qs", "Js", "Ts"]
    assert round_.record()["deck"] == {"stacked": ["As", "Ks", "Qs", "Js", "Ts"]}


def test_profiles_are_values_that_rounds_share() -> None:
    profile = Profile.from_toml((PROFILES / "standard.toml").read_text(), "standard.toml")
    round_ = Round(profile, 1000)
    assert round_.profile.digest == profile.digest


def test_no_exchange_may_leave_a_compulsory_play_bet_unpaid() -> None:
    # stand-a: after exchanging, the play bet (20000) is compulsory, so an exchange (10000)
    # needs 30000 of credit after the ante.
    tight = Round("stand-a", 10000, credit=39_999)
    assert "exchange" not in tight.legal_actions()
    with pytest.raises(IllegalAction, match="not enough credit to play after an exchange"):
        tight.exchange([0])
    assert Round("stand-a", 10000, credit=40_000).legal_actions()["exchange"] == {1: 10000, 5: 10000}


def test_a_short_shoe_offers_only_the_exchanges_it_can_deal() -> None:
    # Seven boxes and repeated exchanges use up the deck: the player may exchange as many
    # cards as remain, at the fee for that many, or none.
    crowded = load_profile(
        "stand-b",
        "[boxes]\nmax = 7\nlooked_at = 7\n"
        + "[[exchange.rounds]]\nfees = { 1 = '1', 2 = '2', 3 = '3', 4 = '4', 5 = '1' }\n" * 3,
    )
    round_ = Round(crowded, [10000] * 7, seed=bytes(32))
    assert round_.legal_actions()["exchange"] == {1: 10000, 2: 20000, 3: 30000, 4: 40000, 5: 10000}
    for _ in range(2):  # 40 cards dealt, 12 left: two exchanges of five leave two
        round_.exchange([0, 1, 2, 3, 4])
    assert round_.legal_actions()["exchange"] == {1: 10000, 2: 20000}
    with pytest.raises(IllegalAction, match=r"only 2 card\(s\) remain in the shoe"):
        round_.exchange([0, 1, 2])
    round_.exchange([0, 1])
    assert "exchange" not in round_.legal_actions()
    for _ in range(7):
        round_.fold()
    assert round_.settlement()["void"] is None


def test_insurance_pays_against_a_non_qualifying_dealer_even_when_the_game_is_bought() -> None:
    # golden-oasis, ante 1000 with the bonus (fee 100): trips insured for 6000; the dealer
    # holds ace-high without a king and does not qualify. The insurance wins 1:1 on the hand
    # he revealed (it was bought against exactly that); buying the game (1000) then has him
    # discard his ace and draw the five of hearts: a pair of fives, which the trips beat,
    # ante +1000, play +2000 x 3.
    round_ = Round("golden-oasis", 1000, bonus=True, deck="7h 7d 7c Kh 2d / As Qc 5d 8s 4s / 5h")
    round_.play()
    round_.insure(6000)
    assert round_.phase == "purchase"
    round_.buy_game()
    box = round_.settlement()["boxes"][0]
    assert box["insurance"] == {"stake": 6000, "returned": 12000}
    assert (box["ante"]["returned"], box["play"]["returned"]) == (2000, 8000)
    assert box["net"] == 6000 + 1000 + 6000 - 1000 - 100


def test_the_game_is_not_sold_to_a_hand_the_paytable_cannot_pay() -> None:
    # Only A-K or better may buy the game (its min_category): a high-card box keeps the
    # no-qualify result (ante 1:1) and is not offered the purchase.
    round_ = Round("golden-oasis", 1000, bonus=True, deck="Qh Jd 9c 7s 5h / Jh 9d 7c 5s 3d")
    round_.play()
    assert round_.phase == "settled"
    assert round_.settlement()["boxes"][0]["outcome"] == "dealer_not_qualified"
    pair = Round("golden-oasis", 1000, bonus=True, deck="Qh Qd 9c 7s 5h / Jh 9d 7c 5s 3d")
    pair.play()
    assert pair.legal_actions() == {"buy_game": 1000, "decline": 0}


def test_a_blind_box_is_never_asked_to_buy() -> None:
    profile = load_profile("golden-oasis", "[boxes]\nlooked_at = 1\nmin_ante_multi = 500")
    deck = "Qh Qd 9c 7s 5h / Kh Kd 8c 6s 4h / Jh 9d 7c 5s 3d"
    round_ = Round(profile, [1000, 1000], bonus=True, deck=deck)
    round_.play()
    assert (round_.phase, round_.current_box) == ("purchase", 0)
    round_.decline()
    assert round_.phase == "settled"


@pytest.mark.parametrize("credit", [-1, 10**12 + 1])
def test_a_credit_out_of_range_is_refused(credit: int) -> None:
    with pytest.raises(BetError, match=f"a credit is 0 to 1000000000000, not {credit}"):
        Round("standard", 1000, credit=credit)
