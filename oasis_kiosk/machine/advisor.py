"""The strategy's advice for the decision in play, worked out beside the game.

Valuing every exchange can take from milliseconds to a second or more (docs/strategy.md),
longer than a frame. The advisor works on a copy of the round (replayed from its record,
so the game's own round is never borrowed while the player acts on it) on a thread of its
own; the core releases the GIL meanwhile. Asking again for the same decision returns the
answer once it is ready, None until then.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from oasis_kiosk._core import Advice, Round

if TYPE_CHECKING:
    from oasis_kiosk._core import _DeckSource as DeckSource
    from oasis_kiosk._core import _Phase as Phase


class Advisor:
    def __init__(self) -> None:
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="advice")
        self._asked: tuple[DeckSource, list[int], int, Phase] | None = None
        self._answer: Future[Advice] | None = None

    def advice(self, round_: Round) -> Advice | None:
        """The advice for the round's current decision, or None while it is worked out."""
        record = round_.record()
        decision = (record["deck"], record["antes"], len(record["actions"]), round_.phase)
        if decision != self._asked:
            self._asked = decision
            if self._answer is not None:
                self._answer.cancel()  # a decision taken meanwhile needs no answer
            copy = Round.replay(round_.profile, record)
            self._answer = self._worker.submit(copy.advice)
        answer = self._answer
        return answer.result() if answer is not None and answer.done() else None

    def ready(self) -> bool:
        """The last advice asked for is worked out."""
        return self._answer is not None and self._answer.done()

    def wait(self, round_: Round) -> Advice:
        """The advice, waiting for it (scripts and tests)."""
        self.advice(round_)
        if self._answer is None:
            raise RuntimeError("no advice was asked for")
        return self._answer.result()

    def close(self) -> None:
        """No more advice: what is queued is dropped and the worker ends when its current
        valuation does (nobody waits for it)."""
        self._worker.shutdown(wait=False, cancel_futures=True)
