"""Every intent the terminal takes, in one registry: the name on its button (if it has a
button of its own), the round's action it carries out, and whether it carries a value. The
panel's buttons and switches (their names, which the configuration wires to pins), the
terminal's dispatch, the screen's labels and the strategy's advice read it from here."""

from __future__ import annotations

from dataclasses import dataclass

from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.money_kinds import MONEY_KINDS


@dataclass(frozen=True)
class IntentKind:
    label: str | None = None
    """The name on its button (a message id); None: no button of its own (money, a
    switch, a card, which the player touches)."""
    round_action: str | None = None
    """The ``Round`` method it calls, for a decision of the round."""
    takes_value: bool = False
    """It carries a value: a coin's or note's worth, a card's position, an amount."""
    named: str | None = None
    """What a message calls an intent without a button of its own (a message id)."""


# In the panel's order: the buttons are wired to mock pins in this order on the desktop.
INTENTS: dict[str, IntentKind] = {
    **{kind: IntentKind(takes_value=True) for kind in MONEY_KINDS},
    "bet": IntentKind(N_("BET")),
    "bet_down": IntentKind(N_("BET −")),
    "max_bet": IntentKind(N_("MAX BET")),
    "bonus": IntentKind(N_("BONUS")),
    "boxes": IntentKind(N_("BOXES")),
    "repeat_bet": IntentKind(N_("REPEAT BET")),
    "deal": IntentKind(N_("DEAL")),
    "card": IntentKind(takes_value=True, named=N_("CARD")),
    "play": IntentKind(N_("PLAY"), "play"),
    "fold": IntentKind(N_("FOLD"), "fold"),
    "exchange": IntentKind(N_("EXCHANGE"), "exchange"),
    "sixth": IntentKind(N_("SIXTH CARD"), "buy_sixth_card"),
    "insure": IntentKind(N_("INSURE"), "insure", takes_value=True),
    "decline": IntentKind(N_("DECLINE"), "decline"),
    "buy_card": IntentKind(N_("BUY CARD"), "buy_dealer_card"),
    "buy_game": IntentKind(N_("BUY GAME"), "buy_game"),
    "cashout": IntentKind(N_("CASH OUT")),
    "attendant": IntentKind(N_("ATTENDANT")),
    "help": IntentKind(N_("HELP")),
    "language": IntentKind(N_("EN/CS/RU")),
    "door_open": IntentKind(),
    "door_close": IntentKind(),
    "operator_key_on": IntentKind(),
    "operator_key_off": IntentKind(),
}

ROUND_ACTIONS = {name: kind.round_action for name, kind in INTENTS.items() if kind.round_action}
"""The game actions of a round and the ``Round`` method each calls."""
ACTION_INTENTS = {action: intent for intent, action in ROUND_ACTIONS.items()}
"""The intent that carries out each of the round's actions (``legal_actions``' names)."""
BUTTON_LABELS = {name: kind.label for name, kind in INTENTS.items() if kind.label}
"""The buttons of the panel and the screen by intent, and the name on each."""
INTENT_NAMES = {
    name: named for name, kind in INTENTS.items() if (named := kind.label or kind.named) is not None
}
"""Each intent as a message names it: the name on its button, or what the player touches."""

# Panel button names and the intent each sends: a button for each intent with a label, and
# "card1".."card5", which send ``card`` with 1..5.
BUTTONS: dict[str, tuple[str, int | None]] = {
    **{name: (name, None) for name in BUTTON_LABELS},
    **{f"card{n}": ("card", n) for n in range(1, 6)},
}
# Switches: (intent when it closes, intent when it opens).
SWITCHES: dict[str, tuple[str, str]] = {
    "door": ("door_open", "door_close"),
    "operator_key": ("operator_key_on", "operator_key_off"),
}
