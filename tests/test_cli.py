"""The ``oasis-kiosk`` command line."""

from __future__ import annotations

import pytest

from oasis_kiosk import Shoe, evaluate
from oasis_kiosk.cli import main


def test_the_demo_deals_the_deck_of_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    seed = bytes(range(32))
    assert main(["demo", "--rounds", "2", "--seed", seed.hex()]) == 0
    output = capsys.readouterr().out
    shoe = Shoe(seed)
    player, dealer = shoe.deal(5), shoe.deal(5)
    assert "the game screen is not built yet" in output
    assert output.count(f"round 1  seed {seed.hex()}") == 1
    assert f"player  {' '.join(player)}  {evaluate(player).category}" in output
    assert f"dealer  {' '.join(dealer)}  {evaluate(dealer).category}  (up card {dealer[-1]})" in output
    assert "round 2" in output
    assert "round 3" not in output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["demo", "--seed", "abc"], "64 hexadecimal digits"),
        (["demo", "--seed", "00" * 31], "32 bytes (64 hexadecimal digits), not 31"),
        (["demo", "--rounds", "0"], "at least 1, not 0"),
        ([], "required: command"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(arguments)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
