"""The cabinet's button and switch names (no GPIO here: the configuration checks them)."""

from __future__ import annotations

# Panel button names and the intent each sends; "card1".."card5" send ``card`` with 1..5.
BUTTONS: dict[str, tuple[str, int | None]] = {
    "bet": ("bet", None),
    "bonus": ("bonus", None),
    "boxes": ("boxes", None),
    "deal": ("deal", None),
    "play": ("play", None),
    "fold": ("fold", None),
    "exchange": ("exchange", None),
    "sixth": ("sixth", None),
    "insure": ("insure", None),
    "decline": ("decline", None),
    "buy_card": ("buy_card", None),
    "buy_game": ("buy_game", None),
    "cashout": ("cashout", None),
    "attendant": ("attendant", None),
    "help": ("help", None),
    **{f"card{n}": ("card", n) for n in range(1, 6)},
}
# Switches: (intent when it closes, intent when it opens).
SWITCHES: dict[str, tuple[str, str]] = {
    "door": ("door_open", "door_close"),
    "operator_key": ("operator_key_on", "operator_key_off"),
}
