"""The table's motion as timing: dealt in order, turned, exchanged, revealed card by card,
skipped at once; chips slid to their spots and, after the reveal, away to whoever has them;
a win counted up in whole minor units to exactly its amount."""

from __future__ import annotations

import pytest

from oasis_kiosk.ui.motion import (
    AT_REST,
    CHIP_GAP,
    CHIP_SLIDE,
    DEAL,
    DEAL_GAP,
    DEALER,
    PACES,
    PLAYER,
    REVEAL_GAP,
    SWAP,
    TURN,
    ChipMotions,
    ChipPose,
    CountUp,
    Face,
    Motions,
    Slot,
    count_duration,
)


def dealt(motions: Motions, now: float = 0.0) -> None:
    cards: dict[Slot, Face] = {("box", 0, i): f"{'AKQJT'[i]}s" for i in range(5)}
    cards |= {("dealer", 0, i): None for i in range(4)} | {("dealer", 0, 4): "2c"}
    motions.show(cards, now, fresh=True)


def test_a_deal_goes_round_the_table_card_by_card() -> None:
    motions = Motions()
    dealt(motions)
    starts = {slot: motion.start for slot, motion in motions.moving.items()}
    order = sorted(starts, key=starts.__getitem__)
    assert order[:2] == [("box", 0, 0), ("dealer", 0, 0)], "the player's first card, then the dealer's"
    assert order[-1] == ("dealer", 0, 4)
    gaps = {
        round(b - a, 6) for a, b in zip(sorted(starts.values()), sorted(starts.values())[1:], strict=False)
    }
    assert gaps == {DEAL_GAP}
    # Before its turn a card is not on the table; on its way it is face down; then face up.
    last = motions.moving[("dealer", 0, 4)]
    assert motions.pose(("dealer", 0, 4), last.start - 0.01) is None
    sliding = motions.pose(("dealer", 0, 4), last.start + DEAL / 2)
    assert sliding is not None
    assert 0 < sliding.travel < 1
    assert sliding.face is None
    assert motions.pose(("dealer", 0, 4), last.end).face == "2c"  # type: ignore[union-attr]
    hidden = motions.pose(("dealer", 0, 0), 10.0)
    assert hidden is not None
    assert hidden.face is None, "a hole card arrives face down and stays so"
    assert motions.busy(last.end - 0.001)
    assert not motions.busy(last.end)


def test_the_dealer_reveals_one_card_after_another() -> None:
    motions = Motions()
    dealt(motions)
    motions.skip()
    revealed: dict[Slot, Face] = {("box", 0, i): f"{'AKQJT'[i]}s" for i in range(5)}
    revealed |= {("dealer", 0, i): card for i, card in enumerate(["3d", "4d", "5d", "6d", "2c"])}
    motions.show(revealed, 100.0)
    turning = sorted(motions.moving.values(), key=lambda motion: motion.start)
    assert [motion.kind for motion in turning] == ["turn"] * 4
    assert [round(m.start - 100.0, 6) for m in turning] == [round(i * REVEAL_GAP, 6) for i in range(4)]
    first = turning[0]
    assert motions.pose(("dealer", 0, 0), first.start + TURN * 0.4).face is None  # type: ignore[union-attr]
    assert motions.pose(("dealer", 0, 0), first.end).face == "3d"  # type: ignore[union-attr]
    second = motions.pose(("dealer", 0, 1), first.end)
    assert second is not None
    assert second.face is None, "the next card is still hidden while the first shows"


def test_an_exchanged_card_is_swapped_and_a_press_skips_everything() -> None:
    motions = Motions()
    dealt(motions)
    motions.skip()
    cards = dict(motions.shown)
    cards[("box", 0, 2)] = "9h"
    motions.show(cards, 50.0)
    swap = motions.moving[("box", 0, 2)]
    assert swap.kind == "swap"
    assert swap.before == "Qs"
    assert motions.pose(("box", 0, 2), 50.0 + SWAP / 4).face == "Qs"  # type: ignore[union-attr]
    assert motions.pose(("box", 0, 2), 50.0 + SWAP * 3 / 4).face == "9h"  # type: ignore[union-attr]
    motions.skip()
    assert not motions.busy(50.0)
    assert motions.pose(("box", 0, 2), 50.0).face == "9h"  # type: ignore[union-attr]


@pytest.mark.parametrize("amount", [1, 99, 12_345, 10**12])
def test_a_win_counts_up_in_whole_units_to_exactly_its_amount(amount: int) -> None:
    count = CountUp(amount, start=10.0, duration=count_duration(amount, 100, jackpot=False))
    values = [count.value(10.0 + step / 100) for step in range(-5, 400)]
    assert values[0] == 0
    assert all(isinstance(value, int) for value in values)
    assert values == sorted(values), "never counts down"
    assert values[-1] == amount
    assert count.done(10.0 + 3.0)


def test_bigger_wins_count_longer_and_a_jackpot_longest() -> None:
    assert count_duration(0, 100, jackpot=False) == 0
    assert count_duration(200, 100, jackpot=False) < count_duration(5000, 100, jackpot=False) <= 3.0
    assert count_duration(200, 100, jackpot=True) > 3.0


def test_the_fast_speed_halves_every_motion_and_count_and_keeps_the_reveals_order() -> None:
    normal, fast = Motions(PACES["normal"]), Motions(PACES["fast"])
    for motions in (normal, fast):
        dealt(motions)
    assert fast.settled_at() == pytest.approx(normal.settled_at() / 2)
    midway = fast.pose(("dealer", 0, 4), fast.moving[("dealer", 0, 4)].start + DEAL / 4)
    assert midway is not None
    assert 0 < midway.travel < 1
    assert midway.face is None
    for motions in (normal, fast):
        motions.skip()
        revealed: dict[Slot, Face] = {
            ("dealer", 0, i): card for i, card in enumerate(["3d", "4d", "5d", "6d", "2c"])
        }
        motions.show(revealed, 100.0)
    starts = [m.start - 100.0 for m in sorted(fast.moving.values(), key=lambda motion: motion.start)]
    assert starts == pytest.approx([i * REVEAL_GAP / 2 for i in range(4)]), "one after another, sooner"
    first = min(fast.moving.values(), key=lambda motion: motion.start)
    assert fast.pose(("dealer", 0, 0), first.end).face == "3d"  # type: ignore[union-attr]
    assert fast.pose(("dealer", 0, 1), first.end).face is None  # type: ignore[union-attr]
    assert count_duration(5000, 1000, False, PACES["fast"]) == count_duration(5000, 1000, False) / 2


ANTE, PLAY, BONUS = (0, "ante"), (0, "play"), (0, "bonus")


def test_a_placed_bet_slides_its_chip_from_the_player_to_its_spot() -> None:
    chips = ChipMotions()
    chips.place({ANTE: 1000}, 10.0, PLAYER)
    leaving_the_bar = chips.pose(ANTE, 10.0)
    assert leaving_the_bar is not None
    assert (leaving_the_bar.end, leaving_the_bar.nearness) == (PLAYER, 0.0), "from the credit meter"
    midway = chips.pose(ANTE, 10.0 + CHIP_SLIDE / 2)
    assert midway is not None
    assert midway.end == PLAYER
    assert 0 < midway.nearness < 1
    assert chips.moving(10.0 + CHIP_SLIDE / 2) == {ANTE}
    assert chips.pose(ANTE, 10.0 + CHIP_SLIDE) == ChipPose(1000, None, AT_REST), "then it lies on its spot"
    assert not chips.busy(10.0 + CHIP_SLIDE)
    chips.place({ANTE: 2000}, 20.0, PLAYER)
    assert not chips.busy(20.0), "a bet raised only says its new amount"
    assert chips.pose(ANTE, 20.0) == ChipPose(2000, None, AT_REST)


def test_bets_placed_together_slide_in_one_after_another() -> None:
    chips = ChipMotions()
    chips.place({ANTE: 1000, BONUS: 100}, 10.0, PLAYER)
    assert chips.pose(ANTE, 10.0) is not None
    assert chips.pose(BONUS, 10.0) is None, "not yet off the bar"
    assert chips.pose(BONUS, 10.0 + CHIP_GAP) is not None
    assert chips.pose(BONUS, 10.0 + CHIP_GAP + CHIP_SLIDE) == ChipPose(100, None, AT_REST)


def test_a_bet_taken_back_or_forfeited_leaves_for_whoever_has_it() -> None:
    chips = ChipMotions()
    chips.place({ANTE: 1000, BONUS: 100}, 0.0, PLAYER)
    chips.skip()
    chips.place({ANTE: 1000}, 10.0, DEALER)  # the bonus an exchange forfeits
    going = chips.pose(BONUS, 10.0 + CHIP_SLIDE / 2)
    assert going is not None
    assert going.end == DEALER
    assert 0 < going.nearness < 1
    assert chips.pose(BONUS, 10.0 + CHIP_SLIDE) is None, "gone: the spot is empty"
    assert chips.pose(ANTE, 10.0 + CHIP_SLIDE / 2) == ChipPose(1000, None, AT_REST)
    chips.place({}, 20.0, PLAYER)  # the ante taken back before a deal
    assert chips.pose(ANTE, 20.0 + CHIP_SLIDE / 2).end == PLAYER  # type: ignore[union-attr]


def test_a_settled_rounds_chips_leave_only_after_the_reveal_the_dealers_first() -> None:
    chips = ChipMotions()
    chips.place({ANTE: 1000, BONUS: 100}, 0.0, PLAYER)
    chips.skip()
    chips.place({ANTE: 1000, BONUS: 100, PLAY: 2000}, 5.0, DEALER)  # PLAY: the round settles at once
    revealed_at = 7.0  # when the dealer's last card has turned
    chips.settle({ANTE: PLAYER, PLAY: PLAYER, BONUS: DEALER}, revealed_at)
    play_on_its_way = chips.pose(PLAY, 5.0 + CHIP_SLIDE / 2)
    assert play_on_its_way is not None
    assert play_on_its_way.end == PLAYER, "the play bet is placed first"
    assert 0 < play_on_its_way.nearness < 1
    for moment in (5.0 + CHIP_SLIDE, revealed_at - 0.001):
        assert {spot: chips.pose(spot, moment) for spot in (ANTE, PLAY, BONUS)} == {
            ANTE: ChipPose(1000, None, AT_REST),
            PLAY: ChipPose(2000, None, AT_REST),
            BONUS: ChipPose(100, None, AT_REST),
        }, "nothing moves before the dealer's last card has turned"
    first = chips.pose(BONUS, revealed_at + CHIP_SLIDE / 2)
    assert first is not None
    assert first.end == DEALER, "the dealer takes first"
    assert 0 < first.nearness < 1
    assert chips.pose(ANTE, revealed_at + CHIP_GAP + CHIP_SLIDE / 2).end == PLAYER  # type: ignore[union-attr]
    assert chips.pose(PLAY, revealed_at + 2 * CHIP_GAP + CHIP_SLIDE / 2).end == PLAYER  # type: ignore[union-attr]
    done = revealed_at + 2 * CHIP_GAP + CHIP_SLIDE
    assert chips.busy(done - 0.001)
    assert not chips.busy(done)
    assert all(chips.pose(spot, done) is None for spot in (ANTE, PLAY, BONUS)), "the spots are empty"


def test_the_dealer_pays_a_won_bet_with_a_chip_of_its_win_before_it_goes_to_the_player() -> None:
    chips = ChipMotions()
    chips.place({ANTE: 1000, PLAY: 2000, BONUS: 100}, 0.0, PLAYER)
    chips.skip()
    revealed_at = 7.0
    # The ante stands off (its stake comes back, no win), the play bet wins 3:1, the bonus is lost.
    chips.settle({ANTE: PLAYER, PLAY: PLAYER, BONUS: DEALER}, revealed_at, won={PLAY: 6000})
    assert chips.payments(revealed_at - 0.001) == {}, "nothing is paid before the dealer's last card"
    taken = chips.pose(BONUS, revealed_at + CHIP_SLIDE / 2)
    assert taken is not None
    assert taken.end == DEALER, "the dealer takes first"
    paid_at = revealed_at + CHIP_GAP
    assert chips.payments(paid_at - 0.001) == {}
    pay = chips.payments(paid_at + CHIP_SLIDE / 2)
    assert set(pay) == {PLAY}, "then pays the won bet alone: a stake coming back is not paid"
    assert pay[PLAY].amount == 6000
    assert pay[PLAY].end == DEALER, "from the dealer's end"
    assert 0 < pay[PLAY].nearness < 1
    assert chips.pose(PLAY, paid_at + CHIP_SLIDE / 2) == ChipPose(2000, None, AT_REST), (
        "the stake, until paid"
    )
    landed = paid_at + CHIP_SLIDE
    assert chips.payments(landed) == {}
    assert chips.pose(PLAY, landed) == ChipPose(8000, None, AT_REST), "the stake with its pay"
    assert chips.pose(ANTE, landed - 0.001) == ChipPose(1000, None, AT_REST), "the others wait for the pay"
    going = chips.pose(PLAY, landed + CHIP_GAP + CHIP_SLIDE / 2)
    assert going is not None
    assert (going.amount, going.end) == (8000, PLAYER), "then stake and pay go to the player"
    assert chips.pose(ANTE, landed + CHIP_SLIDE / 2).end == PLAYER  # type: ignore[union-attr]
    done = landed + CHIP_GAP + CHIP_SLIDE
    assert chips.busy(done - 0.001)
    assert not chips.busy(done)
    chips.settle({ANTE: PLAYER, PLAY: PLAYER, BONUS: DEALER}, 9.0, won={PLAY: 6000})
    assert not chips.busy(9.0), "settled chips are not moved twice"


def test_a_hurried_reveal_moves_the_chips_sooner_and_a_press_ends_their_way() -> None:
    chips = ChipMotions()
    chips.place({ANTE: 1000}, 0.0, PLAYER)
    chips.skip()
    chips.settle({ANTE: DEALER}, 8.0)
    chips.settle({ANTE: DEALER}, 6.0)  # a press hurried the reveal
    assert chips.pose(ANTE, 6.0 + CHIP_SLIDE / 2).end == DEALER  # type: ignore[union-attr]
    assert chips.pose(ANTE, 6.0 + CHIP_SLIDE) is None
    chips.skip()
    assert not chips.busy(6.1)
    assert chips.pose(ANTE, 6.1) is None


def test_the_fast_speed_moves_chips_twice_as_fast() -> None:
    normal, fast = ChipMotions(PACES["normal"]), ChipMotions(PACES["fast"])
    for chips in (normal, fast):
        chips.place({ANTE: 1000}, 0.0, PLAYER)
    assert fast.pose(ANTE, CHIP_SLIDE / 2) == ChipPose(1000, None, AT_REST)
    assert normal.pose(ANTE, CHIP_SLIDE / 4).nearness == pytest.approx(  # type: ignore[union-attr]
        fast.pose(ANTE, CHIP_SLIDE / 8).nearness  # type: ignore[union-attr]
    )
