"""The young objects' collection waits while the screen moves and happens in the first
frame at rest, so that no frame of a deal, a count or a celebration pays for it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_screen import Clock, kiosk

from oasis_kiosk.ui import garbage
from oasis_kiosk.ui.app import App

FLUSH = "As Ks 9s 7s 4s / Kd Kc 4h 5h 9c"


def dealing(tmp_path: Path) -> tuple[App, Clock]:
    """A kiosk one frame into a deal: its cards on their way."""
    app, clock = kiosk(tmp_path, (800, 480), deck=FLUSH)
    app.key("f8")
    app.key("return")
    clock.now += 1 / 60
    app.advance(1 / 60)
    assert app.game.busy(clock.now), "the cards are on their way"
    return app, clock


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations CPython collects, as they start."""
    started: list[int] = []

    def noted(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(noted)
    yield started
    gc.callbacks.remove(noted)


def test_young_objects_wait_while_the_screen_moves_and_are_collected_once_at_rest(
    tmp_path: Path, collections: list[int]
) -> None:
    app, clock = dealing(tmp_path)
    gc.collect()
    collections.clear()
    # More new objects than CPython lets wait:
    young: list[list[object]] = [[] for _ in range(garbage.YOUNG * 2)]
    clock.now += 1 / 60
    app.advance(1 / 60)
    assert collections == [], "nothing collected in a frame of moving cards"
    assert gc.get_count()[0] >= garbage.YOUNG
    while app.game.busy(clock.now):
        clock.now += 1 / 60
        app.advance(1 / 60)
        if app.game.busy(clock.now):
            assert collections == [], "nor in any frame until the cards lie"
    assert collections, "the first frame at rest collected them"
    assert gc.get_count()[0] < garbage.YOUNG
    del young


def test_however_long_the_screen_moves_the_young_objects_waiting_are_bounded(
    tmp_path: Path, collections: list[int]
) -> None:
    dealing(tmp_path)
    collections.clear()
    young: list[list[object]] = [[] for _ in range(garbage.WAITING + 1)]
    assert collections, "CPython collects once WAITING new objects wait"
    del young


def test_the_kiosk_sets_what_it_starts_with_apart_and_hands_collection_back_when_it_closes(
    tmp_path: Path,
) -> None:
    app, _clock = kiosk(tmp_path, (800, 480))
    frames = 0

    def frame() -> None:
        nonlocal frames
        frames += 1
        if frames == 1:
            assert gc.get_freeze_count() == 0, "the first frame is drawn before"
        else:
            assert gc.get_freeze_count() > 0, "what the kiosk started with is set apart"
            app.running = False

    app.frame = frame  # type: ignore[method-assign]
    app.run()
    assert frames == 2
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == (garbage.YOUNG, garbage.MIDDLE, garbage.OLD)
