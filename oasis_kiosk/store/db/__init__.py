"""The terminal's SQLite database: ledger, meters, rounds, events, terminal state.

- ``connection.py``: opening and locking the books, the transaction, sealing each row written;
- ``schema.py``: the migrations;
- ``ledger.py``, ``rounds.py``, ``events.py``: each table's reads and writes;
- ``store.py``: the ``Store`` they make together, and how new books are made;
- ``values.py``: the error, time stamps and JSON columns they share.
"""

from oasis_kiosk.store.db.connection import books_held
from oasis_kiosk.store.db.store import Store
from oasis_kiosk.store.db.values import BooksDamagedError, StoreError

__all__ = ["BooksDamagedError", "Store", "StoreError", "books_held"]
