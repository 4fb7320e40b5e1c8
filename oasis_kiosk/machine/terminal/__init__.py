"""The terminal: credits, bets, the round in play, the jackpot, cash-out and tilts.

Everything that touches money is here, and every input is one database transaction: the
input's effect on the round, the ledger rows and meters it moves, and the terminal's own
state (bets, selected cards, pending handpay, tilts, jackpot) commit together or not at
all. A restart therefore finds exactly the committed state, replays the unfinished round
from its record, and resumes at the same decision with the same cards.

Input arrives as *intents* (``coin 100``, ``bet``, ``deal``, ``card 2``, ``exchange``,
``play``...), from the cabinet's buttons, the keyboard or a script alike. An intent that
is not live now is refused with a message and changes nothing but the log. Where a betting
button takes the bets between rounds is worked out by ``machine/betting.py``, which books
nothing: the terminal places what it chose in that input's transaction.

The terminal's concerns, each a class the ``Terminal`` is made of (``start.py``):

- ``state.py``: the state in memory, read from the books and written back;
- ``transactions.py``: one transaction per input (``_commit``);
- ``inputs.py``: the intents live now, ``handle``, why one is refused; help and language;
- ``bet_buttons.py``: the betting buttons, and BET choosing the amount to insure;
- ``round_play.py``: dealing and playing the round, journalled with its record;
- ``settlement.py``: paying a settled round;
- ``linked_jackpot.py``: the floor's linked jackpot, as the link agent reports it;
- ``money_in.py``: coins, bills and the operator's credits;
- ``cash_out.py``: the payout, the handpay and the attendant's key;
- ``devices.py``: what the devices report: money taken, faults, the power, the switches.

Each class derives from those whose methods it calls, down to ``TerminalState``, and none
overrides another's method.
"""

# The terminal's replies, which the front end, the cabinet and the operator import from here.
from oasis_kiosk.machine.response import Amount, Response
from oasis_kiosk.machine.terminal.start import Terminal, seeds_from, settings_from_store

__all__ = ["Amount", "Response", "Terminal", "seeds_from", "settings_from_store"]
