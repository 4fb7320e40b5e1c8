"""The kiosk and its link agent as two users, as the units run them (docs/floor.md): the
kiosk (user ``oasis``, umask 0027) writes the books, which its group may read; the agent
(user ``oasis-link``, in the group ``oasis``) reads them, pushes their outbox to the hub and
writes only its own file (``[link] agent_file``) in a directory of its own, which the kiosk
reads. The agent can neither write the books nor read their seal key.

Each side runs in a child process of this test that has given up root for an unprivileged
user and group of its own (numbers no account uses), so the kernel's checks are the real
ones. Root only: without it the test is skipped, saying so."""

from __future__ import annotations

import encodings.ascii  # noqa: F401  # loaded before a child gives up root: see Child
import logging
import os
import pickle
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from floor import FloorHub, linked_terminal, new_hub, play
from postgres import Postgres

from oasis_kiosk.floor import agent, hub
from oasis_kiosk.machine import linked
from oasis_kiosk.store.books import BooksFiles

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="runs the kiosk and its agent as two users: needs root"
)

KIOSK_USER, AGENT_USER, KIOSK_GROUP, AGENT_GROUP = 61_001, 61_002, 61_001, 61_002
"""Unprivileged ids no account of the machine has: the kiosk's user and group (``oasis``),
the agent's (``oasis-link``, also a member of the kiosk's group)."""


class Child:
    """A function run in a child process as an unprivileged user; its result (or the error
    it raised) comes back pickled; ``ready`` and ``wait_for_go`` let the parent hold the
    child at a point. The child is forked, not started afresh: the interpreter may live
    where the unprivileged user cannot read, so whatever the child imports is imported here
    first."""

    def __init__(self, user: int, groups: list[int], umask: int, work: Callable[[Child], Any]) -> None:
        self._result_read, result_write = os.pipe()
        go_read, self._go_write = os.pipe()
        self._ready_read, ready_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns to pytest
            status = 1
            try:
                os.setgroups(groups)
                os.setgid(groups[0])
                os.setuid(user)
                os.umask(umask)
                self._go, self._ready = go_read, ready_write
                outcome: Any = ("ok", work(self))
                status = 0
            except BaseException as error:  # sent back to the test, which raises it
                outcome = ("error", f"{type(error).__name__}: {error}")
            with os.fdopen(result_write, "wb") as out:
                pickle.dump(outcome, out)
            os._exit(status)
        for end in (result_write, go_read, ready_write):
            os.close(end)

    # In the child.
    def ready(self) -> None:
        os.write(self._ready, b"r")

    def wait_for_go(self) -> None:
        os.read(self._go, 1)

    # In the parent.
    def when_ready(self) -> None:
        if os.read(self._ready_read, 1) != b"r":
            self.result()  # says why it failed
            pytest.fail("the child ended before it was ready")

    def go(self) -> None:
        os.write(self._go_write, b"g")

    def result(self) -> Any:
        with os.fdopen(self._result_read, "rb") as out:
            data = out.read()
        os.waitpid(self.pid, 0)
        os.close(self._go_write)
        os.close(self._ready_read)
        kind, value = pickle.loads(data)
        if kind == "error":
            pytest.fail(f"the child failed: {value}")
        return value


@dataclass
class Cabinet:
    books: Path
    link: Path
    credentials: Path

    @property
    def database(self) -> Path:
        return self.books / "kiosk.db"

    @property
    def agent_file(self) -> Path:
        return self.link / "kiosk.db.link"


@pytest.fixture
def cabinet(postgres: Postgres, tmp_path: Path) -> Iterator[tuple[FloorHub, Cabinet]]:
    floor = new_hub(postgres, tmp_path)
    base = Path(tempfile.mkdtemp(prefix="oasis-users-"))
    try:
        base.chmod(0o755)  # the test's own tmp_path is root's alone
        books, link = base / "books", base / "link"
        # As systemd/install.sh makes them: the agent's directory passes the kiosk's group on
        # to the files the agent makes in it (set-group-ID), so the kiosk may read them.
        for directory, owner, mode in ((books, KIOSK_USER, 0o750), (link, AGENT_USER, 0o2750)):
            directory.mkdir()
            os.chown(directory, owner, KIOSK_GROUP)
            directory.chmod(mode)
        credentials = link / "hub.toml"
        shutil.copy(floor.add_cabinet("c01"), credentials)
        os.chown(credentials, AGENT_USER, AGENT_GROUP)
        credentials.chmod(0o600)
        yield floor, Cabinet(books, link, credentials)
    finally:
        floor.close()
        shutil.rmtree(base)


def as_kiosk(work: Callable[[Child], Any]) -> Child:
    return Child(KIOSK_USER, [KIOSK_GROUP], 0o027, work)


def as_agent(work: Callable[[Child], Any]) -> Child:
    return Child(AGENT_USER, [AGENT_GROUP, KIOSK_GROUP], 0o027, work)


def refused(action: Callable[[], object]) -> str:
    try:
        action()
    except (OSError, sqlite3.Error) as error:
        return f"{type(error).__name__}: {error}"
    return "done"


def test_the_agent_as_a_user_of_its_own_pushes_the_books_it_may_only_read(
    cabinet: tuple[FloorHub, Cabinet],
) -> None:
    floor, place = cabinet

    def kiosk(child: Child) -> dict[str, Any]:
        terminal = linked_terminal(place.database)
        play(terminal, 3)
        child.ready()
        child.wait_for_go()  # the agent pushes while the kiosk has its books open
        state = linked.LinkState(place.database, agent_file=place.agent_file)
        state.refresh(force=True)
        terminal.store.close()
        return {"pool": state.pool, "online": state.online}

    def agent_pushes(child: Child) -> dict[str, Any]:
        link = agent.Agent(place.database, place.credentials, agent_file=place.agent_file)
        try:
            sent = link.push_all()
            child.ready()
            child.wait_for_go()  # the kiosk reads the agent's file while the agent runs
        finally:
            link.close()

        def write_books() -> None:
            with sqlite3.connect(place.database) as books:
                books.execute("DELETE FROM outbox")

        return {
            "sent": sent,
            "write": refused(write_books),
            "key": refused(BooksFiles(place.database).key.read_bytes),
            "replace": refused(lambda: place.database.rename(place.books / "moved.db")),
        }

    playing = as_kiosk(kiosk)
    playing.when_ready()
    pushing = as_agent(agent_pushes)
    pushing.when_ready()
    playing.go()
    seen = playing.result()
    pushing.go()
    pushed = pushing.result()

    written = agent.outbox_last(place.database)
    assert written > 0
    assert pushed["sent"] == written
    assert hub.held(floor.cabinet("c01")) == written, "the hub holds every row of the books"
    assert "readonly" in pushed["write"], pushed["write"]
    assert pushed["key"].startswith("PermissionError"), "the seal key is the kiosk's alone"
    assert pushed["replace"].startswith("PermissionError"), "nor may it move the books"
    assert seen == {"pool": hub.pool(floor.owner).value, "online": True}, "the kiosk reads the agent's file"
    mode = place.database.stat().st_mode & 0o777
    assert mode == 0o640, f"the books are the kiosk's to write and its group's to read, not {mode:o}"
    assert place.agent_file.stat().st_uid == AGENT_USER


def test_the_agent_says_why_it_waits_while_the_kiosk_is_stopped_and_where_it_may_not_write(
    cabinet: tuple[FloorHub, Cabinet],
) -> None:
    _floor, place = cabinet

    def kiosk(child: Child) -> None:
        terminal = linked_terminal(place.database)
        play(terminal, 1)
        terminal.store.close()  # stopped: SQLite removes its shared-memory file

    as_kiosk(kiosk).result()
    assert sorted(path.name for path in place.books.glob("kiosk.db*")) == [
        "kiosk.db",
        "kiosk.db.books",
        "kiosk.db.key",
        "kiosk.db.lock",
    ]

    def agent_meets_a_stopped_kiosk(child: Child) -> dict[str, Any]:
        link = agent.Agent(place.database, place.credentials, agent_file=place.agent_file)
        try:
            link.push_once()
        except agent.LinkError as error:
            waiting = str(error)
        else:
            waiting = "pushed"
        finally:
            link.close()
        records: list[str] = []
        handler = logging.Handler()
        handler.emit = lambda record: records.append(record.getMessage())  # type: ignore[method-assign]
        logging.getLogger("oasis_kiosk.link").addHandler(handler)
        beside_the_books = agent.run_agent(
            place.database,
            place.credentials,
            batch=100,
            retry_max=1.0,
            linked_jackpot=True,
            offline_after=5.0,
        )
        return {"waiting": waiting, "exit": beside_the_books, "said": records}

    met = as_agent(agent_meets_a_stopped_kiosk).result()
    assert "can be read only while the kiosk has them open" in met["waiting"]
    assert "kiosk.db-shm" in met["waiting"]
    assert met["exit"] == 2
    assert any(
        "the link agent may not write its own file here (kiosk.db.link): set [link] agent_file" in line
        for line in met["said"]
    ), met["said"]
