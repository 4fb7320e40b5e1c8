"""Property-based tests of the round over every profile: random seeds, bets, credits and
action sequences, legal and illegal.

For every round played: the nets add up to the money that changed hands (conservation),
nothing crashes, every illegal action is refused without a change, the cards are one
deck, and the record replays to the identical settlement.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import snapshot

from oasis_kiosk import IllegalAction, Profile, Round, load_profile, profile_names

if TYPE_CHECKING:
    from oasis_kiosk._core import _LegalActions as LegalActions

PROFILES = {name: load_profile(name) for name in profile_names()}
PROFILE_FILES = sorted((Path(__file__).parent.parent / "oasis_kiosk" / "profiles").glob("*.toml"))
ACTIONS = ["fold", "play", "exchange", "buy_sixth_card", "insure", "decline", "buy_dealer_card", "buy_game"]


@st.composite
def bets(draw: st.DrawFn) -> tuple[Profile, list[int], list[bool], int | None]:
    profile = PROFILES[draw(st.sampled_from(sorted(PROFILES)))]
    rules = profile.to_dict()
    boxes = draw(st.integers(1, rules["boxes"]["max"]))
    antes_allowed = profile.allowed_antes(boxes)
    if rules["boxes"]["identical_antes"]:
        antes = [draw(st.sampled_from(antes_allowed))] * boxes
    else:
        antes = draw(st.lists(st.sampled_from(antes_allowed), min_size=boxes, max_size=boxes))
    bonus = [draw(st.booleans()) and rules.get("bonus") is not None for _ in antes]
    # No credit kept, a generous one, or one near what the bets need, so that the credit
    # rules (dead buttons, reserves for play bets) come into play.
    needs = profile.deal_needs(antes, bonus)
    credit = draw(st.one_of(st.none(), st.integers(needs, needs + 6 * max(antes) * boxes)))
    return profile, antes, bonus, credit


def attempt(round_: Round, name: str, box: int, data: st.DataObject) -> None:
    """Calls the action `name` on `box` with drawn arguments."""
    method = getattr(round_, name)
    if name == "exchange":
        count = data.draw(st.integers(0, 6))
        method(data.draw(st.lists(st.integers(0, 5), min_size=count, max_size=count)), box)
    elif name == "insure":
        method(data.draw(st.integers(-10, 10**6)), box)
    else:
        method(box)


def legal_arguments(round_: Round, name: str, legal: LegalActions, data: st.DataObject) -> None:
    """Calls a legal action with arguments it accepts."""
    box = round_.current_box
    assert box is not None
    if name == "exchange":
        count = data.draw(st.sampled_from(sorted(legal["exchange"])))
        positions = data.draw(st.permutations(range(5)))[:count]
        round_.exchange(positions, box)
    elif name == "insure":
        round_.insure(data.draw(st.integers(legal["insure"]["min"], legal["insure"]["max"])), box)
    else:
        getattr(round_, name)(box)


@settings(derandomize=True, max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=bets(), seed=st.binary(min_size=32, max_size=32), data=st.data())
def test_any_round_settles_conserves_money_refuses_illegal_actions_and_replays(
    setup: tuple[Profile, list[int], list[bool], int | None], seed: bytes, data: st.DataObject
) -> None:
    profile, antes, bonus, credit = setup
    round_ = Round(profile, antes, bonus=bonus, seed=seed, credit=credit)
    assert round_.collected == profile.placed_at_deal(antes, bonus), "the deal takes what BET showed"
    assert round_.collected <= profile.deal_needs(antes, bonus)
    for _ in range(40):
        if round_.phase == "settled":
            break
        legal = round_.legal_actions()
        assert legal, "an unsettled round always offers its current box something"
        offered = dict(profile.offered_actions())[round_.phase]
        assert set(legal) <= set(offered), "every button the round lights is one its phase shows"
        if data.draw(st.booleans(), label="try something illegal"):
            name = data.draw(st.sampled_from(ACTIONS))
            box = data.draw(st.integers(0, round_.box_count))
            before = snapshot(round_)
            try:
                attempt(round_, name, box, data)
            except IllegalAction:
                assert snapshot(round_) == before, f"a refused {name} changed the round"
                continue
            assert name in legal, f"{name} was not offered"
            assert box == before[2], f"{name} on box {box} acted out of turn"
            continue
        legal_arguments(round_, data.draw(st.sampled_from(sorted(legal))), legal, data)
    assert round_.phase == "settled"

    settlement = round_.settlement()
    assert settlement["void"] is None
    boxes = settlement["boxes"]
    assert sum(b["net"] for b in boxes) == settlement["net"] == settlement["paid"] - settlement["collected"]
    for b in boxes:
        bets_net = sum(b[k]["returned"] - b[k]["stake"] for k in ("ante", "play", "bonus", "insurance"))
        assert b["net"] == bets_net - b["fees"]
        assert all(
            b[k]["stake"] >= 0 and b[k]["returned"] >= 0 for k in ("ante", "play", "bonus", "insurance")
        )
    if credit is not None:
        assert round_.credit == credit + settlement["net"]
        assert round_.credit >= 0
    stakes = sum(b[k]["stake"] for b in boxes for k in ("ante", "play", "bonus", "insurance"))
    assert settlement["collected"] == stakes + sum(b["fees"] for b in boxes)

    replayed = Round.replay(profile, json.dumps(round_.record()))
    assert replayed.settlement() == settlement
    assert replayed.credit == round_.credit


@st.composite
def tight_bets(draw: st.DrawFn) -> tuple[Profile, list[int], list[bool], int]:
    """Bets of any profile file in the package at a credit of what the deal needs plus at
    most a few antes, where the options' prices meet the play bets kept in reserve."""
    path = draw(st.sampled_from(PROFILE_FILES))
    profile = Profile.from_toml(path.read_text(), path.name)
    rules = profile.to_dict()
    boxes = draw(st.integers(1, rules["boxes"]["max"]))
    allowed = profile.allowed_antes()
    if boxes > 1 and rules["boxes"].get("min_ante_multi"):
        allowed = [a for a in allowed if a >= rules["boxes"]["min_ante_multi"]]
    ante = draw(st.sampled_from(allowed[:3]))
    bonus = [draw(st.booleans()) and rules.get("bonus") is not None] * boxes
    needs = profile.deal_needs([ante] * boxes, bonus)
    return profile, [ante] * boxes, bonus, needs + draw(st.integers(0, 4 * ante))


@settings(derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=tight_bets(), seed=st.binary(min_size=32, max_size=32), data=st.data())
def test_at_a_tight_credit_no_box_is_left_to_fold_for_want_of_credit(
    setup: tuple[Profile, list[int], list[bool], int], seed: bytes, data: st.DataObject
) -> None:
    profile, antes, bonus, credit = setup
    round_ = Round(profile, antes, bonus=bonus, seed=seed, credit=credit)
    while round_.phase != "settled":
        legal = round_.legal_actions()
        if round_.phase == "decision":
            assert "play" in legal, f"box {round_.current_box} may only {sorted(legal)} at {round_.credit}"
        # Options first, so that the credit is spent as far as the rules let it.
        options = sorted(set(legal) - {"fold", "play", "decline"})
        name = data.draw(st.sampled_from(options or sorted(set(legal) - {"fold"})))
        legal_arguments(round_, name, legal, data)
    assert round_.credit is not None
    assert round_.credit >= 0
