"""The sd_notify messages, received on a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import books

from oasis_kiosk import notify
from oasis_kiosk.config import Config
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.notify import Notifier


class Manager:
    """The service manager's end: a datagram socket bound where ``$NOTIFY_SOCKET`` points."""

    def __init__(self, address: str, bind_to: str) -> None:
        self.address = address
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(bind_to)
        self.socket.setblocking(False)

    def received(self) -> list[str]:
        messages = []
        while True:
            try:
                messages.append(self.socket.recv(4096).decode())
            except BlockingIOError:
                return messages


@pytest.fixture
def manager() -> Iterator[Manager]:
    # A short directory of its own: a socket path may not exceed 107 bytes.
    with tempfile.TemporaryDirectory(prefix="notify-") as directory:
        path = str(Path(directory) / "notify")
        manager = Manager(path, path)
        yield manager
        manager.socket.close()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_outside_systemd_every_call_does_nothing() -> None:
    quiet = Notifier.from_environment({})
    assert not quiet.ready()
    assert not quiet.watchdog()
    assert not quiet.stopping()
    assert not quiet.status("fine")
    assert not Notifier("relative/path").send("READY=1"), "only a path or an abstract name is a socket"


def test_ready_status_and_stopping_reach_the_manager(manager: Manager) -> None:
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": manager.address})
    assert notifier.ready("attract screen up")
    assert notifier.status("self-test failed:\nthe database is damaged")
    assert notifier.stopping()
    assert manager.received() == [
        "READY=1\nSTATUS=attract screen up",
        "STATUS=self-test failed: the database is damaged",
        "STOPPING=1",
    ]


def test_an_abstract_socket_is_named_with_an_at_sign() -> None:
    name = f"oasis-kiosk-test-{os.getpid()}"
    manager = Manager("@" + name, "\0" + name)
    try:
        assert Notifier(manager.address).ready()
        assert manager.received() == ["READY=1"]
    finally:
        manager.socket.close()


def test_the_watchdog_is_fed_at_most_every_half_timeout(manager: Manager) -> None:
    clock = Clock()
    environment = {
        "NOTIFY_SOCKET": manager.address,
        "WATCHDOG_USEC": "2000000",
        "WATCHDOG_PID": str(os.getpid()),
    }
    notifier = Notifier.from_environment(environment)
    notifier.now = clock
    pings = []
    for _ in range(60):  # three seconds of frames at 20 a second
        pings.append(notifier.watchdog())
        clock.now += 0.05
    assert [i for i, sent in enumerate(pings) if sent] == [0, 20, 40]
    assert manager.received() == ["WATCHDOG=1"] * 3


def test_a_watchdog_meant_for_another_process_is_left_alone(manager: Manager) -> None:
    environment = {"NOTIFY_SOCKET": manager.address, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"}
    assert not Notifier.from_environment(environment).watchdog()
    assert not Notifier(manager.address, watchdog_usec=None).watchdog()
    assert manager.received() == []


def test_a_manager_that_went_away_does_not_stop_the_game(manager: Manager) -> None:
    notifier = Notifier(manager.address)
    manager.socket.close()
    os.unlink(manager.address)
    assert not notifier.ready()
    assert notifier.is_ready, "ready is said once; a lost message is not repeated every frame"


def test_the_frame_loop_says_ready_after_its_first_frame_then_feeds_the_watchdog(
    manager: Manager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oasis_kiosk.ui.app import STEP, App

    monkeypatch.setenv("NOTIFY_SOCKET", manager.address)
    monkeypatch.setenv("WATCHDOG_USEC", "1")  # half a microsecond: every frame pings
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    notify.forget()
    try:
        database = tmp_path / "kiosk.db"
        app = App(Terminal(Config(database=database), books(database)), size=(800, 480))
        assert manager.received() == [], "nothing is said before a frame is on the screen"
        app.advance(STEP)
        assert manager.received() == ["READY=1"]
        app.advance(STEP)
        app.advance(STEP)
        assert manager.received() == ["WATCHDOG=1", "WATCHDOG=1"]
    finally:
        notify.forget()
