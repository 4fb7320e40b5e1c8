"""Property-based tests of the terminal: any sequence of inputs, live or not, keeps the
ledger identity, every meter equal to the ledger, and every round replayable."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import books

from oasis_kiosk.config import Config
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.intents import INTENTS
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.rules import profile_names

VALUES = {"coin": [50, 100, 200, 500, 7], "bill": [500, 1000, 5000, 20], "card": [1, 2, 3, 4, 5, 9]}
# Money and deals come often enough that most sequences play several rounds.
WEIGHTED = [*INTENTS, *["deal", "play", "card", "exchange", "fold", "bill"] * 4]
inputs = st.lists(
    st.sampled_from(WEIGHTED).flatmap(
        lambda intent: st.tuples(st.just(intent), st.sampled_from(VALUES.get(intent, [None])))
    ),
    min_size=20,
    max_size=80,
)
counter = itertools.count()


@settings(
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(profile=st.sampled_from(profile_names()), steps=inputs, restart_at=st.integers(0, 80))
def test_any_inputs_keep_the_books_straight(
    tmp_path: Path, profile: str, steps: list[tuple[str, int | None]], restart_at: int
) -> None:
    database = tmp_path / f"kiosk-{next(counter)}.db"
    config = Config(database=database, profile=profile, credit_limit=20_000_000)
    t = Terminal(config, books(database, profile), seed_for_round=seeds_from(bytes(32)))
    money = [("bill", 5000)] * 6  # enough for a few rounds even at a 100.00 ante
    for number, (intent, value) in enumerate(money + steps):
        if number == restart_at:  # a power cut between two inputs
            t.store.close()
            t = Terminal(config, books(database, profile), seed_for_round=seeds_from(bytes(32)))
        before = t.credits
        response = t.handle(intent, value)
        if not response.ok:
            assert t.credits == before, f"a refused {intent} moved the credits"
        report = audit(t.store)
        assert report.ok, report.problems
        assert report.credits == t.credits
    ROUNDS_PLAYED.append(len(t.store.rounds()))


ROUNDS_PLAYED: list[int] = []


def test_the_sequences_do_play_rounds() -> None:
    """Runs after the property test in this module: most sequences must reach the rounds."""
    playing = sum(1 for rounds in ROUNDS_PLAYED if rounds)
    assert playing >= len(ROUNDS_PLAYED) // 3, ROUNDS_PLAYED
