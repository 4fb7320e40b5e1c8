"""The tests draw on SDL's dummy video driver, play sound to its dummy audio driver and
drive gpiozero's mock pins, wherever they run (``make test`` sets the same)."""

import gc
import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A throwaway PostgreSQL server for the session (tests/postgres.py), started by the
    first test that asks for it and stopped, its directory deleted, at the end."""
    from postgres import Postgres  # only the tests that ask need psycopg and a server

    server = Postgres.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def floor(postgres: Any, tmp_path: Any) -> Iterator[Any]:
    """A new migrated hub on the session's server (tests/floor.py's ``FloorHub``), its pool
    set; closed after the test. test_link.py has a floor of its own, with a cabinet added."""
    from floor import new_hub

    state = new_hub(postgres, tmp_path)
    try:
        yield state
    finally:
        state.close()


OPEN_FILES_TO_COLLECT = 256
"""Open descriptors past which a test's end collects the garbage: the tests leave the books
they opened (SQLite's database, journal and lock) to the collector, and a process past 1024
descriptors cannot select() on a new one (pyserial's write on a pseudo-terminal failed so)."""


@pytest.fixture(autouse=True)
def _books_left_open_are_collected() -> Iterator[None]:
    yield
    if len(os.listdir("/proc/self/fd")) > OPEN_FILES_TO_COLLECT:
        gc.collect()
