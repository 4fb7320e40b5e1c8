"""The desktop's keyboard as the cabinet: each key presses a mock pin of a MockCabinet, so
the keyboard drives exactly the devices the cabinet has. The front end passes key names
(as pygame spells them) and shows ``legend()``."""

from __future__ import annotations

from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.money_kinds import BILL, COIN
from oasis_kiosk.machine.terminal import Response

# Key -> cabinet button.
BUTTON_KEYS = {
    "b": Intent.BET,
    "v": Intent.BET_DOWN,
    "t": Intent.MAX_BET,
    "n": Intent.BONUS,
    "x": Intent.BOXES,
    "r": Intent.REPEAT_BET,
    "return": Intent.DEAL,
    "p": Intent.PLAY,
    "f": Intent.FOLD,
    "e": Intent.EXCHANGE,
    "s": Intent.SIXTH,
    "i": Intent.INSURE,
    "c": Intent.DECLINE,
    "k": Intent.BUY_CARD,
    "g": Intent.BUY_GAME,
    "o": Intent.CASHOUT,
    "a": Intent.ATTENDANT,
    "h": Intent.HELP,
    "u": Intent.LANGUAGE,
    **{str(n): f"card{n}" for n in range(1, 6)},
}
# Key -> money: F1-F4 the coins, F5-F8 the notes, smallest first.
COIN_KEYS = ("f1", "f2", "f3", "f4")
BILL_KEYS = ("f5", "f6", "f7", "f8")
DOOR_KEY = "d"
OPERATOR_KEY = "m"
SWITCH_KEYS = {DOOR_KEY, OPERATOR_KEY}
"""Keys that throw a switch."""
PHYSICAL_KEYS = SWITCH_KEYS | {*COIN_KEYS, *BILL_KEYS}
"""Keys that stand for a physical fact, a switch thrown or money put in: never taken as a
press that only wakes the game (the coin would be gone), nor one that hurries the reveal."""


class Keyboard:
    def __init__(self, cabinet: MockCabinet) -> None:
        self.cabinet = cabinet
        config = cabinet.terminal.config
        self.money = {key: (COIN, value) for key, value in zip(COIN_KEYS, config.coins, strict=False)}
        self.money |= {key: (BILL, value) for key, value in zip(BILL_KEYS, config.bills, strict=False)}

    def key(self, name: str) -> Response | None:
        """Presses what the key stands for; returns what happened, or None for a key that
        means nothing here."""
        name = name.lower()
        if name in BUTTON_KEYS:
            return _first(self.cabinet.press(BUTTON_KEYS[name]))
        if name in self.money:
            kind, value = self.money[name]
            return self.cabinet.insert(kind, value)
        if name in SWITCH_KEYS:
            switch = "door" if name == DOOR_KEY else "operator_key"
            return _first(self.cabinet.switch(switch, closed=not self.cabinet.closed(switch)))
        return None

    def legend(self) -> list[tuple[str, str, int | None]]:
        """(key, what it presses, the amount for money) for the on-screen legend: a cabinet
        button's name, "coin", "bill", "door" or "operator_key"."""
        rows: list[tuple[str, str, int | None]] = [(key, button, None) for key, button in BUTTON_KEYS.items()]
        rows += [(key, kind.name, value) for key, (kind, value) in self.money.items()]
        return [*rows, (DOOR_KEY, "door", None), (OPERATOR_KEY, "operator_key", None)]


def _first(responses: list[Response]) -> Response:
    """What a press did; a press that went to the operator menu or did nothing says so."""
    return responses[0] if responses else Response(True, N_("no effect"))
