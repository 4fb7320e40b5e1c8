"""The books' money: one currency and one minor unit, fixed when the books were made. Every
amount on the books is an integer of that minor unit, so rules that count another (an
override of ``minor_units``) would show and pay every amount scaled: the start and the
operator's change of rules refuse them alike, in these words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from oasis_kiosk.i18n import N_
from oasis_kiosk.store.db import Store

MINOR_UNITS_STATE = "minor_units"
"""The state key the books' minor units per major unit are kept under, from the first start."""


def books_minor_units(store: Store) -> int | None:
    """The minor units per major unit the books count in: as recorded at their first start,
    else as the first round was played (books of an earlier release); None for books that
    have counted nothing yet."""
    recorded = store.get_state(MINOR_UNITS_STATE)
    if recorded is not None:
        return int(recorded)
    table = store.first_played_table()
    return None if table is None else int(table["minor_units"])


def record_minor_units(store: Store, table: Mapping[str, Any]) -> None:
    """Records the minor units of the rules the books are first started under (in the
    caller's transaction); once recorded, they do not change."""
    if store.get_state(MINOR_UNITS_STATE) is None:
        store.set_state(MINOR_UNITS_STATE, books_minor_units(store) or int(table["minor_units"]))


def refusal(store: Store, profile_id: str, table: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Why rules playing at ``table`` cannot be played on these books (a template and its
    details), or None when their money is the books' money."""
    books = store.books
    if books is not None and table["currency"] != books.currency:
        return N_(
            "the profile {profile} plays in {currency}, but these books are kept in {books}: the "
            "books have one currency, set when they were made"
        ), {"profile": profile_id, "currency": table["currency"], "books": books.currency}
    counted = books_minor_units(store)
    if counted is not None and table["minor_units"] != counted:
        return N_(
            "the profile {profile} counts {minor_units} minor units to the {currency}, but these "
            "books count {books}: every amount on them would be shown and paid scaled"
        ), {
            "profile": profile_id,
            "minor_units": table["minor_units"],
            "currency": table["currency"],
            "books": counted,
        }
    return None
