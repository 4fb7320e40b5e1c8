"""One transaction per input: ``_commit`` runs a change (an intent, a device's report) in one
database transaction, the terminal's state saved in it. A change that fails leaves neither
the books nor memory changed, and tilts. While the power is failing the database is opened
for that one transaction only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.response import Response
from oasis_kiosk.machine.terminal.state import TerminalState
from oasis_kiosk.machine.tilts import TiltKind
from oasis_kiosk.store.db import StoreError

log = logging.getLogger(__name__)


class Transactions(TerminalState):
    """Runs each change of the terminal in one transaction."""

    note: tuple[str, Any] | None = None
    """A (key, value) pair saved in the next change's transaction (a script's position)."""

    def _commit(self, change: Callable[[], Response]) -> Response:
        """Runs ``change`` in one transaction, with the pending ``note``. If anything fails,
        nothing of it is committed: the terminal takes back what the database holds and
        tilts with the reason, so that memory never runs ahead of the books."""
        if self.books_fault is not None:
            log.error("not booked, the books fail their check: %s", self.books_fault)
            return Response(False, N_("the books fail their check: call the attendant"))
        if self.power_failure:
            # Only a physical fact gets here now: booked all the same, in a database opened
            # for this one transaction and closed again.
            self.store.reopen()
            try:
                return self._commit_open(change)
            finally:
                self._close_store()
        return self._commit_open(change)

    def take_back_the_books(self) -> None:
        """Memory as the books hold it committed: after a write that failed and rolled back,
        nothing it had changed in memory stays (the operator menu's writes call it too)."""
        self._load()
        self._resume()

    def _close_store(self) -> None:
        if not self.store.close(keep_reading=True):
            log.warning(
                "%s: a reader held the checkpoint back; the log stays for the next start", self.store.path
            )

    def _commit_open(self, change: Callable[[], Response]) -> Response:
        note, self.note = self.note, None
        self.changes += 1
        try:
            with self.store.transaction():
                if note is not None:
                    self.store.set_state(*note)
                in_session = self._in_session()
                response = change()
                if in_session and not self._in_session():
                    self.player_language = None  # the session is over: the house's language again
                self.save_state()
            return response
        except Exception as error:  # a rolled-back change must never leave memory changed
            self.take_back_the_books()
            kind = TiltKind.DATABASE if isinstance(error, StoreError) else TiltKind.FAULT
            message = str(error) or type(error).__name__
            self.tilts[kind] = message
            try:
                with self.store.transaction():
                    self.store.event("tilt", kind=kind, message=message)
                    self.save_state()
            except StoreError:
                pass  # the tilt stands in memory; the database refuses writes
            # The error's own words are the log's (English): the screen says which it was.
            if kind is TiltKind.DATABASE:
                return Response(False, N_("database error"), reason=message)
            return Response(False, N_("fault"), reason=message)
