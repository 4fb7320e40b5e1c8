"""The terminal: credits, bets, the round in play, the jackpot, cash-out and tilts.

Everything that touches money is here, and every input is one database transaction: the
input's effect on the round, the ledger rows and meters it moves, and the terminal's own
state (bets, selected cards, pending handpay, tilts, jackpot) commit together or not at
all. A restart therefore finds exactly the committed state, replays the unfinished round
from its record, and resumes at the same decision with the same cards.

Input arrives as *intents* (``coin 100``, ``bet``, ``deal``, ``card 2``, ``exchange``,
``play``...), from the cabinet's buttons, the keyboard or a script alike. An intent that
is not live now is refused with a message and changes nothing but the log. Where a betting
button takes the bets between rounds is worked out by ``machine/betting.py``, which books
nothing: the terminal places what it chose in that input's transaction.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from oasis_kiosk._core import IllegalAction, Profile, RecordError, Round
from oasis_kiosk.config import LANGUAGES, Config, ConfigError, check_stored
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.betting import BetChoice, Bets, Betting
from oasis_kiosk.machine.intents import INTENTS, ROUND_ACTIONS
from oasis_kiosk.machine.jackpot import JackpotState, contribute, hit
from oasis_kiosk.machine.linked import LinkState
from oasis_kiosk.machine.meters import COUNTED_DEVICE_EVENTS
from oasis_kiosk.machine.mode import Mode

# The terminal's replies, which the front end, the cabinet and the operator import from here.
from oasis_kiosk.machine.response import Amount as Amount
from oasis_kiosk.machine.response import Intent as Intent
from oasis_kiosk.machine.response import Response as Response
from oasis_kiosk.machine.tilts import TILTS, attendant_clears
from oasis_kiosk.store.db import Store, StoreError
from oasis_kiosk.store.outbox import BOX_OF_A_ROUNDS_HIT, hub_round_id

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk.store.db import RoundSettlement

log = logging.getLogger(__name__)

# The largest value an input may carry (an amount in minor units).
MAX_VALUE = 10**12
POWER_FAIL = "the power is failing: play and money stop until it returns"


def _credited(kind: str, value: int) -> Response:
    template = N_("coin {value} credited") if kind == "coin" else N_("bill {value} credited")
    return Response(True, template, {"value": Amount(value)})


class Terminal:
    """One cabinet's terminal over its database."""

    profile: Profile
    rules: ProfileRules
    betting: Betting
    """What the profile in play takes of the bets, and the betting buttons' steps."""
    round: Round | None
    round_id: int | None
    ante: int = 0
    bonus_stake: int = 0
    """Each box's bonus stake (0: no bonus bet), one the profile allows at the ante."""
    boxes: int = 1
    last_bets: Bets | None = None
    """The last round's bets, which REPEAT BET deals again."""
    player_language: str | None = None
    """The language the player chose for this session (None: the house's, ``config``)."""
    bet_since_round: bool = False
    """A bet was placed since the last round: the screen clears that round's chips and cards."""
    selected: set[int]
    insurance: int | None
    """The insurance amount the player chose with BET (None: not chosen)."""
    handpay: int | None
    """What the attendant is to pay by hand: credits cashed out, or a round's large win."""
    handpay_win: dict[str, int] | None
    """The handpay is a round's win at or above the handpay limit (``round_id``, its
    ``jackpot`` part): it never went on the credits."""
    payout: int | None
    """Coins the hopper still owes in a payout under way."""
    stopping: bool
    """The attendant's key asked the hopper to stop: the handpay is fixed once it has."""
    tilts: dict[str, str]
    operator_key: bool
    """The operator's key is turned: the game and money intake stand still for the menu."""
    jackpot: JackpotState
    jackpot_pending: dict[str, Any] | None = None
    """A linked jackpot hit waiting for the hub's awards (``round_id``, ``hub_round_id`` and
    the ``boxes`` that hit, each claimed on its own): the cabinet is locked up until
    ``follow_link`` credits or handpays them (docs/floor.md)."""
    link: LinkState | None = None
    """What the link agent wrote for the kiosk (the hub's pool, the link, the awards), on a
    cabinet whose jackpot is linked."""
    power_failure: bool = False
    """The UPS signals a power failure: the database is closed for writing, player input is
    refused, and only what devices physically do (money taken, coins paid, the door) is
    still booked, each in a transaction of its own."""
    changes: int = 0
    """Counts the inputs and device events taken: a screen redraws when it moves."""

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
        self.books_fault: str | None = None
        """What is wrong with the books: while it is set nothing is written."""
        problems = store.start_problems()
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
        if books is not None and books.currency != self.rules["table"]["currency"]:
            raise ConfigError(
                f"{config.source}: the profile {self.profile.id} plays in "
                f"{self.rules['table']['currency']}, but these books are kept in {books.currency}: "
                "the books have one currency, set when they were made"
            )
        with store.transaction():
            store.add_meter("power_ups", 1)
            store.event("power_up", credits=store.credits())
            self._log_configuration(config)
            if "jackpot" not in state:
                store.post("jackpot_reset", 0, to_meter=self.config.jackpot.base)
            if self.payout:
                # The power went during a payout: the coins counted out are booked and the
                # motor stands; what is still owed is handpaid, once (the credits go with it).
                self.store.event("payout_interrupted", coins_owed=self.payout)
                self.payout, self.stopping = None, False
                self._request_handpay()
            self.save_state()
        self._resume()

    def _log_configuration(self, config: Config) -> None:
        """Logs what of the configuration file a lab approves, where it changed since the last
        start: the rules played, the approved return range and the jackpot's parameters."""
        bounds, jackpot = config.return_bounds, config.jackpot
        in_force = {
            "profile": {"profile": self.profile.id, "digest": self.profile.digest, "source": config.source},
            "return_bounds": {
                "return_min": bounds.return_min,
                "return_max": bounds.return_max,
                "side_return_min": bounds.side_return_min,
                "side_return_max": bounds.side_return_max,
            },
            "jackpot": {"base": jackpot.base, "rate": str(jackpot.rate), "maximum": jackpot.maximum},
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
        self.jackpot = JackpotState.fresh(config.jackpot)
        self.tilts = {"books": f"the books fail their check: {problem}"}

    # State.

    def use_profile(self, profile: Profile) -> None:
        """Plays from now on under ``profile`` (between rounds: the open round keeps its own)."""
        self.profile = profile
        self.rules = profile.to_dict()
        self.betting = Betting(profile)
        self._place(self.betting.fitted(self.bets))

    def _load(self) -> dict[str, Any]:
        """Takes the terminal's state as the database has it committed; a stored state that
        is not what this terminal writes is a StoreError naming the field."""
        self.round = None
        self.round_id = None
        state = self.store.get_state("terminal", {})
        if not isinstance(state, dict):
            raise StoreError(f"{self.store.path}: the stored terminal state is damaged: not a table")

        def field(name: str, kinds: type | tuple[type, ...], default: Any) -> Any:
            value = state.get(name, default)
            if value is not None and (
                not isinstance(value, kinds) or isinstance(value, bool) != (kinds is bool)
            ):
                raise StoreError(
                    f"{self.store.path}: the stored terminal state is damaged: {name} is {value!r}"
                )
            return value

        antes = self.profile.allowed_antes()
        ante = field("ante", int, None)
        self.ante = ante if ante in antes else antes[0]
        stake = field("bonus_stake", int, None)
        if stake is None:  # books of an earlier release kept the bonus as a switch
            stake = (self.profile.standard_bonus_stake(self.ante) or 0) if field("bonus", bool, False) else 0
        self.bonus_stake = self.betting.fitted_bonus(stake, self.ante)
        self.boxes = field("boxes", int, 1)
        try:
            last = field("last_bets", dict, None)
            self.last_bets = None if last is None else Bets.from_state(last)
        except ValueError as error:
            raise StoreError(
                f"{self.store.path}: the stored terminal state is damaged: last_bets: {error}"
            ) from None
        selected = field("selected", list, [])
        if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < 5 for p in selected):
            raise StoreError(
                f"{self.store.path}: the stored terminal state is damaged: selected is {selected!r}"
            )
        self.selected = set(selected)
        self.insurance = field("insurance", int, None)
        self.handpay = field("handpay", int, None)
        self.handpay_win = field("handpay_win", dict, None)
        pending = field("jackpot_pending", dict, None)
        if pending is not None and "boxes" not in pending:
            # Kept before hits were claimed per box: the round's one hit, as its outbox row.
            pending = {**pending, "boxes": [BOX_OF_A_ROUNDS_HIT]}
        self.jackpot_pending = pending
        self.payout = field("payout", int, None)
        self.stopping = bool(field("stopping", bool, False))
        tilts = field("tilts", dict, {})
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in tilts.items()):
            raise StoreError(f"{self.store.path}: the stored terminal state is damaged: tilts is {tilts!r}")
        self.tilts = dict(tilts)
        self.operator_key = bool(field("operator_key", bool, False))
        chosen = field("player_language", str, None)
        if chosen is not None and chosen not in LANGUAGES:
            raise StoreError(
                f"{self.store.path}: the stored terminal state is damaged: player_language is {chosen!r}"
            )
        self.player_language = chosen
        try:
            self.jackpot = (
                JackpotState.from_json(state["jackpot"])
                if "jackpot" in state
                else JackpotState.fresh(self.config.jackpot)
            )
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as error:
            raise StoreError(
                f"{self.store.path}: the stored terminal state is damaged: jackpot: {error!r}"
            ) from None
        return state

    @property
    def credits(self) -> int:
        return self.store.credits()

    def save_state(self) -> None:
        """Writes the terminal's own state; inside the transaction of the change it follows."""
        self.store.set_state(
            "terminal",
            {
                "ante": self.ante,
                "bonus_stake": self.bonus_stake,
                "boxes": self.boxes,
                "last_bets": None if self.last_bets is None else vars(self.last_bets),
                "selected": sorted(self.selected),
                "insurance": self.insurance,
                "handpay": self.handpay,
                "handpay_win": self.handpay_win,
                "jackpot_pending": self.jackpot_pending,
                "payout": self.payout,
                "stopping": self.stopping,
                "tilts": self.tilts,
                "operator_key": self.operator_key,
                "player_language": self.player_language,
                "jackpot": self.jackpot.to_json(),
            },
        )

    def _resume(self) -> None:
        unfinished = self.store.unfinished_round()
        if unfinished is None:
            return
        round_id, digest, record = unfinished
        try:
            # Under the rules it was dealt with, even if the configuration changed since.
            self.round = Round.replay(self.store.profile(digest), record)
        except (RecordError, StoreError) as error:
            with self.store.transaction():
                self._tilt("resume", f"round {round_id} cannot resume: {error}")
            return
        self.round_id = round_id

    def _tilt(self, kind: str, message: str) -> None:
        if kind not in TILTS:
            raise ValueError(f"{kind} is not a tilt of machine/tilts.py")
        self.tilts[kind] = message
        self.store.event("tilt", kind=kind, message=message)
        self.save_state()

    # Devices.

    note: tuple[str, Any] | None = None
    """A (key, value) pair saved in the next change's transaction (a script's position)."""

    def _commit(self, change: Callable[[], Response]) -> Response:
        """Runs ``change`` in one transaction, with the pending ``note``. If anything fails,
        nothing of it is committed: the terminal takes back what the database holds and
        tilts with the reason, so that memory never runs ahead of the books."""
        if self.books_fault is not None:
            log.error("not booked, the books fail their check: %s", self.books_fault)
            return Response(False, N_("the books fail their check: call the attendant"))
        if self.power_failure:
            # Only a physical fact gets here now: booked all the same, in a database opened
            # for this one transaction and closed again.
            self.store.reopen()
            try:
                return self._commit_open(change)
            finally:
                self._close_store()
        return self._commit_open(change)

    def _close_store(self) -> None:
        if not self.store.close(keep_reading=True):
            log.warning(
                "%s: a reader held the checkpoint back; the log stays for the next start", self.store.path
            )

    def _commit_open(self, change: Callable[[], Response]) -> Response:
        note, self.note = self.note, None
        self.changes += 1
        try:
            with self.store.transaction():
                if note is not None:
                    self.store.set_state(*note)
                in_session = self._in_session()
                response = change()
                if in_session and not self._in_session():
                    self.player_language = None  # the session is over: the house's language again
                self.save_state()
            return response
        except Exception as error:  # a rolled-back change must never leave memory changed
            self._load()
            self._resume()
            kind = "database" if isinstance(error, StoreError) else "fault"
            message = str(error) or type(error).__name__
            self.tilts[kind] = message
            try:
                with self.store.transaction():
                    self.store.event("tilt", kind=kind, message=message)
                    self.save_state()
            except StoreError:
                pass  # the tilt stands in memory; the database refuses writes
            if kind == "database":
                return Response(False, N_("database error: {reason}"), {"reason": message})
            return Response(False, N_("fault: {reason}"), {"reason": message})

    def accept_money(self, kind: str, value: int, opened: bool = False) -> Response:
        """Money a device has taken in (a coin in the cashbox, a stacked note): it is credited
        whatever the state, since the player has paid it. The inhibit lines keep this rare
        while money is not live; when it happens anyway it is logged, unless the cabinet
        ``opened`` the device for it (the operator's hardware test). Money that arrives
        during a round is there for the next one."""

        def credit() -> Response:
            if kind not in {"coin", "bill"} or isinstance(value, bool) or value <= 0:
                raise ValueError(f"{kind} {value} is not money a device takes in")
            if kind not in self.live() and not opened:
                self.store.event("credited_while_inhibited", kind=kind, value=value)
            self._credit(kind, value)
            return _credited(kind, value)

        return self._commit(credit)

    def device_event(self, name: str, **detail: Any) -> Response:
        """Logs what a device reported that moves no money (noise, a rejected coin); what a
        lab counts (``COUNTED_DEVICE_EVENTS``) goes on a meter of its name too."""

        def log() -> Response:
            self.store.event(name, **detail)
            if name in COUNTED_DEVICE_EVENTS:
                self.store.add_meter(name, 1)
            return Response(True, name)

        return self._commit(log)

    def device_fault(self, kind: str, message: str) -> Response:
        """A device fault: a tilt that stops play and money until the attendant clears it."""

        def tilt() -> Response:
            self._tilt(kind, message)
            return Response(True, message)

        return self._commit(tilt)

    def power_failing(self) -> Response:
        """The UPS signals that the mains is gone: the tilt and its event are committed, then
        the database is checkpointed and closed (open only to read, for the screen), so that
        nothing is being written when the battery gives out. The acceptors are inhibited and
        every button refused until ``power_restored()``."""
        if self.power_failure:
            return Response(True, "power failing")

        def stop() -> Response:
            self.store.event("power_failing", credits=self.credits, round_id=self.round_id)
            self._tilt("power_fail", POWER_FAIL)
            return Response(True, "power failing")

        response = self._commit(stop)
        self._close_store()
        self.power_failure = True
        return response

    def power_restored(self) -> Response:
        """The mains is back before the shutdown (or was there when the terminal started): the
        database opens for writing again and the power-fail tilt clears."""
        if self.power_failure:
            self.store.reopen()
            self.power_failure = False
        if "power_fail" not in self.tilts:
            return Response(True, "power on")

        def clear() -> Response:
            self.store.event("power_restored", credits=self.credits)
            self.store.event("tilt_cleared", kind="power_fail", message=self.tilts.pop("power_fail"))
            return Response(True, "power restored")

        return self._commit(clear)

    def record_self_test(self, problems: Sequence[str]) -> Response:
        """The start-up self-test's findings (``machine/selftest.py``), logged. Any finding
        is a tilt that keeps the money devices inhibited; the attendant's key does not clear
        it, only a start whose self-test passes."""

        def record() -> Response:
            self.store.event("self_test", problems=list(problems))
            if problems:
                self._tilt("self_test", "self-test failed: " + "; ".join(problems))
                return Response(False, "self-test failed")
            if "self_test" in self.tilts:
                self.store.event("tilt_cleared", kind="self_test", message=self.tilts.pop("self_test"))
            return Response(True, "self-test passed")

        return self._commit(record)

    # Input.

    @property
    def mode(self) -> Mode:
        """What holds the terminal now (``machine/mode.py``)."""
        if self.books_fault is not None:
            return Mode.BOOKS_FAULT
        if self.power_failure:
            return Mode.POWERING_DOWN
        if self.operator_key:
            return Mode.OPERATOR
        if self.payout:
            return Mode.PAYING
        if self.handpay is not None:
            return Mode.HANDPAY
        if self.jackpot_pending is not None:
            return Mode.JACKPOT_PENDING
        if self.tilts:
            return Mode.TILTED
        return Mode.BETTING if self.round is None else Mode.IN_ROUND

    def live(self) -> set[str]:
        """The intents that would do something now: the lamps that are lit. The door and the
        operator's key always count, on the battery too: each is a physical fact, like money a
        device took in (a key turned back unbooked would hold the cabinet in the operator's menu
        when the power returns)."""
        mode = self.mode
        if mode is Mode.BOOKS_FAULT:
            return set()  # nothing can be booked: no lamp lit, no money taken
        door = {"door_close"} if "door" in self.tilts else {"door_open"}
        switches = door | ({"operator_key_off"} if self.operator_key else {"operator_key_on"})
        if mode in {Mode.POWERING_DOWN, Mode.OPERATOR, Mode.JACKPOT_PENDING}:
            return switches
        if mode.calls_attendant:
            return switches | {"attendant"}
        live = switches | {"help", "language"}
        if self.round is None:
            # No query for an open round: a round left open in the
            # database without resuming carries the "resume" tilt, which only the operator's
            # void clears (closing the round), so an untilted terminal has none.
            credits = self.credits
            room = self.room_for_money()
            # An acceptor cannot know which coin or note comes next: it takes money only
            # while the largest it accepts still fits under the limit.
            for kind, accepted in (("coin", self.config.coins), ("bill", self.config.bills)):
                if accepted and max(accepted) <= room:
                    live.add(kind)
            live |= self.betting.lit(self.bets, self.last_bets, credits)
            if credits > 0:
                live.add("cashout")
            return live
        legal = self.round.legal_actions()
        live |= {intent for intent, name in ROUND_ACTIONS.items() if name in legal}
        if "exchange" in legal:
            live.add("card")
            if len(self.selected) not in legal["exchange"]:
                live.discard("exchange")  # lit only for a selection that may be exchanged
        amounts = self.insurance_amounts()
        if len(amounts) > 1:
            live.add("bet")  # BET and BET − choose the amount to insure
            if self.insurance_amount != amounts[0]:
                live.add("bet_down")
        return live

    def room_for_money(self) -> int:
        """The minor units that may still come in before the credits reach the credit limit:
        what the cabinet lets an acceptor or the validator take."""
        return max(self.config.credit_limit - self.credits, 0)

    def insurance_amounts(self) -> list[int]:
        """The amounts BET steps through in the insurance phase: multiples of the smallest
        amount, at most about ten steps, always ending with the largest."""
        insure = self.round.legal_actions().get("insure") if self.round is not None else None
        if insure is None:
            return []
        low, high = insure["min"], insure["max"]
        step = max(low, -(-(high - low) // 10 // low) * low) if low > 0 else max(high // 10, 1)
        return sorted({*range(low, high, step), high})

    @property
    def insurance_amount(self) -> int | None:
        """What INSURE stakes now: the amount chosen with BET, the largest until then."""
        amounts = self.insurance_amounts()
        if not amounts:
            return None
        return self.insurance if self.insurance in amounts else amounts[-1]

    def handle(
        self, intent: str, value: int | None = None, *, note: tuple[str, Any] | None = None
    ) -> Response:
        """Carries out one intent in one transaction. ``note``, a (key, value) pair, is saved
        in the same transaction (the script runner's position)."""
        if intent not in INTENTS:
            return Response(False, N_("unknown input {intent!r}"), {"intent": intent})
        if value is not None and (isinstance(value, bool) or not 0 <= value <= MAX_VALUE):
            return Response(
                False,
                N_("{intent} {value}: a value is 0 to {limit}"),
                {"intent": intent, "value": value, "limit": MAX_VALUE},
            )
        if self.power_failure and intent not in self.live():
            # Refused without a word to the database, which stays closed.
            return Response(False, N_("{intent} is not live now"), {"intent": Intent(intent)})

        def carry_out() -> Response:
            if intent not in self.live():
                response = self.why_not(intent, value)
            elif intent == "bonus" and self._bonus_closed():
                response = self._bonus_off()
            elif intent in ROUND_ACTIONS:
                response = self._round_action(intent, value)
            else:
                handler: Callable[[int | None], Response] = getattr(self, f"_on_{intent}")
                response = handler(value)
            if not response.ok:
                self.store.event("refused", intent=intent, value=value, reason=response.message)
            return response

        if note is not None:
            self.note = note
        return self._commit(carry_out)

    def why_not(self, intent: str, value: int | None = None) -> Response:
        """The reason a dead button gives: what holds the terminal, or the round's own reason
        (asked of a copy of the round, so that asking changes nothing)."""
        details = {"intent": Intent(intent)}
        mode = self.mode
        if mode is Mode.OPERATOR:
            return Response(False, N_("{intent} is not possible while the operator key is turned"), details)
        if mode in {Mode.PAYING, Mode.HANDPAY}:
            return Response(False, N_("{intent} is not possible while the attendant is called"), details)
        if mode is Mode.JACKPOT_PENDING:
            return Response(
                False, N_("{intent} is not possible while the jackpot is being confirmed"), details
            )
        if mode is Mode.TILTED:
            return Response(
                False,
                N_("{intent} is not possible while the terminal is tilted ({tilts})"),
                {**details, "tilts": ", ".join(sorted(self.tilts))},
            )
        if self.round is not None and intent in ROUND_ACTIONS:
            copy = Round.replay(self.round.profile, self.round.record())
            try:
                self._act(copy, intent, value)
            except IllegalAction as error:
                return Response(False, N_("{intent} is not possible now"), details, str(error))
        if intent in {"deal", "repeat_bet"} and "bet" in self.live():
            bets = self.bets if intent == "deal" else self.last_bets
            return self.betting.why_not_dealt(intent, bets, self.credits)
        return Response(False, N_("{intent} is not live now"), details)

    # Money in and out.

    def _on_coin(self, value: int | None) -> Response:
        return self._money_in("coin", value, self.config.coins)

    def _on_bill(self, value: int | None) -> Response:
        return self._money_in("bill", value, self.config.bills)

    def _money_in(self, kind: str, value: int | None, accepted: tuple[int, ...]) -> Response:
        if value not in accepted:
            template = (
                N_("a coin of {value} is not accepted (accepted: {accepted})")
                if kind == "coin"
                else N_("a bill of {value} is not accepted (accepted: {accepted})")
            )
            return Response(False, template, {"value": value, "accepted": ", ".join(map(str, accepted))})
        if self.credits + value > self.config.credit_limit:
            return Response(
                False,
                N_("that would take the credits above the limit of {limit}"),
                {"limit": Amount(self.config.credit_limit)},
            )
        self._credit(kind, value)
        return _credited(kind, value)

    def credit_by_operator(self, amount: int, reason: str) -> None:
        """Credits put on by the operator (a refund, a test) or by free play: on the ledger,
        the meters and the log, in one transaction."""
        with self.store.transaction():
            self.store.post("operator_credit", amount, reason=reason)
            self.store.add_meter("total_in", amount)
            self.store.add_meter("operator_credits", amount)
            self.store.event("operator_credit", amount=amount, reason=reason)

    def _credit(self, kind: str, value: int) -> None:
        self.store.post(f"{kind}_in", value, denomination=value)
        self.store.add_meter("total_in", value)
        self.store.add_meter(f"{kind}s_in_{value}", 1)

    def _on_cashout(self, value: int | None) -> Response:
        coins = self.credits // self.config.hopper_coin if self.config.cashout == "hopper" else 0
        if coins:
            self.payout = coins
            self.store.event("payout_requested", coins=coins, coin=self.config.hopper_coin)
            return Response(
                True,
                N_("paying out {coins} coin(s) of {coin}"),
                {"coins": coins, "coin": Amount(self.config.hopper_coin)},
            )
        return self._request_handpay()

    def _request_handpay(self) -> Response:
        self.handpay = self.credits
        self.store.event("handpay_requested", amount=self.handpay)
        return Response(True, N_("handpay of {amount}: call the attendant"), {"amount": Amount(self.handpay)})

    def hopper_coin_out(self) -> Response:
        """One coin left the hopper: booked at once, so a payout that stops short is exact. A
        coin that falls after the hopper stopped is booked against the handpay still to be
        paid (the attendant pays that much less). A coin nothing owed (no payout, the handpay
        already paid) is paid money all the same: on the ledger at no credit, on its own
        meter, and a tilt for the attendant."""
        coin = self.config.hopper_coin

        def book() -> Response:
            cashing_out = self.payout or (self.handpay is not None and self.handpay_win is None)
            if cashing_out and self.credits >= coin:
                self.store.post("cash_out", -coin, device="hopper")
                self.store.add_meter("total_out", coin)
                self.store.add_meter("hopper_out", coin)
                if self.payout:
                    self.payout = self.payout - 1 or None
                else:
                    self.handpay = self.credits or None
                    self.store.event("handpay_reduced", coin=coin, amount=self.handpay or 0)
                return Response(True, N_("coin {coin} paid out"), {"coin": Amount(coin)})
            self.store.post("hopper_overpaid", 0, coin=coin)
            self.store.add_meter("hopper_overpaid", coin)
            self._tilt("hopper_overpaid", f"the hopper paid a coin of {coin} it did not owe")
            return Response(False, N_("a coin the payout did not owe"))

        return self._commit(book)

    def hopper_stopped(self, short: int) -> Response:
        """The payout ended: complete (``short`` 0; what is left below a coin is handpaid),
        stopped by the attendant's key (the rest is handpaid), or short because the hopper is
        empty or jammed (a tilt; the credits stay)."""

        def stop() -> Response:
            by_attendant = self.stopping
            self.payout, self.stopping = None, False
            if short and not by_attendant:
                self._tilt("hopper_empty", f"the hopper stopped {short} coin(s) short")
                return Response(False, N_("{short} coin(s) short"), {"short": short})
            if self.credits:
                return self._request_handpay()
            return Response(True, N_("payout complete"))

        return self._commit(stop)

    def _on_attendant(self, value: int | None) -> Response:
        if self.payout:
            if self.stopping:  # nothing more until the hopper reports it stands
                return Response(False, N_("nothing for the attendant to clear"))
            # The motor stops first (the cabinet sees ``stopping``); the handpay is fixed only
            # once the hopper reports it has stopped, so no coin can fall on both.
            self.stopping = True
            self.store.event("payout_stop_requested", coins_owed=self.payout)
            return Response(True, N_("A payout stopped before it was complete."))
        if self.handpay is not None:
            return self._pay_handpay(self.handpay)
        cleared = sorted(kind for kind in self.tilts if attendant_clears(kind))
        if not cleared:
            return Response(False, N_("nothing for the attendant to clear"))
        for kind in cleared:
            self.store.event("tilt_cleared", kind=kind, message=self.tilts.pop(kind))
        return Response(True, N_("cleared: {tilts}"), {"tilts": ", ".join(cleared)})

    def _pay_handpay(self, amount: int) -> Response:
        """The attendant paid the handpay: credits cashed out leave the credits; a large win,
        which never went on them, is booked as the round's return paid out by hand."""
        won, self.handpay, self.handpay_win = self.handpay_win, None, None
        if won is None:
            self.store.post("handpay", -amount)
        else:
            # A linked jackpot's award (``linked``) came from the floor's pool, not this meter.
            linked = {"linked": True} if won.get("linked") else {}
            self.store.post(
                "handpaid_win", 0, round_id=won["round_id"], won=amount, jackpot=won["jackpot"], **linked
            )
            self.store.add_meter("coin_out", amount)
            if won["jackpot"]:
                self.store.add_meter("jackpots_paid", won["jackpot"])
        self.store.add_meter("total_out", amount)
        self.store.add_meter("handpays", amount)
        self.store.event("handpay_paid", amount=amount, round_id=won["round_id"] if won else None)
        return Response(True, N_("handpay of {amount} paid"), {"amount": Amount(amount)}, notice=True)

    def switch_stands(self, position: str) -> Response | None:
        """A switch found in ``position`` (its intent: ``door_open``, ``operator_key_off``...)
        at start: taken as that edge if the books last knew it the other way (it moved while
        the cabinet was off), else nothing."""
        known = {
            "door_open": "door" in self.tilts,
            "door_close": "door" not in self.tilts,
            "operator_key_on": self.operator_key,
            "operator_key_off": not self.operator_key,
        }
        if position not in known:
            raise ValueError(f"{position!r} is not a switch position (positions: {', '.join(known)})")
        return None if known[position] else self.handle(position)

    def _on_door_open(self, value: int | None) -> Response:
        self.store.add_meter("door_opens", 1)
        self.store.event("door_open")
        self.tilts["door"] = "the door is open"
        return Response(True, N_("door open"))

    def _on_operator_key_on(self, value: int | None) -> Response:
        self.operator_key = True
        self.store.event("operator_key_on")
        return Response(True, N_("operator key turned: the game stands still"))

    def _on_operator_key_off(self, value: int | None) -> Response:
        self.operator_key = False
        self.store.event("operator_key_off")
        return Response(True, N_("operator key back: the game goes on"))

    def _on_help(self, value: int | None) -> Response:
        return Response(True, "help")

    @property
    def language(self) -> str:
        """The screen's language now: the player's choice for the session, else the house's."""
        return self.player_language or self.config.language

    def _on_language(self, value: int | None) -> Response:
        self.player_language = LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
        return Response(True, N_("language {language}"), {"language": self.player_language})

    def _in_session(self) -> bool:
        """A player's money is in play: credits, a round, or a cash-out being paid."""
        return bool(
            self.credits
            or self.round
            or self.handpay is not None
            or self.payout
            or self.jackpot_pending is not None
        )

    def forget_player_language(self) -> None:
        """The attract demo starts: the next player finds the house's language."""
        if self.player_language is not None:
            self._commit(self._forget_player_language)

    def _forget_player_language(self) -> Response:
        self.player_language = None
        return Response(True, N_("language {language}"), {"language": self.config.language})

    def _on_door_close(self, value: int | None) -> Response:
        self.tilts.pop("door", None)
        self.store.event("door_close")
        return Response(True, N_("door closed"))

    # Bets: the betting buttons' steps are ``machine/betting.py``'s; the terminal keeps the
    # bets with the rest of its state and places what a press chose.

    @property
    def bets(self) -> Bets:
        return Bets(self.ante, self.boxes, self.bonus_stake)

    def upfront(self) -> int:
        """The credit a deal with the current bets needs (``Betting.needs``)."""
        return self.betting.needs(self.bets)

    def _place(self, bets: Bets) -> None:
        self.ante, self.boxes, self.bonus_stake = bets.ante, bets.boxes, bets.bonus_stake

    def _place_choice(self, choice: BetChoice) -> Response:
        """Places the bets a betting button chose: the screen clears the last round's chips."""
        self._place(choice.bets)
        self.bet_since_round = True
        return choice.response

    def _on_bet(self, value: int | None) -> Response:
        if self.round is not None:  # the insurance phase: BET steps the amount to insure
            amounts = self.insurance_amounts()
            current = self.insurance_amount
            self.insurance = amounts[(amounts.index(current) + 1) % len(amounts)] if current else None
            return Response(True, N_("insure {amount}"), {"amount": Amount(self.insurance or 0)})
        return self._place_choice(self.betting.bet(self.bets))

    def _on_bet_down(self, value: int | None) -> Response:
        if self.round is not None:
            amounts = self.insurance_amounts()
            self.insurance = amounts[amounts.index(self.insurance_amount or amounts[0]) - 1]
            return Response(True, N_("insure {amount}"), {"amount": Amount(self.insurance)})
        return self._place_choice(self.betting.bet_down(self.bets))

    def _on_max_bet(self, value: int | None) -> Response:
        return self._place_choice(self.betting.max_bet(self.bets, self.credits))

    def _on_bonus(self, value: int | None) -> Response:
        return self._place_choice(self.betting.bonus(self.bets))

    def _on_boxes(self, value: int | None) -> Response:
        return self._place_choice(self.betting.boxes(self.bets))

    def _on_repeat_bet(self, value: int | None) -> Response:
        """The last round's bets dealt again in one press."""
        before, last = self.bets, self.last_bets
        if last is None:  # live only after a round: never so here
            return self.why_not("repeat_bet", value)
        self._place(last)
        response = self._on_deal(value)
        if not response.ok:
            self._place(before)
        return response

    # The round.

    def _on_deal(self, value: int | None) -> Response:
        if self.link_offline() is not None and (self.bonus_stake or not self._bonus_closed()):
            return self._offline()  # the linked jackpot is offline: no bonus, or no play
        number = self.store.next_round_id()
        deck = self._deck_for_round(number) if self._deck_for_round else None
        seed = self._seed_for_round(number) if self._seed_for_round and deck is None else None
        try:
            round_ = Round(
                self.profile,
                [self.ante] * self.boxes,
                bonus=self.bonus_stake,
                seed=seed,
                credit=self.credits,
                deck=deck,
            )
        except ValueError as error:
            return Response(False, N_("{intent} is not possible now"), {"intent": Intent("deal")}, str(error))
        self.round = round_
        self.last_bets = self.bets
        self.bet_since_round = False
        source = "stacked" if deck is not None else "derived" if seed is not None else "shuffled"
        self.round_id = self.store.open_round(self.profile, round_.record(), deck=source)
        self.selected.clear()
        self._post_wagers(round_.collected, kind="wager", bet="stakes")
        self._contribute_to_jackpot(round_)
        self._after_action()
        return Response(True, N_("round {round} dealt"), {"round": self.round_id})

    def _contribute_to_jackpot(self, round_: Round) -> None:
        bonus = self.rules.get("bonus")
        if not bonus or not bonus["jackpot"]:
            return
        for stake in round_.record()["bonus"]:
            if stake:
                self.jackpot, whole = contribute(self.jackpot, self.config.jackpot, stake)
                self.store.post(
                    "jackpot_contribution",
                    0,
                    round_id=self.round_id,
                    stake=stake,
                    to_meter=whole,
                    carry=str(self.jackpot.carry),
                )
                self.store.add_meter("jackpot_contributions", whole)

    def _on_card(self, value: int | None) -> Response:
        if value is None or not 1 <= value <= 5:
            return Response(False, N_("card {card}: the cards are 1 to 5"), {"card": value})
        position = value - 1
        if position not in self.selected and self.round is not None:
            # The selection is what EXCHANGE would take: never more than the rules let this
            # box exchange now. The credit does not count here: EXCHANGE says so if it falls short.
            unlimited = Round.replay(self.round.profile, {**self.round.record(), "credit": None})
            most = max(unlimited.legal_actions().get("exchange") or {0: 0})
            if len(self.selected) >= most:
                return Response(False, N_("at most {count} card(s) may be exchanged"), {"count": most})
        self.selected ^= {position}
        if not self.selected:
            return Response(True, N_("no card selected"))
        return Response(
            True,
            N_("cards selected: {cards}"),
            {"cards": ", ".join(str(p + 1) for p in sorted(self.selected))},
        )

    def _act(self, round_: Round, intent: str, value: int | None) -> None:
        """Carries out a game action on ``round_``; IllegalAction if the round refuses it."""
        method = getattr(round_, ROUND_ACTIONS[intent])
        if intent == "exchange":
            method(sorted(self.selected))
        elif intent == "insure":
            method(value if value is not None else self.insurance_amount or 0)
        else:
            method()

    def _round_action(self, intent: str, value: int | None) -> Response:
        round_ = self.round
        if round_ is None:
            return Response(False, N_("{intent} is not live now"), {"intent": Intent(intent)})
        before = round_.collected
        try:
            self._act(round_, intent, value)
        except IllegalAction as error:
            return Response(False, N_("{intent} is not possible now"), {"intent": Intent(intent)}, str(error))
        if intent == "exchange":
            self.selected.clear()
        self.insurance = None
        paid = round_.collected - before
        if paid:
            kind = "wager" if intent in {"play", "insure"} else "fee"
            self._post_wagers(paid, kind=kind, bet=ROUND_ACTIONS[intent])
        self._after_action()
        return Response(True, intent)

    def _post_wagers(self, amount: int, *, kind: str, bet: str) -> None:
        self.store.post(kind, -amount, round_id=self.round_id, bet=bet)
        self.store.add_meter("coin_in", amount)

    def _after_action(self) -> None:
        """Journals the round's record and, once it is settled, pays it."""
        round_, round_id = self.round, self.round_id
        if round_ is None or round_id is None:
            raise RuntimeError("no round in play to journal")
        if round_.phase != "settled":
            self.store.update_round(round_id, round_.record(), None)
            return
        settlement = round_.settlement()
        boxes = settlement["boxes"]
        main = sum(b["ante"]["returned"] + b["play"]["returned"] + b["insurance"]["returned"] for b in boxes)
        bonus = sum(b["bonus"]["returned"] for b in boxes)
        hits = []  # (box, award, what the house puts back on the meter)
        meter_before = self.jackpot.value
        linked_hits = []  # boxes whose hit claims the hub's pool (the award comes later)
        for box in boxes:
            if box["jackpot"] and self.linked_jackpot:
                linked_hits.append(box["box"])
            elif box["jackpot"]:
                self.jackpot, award, house = hit(
                    self.jackpot, self.config.jackpot, Fraction(box["jackpot"]["share"])
                )
                hits.append((box["box"], award, house))
        awards = sum(award for _, award, _ in hits)
        won = settlement["paid"] + awards
        handpaid = not settlement["void"] and won >= max(self.config.handpay_limit, 1)
        if settlement["void"]:
            self.store.post(
                "void_refund", settlement["paid"], round_id=self.round_id, reason=settlement["void"]
            )
            self._tilt("integrity", f"round {self.round_id} void: {settlement['void']}")
        elif handpaid:
            # A large win locks the terminal up until the attendant pays it by hand: it never
            # goes on the credits, and it is booked when it is paid.
            self.handpay, self.handpay_win = won, {"round_id": round_id, "jackpot": awards}
            self.store.event(
                "handpay_win", round_id=self.round_id, amount=won, limit=self.config.handpay_limit
            )
        else:
            if main:
                self.store.post("win", main, round_id=self.round_id)
            if bonus:
                self.store.post("bonus_win", bonus, round_id=self.round_id)
        if not handpaid:
            self.store.add_meter("coin_out", settlement["paid"])
        for box_number, award, house in hits:
            if not handpaid:
                self.store.post("jackpot_hit", award, round_id=self.round_id, box=box_number)
                self.store.add_meter("jackpots_paid", award)
                self.store.add_meter("coin_out", award)
            if house:
                self.store.post("jackpot_reset", 0, round_id=self.round_id, to_meter=house)
            self.store.event("jackpot_hit", round_id=self.round_id, amount=award)
        if linked_hits and not settlement["void"]:
            # The hub's pool is claimed by the link agent: the cabinet is locked up until its
            # answer is credited (``follow_link``), across a power cut too.
            books_id = self.store.books.id if self.store.books is not None else ""
            self.jackpot_pending = {
                "round_id": round_id,
                "hub_round_id": hub_round_id(books_id, round_id),
                "boxes": linked_hits,
            }
            self.store.event("jackpot_hit", round_id=self.round_id, boxes=linked_hits, pending=True)
        self.store.add_meter("games_played", 1)
        if settlement["net"] + awards > 0:
            self.store.add_meter("games_won", 1)
        stored: RoundSettlement = {
            # mypy cannot tell that the core's settlement carries no "jackpot_pending" of its own
            **settlement,  # type: ignore[typeddict-item]
            "jackpot_awards": awards,
            # What the screen shows: each box's award, and the meter as it stood before.
            "jackpot_hits": [{"box": box_number, "award": award} for box_number, award, _ in hits],
            "jackpot_before": meter_before,
        }
        if linked_hits:
            stored["jackpot_pending"] = linked_hits
        self.store.update_round(round_id, round_.record(), stored)
        self.round = None
        self.round_id = None

    # The linked jackpot (docs/floor.md): the kiosk reads what the link agent wrote.

    @property
    def linked_jackpot(self) -> bool:
        """The cabinet's jackpot is the floor's linked one (``[link] jackpot = "linked"``)."""
        link = self.config.link
        return link is not None and link.jackpot == "linked"

    @property
    def jackpot_shown(self) -> int:
        """The meter the screen shows: the hub's pool on a linked cabinet (0 until the agent
        has read it), else the cabinet's own meter."""
        if self.linked_jackpot and self.link is not None:
            return self.link.pool or 0
        return self.jackpot.value

    def link_offline(self) -> Response | None:
        """What the cabinet says while the linked jackpot is offline (the agent has not
        reached the hub within ``[link] offline_after``); None while it is offered."""
        if not self.linked_jackpot or self.link is None or self.link.online:
            return None
        return self._offline()

    def _bonus_closed(self) -> bool:
        """Offline, the bonus bet is closed (``[link] offline = "bonus"``) rather than all play."""
        return (
            self.link_offline() is not None
            and self.config.link is not None
            and self.config.link.offline == "bonus"
        )

    def _bonus_off(self) -> Response:
        """BONUS while the linked jackpot is offline: takes a bonus off, never puts one on."""
        if not self.bonus_stake:
            return self._offline()
        self._place(replace(self.bets, bonus_stake=0))
        return Response(True, N_("bonus off"))

    def _offline(self) -> Response:
        link = self.config.link
        if link is not None and link.offline == "stop":
            return Response(False, N_("the linked jackpot is offline: the cabinet takes no play"))
        return Response(False, N_("the linked jackpot is offline: the bonus bet is closed"))

    def follow_link(self) -> Response | None:
        """A pending linked jackpot's awards, once the link agent has the hub's answer for every
        box that hit: credited, or handpaid at or above the handpay limit, in one transaction
        with the end of the lock-up (a power cut before its commit leaves the hit pending, and
        the hub answers the same again). Called every frame: otherwise a look at the agent's
        file, read at most a few times a second."""
        pending = self.jackpot_pending
        if pending is None or self.link is None or self.mode is not Mode.JACKPOT_PENDING:
            return None
        awards = {}
        for box in pending["boxes"]:
            award = self.link.award(str(pending["hub_round_id"]), int(box))
            if award is None:
                return None  # the round's hits end the lock-up together
            awards[int(box)] = award
        return self._commit(lambda: self._award_linked_jackpot(awards))

    def _award_linked_jackpot(self, awards: dict[int, int]) -> Response:
        pending, self.jackpot_pending = self.jackpot_pending, None
        assert pending is not None
        round_id = int(pending["round_id"])
        total = sum(awards.values())
        self.store.event(
            "jackpot_awarded",
            round_id=round_id,
            amount=total,
            hub_round_id=pending["hub_round_id"],
            boxes=[{"box": box, "award": award} for box, award in awards.items()],
        )
        if total >= max(self.config.handpay_limit, 1):
            self.handpay, self.handpay_win = total, {"round_id": round_id, "jackpot": total, "linked": True}
            self.store.event("handpay_win", round_id=round_id, amount=total, limit=self.config.handpay_limit)
            return Response(True, N_("handpay of {amount}: call the attendant"), {"amount": Amount(total)})
        for box, award in awards.items():
            if award:
                self.store.post("jackpot_hit", award, round_id=round_id, linked=True, box=box)
                self.store.add_meter("jackpots_paid", award)
                self.store.add_meter("coin_out", award)
        return Response(
            True,
            N_("Jackpot of {amount} hit in round {round_id}"),
            {"amount": Amount(total), "round_id": round_id},
        )


def settings_from_store(config: Config, store: Store) -> Config:
    """The configuration with what the operator menu changed since (kept in the database),
    each stored setting checked as the configuration file's keys are: a wrong one is a
    ConfigError naming it, never a half-read setting."""
    changes: dict[str, Any] = {}
    for setting in ("jackpot_config", "rules", "language", "volume", "attract_volume", "speed"):
        value = store.get_state(setting)
        if value is None:
            continue
        checked = check_stored(setting, value, store.path)
        if setting == "jackpot_config":
            changes["jackpot"] = checked
        elif setting == "rules":
            changes |= {"profile": checked["profile"], "profile_overrides": checked["overrides"]}
        else:
            changes[setting] = checked
    return replace(config, **changes)


def seeds_from(base: bytes) -> Callable[[int], bytes]:
    """Round seeds derived from one base seed (tests and soak runs replay whole sessions):
    SHA-256 of the base and the round number."""

    def seed(number: int) -> bytes:
        return hashlib.sha256(base + number.to_bytes(8, "little")).digest()

    return seed
