"""The round in play: dealing it (its stakes booked, the jackpot's contribution), the cards
the player selects, the game's actions, each journalled with the round's record and the
settled round paid (``settlement.py``), and the amounts BET steps through to insure.
"""

from __future__ import annotations

from oasis_kiosk._core import IllegalAction, Round
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.intents import ROUND_ACTIONS, Intent
from oasis_kiosk.machine.response import Amount, Response
from oasis_kiosk.machine.terminal.settlement import RoundSettling
from oasis_kiosk.rules import has_jackpot

PURCHASES = {"exchange": Intent.EXCHANGE, "buy_sixth_card": Intent.SIXTH}
"""The round's actions that buy a box cards, by the intent that buys them."""


def _unlimited(round_: Round) -> Round:
    """The round as it would stand on a credit without limit: what the rules offer."""
    return Round.replay(round_.profile, {**round_.record(), "credit": None})


class RoundPlay(RoundSettling):
    """Deals and plays the round."""

    def _on_deal(self, value: int | None) -> Response:
        if self.link_offline() is not None and (self.bonus_stake or not self._bonus_closed()):
            return self._offline()  # the linked jackpot is offline: no bonus, or no play
        number = self.store.next_round_id()
        deck = self._deck_for_round(number) if self._deck_for_round else None
        seed = self._seed_for_round(number) if self._seed_for_round and deck is None else None
        try:
            round_ = Round(
                self.profile,
                list(self.antes),
                bonus=self.bonus_stake,
                seed=seed,
                credit=self.credits,
                deck=deck,
            )
        except ValueError as error:
            return Response(False, N_("{intent} is not possible now"), {"intent": Intent.DEAL}, str(error))
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
        if not has_jackpot(self.rules):
            return
        assert self.round_id is not None
        for stake in round_.record()["bonus"]:
            if stake:
                # A linked cabinet's stake feeds the floor's pool (its outbox row carries the
                # stake): its own meter, which it would pay from if set back to its own
                # jackpot, stands still.
                self._book_contribution(self.round_id, stake, None, stake=stake)

    def _on_card(self, value: int | None) -> Response:
        if value is None or not 1 <= value <= 5:
            return Response(False, N_("card {card}: the cards are 1 to 5"), {"card": value})
        if self.round is None:
            return self._bet_alone(value)
        position = value - 1
        if position not in self.selected:
            most = self._most_selected(self.round)
            if len(self.selected) >= most:
                return Response(False, N_("cards to exchange: at most {count}"), {"count": most})
        self.selected ^= {position}
        if not self.selected:
            return Response(True, N_("no card selected"))
        return Response(
            True,
            N_("cards selected: {cards}"),
            {"cards": ", ".join(str(p + 1) for p in sorted(self.selected))},
        )

    def exchange_kept_for_play(self) -> bool:
        """The rules offer the box in play an exchange now, but the credit left after it
        would not keep the play bets to come, so the round offers none (RULES.md §2.7)."""
        round_ = self.round
        if round_ is None or "exchange" in round_.legal_actions():
            return False
        return self._most_selected(round_) > 0

    def selection_kept_for_play(self) -> int:
        """The number of cards selected where the round exchanges fewer for the credit (the
        rules would take this many, but the credit left would not keep the play bets to
        come); 0 where it is not so."""
        round_ = self.round
        count = len(self.selected)
        offered = round_.legal_actions().get("exchange") if round_ is not None else None
        if round_ is None or not offered or not count or count in offered:
            return 0
        return count if count in (_unlimited(round_).legal_actions().get("exchange") or {}) else 0

    def sixth_kept_for_play(self) -> bool:
        """The rules offer the box in play a sixth card now, but the credit left after it
        would not keep the play bets to come, so the round offers none."""
        round_ = self.round
        if round_ is None or "buy_sixth_card" in round_.legal_actions():
            return False
        return "buy_sixth_card" in _unlimited(round_).legal_actions()

    def purchase_made(self) -> Intent | None:
        """What the box in play bought, EXCHANGE or SIXTH CARD, where the rules sell a box
        one of them only (Golden Oasis: the sixth card is instead of an exchange)."""
        round_ = self.round
        if round_ is None or not self.rules.get("sixth_card"):
            return None
        for action in round_.record()["actions"]:
            if action.get("box") == round_.current_box and action["action"] in PURCHASES:
                return PURCHASES[action["action"]]
        return None

    def why_no_purchase(self, intent: Intent) -> Response | None:
        """Why a press that would buy the box cards (CARD, EXCHANGE, SIXTH CARD) is dark, if
        it is for the credit the play bets to come need or for a purchase the box made."""
        kept = {Intent.CARD, Intent.EXCHANGE} if self.exchange_kept_for_play() else set()
        if self.sixth_kept_for_play():
            kept.add(Intent.SIXTH)
        if intent in kept:
            return Response(
                False,
                N_("{intent}: the credit {credit} must keep the play bets to come"),
                {"intent": intent, "credit": Amount(self.credits)},
            )
        count = self.selection_kept_for_play()
        if intent is Intent.EXCHANGE and count:
            return Response(
                False,
                N_("{intent} ({count} selected): the credit {credit} must keep the play bets to come"),
                {"intent": intent, "count": count, "credit": Amount(self.credits)},
            )
        bought = self.purchase_made()
        if bought is None or intent not in {Intent.CARD, *PURCHASES.values()} - {bought}:
            return None
        if bought is Intent.SIXTH:
            template = N_("{intent}: one purchase per box, and this box bought a SIXTH CARD")
        else:
            template = N_("{intent}: one purchase per box, and this box exchanged")
        return Response(False, template, {"intent": intent})

    def _bet_alone(self, card: int) -> Response:
        """Between rounds, card ``card`` chooses box ``card`` for BET, BET − and MAX BET to
        step alone (RULES.md §3.7: antes may differ); again, every box alike."""
        if card > self.boxes:
            return Response(
                False, N_("card {card}: {boxes} box(es) are bet on"), {"card": card, "boxes": self.boxes}
            )
        self.bet_box = None if self.bet_box == card - 1 else card - 1
        self.bet_since_round = True  # the boxes staged for the next deal show, the chosen one lit
        if self.bet_box is None:
            return Response(True, N_("BET steps every box's ante"), notice=True)
        return Response(True, N_("BET steps the ante of box {box} alone"), {"box": card}, notice=True)

    @staticmethod
    def _most_selected(round_: Round) -> int:
        """The selection is what EXCHANGE would take: never more cards than the rules let
        this box exchange now. The credit does not count here: EXCHANGE says so if it falls
        short."""
        return max(_unlimited(round_).legal_actions().get("exchange") or {0: 0})

    def _act(self, round_: Round, intent: Intent, value: int | None) -> None:
        """Carries out a game action on ``round_``; IllegalAction if the round refuses it."""
        method = getattr(round_, ROUND_ACTIONS[intent])
        if intent is Intent.EXCHANGE:
            method(sorted(self.selected))
        elif intent is Intent.INSURE:
            method(value if value is not None else self.insurance_amount or 0)
        else:
            method()

    def _round_action(self, intent: Intent, value: int | None) -> Response:
        round_ = self.round
        if round_ is None:
            return Response(False, N_("{intent} is not live now"), {"intent": intent})
        before = round_.collected
        try:
            self._act(round_, intent, value)
        except IllegalAction as error:
            return Response(False, N_("{intent} is not possible now"), {"intent": intent}, str(error))
        # A selection is of the hand as it stood: an exchange used it, any other decision
        # left it behind (the next box's cards are another hand, RULES.md §3.7).
        self.selected.clear()
        self.insurance = None
        paid = round_.collected - before
        if paid:
            kind = "wager" if intent in {Intent.PLAY, Intent.INSURE} else "fee"
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
        self._settle(round_, round_id)
        self.round = None
        self.round_id = None

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
