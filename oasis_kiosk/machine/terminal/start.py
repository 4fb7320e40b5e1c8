"""The ``Terminal``: the classes of its concerns put together, and its start over its books
(checked before anything is written; the stored settings and state taken, the configuration
logged, a payout the power cut short handpaid, the open round resumed); and the round
seeds of soak runs.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from oasis_kiosk._core import Profile
from oasis_kiosk.config import Config, ConfigError, JackpotConfig, check_stored
from oasis_kiosk.config.stored import MENU_RULES_SOURCE, STORED, forget_hint
from oasis_kiosk.machine import books_money
from oasis_kiosk.machine.cash_out_kinds import payout_device
from oasis_kiosk.machine.jackpot import JackpotState
from oasis_kiosk.machine.linked import LinkState
from oasis_kiosk.machine.terminal.bet_buttons import BetButtons
from oasis_kiosk.machine.terminal.devices import Devices
from oasis_kiosk.machine.tilts import TiltKind
from oasis_kiosk.store.db import Store, StoreError

log = logging.getLogger(__name__)


def settings_from_store(config: Config, store: Store) -> Config:
    """The configuration with what the operator menu changed since (kept in the database),
    each stored setting checked as the configuration file's keys are: a wrong one is a
    ConfigError naming it, never a half-read setting."""
    changes: dict[str, Any] = {}
    for setting in STORED:
        value = store.get_state(setting)
        if value is None:
            continue
        checked = check_stored(setting, value, store.path)
        if setting == "jackpot_config":
            changes["jackpot"] = replace(config.jackpot, **checked)
        elif setting == "rules":
            changes |= {"profile": checked["profile"], "profile_overrides": checked["overrides"]}
        else:
            changes[setting] = checked
    return replace(config, **changes)


def rules_logged(profile: Profile, source: str) -> dict[str, str]:
    """The rules in force as the configuration's log keeps them (state ``configuration``):
    the start and the operator menu's change of rules write the same."""
    return {"profile": profile.id, "digest": profile.digest, "source": source}


def jackpot_logged(jackpot: JackpotConfig) -> dict[str, Any]:
    """The jackpot's parameters as the configuration's log keeps them (state
    ``configuration:jackpot``): the start and the operator menu's change write the same. A
    share of lost antes is named only where there is one (books of earlier releases log none)."""
    logged: dict[str, Any] = {"base": jackpot.base, "rate": str(jackpot.rate), "maximum": jackpot.maximum}
    if jackpot.lost_ante_rate:
        logged["lost_ante_rate"] = str(jackpot.lost_ante_rate)
    return logged


def seeds_from(base: bytes) -> Callable[[int], bytes]:
    """Round seeds derived from one base seed (tests and soak runs replay whole sessions):
    SHA-256 of the base and the round number."""

    def seed(number: int) -> bytes:
        return hashlib.sha256(base + number.to_bytes(8, "little")).digest()

    return seed


class Terminal(BetButtons, Devices):
    """One cabinet's terminal over its database."""

    def __init__(
        self,
        config: Config,
        store: Store,
        *,
        seed_for_round: Callable[[int], bytes] | None = None,
        deck_for_round: Callable[[int], str | None] | None = None,
        link: LinkState | None = None,
    ) -> None:
        """``seed_for_round`` (soak runs) or ``deck_for_round`` (tests: a stacked deck) fix
        each round's cards by its number; by default every deck comes from the OS. Decks
        known in advance are for test books only (``oasis-kiosk init --test``).

        Before anything is written the books are checked (the tail of the seal chain, the
        running credit, the stored state): books that fail it are not written to at all; the
        terminal stands still with a ``books`` tilt that names what is wrong."""
        self.store = store
        self.link = link
        books = store.books
        if (seed_for_round or deck_for_round) and not (books and books.test):
            raise ConfigError(
                f"{store.path}: decks known in advance (stacked or derived from a seed) are for "
                "test books only (`oasis-kiosk init --test`)"
            )
        self._seed_for_round = seed_for_round
        self._deck_for_round = deck_for_round
        self.books_fault = None
        # Books opened to write were checked as they opened; others are checked now.
        problems = list(store.start_findings) if store.writable else store.start_problems()
        if not problems:
            # A stored setting that is wrong is a ConfigError: the command names it (exit 2).
            self.config = settings_from_store(config, store)
            self.use_profile(self.config.load_profile())
            try:
                state = self._load()
            except StoreError as error:
                problems = [str(error)]
        if problems:
            self._stand_still(config, "; ".join(problems))
            return
        if self.jackpot_pending is not None and not self.linked_jackpot:
            # Only the hub can award it: an unlinked start would stand locked up for good.
            raise ConfigError(
                f"{config.source}: a linked jackpot hit of round {self.jackpot_pending['round_id']} "
                'waits for the hub\'s award, which only a cabinet with [link] jackpot = "linked" '
                "can claim: restore that section to finish it"
            )
        refused = books_money.refusal(store, self.profile.id, self.rules["table"])
        if refused is not None:
            template, details = refused
            said = template.format_map(details)
            if store.get_state("rules") is None:
                raise ConfigError(f"{config.source}: {said}")
            # The operator's rules, kept in the books: the file is not to blame.
            raise ConfigError(
                f"{store.path}: the stored setting rules: {said}; {forget_hint('rules', store.path)}"
            )
        with store.transaction():
            books_money.record_minor_units(store, self.rules["table"])
            store.add_meter("power_ups", 1)
            store.event("power_up", credits=store.credits())
            self._log_configuration(self.config)
            if "jackpot" not in state:
                store.post("jackpot_reset", 0, to_meter=self.config.jackpot.base)
            if self.payout:
                # The power went during a payout: the items paid are booked and the device
                # stands; what is still owed is handpaid, once (the credits go with it).
                device = payout_device(self.config).name
                self.store.event("payout_interrupted", coins_owed=self.payout_items, device=device)
                self.payout, self.stopping = None, False
                self._request_handpay()
            self.save_state()
        self._resume()

    def _log_configuration(self, config: Config) -> None:
        """Logs what of the configuration in force (the file's, with the operator's changes
        kept in the books) a lab approves, where it changed since the last start: the rules
        played, the approved return range and the jackpot's parameters."""
        bounds, jackpot = config.return_bounds, config.jackpot
        source = MENU_RULES_SOURCE if self.store.get_state("rules") is not None else config.source
        in_force = {
            "profile": rules_logged(self.profile, source),
            "return_bounds": {
                "return_min": bounds.return_min,
                "return_max": bounds.return_max,
                "side_return_min": bounds.side_return_min,
                "side_return_max": bounds.side_return_max,
            },
            "jackpot": jackpot_logged(jackpot),
        }
        for setting, running in in_force.items():
            key = "configuration" if setting == "profile" else f"configuration:{setting}"
            before = self.store.get_state(key)
            if before != running:
                self.store.event("configuration_changed", setting=setting, before=before, after=running)
                self.store.set_state(key, running)

    def _stand_still(self, config: Config, problem: str) -> None:
        """Books that cannot be trusted: shown as they are, never written, every input refused."""
        log.error("%s: the books fail their check: %s", self.store.path, problem)
        self.books_fault = problem
        self.config = config
        self.use_profile(config.load_profile())
        self.round, self.round_id, self.selected = None, None, set()
        self.insurance = self.handpay = self.payout = self.handpay_win = None
        self.stopping = self.operator_key = False
        self.short_owed = None
        self.jackpot = JackpotState.fresh(config.jackpot)
        self.tilts = {TiltKind.BOOKS: f"the books fail their check: {problem}"}
