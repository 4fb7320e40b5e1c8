"""The terminal's state in memory: what it holds between inputs, how it is read from the
books (``_load``, and the round left open: ``_resume``) and written back (``save_state``) in
the transaction of each change, and what follows from it alone (the mode, the bets, the
credits).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from oasis_kiosk._core import Profile, RecordError, Round
from oasis_kiosk.config import LANGUAGES, Config
from oasis_kiosk.errors import InputError
from oasis_kiosk.machine.betting import Bets, Betting
from oasis_kiosk.machine.cash_out_kinds import HOPPER, payout_device
from oasis_kiosk.machine.jackpot import JackpotState
from oasis_kiosk.machine.linked import LinkState
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.recall import RecalledHand, recalled_hands
from oasis_kiosk.machine.tilts import TiltKind
from oasis_kiosk.store.db import Store, StoreError
from oasis_kiosk.store.outbox import BOX_OF_A_ROUNDS_HIT

if TYPE_CHECKING:
    from oasis_kiosk._core import _ProfileRules as ProfileRules
    from oasis_kiosk.store.db.rounds import StoredRound


class TerminalState:
    """What a terminal holds, as its books have it committed: the classes of the other
    concerns (``machine/terminal/``) build on it."""

    config: Config
    store: Store
    books_fault: str | None
    """What is wrong with the books: while it is set nothing is written."""
    _seed_for_round: Callable[[int], bytes] | None
    _deck_for_round: Callable[[int], str | None] | None
    """Each round's seed or stacked deck by its number, on test books (``Terminal``); None:
    every deck comes from the OS."""
    profile: Profile
    rules: ProfileRules
    betting: Betting
    """What the profile in play takes of the bets, and the betting buttons' steps."""
    round: Round | None
    round_id: int | None
    antes: tuple[int, ...] = (0,)
    """The ante of each box bet on."""
    bonus_stake: int = 0
    """Each box's bonus stake (0: no bonus bet), one the profile allows at the antes."""
    bet_box: int | None = None
    """The box BET, BET − and MAX BET step alone (None: every box alike), where the table
    lets the antes differ; the card buttons choose it between rounds."""
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
    """What the payout device still owes in a payout under way (minor units, whole items of
    the device: ``machine/cash_out_kinds.py``)."""
    stopping: bool
    """The attendant's key asked the hopper to stop: the handpay is fixed once it has."""
    short_owed: int | None
    """What a payout that ran and ended short (empty or jammed) still owed, while its tilt
    stands: a coin the freed jam lets fall is the player's, paid from the credits."""
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

        antes = self._stored_antes(
            field("antes", list, None), field("ante", int, None), field("boxes", int, 1)
        )
        stake = field("bonus_stake", int, None)
        if stake is None:  # books of an earlier release kept the bonus as a switch
            stake = (self.profile.standard_bonus_stake(antes[0]) or 0) if field("bonus", bool, False) else 0
        # Placed under the rules of the last start, which may have changed since: fitted to these.
        self._place(self.betting.fitted(Bets(antes, stake)))
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
        self.bet_box = self._stored_bet_box(field("bet_box", int, None))
        self.insurance = field("insurance", int, None)
        self.handpay = field("handpay", int, None)
        self.handpay_win = field("handpay_win", dict, None)
        pending = field("jackpot_pending", dict, None)
        if pending is not None and "boxes" not in pending:
            # Kept before hits were claimed per box: the round's one hit, as its outbox row.
            pending = {**pending, "boxes": [BOX_OF_A_ROUNDS_HIT]}
        self.jackpot_pending = pending
        self.payout = field("payout_owed", int, None)
        if "payout" in state:  # books of an earlier release counted it in the hopper's coins
            coins = field("payout", int, None)
            self.payout = None if coins is None else coins * HOPPER.unit(self.config)
        self.stopping = bool(field("stopping", bool, False))
        self.short_owed = field("short_owed", int, None)
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

    @property
    def payout_items(self) -> int:
        """The payout device's items (the hopper's coins) still owed."""
        return payout_device(self.config).items(self.config, self.payout or 0)

    def save_state(self) -> None:
        """Writes the terminal's own state; inside the transaction of the change it follows."""
        self.store.set_state(
            "terminal",
            {
                "antes": list(self.antes),
                "bonus_stake": self.bonus_stake,
                "last_bets": None if self.last_bets is None else vars(self.last_bets),
                "bet_box": self.bet_box,
                "selected": sorted(self.selected),
                "insurance": self.insurance,
                "handpay": self.handpay,
                "handpay_win": self.handpay_win,
                "jackpot_pending": self.jackpot_pending,
                "payout_owed": self.payout,
                "stopping": self.stopping,
                "short_owed": self.short_owed,
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
                self._tilt(TiltKind.RESUME, f"round {round_id} cannot resume: {error}")
            return
        self.round_id = round_id

    def _tilt(self, kind: TiltKind, message: str) -> None:
        """Raises a tilt, logged (``tilt``) with the state in this transaction: the books
        and the floor's hub see every tilt begin, as ``_clear_tilt`` logs it end."""
        self.tilts[kind] = message
        self.store.event("tilt", kind=kind, message=message)
        self.save_state()

    def _clear_tilt(self, kind: TiltKind | str) -> None:
        """Ends a standing tilt, logged (``tilt_cleared``); nothing for one not standing."""
        if kind in self.tilts:
            self.store.event("tilt_cleared", kind=kind, message=self.tilts.pop(kind))
            if kind == payout_device(self.config).stopped_short:
                self.short_owed = None  # a coin after the attendant has looked is not owed
            self.save_state()

    # What the screen reads of the books: it never opens the store itself.

    @property
    def hints(self) -> bool:
        """The operator turned the strategy's hints on (``OperatorMenu.set_hints``)."""
        return bool(self.store.get_state("hints", False))

    def last_rounds(self, count: int) -> list[StoredRound]:
        """The books' last ``count`` rounds, oldest first (one in play included)."""
        return self.store.rounds(last=count)

    def recalled_hands(self, round_: StoredRound) -> list[RecalledHand]:
        """A round's hands through its play, under the rules it was played by."""
        return recalled_hands(self.store, round_)

    def profile_of(self, digest: str) -> Profile:
        """The rules a round was dealt under, by their digest: the rules in play, or as the
        books keep them with their rounds (a StoreError where they keep none)."""
        return self.profile if digest == self.profile.digest else self.store.profile(digest)

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

    # Bets: the betting buttons' steps are ``machine/betting.py``'s; the terminal keeps the
    # bets with the rest of its state and places what a press chose.

    @property
    def bets(self) -> Bets:
        return Bets(self.antes, self.bonus_stake)

    @property
    def ante(self) -> int:
        """The first box's ante: every box's while they are bet alike."""
        return self.antes[0]

    @property
    def boxes(self) -> int:
        return len(self.antes)

    @property
    def stepped_ante(self) -> int:
        """The ante BET and BET − step: the box bet alone's, or every box's."""
        return self.bets.ante_of(self.bet_box)

    def upfront(self) -> int:
        """The credit a deal with the current bets needs (``Betting.needs``)."""
        return self.betting.needs(self.bets)

    def least_to_deal(self) -> int:
        """The credit the least deal the table takes needs (``Betting.least_needed``)."""
        return self.betting.least_needed()

    def placed_at_deal(self) -> int:
        """What a deal with the current bets takes from the credit (``Betting.placed``)."""
        return self.betting.placed(self.bets)

    def _place(self, bets: Bets) -> None:
        self.antes, self.bonus_stake = bets.antes, bets.bonus_stake
        if self.bet_box is not None and (self.bet_box >= self.boxes or not self.betting.antes_may_differ):
            self.bet_box = None  # that box is no longer bet on, or the rules bet every box alike

    def _stored_bet_box(self, bet_box: int | None) -> int | None:
        """The box BET steps alone, as the books keep it: a restart steps the same box,
        unless the rules of this start bet every box alike or fewer boxes."""
        if bet_box is not None and bet_box < 0:
            raise StoreError(
                f"{self.store.path}: the stored terminal state is damaged: bet_box is {bet_box!r}"
            )
        kept = bet_box is not None and bet_box < self.boxes and self.betting.antes_may_differ
        return bet_box if kept else None

    def _stored_antes(self, antes: list[Any] | None, ante: int | None, boxes: int) -> tuple[int, ...]:
        """The antes the stored state kept: one per box, or (books of an earlier release) one
        ante for ``boxes`` boxes; StoreError where they are not whole amounts."""
        if antes is None:
            allowed = self.profile.allowed_antes()
            return ((ante if ante in allowed else allowed[0]),) * max(boxes, 1)
        try:
            return Bets.from_state({"antes": antes, "bonus_stake": 0}).antes
        except InputError:
            raise StoreError(
                f"{self.store.path}: the stored terminal state is damaged: antes is {antes!r}"
            ) from None

    @property
    def language(self) -> str:
        """The screen's language now: the player's choice for the session, else the house's."""
        return self.player_language or self.config.language

    def _in_session(self) -> bool:
        """A player's money is in play: credits, a round, or a cash-out being paid."""
        return bool(
            self.credits
            or self.round
            or self.handpay is not None
            or self.payout
            or self.jackpot_pending is not None
        )
