"""What each kind of ledger row counts as, for everything that sums the ledger: the audit's
recount of the meters (``machine/audit.py``) and the floor's totals per day
(``floor/dashboard.py``) add the same rows to the same figures."""

from oasis_kiosk.machine.money_kinds import BY_LEDGER_KIND

MONEY_IN = (*BY_LEDGER_KIND, "operator_credit")
"""Money put on the credits (total in)."""
MONEY_OUT = ("handpay", "cash_out")
"""Credits paid out, by the hopper or by hand (total out; the rows' amounts are negative)."""
WAGERED = ("wager", "fee")
"""What the game took (coin in; negative amounts)."""
WON = ("win", "bonus_win", "void_refund", "jackpot_hit")
"""What the game paid back onto the credits (coin out)."""
PAID_BY_HAND = "handpaid_win"
"""A win the attendant paid by hand, never on the credits: its amount is 0, and its detail's
``won`` counts in coin out and total out alike (its ``jackpot`` in the jackpots paid)."""
