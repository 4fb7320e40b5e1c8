"""The terminal's configuration: one TOML file (``/etc/oasis-kiosk/config.toml`` on the
cabinet), every key optional, every value checked when it loads.

One schema (``SCHEMA``: sections -> keys -> what each takes, its bounds, its default and
what it means) is walked over the file; the same walk checks the settings the operator
menu keeps in the database. An error names the file, the key and the reason in one line;
a bad configuration changes nothing. The schema is a small table of checks written here
rather than a validation library: the kiosk's few kinds of value (amounts, pins, pulse
tables) need their own words in the errors either way, and it adds no dependency to the
cabinet.

``schema.py`` is the schema's frame (keys, TOML tables, the walk and its errors) and
``kinds.py`` the kinds of value; each section is a module of its settings and its keys
(``terminal.py``, which also holds the whole ``Config``, ``jackpot.py``, ``rules.py``,
``devices.py``, ``link.py``); ``load.py`` reads the file and checks the sections against
each other, ``stored.py`` checks the operator menu's settings.
"""

from oasis_kiosk.config.devices import (
    MONEY_DEVICES,
    DevicesConfig,
    EsspDevice,
    HopperDevice,
    MoneyDevice,
    PulseDevice,
    PulseTiming,
)
from oasis_kiosk.config.jackpot import JackpotConfig
from oasis_kiosk.config.link import LinkConfig
from oasis_kiosk.config.load import SCHEMA, load_config, validate
from oasis_kiosk.config.rules import ReturnBounds
from oasis_kiosk.config.schema import ConfigError
from oasis_kiosk.config.stored import check_setting, check_stored
from oasis_kiosk.config.terminal import LANGUAGES, MAX_VOLUME, SPEEDS, Config

__all__ = [
    "LANGUAGES",
    "MAX_VOLUME",
    "MONEY_DEVICES",
    "SCHEMA",
    "SPEEDS",
    "Config",
    "ConfigError",
    "DevicesConfig",
    "EsspDevice",
    "HopperDevice",
    "JackpotConfig",
    "LinkConfig",
    "MoneyDevice",
    "PulseDevice",
    "PulseTiming",
    "ReturnBounds",
    "check_setting",
    "check_stored",
    "load_config",
    "validate",
]
