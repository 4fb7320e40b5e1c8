"""The start-up self-test: what must hold before the cabinet takes money.

Each check returns what it found wrong, in words for the tilt panel and the event log (an
empty list: passed). The command line runs them after opening the terminal and before any
money device is enabled; a finding tilts the terminal (``Terminal.record_self_test``), and
only a later start that passes clears it. No screen and no pins here: the video driver
in use is handed in.
"""

from __future__ import annotations

from oasis_kiosk import returns
from oasis_kiosk._core import Profile
from oasis_kiosk.config import Config, ConfigError, validate
from oasis_kiosk.machine.intents import BUTTONS, KEY_SWITCHES
from oasis_kiosk.store.db import Store, StoreError


def database_problems(store: Store) -> list[str]:
    """The whole file checked, not only the quick check every opening makes: pages,
    indexes against their tables, references between rows, the schema version."""
    try:
        return [f"database: {problem}" for problem in store.integrity_problems()]
    except StoreError as error:
        return [f"database: {error}"]


def configuration_problems(config: Config) -> list[str]:
    """The configuration as the terminal runs it (the file with the operator menu's changes
    over it) checked whole, the profile loaded, and the money and limits able to meet
    (``config.validate``): a cabinet that could never take a coin or deal a hand is not
    ready either."""
    try:
        validate(config)
    except ConfigError as error:
        return [f"configuration: {error}"]
    return []


def wiring_problems(config: Config) -> list[str]:
    """A cabinet's wiring without the attendant's key switch: a touch of the screen's
    ATTENDANT only names the key, so no handpay could be paid. A finding, not a refusal of
    the file: books and meters still read with it, and the screen says what to wire."""
    buttons = config.devices.buttons
    unwired = [
        name for name, (intent, _value) in BUTTONS.items() if intent in KEY_SWITCHES and name not in buttons
    ]
    if not config.devices.wired or not unwired:
        return []
    return [
        f"configuration: devices.buttons: a cabinet's wiring needs the attendant's key: {', '.join(unwired)}"
    ]


def return_problems(config: Config, store: Store, profile: Profile | None = None) -> list[str]:
    """The return of the rules in play (``profile``, the terminal's own: a profile file
    changed on disk since it was read is not what is played; None: as the configuration
    loads them), from the shipped figures or the books (nothing is computed at start), inside
    the configuration's ``[rules]`` bounds: figures that are not known are a finding too."""
    if profile is None:
        try:
            profile = config.load_profile()
        except ValueError:
            return []  # the configuration check names it
    try:
        found = returns.problems(profile, store, config.return_bounds, config.jackpot)
    except StoreError as error:
        return [f"configuration: {error}"]
    return [f"configuration: {problem}" for problem in found]


def video_problems(expected: str, driver: str) -> list[str]:
    """The cabinet draws through the driver it was set up for (``kmsdrm`` on the Pi's
    console); any other, such as SDL falling back to drawing nowhere, is a finding.
    ``expected`` empty: any driver will do."""
    if expected and driver != expected:
        return [f"video: SDL runs the {driver or 'no'} video driver, the cabinet expects {expected}"]
    return []


def self_test(
    config: Config, store: Store, video_driver: str | None = None, profile: Profile | None = None
) -> list[str]:
    """Every check; ``video_driver`` None skips the screen's (a window on a desktop);
    ``profile``: the rules in play, as the terminal loaded them."""
    problems = database_problems(store) + configuration_problems(config) + wiring_problems(config)
    problems += return_problems(config, store, profile)
    if video_driver is not None:
        problems += video_problems(config.expected_video_driver, video_driver)
    return problems
