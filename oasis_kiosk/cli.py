"""The ``oasis-kiosk`` command.

Until the kiosk's screen exists, ``oasis-kiosk demo`` (what ``make run`` starts) is a text
demo of the core: it deals a few heads-up hands from the secure shuffle and evaluates them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from oasis_kiosk import EntropyError, Shoe, evaluate

CARDS_PER_HAND = 5


def seed_argument(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"a seed is 64 hexadecimal digits: {error}") from None
    if len(seed) != 32:
        raise argparse.ArgumentTypeError(f"a seed is 32 bytes (64 hexadecimal digits), not {len(seed)}")
    return seed


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def demo(rounds: int, seed: bytes | None) -> None:
    print("oasis-kiosk text demo: the game screen is not built yet; this deals and evaluates")
    print("heads-up hands from the core's secure shuffle (one fresh deck per round).\n")
    for number in range(1, rounds + 1):
        shoe = Shoe(seed)
        player, dealer = shoe.deal(CARDS_PER_HAND), shoe.deal(CARDS_PER_HAND)
        player_value, dealer_value = evaluate(player), evaluate(dealer)
        if player_value > dealer_value:
            verdict = "player's hand is higher"
        elif player_value < dealer_value:
            verdict = "dealer's hand is higher"
        else:
            verdict = "stand-off"
        print(f"round {number}  seed {shoe.seed.hex()}")
        print(f"  player  {' '.join(player)}  {player_value.category}")
        print(f"  dealer  {' '.join(dealer)}  {dealer_value.category}  (up card {dealer[-1]})")
        print(f"  {verdict}\n")


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="oasis-kiosk", description="Oasis Stud Poker kiosk terminal.")
    commands = main.add_subparsers(dest="command", required=True)
    demo_command = commands.add_parser("demo", help="deal and evaluate a few hands in the terminal")
    demo_command.add_argument("--rounds", type=positive, default=3, help="rounds to deal (default 3)")
    demo_command.add_argument(
        "--seed", type=seed_argument, help="64 hex digits: replay the deck of a round (the same each round)"
    )
    return main


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    try:
        if arguments.command == "demo":
            demo(arguments.rounds, arguments.seed)
    except EntropyError as error:
        print(f"oasis-kiosk: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
