"""Reference cycles collected when the screen has time for it.

CPython collects its young objects every 700 new objects, whichever frame that falls in: in
the frame bench one frame in forty paid for a collection, 0.2 to 2 ms (up to five full-screen
blits) and once 20 ms, on top of its drawing. While the screen moves (cards dealt, a win
counted, a jackpot celebrated) the kiosk lets the young objects wait, up to ``WAITING`` of
them (about ten seconds of play, so memory stays bounded), and collects what is due in the
first frame at rest, as CPython would have.
"""

from __future__ import annotations

import gc

YOUNG, MIDDLE, OLD = gc.get_threshold()
"""CPython's own thresholds: a collection is due at rest as it would have been anyway."""
WAITING = 10_000
"""New objects left uncollected while the screen moves; more, and a collection falls due."""


def defer() -> None:
    """From now on, young objects wait for ``collect_due`` (or ``WAITING`` of them)."""
    gc.set_threshold(WAITING, MIDDLE, OLD)


def settle_in() -> None:
    """The objects the kiosk starts with (its profiles, fonts, translations, first screen)
    live as long as it: collected once and set apart, so that a full collection walks only
    what came after (under 1 ms at 1920x1080 after three rounds, instead of 13 to 26 ms)."""
    gc.collect()
    gc.freeze()


def restore() -> None:
    """CPython's own collection again, over every object (the screen has closed)."""
    gc.unfreeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)


def collect_due() -> None:
    """The collection CPython's thresholds make due, if any: the young objects, and the
    older generations when they too are due."""
    young, middle, old = gc.get_count()
    if young < YOUNG:
        return
    gc.collect(2 if old >= OLD else 1 if middle >= MIDDLE else 0)
