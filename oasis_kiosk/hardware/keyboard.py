"""The desktop's keyboard as the cabinet: each key presses a mock pin of a MockCabinet, so
the keyboard drives exactly the devices the cabinet has. The front end passes key names
(as pygame spells them) and shows ``legend()``."""

from __future__ import annotations

from oasis_kiosk.hardware.desktop import MockCabinet

# Key -> cabinet button.
BUTTON_KEYS = {
    "b": "bet",
    "n": "bonus",
    "x": "boxes",
    "return": "deal",
    "p": "play",
    "f": "fold",
    "e": "exchange",
    "s": "sixth",
    "i": "insure",
    "c": "decline",
    "k": "buy_card",
    "g": "buy_game",
    "o": "cashout",
    "a": "attendant",
    "h": "help",
    **{str(n): f"card{n}" for n in range(1, 6)},
}
# Key -> money: F1-F4 the coins, F5-F8 the notes, smallest first.
COIN_KEYS = ("f1", "f2", "f3", "f4")
BILL_KEYS = ("f5", "f6", "f7", "f8")
DOOR_KEY = "d"
OPERATOR_KEY = "m"


class Keyboard:
    def __init__(self, cabinet: MockCabinet) -> None:
        self.cabinet = cabinet
        config = cabinet.terminal.config
        self.money = {key: ("coin", value) for key, value in zip(COIN_KEYS, config.coins, strict=False)}
        self.money |= {key: ("bill", value) for key, value in zip(BILL_KEYS, config.bills, strict=False)}

    def key(self, name: str) -> str | None:
        """Presses what the key stands for; returns what happened, or None for a key that
        means nothing here."""
        name = name.lower()
        if name in BUTTON_KEYS:
            responses = self.cabinet.press(BUTTON_KEYS[name])
            return responses[0].message if responses else "no effect"
        if name in self.money:
            kind, value = self.money[name]
            return self.cabinet.insert(kind, value)[1]
        if name in {DOOR_KEY, OPERATOR_KEY}:
            switch = "door" if name == DOOR_KEY else "operator_key"
            responses = self.cabinet.switch(switch, closed=not self.cabinet.closed(switch))
            return responses[0].message if responses else "no effect"
        return None

    def legend(self) -> list[tuple[str, str]]:
        """(key, what it does) for the on-screen legend."""
        rows = [(key.upper(), button.replace("_", " ")) for key, button in BUTTON_KEYS.items()]
        rows += [(key.upper(), f"{kind} {value}") for key, (kind, value) in self.money.items()]
        return [*rows, (DOOR_KEY.upper(), "door open / closed"), (OPERATOR_KEY.upper(), "operator key")]
