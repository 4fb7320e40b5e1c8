"""The files beside the database that keep the books honest.

- ``kiosk.db.key``: the seal key (32 random bytes, hex), made by ``oasis-kiosk init`` and
  readable only by the user the kiosk runs as. Without it nobody can seal a row.
- ``kiosk.db.books``: the books mark, rewritten (and fsynced) after every commit: which books
  these are and the last seal they committed. A database that is gone, empty, replaced by an
  older copy or cut short (its write-ahead log deleted) no longer reaches the mark.
- ``kiosk.db.lock``: held with ``flock`` by the process that writes the books. The kernel
  drops it when that process dies, however it dies, so a restart is never blocked; a second
  process finds it held and stops before it touches anything. (The link agent holds
  ``kiosk.db.link.lock`` the same way: one agent per books.)
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oasis_kiosk._core import OasisError

KEY_BYTES = 32


class BooksError(OasisError):
    """The books' files say something is wrong (the store turns it into a StoreError)."""


class LockHeldError(BooksError):
    """Another process holds a lock beside the books: ``holder`` is its pid as it wrote it."""

    def __init__(self, lock: Path, holder: str) -> None:
        super().__init__(f"{lock}: held by another process (pid {holder})")
        self.holder = holder


@dataclass(frozen=True)
class BooksFiles:
    """The files of one set of books, beside the database's path: its key and mark, and
    the lock, which is beside the database file itself (a symbolic link followed), so that
    two paths to one database share one lock."""

    database: Path

    @property
    def key(self) -> Path:
        return self.database.with_name(self.database.name + ".key")

    @property
    def mark(self) -> Path:
        return self.database.with_name(self.database.name + ".books")

    @property
    def lock(self) -> Path:
        database = Path(os.path.realpath(self.database))
        return database.with_name(database.name + ".lock")

    @property
    def journal(self) -> list[Path]:
        """SQLite's files that belong with the database."""
        return [self.database.with_name(self.database.name + suffix) for suffix in ("-wal", "-shm")]


def _fsync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_durably(path: Path, text: str, mode: int = 0o600) -> None:
    """Replaces ``path`` with ``text`` so that a power cut leaves the old or the new file whole."""
    temporary = path.with_name(path.name + ".new")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.write(descriptor, text.encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.replace(temporary, path)
    _fsync_directory(path.parent)


DATABASE_MODE = 0o640
"""The database and SQLite's files beside it: the owner writes, the group (the link agent)
reads, other users nothing: the deck of the round in play is in it."""


def create_database(files: BooksFiles) -> None:
    """The empty database file, made with ``DATABASE_MODE`` (SQLite gives its WAL and shared
    memory the database's mode)."""
    os.close(os.open(files.database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, DATABASE_MODE))


def keep_private(files: BooksFiles) -> None:
    """Takes from other users the right to read books made with a looser mode (by an earlier
    release, or copied in): files of another owner are left as they are."""
    for path in (files.database, *files.journal):
        try:
            status = path.stat()
            if status.st_uid == os.geteuid() and status.st_mode & 0o007:
                path.chmod(status.st_mode & 0o770)
        except FileNotFoundError:
            continue


def create_key(files: BooksFiles) -> bytes:
    """A new seal key, written only where none is (never over the key of other books)."""
    secret = secrets.token_bytes(KEY_BYTES)
    try:
        descriptor = os.open(files.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise BooksError(f"{files.key}: a seal key is already there") from None
    try:
        os.write(descriptor, secret.hex().encode() + b"\n")
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    _fsync_directory(files.key.parent)
    return secret


def read_key(files: BooksFiles) -> bytes:
    try:
        text = files.key.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise BooksError(f"{files.key}: the seal key of these books is missing") from None
    except (OSError, UnicodeError) as error:
        raise BooksError(f"{files.key}: the seal key cannot be read: {error}") from None
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) != KEY_BYTES:
        raise BooksError(f"{files.key}: not a seal key ({KEY_BYTES * 2} hexadecimal digits)")
    return secret


@dataclass(frozen=True)
class Mark:
    books: str
    seq: int
    seal: str

    def to_text(self) -> str:
        return json.dumps({"books": self.books, "seq": self.seq, "seal": self.seal}) + "\n"


def read_mark(files: BooksFiles) -> Mark | None:
    """The books mark, None where there is none."""
    try:
        raw: Any = json.loads(files.mark.read_text(encoding="utf-8"))
        return Mark(str(raw["books"]), int(raw["seq"]), str(raw["seal"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError) as error:
        raise BooksError(f"{files.mark}: the books mark is damaged: {error}") from None


def write_mark(files: BooksFiles, mark: Mark) -> None:
    write_durably(files.mark, mark.to_text(), mode=0o644)


# One lock per file and process: a second Store in the same process (a test that restarts
# the terminal over the same file) shares it; another process never gets it.
_held: dict[Path, tuple[int, int]] = {}


def acquire_lock(lock: Path) -> None:
    """Takes the lock ``lock`` (the books', or the link agent's) or raises LockHeldError
    naming the process that holds it."""
    path = lock.resolve()
    if path in _held:
        descriptor, count = _held[path]
        _held[path] = (descriptor, count + 1)
        return
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(descriptor, 64).decode(errors="replace").strip() or "unknown"
        os.close(descriptor)
        raise LockHeldError(lock, holder) from None
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
    _held[path] = (descriptor, 1)


def release_lock(lock: Path) -> None:
    path = lock.resolve()
    if path not in _held:
        return
    descriptor, count = _held[path]
    if count > 1:
        _held[path] = (descriptor, count - 1)
        return
    del _held[path]
    os.close(descriptor)  # closing drops the flock
