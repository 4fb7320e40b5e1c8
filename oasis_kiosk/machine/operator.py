"""The operator menu's logic, behind the operator key and a PIN.

The PIN is kept only as a salted scrypt hash in the database. Its digits are those the
cabinet's card buttons type (1 to 5), and it is long enough that they make at least 10 000
PINs. A wrong PIN is logged and makes the next try wait, twice as long after each one in a
row; the fifth in a row locks the menu with the ``pin_lockout`` tilt, which only the
attendant's key clears. The count and the time of the last wrong PIN are in the database,
so a restart does not reset them; a right PIN does.

Everything the operator changes is logged with who-knows-what-was-before: the period
meters' reset (the lifetime meters never go down; a period is a baseline subtracted from
them), the jackpot parameters, the language, the hints. The screens that show this come
with the front end.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from itertools import count
from typing import TYPE_CHECKING, Any, NoReturn

from oasis_kiosk import returns
from oasis_kiosk._core import OasisError, Profile
from oasis_kiosk.config import Config, ConfigError, JackpotConfig, check_setting, validate
from oasis_kiosk.config.stored import MENU_RULES_SOURCE, STORED
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine import books_money
from oasis_kiosk.machine.events import event_log
from oasis_kiosk.machine.recall import RecalledHand
from oasis_kiosk.machine.terminal import Amount, Response, Terminal
from oasis_kiosk.machine.terminal.start import jackpot_logged, rules_logged
from oasis_kiosk.machine.tilts import TiltKind, only_a_start_clears
from oasis_kiosk.par import money
from oasis_kiosk.rules import load_profile
from oasis_kiosk.store.db import Store

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk.store.db.rounds import StoredRound

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
PIN_DIGITS = "12345"
"""What a PIN is made of: the digits the cabinet's card buttons type."""
PIN_COMBINATIONS = 10_000
"""The fewest PINs of the shortest length the panel can type."""
MIN_PIN_LENGTH = next(length for length in count(1) if len(PIN_DIGITS) ** length >= PIN_COMBINATIONS)
MAX_PIN_LENGTH = 12
PIN_TRIES = 5
"""Wrong PINs in a row that lock the menu until the attendant's key."""
PIN_DELAY = 2
"""Seconds the next try waits after one wrong PIN; each further one in a row doubles it."""
MAX_PIN_DELAY = 300
LOCKED = N_("{failures} wrong PINs in a row: the menu is locked until the attendant's key")


class OperatorError(OasisError):
    """An operator request refused, with the reason: a message template (the catalogues'
    key, marked ``N_``) and its details, amounts of money among them as ``Amount``. ``str()``
    is the English, for the log and the command line; ``text()`` says it in the active
    language, for the menu."""

    def __init__(self, template: str, **details: Any) -> None:
        self.refusal = Response(False, template, details)
        super().__init__(self.refusal.message)

    def text(self, cash: Callable[[int], str]) -> str:
        """The refusal in the active language, amounts of money in ``cash``."""
        return self.refusal.text(cash)


class ReturnsUnknownError(OperatorError):
    """Rules whose return is neither shipped nor in the books: it is computed
    (``returns.compute``, ``profile`` here) and booked (``OperatorMenu.book_returns``) before
    they may be played."""

    def __init__(self, profile: Profile) -> None:
        super().__init__(
            N_("the return of {profile} is not known yet: it is computed when the rules are applied"),
            profile=profile.id,
        )
        self.profile = profile


class ReturnsRefusedError(OperatorError):
    """Rules whose return lies outside the configuration's bounds."""

    def __init__(self, breaches: list[returns.Breach], rules: ProfileRules) -> None:
        super().__init__(
            N_("the return is outside the approved bounds: {breaches}"),
            breaches="; ".join(breach.describe(lambda amount: money(amount, rules)) for breach in breaches),
        )
        self.breaches = breaches


def hash_pin(pin: str) -> str:
    """A new PIN's salted hash, if the PIN is one the cabinet's buttons can type."""
    if not (set(pin) <= set(PIN_DIGITS) and MIN_PIN_LENGTH <= len(pin) <= MAX_PIN_LENGTH):
        raise OperatorError(
            N_("a PIN is {least} to {most} of the digits {first} to {last} (the card buttons)"),
            least=MIN_PIN_LENGTH,
            most=MAX_PIN_LENGTH,
            first=PIN_DIGITS[0],
            last=PIN_DIGITS[-1],
        )
    salt = secrets.token_bytes(16)
    return f"scrypt${salt.hex()}${_digest(pin, salt).hex()}"


def store_pin(store: Store, pin: str, **by: str) -> None:
    """Keeps ``pin`` (its hash) as the operator's PIN, logged (``by``: who, where not the
    menu's operator), in one transaction: the menu, ``oasis-kiosk set-pin`` and the
    screenshots' tour alike."""
    hashed = hash_pin(pin)
    with store.transaction():
        store.set_state("operator_pin", hashed)
        store.event("operator_pin_changed", **by)


def forget_setting(store: Store, setting: str, **by: str) -> bool:
    """Forgets what the operator menu stored for ``setting`` (``config.stored.STORED``), so
    that the configuration file's is played again, logged with what it was (``by``: who):
    the way out of a stored setting that can no longer be used, such as rules whose profile
    file is gone. False: nothing was stored."""
    if setting not in STORED:
        raise ConfigError(f"{setting!r} is not a stored setting (settings: {', '.join(STORED)})")
    with store.transaction():
        before = store.get_state(setting)
        if before is None:
            return False
        store.set_state(setting, None)
        # Unlike the menu, it may act with credits on: the kiosk cannot start to cash them
        # out. They stay on the books; the log says how much was on.
        store.event("setting_forgotten", setting=setting, before=before, credits=store.credits(), **by)
    return True


def _digest(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **SCRYPT)


def pin_matches(pin: str, stored: str) -> bool:
    """Whether ``pin`` is the stored one (also one set under older, looser rules)."""
    if not (pin.isdigit() and len(pin) <= MAX_PIN_LENGTH):
        return False
    try:
        scheme, salt, digest = stored.split("$")
        expected = _digest(pin, bytes.fromhex(salt)).hex()
    except ValueError:
        return False
    return scheme == "scrypt" and hmac.compare_digest(expected, digest)


def pin_delay(failures: int) -> int:
    """Seconds the next try waits after ``failures`` wrong PINs in a row."""
    return min(PIN_DELAY * 2 ** (failures - 1), MAX_PIN_DELAY) if failures > 0 else 0


class OperatorMenu:
    """One operator session on a terminal. Opening needs the key turned and the PIN."""

    def __init__(self, terminal: Terminal, *, clock: Callable[[], float] = time.time) -> None:
        """``clock``: the wall clock (the wait after a wrong PIN outlives a restart)."""
        self.terminal = terminal
        self.store = terminal.store
        self.clock = clock
        self.logged_in = False

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One transaction of the menu's. If anything in it fails, nothing of it is committed
        and the terminal takes back what the books hold, so that nothing the write changed in
        memory (a tilt cleared, the jackpot's meter) outlives it; the error goes on."""
        try:
            with self.store.transaction():
                yield
        except Exception:
            self.terminal.take_back_the_books()
            raise

    def _log(self, name: str, **detail: Any) -> None:
        with self._writing():
            self.store.event(name, **detail)

    @property
    def pin_is_set(self) -> bool:
        """Whether a PIN opens the menu: the first is set with ``oasis-kiosk set-pin``."""
        return self.store.get_state("operator_pin") is not None

    def login(self, pin: str) -> None:
        if not self.terminal.operator_key:
            raise OperatorError(N_("turn the operator key first"))
        failures = int(self.store.get_state("pin_failures", {}).get("count", 0))
        if TiltKind.PIN_LOCKOUT in self.terminal.tilts:
            raise OperatorError(LOCKED, failures=failures)
        stored = self.store.get_state("operator_pin")
        if stored is None:
            raise OperatorError(N_("no PIN is set: set one with `oasis-kiosk set-pin`"))
        wait = self._wait(failures)
        if wait:
            raise OperatorError(N_("wait {seconds} s before the next PIN"), seconds=wait)
        if not pin_matches(pin, stored):
            self._wrong_pin(failures + 1)
        with self._writing():
            self.store.set_state("pin_failures", {"count": 0, "at": None})
            self.store.event("operator_login")
        self.logged_in = True

    def _wait(self, failures: int) -> int:
        """Whole seconds until the next try, after ``failures`` wrong PINs in a row."""
        if not failures:
            return 0
        now, last = self.clock(), float(self.store.get_state("pin_failures")["at"])
        if now < last:  # the clock was set back: the wait counts from now
            with self._writing():
                self.store.set_state("pin_failures", {"count": failures, "at": now})
            last = now
        return max(math.ceil(last + pin_delay(failures) - now), 0)

    def _wrong_pin(self, failures: int) -> NoReturn:
        """Counts a wrong PIN (the count and its time in the database, an event), locks the
        menu at the last allowed one, and refuses the login."""
        locked = failures >= PIN_TRIES
        reason = LOCKED.format(failures=failures)
        with self._writing():
            self.store.set_state("pin_failures", {"count": failures, "at": self.clock()})
            self.store.event("operator_login_failed", failures=failures)
            if locked:
                self.terminal._tilt(TiltKind.PIN_LOCKOUT, reason)  # in this very transaction
        if locked:
            raise OperatorError(
                N_("wrong PIN: {failures} wrong PINs in a row: the menu is locked until the attendant's key"),
                failures=failures,
            )
        raise OperatorError(
            N_("wrong PIN: wait {seconds} s before the next PIN"), seconds=pin_delay(failures)
        )

    def logout(self) -> None:
        """Also when the key is turned back: the menu closes with it."""
        if self.logged_in:
            self.logged_in = False
            self._log("operator_logout")

    def _require(self) -> None:
        if self.logged_in and not self.terminal.operator_key:
            self.logout()  # the key was turned back: the menu closed with it
        if not self.logged_in:
            raise OperatorError(N_("log in first"))

    # Meters.

    def _require_no_money(self, round_open: str, credits_on: str) -> None:
        """What the credits and a round in play were won under changes only between sessions:
        refused with ``round_open`` or ``credits_on`` (message templates) while they are."""
        self._require_no_cash_out()
        if self.terminal.round is not None:
            raise OperatorError(round_open)
        if self.terminal.credits:
            raise OperatorError(credits_on)

    def _require_no_cash_out(self) -> None:
        """A handpay or a payout under way is money owed as it was counted: nothing that
        moves money, rules or meters comes between it and its end."""
        if self.terminal.handpay is not None or self.terminal.payout:
            raise OperatorError(N_("a handpay or a payout is under way: the attendant ends it first"))

    def meters(self) -> dict[str, int]:
        self._require()
        return {"credits": self.terminal.credits, **self.store.meters()}

    def period_meters(self) -> dict[str, int]:
        """The meters since the last period reset, and the credits on now (a balance, which
        no period resets)."""
        self._require()
        baseline = self.store.get_state("period_baseline", {})
        since = {name: value - baseline.get(name, 0) for name, value in self.store.meters().items()}
        return {"credits": self.terminal.credits, **since}

    def reset_period(self) -> None:
        """Starts a new period, between rounds and cash-outs (a round's or a handpay's money
        is never split between two periods); the lifetime meters are untouched."""
        self.check_period_reset()
        with self._writing():
            previous = self.store.get_state("period_baseline", {})
            self.store.set_state("period_baseline", self.store.meters())
            self.store.event("period_meters_reset", previous_baseline=previous)

    def check_period_reset(self) -> None:
        """``reset_period``'s refusals, and nothing written."""
        self._require()
        self._require_no_cash_out()
        if self.terminal.round is not None:
            raise OperatorError(N_("finish the round in play first"))

    def add_credit(self, amount: int, reason: str) -> None:
        """Credits put on by the operator (a refund, a test), on the ledger and logged."""
        self._require()
        if (
            not isinstance(amount, int)
            or isinstance(amount, bool)
            or not 0 < amount <= 10**12
            or not reason.strip()
        ):
            raise OperatorError(N_("an operator credit needs a positive whole amount and a reason"))
        self._require_no_cash_out()
        if self.terminal.round is not None:
            raise OperatorError(N_("finish the round in play first"))
        self.terminal.credit_by_operator(amount, reason)

    @property
    def round_to_void(self) -> bool:
        """A round is open that cannot be played on: its record does not replay, or a finding
        of the self-test stands, which only a start that passes clears."""
        if self.store.unfinished_round() is None:
            return False
        return self.terminal.round is None or any(only_a_start_clears(kind) for kind in self.terminal.tilts)

    def void_open_round(self, reason: str) -> None:
        """Closes a round that cannot resume (its record does not replay), or one that
        resumed but cannot be played on (a finding of the self-test stands, which only a
        start that passes clears: the player's stakes would wait for good): everything it
        took is refunded, the round is marked voided, and the resume tilt is cleared."""
        self._require()
        unfinished = self.store.unfinished_round()
        if unfinished is None:
            raise OperatorError(N_("no round is open"))
        if not self.round_to_void:
            raise OperatorError(N_("the open round resumes: play it to the end instead"))
        round_id = unfinished[0]
        taken = -sum(row.amount for row in self.store.ledger() if row.round_id == round_id)
        with self._writing():
            if taken:
                self.store.post("void_refund", taken, round_id=round_id, reason=reason)
                self.store.add_meter("coin_out", taken)
            self.store.void_round(round_id, reason)
            self.store.event("round_voided", round_id=round_id, refund=taken, reason=reason)
            self.terminal._clear_tilt(TiltKind.RESUME)
            self.terminal.round, self.terminal.round_id, self.terminal.selected = None, None, set()
            self.terminal.insurance = None
            self.terminal.save_state()

    # Settings.

    def set_pin(self, new_pin: str) -> None:
        self._require()
        store_pin(self.store, new_pin)

    def set_jackpot(self, *, base: int, rate: str, maximum: int) -> None:
        """New jackpot parameters, from the next contribution on; the meter keeps its value."""
        self._require()
        self._require_no_cash_out()
        try:  # as the configuration's [jackpot] is checked, and the next start checks it again
            checked = check_setting(
                "jackpot_config", {"base": base, "rate": rate, "maximum": maximum}, "the jackpot: "
            )
            new: JackpotConfig = replace(self.terminal.config.jackpot, **checked)
        except ConfigError as error:
            raise OperatorError(N_("the setting is refused: {reason}"), reason=str(error)) from None
        # The side bet's greatest return counts an award at the meter's maximum: held to the
        # bounds as the rules are.
        figures = self._figures(self.terminal.profile)
        if figures is not None:
            found = returns.breaches(figures, self.terminal.config.return_bounds, new, self.terminal.profile)
            if found:
                raise ReturnsRefusedError(found, self.terminal.rules)
        old = self.terminal.config.jackpot
        after = {"base": base, "rate": rate, "maximum": maximum}
        with self._writing():
            self.store.set_state("jackpot_config", after)
            # What the next start compares with: the change is logged here, once.
            self.store.set_state("configuration:jackpot", jackpot_logged(new))
            self.store.event(
                "configuration_changed",
                setting="jackpot",
                before=jackpot_logged(old),
                after=jackpot_logged(new),
            )
        self.terminal.config = replace(self.terminal.config, jackpot=new)

    def set_rules(self, profile: str, overrides: dict[str, Any] | None = None) -> None:
        """Another profile, or the table limits and other fields of this one (``overrides``
        such as ``{"table": {"ante_min": 500, "max_payout": 300000}}``), between rounds only.
        The rules are checked whole before anything changes, their return included: refused
        (ReturnsRefusedError) outside the configuration's bounds, and while it is not known
        (ReturnsUnknownError: compute and book it first)."""
        loaded, changed = self.check_rules(profile, overrides)
        before = {"profile": self.terminal.profile.id, "digest": self.terminal.profile.digest}
        with self._writing():
            self.store.set_state("rules", {"profile": profile, "overrides": overrides})
            # The rules in force as the start logs them (``Terminal._log_configuration``): the
            # next start finds them unchanged and logs nothing again.
            self.store.set_state("configuration", rules_logged(loaded, MENU_RULES_SOURCE))
            after = {"profile": loaded.id, "digest": loaded.digest, "overrides": overrides}
            self.store.event("configuration_changed", setting="rules", before=before, after=after)
        self.terminal.config = changed
        self.terminal.use_profile(loaded)

    def check_rules(self, profile: str, overrides: dict[str, Any] | None = None) -> tuple[Profile, Config]:
        """``set_rules``' refusals, and nothing written: the rules loaded and the configuration
        they make. The menu asks before it asks for a confirmation (a change it would refuse
        is never offered)."""
        self._require()
        self._require_no_money(
            N_("the rules cannot change while a round is open: finish it first"),
            N_("the rules cannot change while credits are on: cash them out first"),
        )
        loaded = self._countable(profile, overrides)
        changed = replace(self.terminal.config, profile=profile, profile_overrides=overrides)
        try:
            validate(changed)  # the rules with the cabinet's limits: a round it could deal
        except ConfigError as error:
            raise OperatorError(N_("these rules cannot be played: {reason}"), reason=str(error)) from None
        figures = self._figures(loaded)
        if figures is None:
            raise ReturnsUnknownError(loaded)
        config = self.terminal.config
        found = returns.breaches(figures, config.return_bounds, config.jackpot, loaded)
        if found:
            raise ReturnsRefusedError(found, loaded.to_dict())
        return loaded, changed

    def _countable(self, profile: str, overrides: dict[str, Any] | None) -> Profile:
        """The rules, refused where the books cannot count their money (another currency or
        other minor units: their amounts would be read in the books' own)."""
        loaded = self._loaded(profile, overrides)
        refused = books_money.refusal(self.store, loaded.id, loaded.to_dict()["table"])
        if refused is not None:
            template, details = refused
            raise OperatorError(template, **details)
        return loaded

    @staticmethod
    def _loaded(profile: str, overrides: dict[str, Any] | None) -> Profile:
        """The rules, or why they cannot be played (in the rules' own words)."""
        try:
            return load_profile(profile, overrides)
        except ValueError as error:
            raise OperatorError(N_("these rules cannot be played: {reason}"), reason=str(error)) from None

    def _figures(self, profile: Profile) -> returns.Figures | None:
        try:
            return returns.known(profile, self.store)
        except returns.FiguresError as error:
            raise OperatorError(N_("the return cannot be read: {reason}"), reason=str(error)) from None

    def returns_of(self, profile: str, overrides: dict[str, Any] | None = None) -> returns.Figures | None:
        """The return of these rules, where it is known (shipped or in the books); refused
        for rules whose money the books cannot count."""
        self._require()
        return self._figures(self._countable(profile, overrides))

    def book_returns(self, figures: returns.Figures) -> None:
        """Figures computed for rules being applied, kept in the books (and logged)."""
        self._require()
        returns.book(self.store, figures)

    def reset_jackpot(self) -> None:
        """Brings the meter up to its base (after the base was raised, say); the house puts
        the difference on. The meter never goes down but by a hit."""
        self.check_jackpot_reset()
        terminal = self.terminal
        base = terminal.config.jackpot.base
        added = base - terminal.jackpot.value
        with self._writing():
            self.store.post("jackpot_reset", 0, to_meter=added)
            terminal.jackpot = replace(terminal.jackpot, value=base)
            self.store.event("jackpot_reset", added=added)
            terminal.save_state()

    def check_jackpot_reset(self) -> None:
        """``reset_jackpot``'s refusals, and nothing written."""
        self._require()
        self._require_no_cash_out()
        base, meter = self.terminal.config.jackpot.base, self.terminal.jackpot.value
        if meter >= base:
            raise OperatorError(
                N_("the meter ({meter}) is not below its base ({base}): only a hit lowers it"),
                meter=Amount(meter),
                base=Amount(base),
            )

    def jackpot_hits(self, count: int = 10) -> list[dict[str, Any]]:
        """The last hits, newest last: when, which round, how much. A hit credited is a row
        of its own; one over the handpay limit is in its round's handpaid win, once paid."""
        self._require()
        hits = [
            {"at": row.at, "round": row.round_id, "amount": row.amount}
            if row.kind == "jackpot_hit"
            else {"at": row.at, "round": row.round_id, "amount": row.detail["jackpot"]}
            for row in self.store.ledger()
            if row.kind == "jackpot_hit" or (row.kind == "handpaid_win" and row.detail.get("jackpot"))
        ]
        return hits[-count:]

    def set_language(self, language: str) -> None:
        self._change_setting("language", language, "the language")

    def set_volume(self, volume: int) -> None:
        self._change_setting("volume", volume, "the volume")

    def set_attract_volume(self, volume: int) -> None:
        """The attract demo's volume, 0 (silent) to 10; it plays no louder than the game's."""
        self._change_setting("attract_volume", volume, "the attract volume")

    def _change_setting(self, setting: str, value: object, name: str) -> None:
        """A setting the configuration's schema knows, changed from the menu: checked as the
        file's keys are, logged with its before and after, kept in the books, and in force
        at once."""
        self._require()
        try:
            checked = check_setting(setting, value, f"{name} is ")
        except ConfigError as error:
            raise OperatorError(N_("the setting is refused: {reason}"), reason=str(error)) from None
        with self._writing():
            before = getattr(self.terminal.config, setting)
            self.store.event("configuration_changed", setting=setting, before=before, after=checked)
            self.store.set_state(setting, checked)
        self.terminal.config = replace(self.terminal.config, **{setting: checked})

    def set_hints(self, on: bool) -> None:
        self._require()
        with self._writing():
            self.store.event("configuration_changed", setting="hints", after=on)
            self.store.set_state("hints", on)

    def set_speed(self, speed: str) -> None:
        """How fast the cards move and a win counts up: one of ``config.SPEEDS``."""
        self._change_setting("speed", speed, "the speed")

    # Records.

    def recall(self, count: int = 25) -> list[StoredRound]:
        self._require()
        return self.terminal.last_rounds(count)

    def recalled_hands(self, round_: StoredRound) -> list[RecalledHand]:
        """A round's hands through its play (``replayed_hands``), under the rules it was
        played by."""
        self._require()
        return self.terminal.recalled_hands(round_)

    def events(self, count: int = 100) -> list[dict[str, Any]]:
        """The last ``count`` entries of the event log, the money in and out among them."""
        self._require()
        return event_log(self.store, count)
