"""The cabinet's button and switch names (no GPIO here: the configuration checks them)."""

from __future__ import annotations

from oasis_kiosk.machine.intents import BUTTON_LABELS

# Panel button names and the intent each sends: a button for each intent with a label
# (machine/intents.py), and "card1".."card5", which send ``card`` with 1..5.
BUTTONS: dict[str, tuple[str, int | None]] = {
    **{name: (name, None) for name in BUTTON_LABELS},
    **{f"card{n}": ("card", n) for n in range(1, 6)},
}
# Switches: (intent when it closes, intent when it opens).
SWITCHES: dict[str, tuple[str, str]] = {
    "door": ("door_open", "door_close"),
    "operator_key": ("operator_key_on", "operator_key_off"),
}
