"""The shuffle and the shoe through the public API (the statistics are in rust/core/tests)."""

from __future__ import annotations

import pytest

from oasis_kiosk import Shoe, ShoeError, card_name, shuffled_deck

FULL_DECK = sorted(card_name(code) for code in range(52))


def test_a_deck_is_every_card_once() -> None:
    assert sorted(shuffled_deck()) == FULL_DECK
    assert sorted(shuffled_deck(bytes(32))) == FULL_DECK


def test_a_seed_replays_its_deck_and_no_seed_draws_a_fresh_one() -> None:
    seed = bytes(range(32))
    assert shuffled_deck(seed) == shuffled_deck(seed)
    # The same deck the Rust core pins for this seed: replay does not depend on the caller.
    assert shuffled_deck(seed)[:8] == ["Kd", "8h", "Ac", "3s", "2c", "Kh", "Ts", "7h"]
    assert shuffled_deck(seed) != shuffled_deck(bytes(32))
    assert shuffled_deck() != shuffled_deck()


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33)])
def test_a_seed_is_32_bytes(seed: bytes) -> None:
    with pytest.raises(ShoeError, match=f"32 bytes, not {len(seed)}"):
        shuffled_deck(seed)
    with pytest.raises(ShoeError, match=f"32 bytes, not {len(seed)}"):
        Shoe(seed)


def test_the_shoe_deals_its_deck_from_the_top() -> None:
    shoe = Shoe()
    assert len(shoe.seed) == 32
    first = shoe.deal(5)
    burnt = shoe.deal()
    assert shoe.remaining == 46
    assert shoe.dealt == [*first, *burnt]
    replay = Shoe(shoe.seed)
    assert replay.deal(6) == shoe.dealt
    assert shoe.dealt + shoe.deal(46) == shuffled_deck(shoe.seed)
    assert shoe.remaining == 0


def test_a_deal_past_the_bottom_deals_nothing() -> None:
    shoe = Shoe(bytes(32))
    shoe.deal(50)
    with pytest.raises(ShoeError, match="3 cards wanted but only 2 remain"):
        shoe.deal(3)
    assert shoe.remaining == 2
    assert len(shoe.deal(2)) == 2
