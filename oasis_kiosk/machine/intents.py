"""Every intent the terminal takes, in one registry: the name on its button (if it has a
button of its own), the round's action it carries out, and whether it carries a value. The
panel's buttons and switches (their names, which the configuration wires to pins), the
terminal's dispatch, the screen's labels and the strategy's advice read it from here, and
name an intent by its ``Intent`` (a misspelt one is a type error, not a dead button)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from oasis_kiosk.i18n import N_, _
from oasis_kiosk.machine.money_kinds import MONEY_KINDS


class Intent(StrEnum):
    """Each intent by name, as the configuration's buttons, the keyboard, the scripts and the
    log name it; a string, so that a name read from a file compares equal."""

    COIN = "coin"  # the money kinds' names: INTENTS fails to load without one
    BILL = "bill"
    BET = "bet"
    BET_DOWN = "bet_down"
    MAX_BET = "max_bet"
    BONUS = "bonus"
    BOXES = "boxes"
    REPEAT_BET = "repeat_bet"
    DEAL = "deal"
    CARD = "card"
    PLAY = "play"
    FOLD = "fold"
    EXCHANGE = "exchange"
    SIXTH = "sixth"
    INSURE = "insure"
    DECLINE = "decline"
    BUY_CARD = "buy_card"
    BUY_GAME = "buy_game"
    CASHOUT = "cashout"
    ATTENDANT = "attendant"
    HELP = "help"
    LANGUAGE = "language"
    DOOR_OPEN = "door_open"
    DOOR_CLOSE = "door_close"
    OPERATOR_KEY_ON = "operator_key_on"
    OPERATOR_KEY_OFF = "operator_key_off"


@dataclass(frozen=True)
class IntentEntry:
    label: str | None = None
    """The name on its button (a message id); None: no button of its own (money, a
    switch, a card, which the player touches)."""
    round_action: str | None = None
    """The ``Round`` method it calls, for a decision of the round."""
    takes_value: bool = False
    """It carries a value: a coin's or note's worth, a card's position, an amount."""
    named: str | None = None
    """What a message calls an intent without a button of its own (a message id)."""
    key_switch: bool = False
    """Turned by the attendant's key on the cabinet: the screen shows its lamp as a button,
    and a touch of it only says so (it pays a handpay and clears a tilt: a player's touch
    would have paid his own handpay)."""


# In the panel's order: the buttons are wired to mock pins in this order on the desktop.
INTENTS: dict[Intent, IntentEntry] = {
    **{Intent(kind): IntentEntry(takes_value=True) for kind in MONEY_KINDS},
    Intent.BET: IntentEntry(N_("BET")),
    Intent.BET_DOWN: IntentEntry(N_("BET −")),
    Intent.MAX_BET: IntentEntry(N_("MAX BET")),
    Intent.BONUS: IntentEntry(N_("BONUS")),
    Intent.BOXES: IntentEntry(N_("BOXES")),
    Intent.REPEAT_BET: IntentEntry(N_("REPEAT BET")),
    Intent.DEAL: IntentEntry(N_("DEAL")),
    Intent.CARD: IntentEntry(takes_value=True, named=N_("CARD")),
    Intent.PLAY: IntentEntry(N_("PLAY"), "play"),
    Intent.FOLD: IntentEntry(N_("FOLD"), "fold"),
    Intent.EXCHANGE: IntentEntry(N_("EXCHANGE"), "exchange"),
    Intent.SIXTH: IntentEntry(N_("SIXTH CARD"), "buy_sixth_card"),
    Intent.INSURE: IntentEntry(N_("INSURE"), "insure", takes_value=True),
    Intent.DECLINE: IntentEntry(N_("DECLINE"), "decline"),
    Intent.BUY_CARD: IntentEntry(N_("BUY CARD"), "buy_dealer_card"),
    Intent.BUY_GAME: IntentEntry(N_("BUY GAME"), "buy_game"),
    Intent.CASHOUT: IntentEntry(N_("CASH OUT")),
    Intent.ATTENDANT: IntentEntry(N_("ATTENDANT"), key_switch=True),
    Intent.HELP: IntentEntry(N_("HELP")),
    Intent.LANGUAGE: IntentEntry(N_("EN/CS/RU")),
    Intent.DOOR_OPEN: IntentEntry(),
    Intent.DOOR_CLOSE: IntentEntry(),
    Intent.OPERATOR_KEY_ON: IntentEntry(),
    Intent.OPERATOR_KEY_OFF: IntentEntry(),
}

KEY_SWITCHES = frozenset(name for name, kind in INTENTS.items() if kind.key_switch)
"""The intents only a key on the cabinet gives, never a touch of the screen."""
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


def intent_name(name: str) -> str:
    """An intent as the player knows it, in the active language: the name on its button, or
    of what he touches; a name that is no intent, as it is."""
    return _(INTENT_NAMES[Intent(name)]) if name in INTENT_NAMES else name


# Panel button names and the intent each sends: a button for each intent with a label, and
# "card1".."card5", which send ``card`` with 1..5.
BUTTONS: dict[str, tuple[Intent, int | None]] = {
    **{name: (name, None) for name in BUTTON_LABELS},
    **{f"card{n}": (Intent.CARD, n) for n in range(1, 6)},
}
# Switches: (intent when it closes, intent when it opens).
SWITCHES: dict[str, tuple[Intent, Intent]] = {
    "door": (Intent.DOOR_OPEN, Intent.DOOR_CLOSE),
    "operator_key": (Intent.OPERATOR_KEY_ON, Intent.OPERATOR_KEY_OFF),
}
