"""The configuration as the terminal holds it (``Config``), and the two sections it holds
flat: ``[terminal]`` (the rules, the database, the screen and the sound) and ``[money]``
(the coins and notes taken, the hopper's coin, the handpay limit)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oasis_kiosk._core import Profile
from oasis_kiosk.config.devices import DevicesConfig
from oasis_kiosk.config.jackpot import JackpotConfig
from oasis_kiosk.config.kinds import Denominations, Money, OneOf, Text, Whole, path_text
from oasis_kiosk.config.link import LinkConfig
from oasis_kiosk.config.rules import ReturnBounds
from oasis_kiosk.config.schema import Key
from oasis_kiosk.i18n import LANGUAGES as LANGUAGE_NAMES
from oasis_kiosk.machine.cash_out_kinds import CASH_OUT_KINDS
from oasis_kiosk.rules import load_profile

MAX_VOLUME = 10
LANGUAGES = tuple(LANGUAGE_NAMES)
"""The screen's languages: those ``i18n`` has catalogues and names for."""
SPEEDS = ("normal", "fast")
"""How fast the cards move and a win counts up (ui/motion.py's PACES)."""


def default_data_dir() -> Path:
    """The user's data directory (``$XDG_DATA_HOME/oasis-kiosk``); the cabinet sets
    ``/var/lib/oasis-kiosk`` in its configuration."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "oasis-kiosk"


@dataclass(frozen=True)
class Config:
    """The whole configuration: ``[terminal]`` and ``[money]`` as its own fields, the other
    sections as theirs."""

    source: str = "<defaults>"
    profile: str = "standard"
    """A shipped profile's id or a profile file's path."""
    profile_overrides: dict[str, Any] | None = None
    """TOML merged over the profile: an operator's house variant."""
    database: Path = field(default_factory=lambda: default_data_dir() / "kiosk.db")
    credit_limit: int = 100_000
    """No coin or bill is accepted that would take the credits above this."""
    coins: tuple[int, ...] = (50, 100, 200, 500)
    bills: tuple[int, ...] = (500, 1000, 2000, 5000)
    cashout: str = "handpay"
    hopper_coin: int = 100
    """The coin the hopper pays out (cashout = "hopper"); what is left below it is handpaid."""
    handpay_limit: int = 1_000_000
    """A round that pays this much or more (a jackpot award included) locks the terminal up
    until the attendant pays it by hand; it never goes on the credits."""
    jackpot: JackpotConfig = field(default_factory=JackpotConfig)
    return_bounds: ReturnBounds = field(default_factory=ReturnBounds)
    """``[rules]``: the approved range of the return."""
    language: str = "en"
    volume: int = 6
    """Sound volume 0 (silent) to 10."""
    attract_volume: int = 3
    """The attract demo's sound volume, 0 (silent) to 10: softer than the game, so a cabinet
    that calls for players does not nag the room; never louder than ``volume``."""
    speed: str = "normal"
    attract_after: int = 60
    """Seconds without input, credits or a round before the attract demo starts; 0: never."""
    expected_video_driver: str = ""
    """The SDL video driver the cabinet must run on full screen (``kmsdrm``): the start-up
    self-test tilts on any other, so a kiosk drawing nowhere takes no money. Empty: any."""
    devices: DevicesConfig = field(default_factory=DevicesConfig)
    link: LinkConfig | None = None
    """``[link]``: linked to a floor's hub; None (no section): a cabinet on its own."""

    def load_profile(self) -> Profile:
        return load_profile(self.profile, self.profile_overrides)


DEFAULTS = Config()
TERMINAL: dict[str, Key] = {
    "profile": Key(
        Text("a shipped profile's id or a profile file's path"),
        DEFAULTS.profile,
        "the rules: a shipped profile's id or a profile file's path",
    ),
    "database": Key(
        path_text("a file path"),
        None,  # the data directory of the moment (default_data_dir), not of the import
        "the terminal's database, the only file it writes",
    ),
    "credit_limit": Key(Money(), DEFAULTS.credit_limit, "no coin or note is taken that would pass it"),
    "cashout": Key(OneOf(tuple(CASH_OUT_KINDS)), DEFAULTS.cashout, "how credits are paid out"),
    "language": Key(OneOf(LANGUAGES), DEFAULTS.language, "the screen's language"),
    "volume": Key(Whole(f"0 to {MAX_VOLUME}", 0, MAX_VOLUME), DEFAULTS.volume, "sound volume, 0: silent"),
    "attract_volume": Key(
        Whole(f"0 to {MAX_VOLUME}", 0, MAX_VOLUME),
        DEFAULTS.attract_volume,
        "the attract demo's sound volume, 0: silent; never louder than volume",
    ),
    "speed": Key(OneOf(SPEEDS), DEFAULTS.speed, "how fast cards move and wins count up; fast: twice"),
    "attract_after": Key(
        Whole("a whole number of seconds, 0 to 86400", 0, 86_400),
        DEFAULTS.attract_after,
        "seconds idle before the attract demo; 0: never",
    ),
    "expected_video_driver": Key(
        Text(
            "an SDL driver name such as 'kmsdrm', or '' for any",
            valid=lambda name: name.isascii() and all(c.islower() or c.isdigit() or c == "_" for c in name),
        ),
        DEFAULTS.expected_video_driver,
        "the SDL video driver the self-test expects; '': any",
    ),
}

MONEY: dict[str, Key] = {
    "coins": Key(Denominations(), DEFAULTS.coins, "the coins taken (minor units)"),
    "bills": Key(Denominations(), DEFAULTS.bills, "the notes taken (minor units)"),
    "hopper_coin": Key(Money(), DEFAULTS.hopper_coin, "the coin the hopper pays out, one of coins"),
    "handpay_limit": Key(Money(), DEFAULTS.handpay_limit, "a win at or above it is paid by hand"),
}
