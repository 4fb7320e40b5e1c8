"""The table's motion as timing: dealt in order, turned, exchanged, revealed card by card,
skipped at once; a win counted up in whole minor units to exactly its amount."""

from __future__ import annotations

import pytest

from oasis_kiosk.ui.motion import (
    DEAL,
    DEAL_GAP,
    PACES,
    REVEAL_GAP,
    SWAP,
    TURN,
    CountUp,
    Motions,
    count_duration,
)


def dealt(motions: Motions, now: float = 0.0) -> None:
    cards = {("box", 0, i): f"{'AKQJT'[i]}s" for i in range(5)}
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
    revealed = {("box", 0, i): f"{'AKQJT'[i]}s" for i in range(5)}
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
        revealed = {("dealer", 0, i): card for i, card in enumerate(["3d", "4d", "5d", "6d", "2c"])}
        motions.show(revealed, 100.0)
    starts = [m.start - 100.0 for m in sorted(fast.moving.values(), key=lambda motion: motion.start)]
    assert starts == pytest.approx([i * REVEAL_GAP / 2 for i in range(4)]), "one after another, sooner"
    first = min(fast.moving.values(), key=lambda motion: motion.start)
    assert fast.pose(("dealer", 0, 0), first.end).face == "3d"  # type: ignore[union-attr]
    assert fast.pose(("dealer", 0, 1), first.end).face is None  # type: ignore[union-attr]
    assert count_duration(5000, 1000, False, PACES["fast"]) == count_duration(5000, 1000, False) / 2
