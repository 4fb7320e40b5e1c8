"""The exception for a value the kiosk is given and cannot take, for every layer to raise.
The others are declared beside what raises them: the core's (``_core``), the
configuration's (``config.schema.ConfigError``), the books' (``store``), the devices'
(``hardware.money.DeviceError``) and the hub's (``floor.errors``); all derive from
``OasisError``."""

from __future__ import annotations

from oasis_kiosk._core import OasisError


class InputError(ValueError, OasisError):
    """A value a caller or a device gave that the kiosk cannot take: a report of money that
    is none, a switch position or a tilt it does not know, stored bets that are not bets."""
