"""Betting between rounds: the ante, the boxes and the bonus stake the next deal stakes, what
the rules in play take of them, and where each betting button takes them (BET, BET −, MAX
BET, BONUS, BOXES), with the lamps of DEAL and REPEAT BET, which deal them.

Nothing here books or keeps anything: a press is worked out from the bets and the credit, and
comes back as the bets it chose with its reply. The terminal places them inside the one
transaction of that input and saves them with the rest of its state (``Terminal.handle``),
so the bets a restart finds are the ones the books hold."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from oasis_kiosk._core import BetError, Profile
from oasis_kiosk.errors import InputError
from oasis_kiosk.i18n import N_
from oasis_kiosk.machine.intents import Intent
from oasis_kiosk.machine.response import Amount, Response


@dataclass(frozen=True)
class Bets:
    """What a deal stakes: the ante of each box bet on, and the bonus stake (0: none) of every
    box. The antes are alike unless the table lets them differ (RULES.md §3.7) and a box was
    bet alone (``Betting.antes_may_differ``)."""

    antes: tuple[int, ...]
    bonus_stake: int

    @classmethod
    def alike(cls, ante: int, boxes: int, bonus_stake: int) -> Bets:
        """``boxes`` boxes at one ante."""
        return cls((ante,) * boxes, bonus_stake)

    @property
    def boxes(self) -> int:
        return len(self.antes)

    @property
    def ante(self) -> int:
        """The first box's ante: every box's while they are bet alike."""
        return self.antes[0]

    def ante_of(self, box: int | None) -> int:
        """The ante BET steps for ``box``: that box's, or (None) every box's, the first's."""
        return self.antes[box] if box is not None else self.ante

    @classmethod
    def from_state(cls, state: Any) -> Bets:
        """The bets as ``Terminal.save_state`` wrote them (books of earlier releases kept one
        ante for ``boxes`` boxes); InputError naming what is wrong."""
        if isinstance(state, dict) and set(state) == {"ante", "boxes", "bonus_stake"}:
            if not all(type(value) is int and value >= 0 for value in state.values()) or state["boxes"] < 1:
                raise InputError(f"amounts are whole numbers of at least 0, on at least one box: {state!r}")
            return cls.alike(state["ante"], state["boxes"], state["bonus_stake"])
        if not isinstance(state, dict) or set(state) != {"antes", "bonus_stake"}:
            raise InputError(f"not a table of antes and bonus_stake: {state!r}")
        antes, stake = state["antes"], state["bonus_stake"]
        if not isinstance(antes, list | tuple) or not antes:
            raise InputError(f"antes are a list of one ante per box: {state!r}")
        if not all(type(value) is int and value >= 0 for value in (*antes, stake)):
            raise InputError(f"amounts are whole numbers of at least 0: {state!r}")
        return cls(tuple(antes), stake)


@dataclass(frozen=True)
class BetChoice:
    """What a betting button chose: the bets to place, and the reply to show."""

    bets: Bets
    response: Response


class Betting:
    """The bets one rule profile takes, and the betting buttons' steps through them. BET,
    BET − and MAX BET step one box's ante (``box``: the box bet alone) or every box's alike
    (``box`` None)."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.most_boxes = profile.to_dict()["boxes"]["max"]
        self.antes_may_differ = self._takes_differing_antes()
        """A box may be bet alone, at an ante of its own (RULES.md §3.7)."""

    def _takes_differing_antes(self) -> bool:
        """The core deals two boxes at two antes: never on a table of one box, of one ante on
        several boxes, or of the same ante on every box."""
        antes = tuple(self.antes_for(2)[:2])
        return len(antes) == 2 and self.allows(Bets(antes, 0))

    def antes_for(self, boxes: int) -> list[int]:
        """The antes the profile allows on each of ``boxes`` boxes (several boxes may ask for
        a higher minimum), as the core checks them."""
        return self.profile.allowed_antes(boxes)

    def bonus_stakes(self, antes: Sequence[int]) -> list[int]:
        """The bonus stakes allowed at every one of ``antes`` (a privilege fee follows the ante)."""
        first, *others = antes
        return [
            stake
            for stake in self.profile.bonus_stakes(first)
            if all(stake in self.profile.bonus_stakes(ante) for ante in set(others))
        ]

    def fitted_bonus(self, stake: int, *antes: int) -> int:
        """``stake`` as the profile allows it at ``antes``: none stays none; else the greatest
        allowed stake not above it, or the least."""
        stakes = self.bonus_stakes(antes)
        if not stake or not stakes:
            return 0
        return max((allowed for allowed in stakes if allowed <= stake), default=stakes[0])

    def fitted(self, bets: Bets) -> Bets:
        """``bets`` as the profile takes them, nearest to what the player chose: no more boxes
        than the table has (at least one), the least ante where an ante is not one of its,
        every box at the first's where the antes may not differ, the bonus fitted."""
        boxes = max(1, min(bets.boxes, self.most_boxes))
        allowed = self.antes_for(boxes)
        antes = [ante if ante in allowed else allowed[0] for ante in bets.antes[:boxes]]
        if not self.antes_may_differ:
            antes = [antes[0]] * boxes
        return Bets(tuple(antes), self.fitted_bonus(bets.bonus_stake, *antes))

    def needs(self, bets: Bets) -> int:
        """The credit a deal of ``bets`` needs, as the core counts it: antes, bonus stakes and
        every play bet (kept in reserve, so that no option leads to a fold)."""
        return self.profile.deal_needs(list(bets.antes), bets.bonus_stake)

    def least_needed(self) -> int:
        """What the least deal the table takes needs: its least ante on one box, no bonus."""
        return self.needs(Bets.alike(self.antes_for(1)[0], 1, 0))

    def placed(self, bets: Bets) -> int:
        """What a deal of ``bets`` takes from the credit at once, as the core counts it: the
        antes, bonus stakes and blind boxes' play bets; the rest of ``needs`` is kept."""
        return self.profile.placed_at_deal(list(bets.antes), bets.bonus_stake)

    def allows(self, bets: Bets) -> bool:
        """The profile takes these bets (it may have changed since they were placed): the core
        prices only bets a round would take, and refuses the others (BetError)."""
        try:
            self.needs(bets)
        except BetError:
            return False
        return True

    def max_ante(self, bets: Bets, credit: int, box: int | None = None) -> int:
        """MAX BET's ante for ``box`` (None: every box): the greatest the credit deals with
        the other bets as they are, or the greatest the table allows when the credit deals
        none (the prompt then says why)."""
        antes = self.antes_for(bets.boxes)

        def needs(ante: int) -> int:
            return self.needs(self._with_ante(bets, ante, box))

        # What a deal needs grows with the ante: a search, not a price for each of the antes
        # (a table may offer a hundred), since the lamps ask at every change.
        dealt = bisect.bisect_right(antes, credit, key=needs)
        return antes[dealt - 1] if dealt else antes[-1]

    def lit(self, bets: Bets, last: Bets | None, credit: int, box: int | None = None) -> set[Intent]:
        """The betting buttons that would do something now, between rounds: DEAL and REPEAT
        BET (``last``, the last round's bets) only where the rules take the bets and the
        credit covers them."""
        lit = {Intent.BET, Intent.BOXES}
        ante = bets.ante_of(box)
        if ante > self.antes_for(bets.boxes)[0]:
            lit.add(Intent.BET_DOWN)
        if self.max_ante(bets, credit, box) != ante:
            lit.add(Intent.MAX_BET)
        if self.bonus_stakes(bets.antes):
            lit.add(Intent.BONUS)
        if credit >= self.needs(bets):
            lit.add(Intent.DEAL)
        if last is not None and self.allows(last) and credit >= self.needs(last):
            lit.add(Intent.REPEAT_BET)
        return lit

    def why_not_dealt(self, intent: Intent, bets: Bets | None, credit: int) -> Response:
        """Why DEAL (``bets``: those placed) or REPEAT BET (the last round's) is dark between
        rounds."""
        details = {"intent": intent}
        if bets is None:
            return Response(False, N_("{intent}: no round has been dealt yet"), details)
        if not self.allows(bets):
            return Response(False, N_("{intent}: the last round's bets are not allowed now"), details)
        # Only the credit stands in the way: it must cover every play bet too (RULES.md §2.7).
        return Response(
            False,
            N_("{intent} needs {amount}, its play bets included; the credit is {credit}"),
            {**details, "amount": Amount(self.needs(bets)), "credit": Amount(credit)},
        )

    # The buttons, each from the bets placed to the bets it chooses.

    def bet(self, bets: Bets, box: int | None = None) -> BetChoice:
        """BET: the next ante up; one button, so it wraps round to the least ante."""
        antes = self.antes_for(bets.boxes)
        current = bets.ante_of(box)
        ante = antes[(antes.index(current) + 1) % len(antes)] if current in antes else antes[0]
        return self._at_ante(bets, ante, box)

    def bet_down(self, bets: Bets, box: int | None = None) -> BetChoice:
        """BET −: the ante below (lit only above the least)."""
        current = bets.ante_of(box)
        return self._at_ante(bets, max(ante for ante in self.antes_for(bets.boxes) if ante < current), box)

    def max_bet(self, bets: Bets, credit: int, box: int | None = None) -> BetChoice:
        """MAX BET: ``max_ante``."""
        return self._at_ante(bets, self.max_ante(bets, credit, box), box)

    def _with_ante(self, bets: Bets, ante: int, box: int | None) -> Bets:
        """``bets`` with ``box``'s ante (every box's: None, or where the antes may not differ)
        at ``ante``; the stake follows the antes (a stake allowed at one ante may not be at
        another)."""
        if box is not None and self.antes_may_differ:
            antes = (*bets.antes[:box], ante, *bets.antes[box + 1 :])
        else:
            antes = (ante,) * bets.boxes
        return Bets(antes, self.fitted_bonus(bets.bonus_stake, *antes))

    def _at_ante(self, bets: Bets, ante: int, box: int | None) -> BetChoice:
        chosen = self._with_ante(bets, ante, box)
        if box is None:
            return BetChoice(chosen, Response(True, N_("ante {ante}"), {"ante": Amount(ante)}))
        return BetChoice(
            chosen, Response(True, N_("box {box}: ante {ante}"), {"box": box + 1, "ante": Amount(ante)})
        )

    def bonus(self, bets: Bets) -> BetChoice:
        """BONUS: the next of the profile's stakes at the antes, then off."""
        following = [stake for stake in self.bonus_stakes(bets.antes) if stake > bets.bonus_stake]
        chosen = replace(bets, bonus_stake=following[0] if following else 0)
        if not chosen.bonus_stake:
            return BetChoice(chosen, Response(True, N_("bonus off")))
        return BetChoice(chosen, Response(True, N_("bonus {amount}"), {"amount": Amount(chosen.bonus_stake)}))

    def boxes(self, bets: Bets) -> BetChoice:
        """BOXES: one box more (at the last box's ante), round to one after the table's most;
        an ante below the least on several boxes goes up to it, and the screen says so."""
        boxes = bets.boxes % self.most_boxes + 1
        allowed = self.antes_for(boxes)
        wanted = (*bets.antes, bets.antes[-1])[:boxes]
        antes = tuple(ante if ante in allowed else allowed[0] for ante in wanted)
        chosen = Bets(antes, self.fitted_bonus(bets.bonus_stake, *antes))
        if antes != wanted:  # several boxes may need a higher ante: the smallest allowed
            return BetChoice(chosen, least_on_boxes(boxes, allowed[0]))
        return BetChoice(chosen, Response(True, N_("{boxes} box(es)"), {"boxes": boxes}))


def least_on_boxes(boxes: int, ante: int) -> Response:
    """Said when BOXES raises the ante to the least on several boxes, and by the prompt while
    it stays there (BET − dark for it)."""
    return Response(
        True,
        N_("on {boxes} boxes the ante is at least {ante}"),
        {"boxes": boxes, "ante": Amount(ante)},
        notice=True,
    )
