"""The tests draw on SDL's dummy video driver, play sound to its dummy audio driver and
drive gpiozero's mock pins, wherever they run (``make test`` sets the same)."""

import os
import weakref
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


@pytest.fixture(autouse=True)
def _cabinets_built_are_closed() -> Iterator[None]:
    """Every cabinet a test builds is closed at its end, as the kiosk closes its own: gpiozero
    keeps an open device's callbacks, and the terminal and open books they reach, for the
    life of the process (past 1024 descriptors pyserial cannot select() on a new port)."""
    from oasis_kiosk.hardware.cabinet import Cabinet

    built: weakref.WeakSet[Cabinet] = weakref.WeakSet()  # a cabinet let go needs no closing
    build = Cabinet.__init__

    def building(cabinet: Cabinet, *args: Any, **kwargs: Any) -> None:
        build(cabinet, *args, **kwargs)
        built.add(cabinet)

    # A patch of its own: the test's monkeypatch, set up here first, would be undone only
    # after the test's other fixtures had ended under its patches.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Cabinet, "__init__", building)
        yield
    for cabinet in built:
        cabinet.close()
