"""Telling systemd how the kiosk is doing (the sd_notify(3) protocol), without libsystemd.

The cabinet's unit (``systemd/oasis-kiosk.service``) is ``Type=notify`` with a watchdog:
systemd counts the kiosk as started once it says ``READY=1`` (after the first frame is on
the screen), and restarts it when the frame loop stops saying ``WATCHDOG=1`` within
``WatchdogSec``, so a frozen game does not stay frozen. Outside systemd (a desktop, the
tests, a shell on the cabinet) ``$NOTIFY_SOCKET`` is unset and every call does nothing.

A message is one datagram of ``KEY=value`` lines on the AF_UNIX socket named by
``$NOTIFY_SOCKET``: a path, or a name in the abstract namespace when it starts with ``@``.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping

MICROSECONDS = 1_000_000


class Notifier:
    """One process's line to the service manager."""

    def __init__(
        self,
        address: str | None,
        watchdog_usec: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``address``: the socket (``$NOTIFY_SOCKET``), None outside systemd;
        ``watchdog_usec``: the watchdog's timeout (``$WATCHDOG_USEC``), None without one.
        Keep-alive pings go out at most every half of it, as sd_watchdog_enabled(3) advises."""
        self.address = address if address and address[0] in "/@" else None
        self.ping_every = watchdog_usec / MICROSECONDS / 2 if watchdog_usec else None
        self.now = clock
        self.is_ready = False
        self._last_ping: float | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Notifier:
        """The socket and watchdog systemd gave this process. A watchdog meant for another
        process (``$WATCHDOG_PID`` names someone else, as after a fork) is not ours to feed."""
        usec = environ.get("WATCHDOG_USEC", "")
        owner = environ.get("WATCHDOG_PID", "")
        ours = usec.isdigit() and int(usec) > 0 and (not owner or owner == str(os.getpid()))
        return cls(environ.get("NOTIFY_SOCKET"), int(usec) if ours else None)

    def send(self, *assignments: str) -> bool:
        """Sends ``KEY=value`` lines in one datagram; False when there is nobody to tell or the
        message did not go (the game goes on either way: systemd's timeouts will speak)."""
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as line:
                line.sendto("\n".join(assignments).encode(), target)
        except OSError:
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        self.is_ready = True
        return self.send("READY=1", *([_status(status)] if status else []))

    def watchdog(self) -> bool:
        """The keep-alive ping, rate-limited: a frame loop may call it every frame."""
        if self.ping_every is None:
            return False
        now = self.now()
        if self._last_ping is not None and now - self._last_ping < self.ping_every:
            return False
        self._last_ping = now
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def status(self, text: str) -> bool:
        """A line of text ``systemctl status`` shows."""
        return self.send(_status(text))

    def frame_drawn(self) -> bool:
        """Called after every frame: the first one makes the kiosk ready, every one after it
        feeds the watchdog."""
        if not self.is_ready:
            return self.ready()
        return self.watchdog()


def _status(text: str) -> str:
    # A newline would end the assignment and start another.
    return "STATUS=" + " ".join(text.split())


_service: Notifier | None = None


def service() -> Notifier:
    """This process's notifier, from the environment at its first use."""
    global _service
    if _service is None:
        _service = Notifier.from_environment()
    return _service


def forget() -> None:
    """Reads the environment again at the next call (tests that set ``$NOTIFY_SOCKET``)."""
    global _service
    _service = None


def frame_drawn() -> bool:
    return service().frame_drawn()


def ready(status: str | None = None) -> bool:
    return service().ready(status)


def watchdog() -> bool:
    return service().watchdog()


def stopping() -> bool:
    return service().stopping()


def status(text: str) -> bool:
    return service().status(text)
