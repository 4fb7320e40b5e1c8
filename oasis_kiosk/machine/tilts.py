"""Every tilt the terminal raises, in one registry: its kind, what the player reads on the
screen, and what clears it. A new tilt (a hopper sensor, say) is one entry here and the
line that raises it; the screen, the attendant's key and the log read the rest from here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from oasis_kiosk.i18n import N_


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


TILTS: dict[str, Tilt] = {
    "door": Tilt(N_("The door is open."), ClearedBy.DOOR_CLOSED),
    "resume": Tilt(N_("A round could not resume; the operator voids it."), ClearedBy.OPERATOR_VOID),
    "integrity": Tilt(N_("A round was void: its stakes were returned.")),
    "database": Tilt(N_("The records cannot be written.")),
    "fault": Tilt(N_("An internal fault stopped the game.")),
    "hopper_empty": Tilt(N_("The hopper is empty or jammed.")),
    "hopper_exit_blocked": Tilt(N_("The hopper's exit is blocked, or its sensor covered.")),
    "hopper_overpaid": Tilt(N_("The hopper paid a coin it did not owe.")),
    "coin_acceptor": Tilt(N_("The coin acceptor reports a fault.")),
    "bill_acceptor": Tilt(N_("The note acceptor reports a fault.")),
    "bill_validator": Tilt(N_("The note validator reports a fault.")),
    # The power's return clears it too (Terminal.power_restored).
    "power_fail": Tilt(N_("The mains power has failed.")),
    "self_test": Tilt(N_("The start-up self-test failed."), ClearedBy.SELF_TEST),
    "books": Tilt(N_("The records are damaged: the operator must restore them."), ClearedBy.BOOKS_RESTORED),
    "pin_lockout": Tilt(N_("The operator menu is locked after too many wrong PINs."), detail_shown=False),
}


def attendant_clears(kind: str) -> bool:
    """Whether the attendant's key clears a tilt of this kind (an unknown kind, from the
    state of an older release, is cleared: nothing else would)."""
    tilt = TILTS.get(kind)
    return tilt is None or tilt.cleared_by is ClearedBy.ATTENDANT
