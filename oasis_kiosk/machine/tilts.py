"""Every tilt the terminal raises, in one registry: its kind, what the player reads on the
screen, and what clears it. A new tilt (a hopper sensor, say) is one entry here and the
line that raises it; the screen, the attendant's key and the log read the rest from here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from oasis_kiosk.errors import InputError
from oasis_kiosk.i18n import N_


class TiltKind(StrEnum):
    """Each tilt's kind, as the books, the log and the floor's hub name it; a string, so that
    the books' own (a device's, an older release's) compare equal."""

    DOOR = "door"
    RESUME = "resume"
    INTEGRITY = "integrity"
    DATABASE = "database"
    FAULT = "fault"
    HOPPER_EMPTY = "hopper_empty"
    HOPPER_EXIT_BLOCKED = "hopper_exit_blocked"
    HOPPER_OVERPAID = "hopper_overpaid"
    COIN_ACCEPTOR = "coin_acceptor"
    BILL_ACCEPTOR = "bill_acceptor"
    BILL_VALIDATOR = "bill_validator"
    POWER_FAIL = "power_fail"
    SELF_TEST = "self_test"
    BOOKS = "books"
    PIN_LOCKOUT = "pin_lockout"


class ClearedBy(Enum):
    """What ends a tilt."""

    ATTENDANT = "the attendant's key"
    DOOR_CLOSED = "the door closing"
    OPERATOR_VOID = "the operator voiding the round"
    SELF_TEST = "a start whose self-test passes"
    BOOKS_RESTORED = "the books restored, or made anew with oasis-kiosk init"


@dataclass(frozen=True)
class Tilt:
    label: str
    """What the player reads (a message id), in the player's language."""
    cleared_by: ClearedBy = ClearedBy.ATTENDANT
    detail_shown: bool = True
    """The terminal's detail (English, as written for the attendant and the log) follows
    the label on the panel, where it says more."""


TILTS: dict[TiltKind, Tilt] = {
    TiltKind.DOOR: Tilt(N_("The door is open."), ClearedBy.DOOR_CLOSED),
    TiltKind.RESUME: Tilt(N_("A round could not resume; the operator voids it."), ClearedBy.OPERATOR_VOID),
    TiltKind.INTEGRITY: Tilt(N_("A round was void: its stakes were returned.")),
    TiltKind.DATABASE: Tilt(N_("The records cannot be written.")),
    TiltKind.FAULT: Tilt(N_("An internal fault stopped the game.")),
    TiltKind.HOPPER_EMPTY: Tilt(N_("The hopper is empty or jammed.")),
    TiltKind.HOPPER_EXIT_BLOCKED: Tilt(N_("The hopper's exit is blocked, or its sensor covered.")),
    TiltKind.HOPPER_OVERPAID: Tilt(N_("The hopper paid a coin it did not owe.")),
    TiltKind.COIN_ACCEPTOR: Tilt(N_("The coin acceptor reports a fault.")),
    TiltKind.BILL_ACCEPTOR: Tilt(N_("The note acceptor reports a fault.")),
    TiltKind.BILL_VALIDATOR: Tilt(N_("The note validator reports a fault.")),
    # The power's return clears it too (Terminal.power_restored).
    TiltKind.POWER_FAIL: Tilt(N_("The mains power has failed.")),
    TiltKind.SELF_TEST: Tilt(N_("The start-up self-test failed."), ClearedBy.SELF_TEST),
    TiltKind.BOOKS: Tilt(
        N_("The records are damaged: the operator must restore them."), ClearedBy.BOOKS_RESTORED
    ),
    TiltKind.PIN_LOCKOUT: Tilt(
        N_("The operator menu is locked after too many wrong PINs."), detail_shown=False
    ),
}


def tilt_kind(name: str) -> TiltKind:
    """The tilt a device names (``Fault``, ``PayoutEnded``); one the registry lacks is an
    error that names the registry."""
    try:
        return TiltKind(name)
    except ValueError:
        raise InputError(f"{name} is not a tilt of machine/tilts.py") from None


def registered(kind: str) -> Tilt | None:
    """The registry's entry for a tilt the books hold; None for a kind it lacks (from the
    state of an older release)."""
    try:
        return TILTS[TiltKind(kind)]
    except ValueError:
        return None


def only_a_start_clears(kind: str) -> bool:
    """Whether nothing but a start whose self-test passes clears a tilt of this kind: while
    it stands, a round in play cannot be played on."""
    tilt = registered(kind)
    return tilt is not None and tilt.cleared_by is ClearedBy.SELF_TEST


def attendant_clears(kind: str) -> bool:
    """Whether the attendant's key clears a tilt of this kind (an unknown kind, from the
    state of an older release, is cleared: nothing else would)."""
    tilt = registered(kind)
    return tilt is None or tilt.cleared_by is ClearedBy.ATTENDANT
