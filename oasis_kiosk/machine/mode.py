"""What holds the terminal now, as one value: the screen, the lamps and the cabinet read it
(``Terminal.mode``) instead of each weighing the terminal's flags in an order of its own."""

from __future__ import annotations

from enum import Enum


class Mode(Enum):
    """The terminal's modes, in the order they take precedence: the first that holds is the
    mode."""

    BOOKS_FAULT = "books_fault"
    """The books fail their check: nothing can be booked, no lamp is lit, no money taken."""
    POWERING_DOWN = "powering_down"
    """The mains has failed: the database is closed, only physical facts are booked."""
    OPERATOR = "operator"
    """The operator's key is turned: the menu has the buttons, the game stands still."""
    PAYING = "paying"
    """The hopper pays coins out."""
    HANDPAY = "handpay"
    """The attendant is to pay an amount by hand."""
    JACKPOT_PENDING = "jackpot_pending"
    """A linked jackpot was hit: no play until the hub's award, claimed by the link agent,
    is credited or handpaid (``Terminal.follow_link``)."""
    TILTED = "tilted"
    """Out of order until what caused a tilt is cleared (``machine/tilts.py``)."""
    IN_ROUND = "in_round"
    """A round is dealt and waits for the player."""
    BETTING = "betting"
    """Ready: money in, bets set, a deal when the credit covers it."""

    @property
    def calls_attendant(self) -> bool:
        """The game cannot go on until someone comes: the screen shows why, and the only
        button is the attendant's."""
        return self in {Mode.BOOKS_FAULT, Mode.POWERING_DOWN, Mode.PAYING, Mode.HANDPAY, Mode.TILTED}
