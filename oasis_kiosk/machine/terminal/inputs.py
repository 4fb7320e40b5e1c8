"""The player's input: which intents are live now (the lamps lit), carrying one out in its
transaction (``handle``), why a dead one is refused, and the buttons that touch neither
money nor the round (help, language).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from oasis_kiosk._core import IllegalAction, Round
from oasis_kiosk.config import LANGUAGES
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.intents import INTENTS, ROUND_ACTIONS, Intent
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.money_kinds import MONEY_KINDS
from oasis_kiosk.machine.response import Response
from oasis_kiosk.machine.terminal.money_in import CreditsIn
from oasis_kiosk.machine.terminal.round_play import RoundPlay
from oasis_kiosk.machine.tilts import TiltKind

# The largest value an input may carry (an amount in minor units).
MAX_VALUE = 10**12


class Inputs(RoundPlay, CreditsIn):
    """Takes the player's intents."""

    def live(self) -> set[Intent]:
        """The intents that would do something now: the lamps that are lit. The door and the
        operator's key always count, on the battery too: each is a physical fact, like money a
        device took in (a key turned back unbooked would hold the cabinet in the operator's menu
        when the power returns)."""
        mode = self.mode
        if mode is Mode.BOOKS_FAULT:
            return set()  # nothing can be booked: no lamp lit, no money taken
        door = Intent.DOOR_CLOSE if TiltKind.DOOR in self.tilts else Intent.DOOR_OPEN
        key = Intent.OPERATOR_KEY_OFF if self.operator_key else Intent.OPERATOR_KEY_ON
        switches = {door, key}
        if mode in {Mode.POWERING_DOWN, Mode.OPERATOR, Mode.JACKPOT_PENDING}:
            return switches
        if mode.calls_attendant:
            # A payout's stop already asked for: the key does nothing until the hopper stands.
            return switches if self.payout and self.stopping else switches | {Intent.ATTENDANT}
        live = switches | {Intent.HELP, Intent.LANGUAGE}
        if self.round is None:
            # No query for an open round: a round left open in the
            # database without resuming carries the "resume" tilt, which only the operator's
            # void clears (closing the round), so an untilted terminal has none.
            credits = self.credits
            room = self.room_for_money()
            # An acceptor cannot know which coin or note comes next: it takes money only
            # while the largest it accepts still fits under the limit.
            live |= {Intent(name) for name, kind in MONEY_KINDS.items() if kind.fits(self.config, room)}
            live |= self.betting.lit(self.bets, self.last_bets, credits, self.bet_box)
            if self.betting.antes_may_differ and self.boxes > 1:
                live.add(Intent.CARD)  # a card button chooses the box BET steps alone
            if credits > 0:
                live.add(Intent.CASHOUT)
            return live
        legal = self.round.legal_actions()
        live |= {intent for intent, name in ROUND_ACTIONS.items() if name in legal}
        if "exchange" in legal:
            live.add(Intent.CARD)
            if len(self.selected) not in legal["exchange"]:
                live.discard(Intent.EXCHANGE)  # lit only for a selection that may be exchanged
        amounts = self.insurance_amounts()
        if len(amounts) > 1:
            live.add(Intent.BET)  # BET and BET − choose the amount to insure
            if self.insurance_amount != amounts[0]:
                live.add(Intent.BET_DOWN)
        return live

    def cards_live(self) -> set[int]:
        """The cards (1 to 5) whose press would select or unselect one now: their lamps.
        Once the selection holds all the rules let this box exchange, only its own cards."""
        round_ = self.round
        if Intent.CARD not in self.live():
            return set()
        if round_ is None:  # the boxes bet on, each of which may be bet alone
            return set(range(1, self.boxes + 1))
        if len(self.selected) < self._most_selected(round_):
            return set(range(1, 6))
        return {position + 1 for position in self.selected}

    def handle(self, name: str, value: int | None = None, *, note: tuple[str, Any] | None = None) -> Response:
        """Carries out the intent of this ``name`` in one transaction. ``note``, a (key,
        value) pair, is saved in the same transaction (the script runner's position)."""
        if name not in INTENTS:
            return Response(False, N_("unknown input {intent!r}"), {"intent": name})
        intent = Intent(name)
        # A whole number exactly: a float, a bool or text must never reach the round, the
        # ledger or the stored state (a card of 1.5 saved as the selection bricked the books).
        if value is not None and (type(value) is not int or not 0 <= value <= MAX_VALUE):
            return Response(
                False,
                N_("{intent} {value}: a value is a whole number from 0 to {limit}"),
                {"intent": intent, "value": repr(value), "limit": MAX_VALUE},
            )
        if self.power_failure and intent not in self.live():
            # Refused without a word to the database, which stays closed.
            return Response(False, N_("{intent} is not live now"), {"intent": intent})

        def carry_out() -> Response:
            if intent not in self.live():
                response = self.why_not(intent, value)
            elif intent is Intent.BONUS and self._bonus_closed():
                response = self._bonus_off()
            elif intent in ROUND_ACTIONS:
                response = self._round_action(intent, value)
            else:
                handler: Callable[[int | None], Response] = getattr(self, f"_on_{intent}")
                response = handler(value)
            if not response.ok:
                self.store.event(
                    "refused", intent=intent, value=value, reason=response.message, said=response.logged()
                )
            return response

        if note is not None:
            self.note = note
        return self._commit(carry_out)

    def why_not(self, intent: Intent, value: int | None = None) -> Response:
        """The reason a dead button gives: what holds the terminal, or the round's own reason
        (asked of a copy of the round, so that asking changes nothing)."""
        details = {"intent": intent}
        mode = self.mode
        if mode is Mode.OPERATOR:
            return Response(False, N_("{intent} is not possible while the operator key is turned"), details)
        if intent is Intent.ATTENDANT and self.payout and self.stopping:
            return Response(False, N_("the payout is stopping: what it did not pay is handpaid then"))
        if mode in {Mode.PAYING, Mode.HANDPAY}:
            return Response(False, N_("{intent} is not possible while the attendant is called"), details)
        if mode is Mode.JACKPOT_PENDING:
            return Response(
                False, N_("{intent} is not possible while the jackpot is being confirmed"), details
            )
        if mode is Mode.TILTED:
            # The tilts' kinds are the log's (the reason): the screen says the tilt in words.
            return Response(
                False,
                N_("{intent} is not possible while the terminal is tilted"),
                details,
                ", ".join(sorted(self.tilts)),
            )
        offered = {action for _phase, actions in self.profile.offered_actions() for action in actions}
        if intent in ROUND_ACTIONS and ROUND_ACTIONS[intent] not in offered:
            return Response(False, N_("{intent}: this table does not offer it"), details)
        reason = ""  # the core's own words, for the log
        if self.round is not None and intent in ROUND_ACTIONS:
            copy = Round.replay(self.round.profile, self.round.record())
            try:
                self._act(copy, intent, value)
            except IllegalAction as error:
                reason = str(error)
        no_purchase = self.why_no_purchase(intent)
        if no_purchase is not None:
            return replace(no_purchase, reason=reason)
        if reason:
            return Response(False, N_("{intent} is not possible now"), details, reason)
        if intent in {Intent.DEAL, Intent.REPEAT_BET} and Intent.BET in self.live():
            bets = self.bets if intent is Intent.DEAL else self.last_bets
            return self.betting.why_not_dealt(intent, bets, self.credits)
        return Response(False, N_("{intent} is not live now"), details)

    def _on_help(self, value: int | None) -> Response:
        return Response(True, "help")

    def _on_language(self, value: int | None) -> Response:
        self.player_language = LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
        return Response(True, N_("language {language}"), {"language": self.player_language})

    def forget_the_player(self) -> None:
        """The attract demo starts: the next player finds the house's language and every box
        bet alike (a box BET stepped alone had carried into the next player's session)."""
        if self.player_language is not None or self.bet_box is not None:
            self._commit(self._forget_the_player)

    def _forget_the_player(self) -> Response:
        self.player_language, self.bet_box = None, None
        return Response(True, N_("language {language}"), {"language": self.config.language})
