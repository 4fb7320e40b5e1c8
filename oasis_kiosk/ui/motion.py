"""Motion on the table, as pure timing (no pygame): cards dealt from the shoe, turned,
exchanged, the dealer's hand revealed card by card, chips moved to and from the bet spots,
and a win counted up.

The table tells ``Motions`` what each card place shows now; the motions work out what
moved since and queue an animation for it, one after another as a dealer would. ``pose``
says where a card is and how far it has turned at a moment; ``skip`` ends everything at
once (the next button press never waits for an animation), except the dealer's reveal,
which ``hurry`` only quickens: the story of the round is told in its order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from oasis_kiosk.config import SPEEDS

Slot = tuple[str, int, int]
"""("dealer", 0, position) or ("box", box, position)."""
Face = str | None
"""A card's name, or None for a card lying face down."""

DEAL = 0.22  # seconds a card slides from the shoe
TURN = 0.15  # seconds a card takes to turn over
DEAL_GAP = 0.09  # between two cards dealt
REVEAL_GAP = 0.45  # between two of the dealer's cards turned: one after another, visibly
HURRIED_GAP = 0.15  # the same, once a press hurries the reveal: quicker, still in order
SWAP = 0.3  # an exchanged card goes and its replacement comes
PACES = dict(zip(SPEEDS, (1.0, 2.0), strict=True))
"""Each speed setting: how many times faster than normal the cards move and a win counts up."""


@dataclass(frozen=True)
class Motion:
    kind: str
    """"deal" (slides in, then turns if it is dealt face up), "turn" or "swap"."""
    start: float
    before: Face
    after: Face
    pace: float = 1.0
    duration: float = field(init=False, compare=False, repr=False)
    end: float = field(init=False, compare=False, repr=False)
    """Worked out when the motion is made, not when first asked: every card's is asked in
    every frame, and a ``cached_property`` takes a lock the first time (a deal's first frame
    asks for ten new motions' ends)."""

    def __post_init__(self) -> None:
        if self.kind == "deal":
            duration = (DEAL + (TURN if self.after is not None else 0.0)) / self.pace
        else:
            duration = (TURN * 2 if self.kind == "turn" else SWAP) / self.pace
        object.__setattr__(self, "duration", duration)
        object.__setattr__(self, "end", self.start + duration)


@dataclass(frozen=True)
class Pose:
    """A card at a moment: how far along its way from the shoe (1 = in place), how wide it
    shows while turning (1 = flat, 0 = edge on) and which face is up."""

    travel: float
    width: float
    face: Face


AT_REST = 1.0


class Motions:
    def __init__(self, pace: float = 1.0) -> None:
        """``pace``: PACES' factor of the speed setting; the reveal keeps its order at any."""
        self.pace = pace
        self.shown: dict[Slot, Face] = {}
        self.moving: dict[Slot, Motion] = {}
        self._queue_end = 0.0

    def _queue(self, now: float, gap: float) -> float:
        start = max(now, self._queue_end)
        self._queue_end = start + gap / self.pace
        return start

    def show(self, cards: dict[Slot, Face], now: float, fresh: bool = False) -> None:
        """What each place holds now. ``fresh``: a new deal, every card comes from the shoe."""
        if fresh:
            self.shown, self.moving, self._queue_end = {}, {}, now
        for slot in sorted(cards, key=_deal_order):
            face = cards[slot]
            if slot not in self.shown:
                kind, gap = "deal", DEAL_GAP
            elif self.shown[slot] == face:
                continue
            elif self.shown[slot] is None:
                kind, gap = "turn", REVEAL_GAP if slot[0] == "dealer" else DEAL_GAP
            else:
                kind, gap = "swap", DEAL_GAP
            self.moving[slot] = Motion(kind, self._queue(now, gap), self.shown.get(slot), face, self.pace)
            self.shown[slot] = face
        for slot in set(self.shown) - set(cards):
            del self.shown[slot]
            self.moving.pop(slot, None)

    def pose(self, slot: Slot, now: float) -> Pose | None:
        """None: nothing lies there (yet)."""
        if slot not in self.shown:
            return None
        motion = self.moving.get(slot)
        face = self.shown[slot]
        if motion is None or now >= motion.end:
            return Pose(AT_REST, AT_REST, face)
        elapsed = (now - motion.start) * self.pace  # in the normal pace's seconds
        if elapsed < 0:  # queued: the old card still lies there, or nothing yet
            return None if motion.kind == "deal" else Pose(AT_REST, AT_REST, motion.before)
        if motion.kind == "deal":
            if elapsed < DEAL:
                return Pose(_ease(elapsed / DEAL), AT_REST, None)
            return _turning(elapsed - DEAL, None, face)
        if motion.kind == "turn":
            return _turning(elapsed / 2, motion.before, face)
        half = SWAP / 2
        if elapsed < half:
            return Pose(AT_REST, 1 - elapsed / half, motion.before)
        return Pose(AT_REST, (elapsed - half) / half, face)

    def busy(self, now: float) -> bool:
        return any(now < motion.end for motion in self.moving.values())

    def settled_at(self) -> float:
        """When the last queued motion ends."""
        return max((motion.end for motion in self.moving.values()), default=0.0)

    def skip(self) -> None:
        self.moving.clear()
        self._queue_end = 0.0

    def landing(self, now: float) -> frozenset[int]:
        """The boxes some of whose cards are still to come, to turn or to be swapped."""
        return frozenset(
            slot[1] for slot, motion in self.moving.items() if slot[0] == "box" and now < motion.end
        )

    def revealing(self, now: float) -> bool:
        """Some of the dealer's cards are still to turn, or turning."""
        return bool(self._reveal(now))

    def _reveal(self, now: float) -> list[tuple[float, Slot, Motion]]:
        return sorted(
            (motion.start, slot, motion)
            for slot, motion in self.moving.items()
            if slot[0] == "dealer" and motion.kind == "turn" and now < motion.end
        )

    def hurry(self, now: float) -> None:
        """A press: everything ends at once but the dealer's reveal, whose cards still to
        turn follow one another HURRIED_GAP apart (a card already turning finishes)."""
        reveal = self._reveal(now)
        self.skip()
        gap = HURRIED_GAP / self.pace
        previous: float | None = None
        for start, slot, motion in reveal:
            if start > now:
                start = now if previous is None else max(now, previous + gap)
            self.moving[slot] = Motion("turn", start, motion.before, motion.after, self.pace)
            previous = start
        if previous is not None:
            self._queue_end = previous + gap


def _turning(elapsed: float, before: Face, after: Face) -> Pose:
    """A card turning over in TURN seconds: narrowing with the old face, widening with the new."""
    half = TURN / 2
    if elapsed < half:
        return Pose(AT_REST, 1 - elapsed / half, before)
    return Pose(AT_REST, min((elapsed - half) / half, 1.0), after)


def _ease(fraction: float) -> float:
    """Fast off the shoe, gentle into place."""
    return 1 - (1 - fraction) ** 3


def _deal_order(slot: Slot) -> tuple[int, int, int]:
    """Position by position round the table, boxes before the dealer, as a dealer deals."""
    where, box, position = slot
    return (position, 1 if where == "dealer" else 0, box)


@dataclass(frozen=True)
class CountUp:
    """A win counted up from 0 to ``amount``, starting at ``start``."""

    amount: int
    start: float
    duration: float

    def value(self, now: float) -> int:
        if now <= self.start:
            return 0
        if now >= self.start + self.duration:
            return self.amount
        return self.amount * int((now - self.start) * 1000) // int(self.duration * 1000)

    def done(self, now: float) -> bool:
        return now >= self.start + self.duration


def count_duration(amount: int, unit: int, jackpot: bool, pace: float = 1.0) -> float:
    """Longer for bigger wins, never tedious: 0.6 s for a push-size win, up to 3 s (5 s for
    a jackpot), at the normal pace."""
    if amount <= 0:
        return 0.0
    multiples = amount / max(unit, 1)
    base = min(0.6 + 0.08 * multiples, 3.0)
    return (5.0 if jackpot else base) / pace


ChipSpot = tuple[int, str]
"""(box, "ante" | "play" | "bonus" | "insure")."""
PLAYER = "player"
"""The player's end of a chip's way: the credit meter, where stakes come from and winnings go."""
DEALER = "dealer"
"""The dealer's end: the rack across the table, where lost bets go."""
CHIP_SLIDE = 0.35  # seconds a chip takes between its spot and either end of the table
CHIP_GAP = 0.08  # between two chips moved: one after another, as a dealer's hand moves them


@dataclass(frozen=True)
class ChipMove:
    """A chip on its way: to its spot from the player, or off it to ``towards``."""

    start: float
    amount: int
    towards: str
    """"spot" (a bet placed), PLAYER or DEALER."""
    pace: float = 1.0

    @property
    def end(self) -> float:
        return self.start + CHIP_SLIDE / self.pace

    def travelled(self, now: float) -> float:
        """How far along its way, eased: fast off, gentle at the end (0 to 1)."""
        return _ease(min(max((now - self.start) * self.pace / CHIP_SLIDE, 0.0), 1.0))


@dataclass(frozen=True)
class ChipPose:
    """A chip at a moment: its amount, the end of the table it comes from or goes to (None:
    it lies on its spot) and how near its spot it is (1 = on it, 0 = at that end)."""

    amount: int
    end: str | None
    nearness: float


class ChipMotions:
    """The chips on the bet spots: each placed bet slides in from the player; a settled
    round's chips stay until the dealer's last card has turned, then the lost ones go to the
    dealer, the dealer pays each won bet with a chip of its win, and the won ones (stakes that
    come back, with their pay) go to the player, one after another."""

    def __init__(self, pace: float = 1.0) -> None:
        self.pace = pace
        self.lying: dict[ChipSpot, int] = {}
        """Chips on their spots, once arrived (the amount each says)."""
        self.arriving: dict[ChipSpot, ChipMove] = {}
        self.leaving: dict[ChipSpot, ChipMove] = {}
        self.paying: dict[ChipSpot, ChipMove] = {}
        """The dealer's pay of a won bet, from the dealer's end to the bet's spot."""

    def place(self, bets: dict[ChipSpot, int], now: float, taken_to: str) -> None:
        """The bets on the spots now. A bet on an empty spot slides in from the player; a bet
        gone leaves for ``taken_to`` (PLAYER: taken back before the deal; DEALER: forfeited,
        as a bonus by an exchange); a changed amount only changes what its chip says."""
        start = now
        for spot in sorted(set(bets) | set(self.lying)):
            amount, before = bets.get(spot), self.lying.get(spot)
            if amount == before:
                continue
            if amount is None:
                assert before is not None
                del self.lying[spot]
                self.arriving.pop(spot, None)
                self.leaving[spot] = ChipMove(start, before, taken_to, self.pace)
            elif before is None:
                self.lying[spot] = amount
                self.leaving.pop(spot, None)
                self.arriving[spot] = ChipMove(start, amount, "spot", self.pace)
            else:
                self.lying[spot] = amount
                continue
            start += CHIP_GAP / self.pace

    def settle(
        self, destinations: dict[ChipSpot, str], at: float, won: dict[ChipSpot, int] | None = None
    ) -> None:
        """The round settled and its outcome shows at ``at``: from then the dealer takes the
        chips lost (DEALER), pays each bet ``won`` with a chip of its win sliding to the bet's
        spot, and once paid the other chips go back to the player with their pay (PLAYER, or
        not named), as a dealer takes before paying. Called again (a press hurried the reveal)
        it moves the same chips at the new time."""
        won = won or {}
        stakes = {
            spot: move.amount - (self.paying.pop(spot).amount if spot in self.paying else 0)
            for spot, move in self.leaving.items()
            if move.start >= at
        }
        stakes |= self.lying
        self.lying.clear()
        start = at
        gap = CHIP_GAP / self.pace
        taken = sorted(spot for spot in stakes if destinations.get(spot, PLAYER) == DEALER)
        for spot in taken:
            self.leaving[spot] = ChipMove(start, stakes[spot], DEALER, self.pace)
            start += gap
        for spot in sorted(spot for spot in stakes if won.get(spot, 0) > 0 and spot not in taken):
            self.paying[spot] = ChipMove(start, won[spot], "spot", self.pace)
            start = max(start + gap, self.paying[spot].end)  # the last pay lands before the chips go
        for spot in sorted(set(stakes) - set(taken)):
            amount = stakes[spot] + (self.paying[spot].amount if spot in self.paying else 0)
            self.leaving[spot] = ChipMove(start, amount, PLAYER, self.pace)
            start += gap

    def pose(self, spot: ChipSpot, now: float) -> ChipPose | None:
        """None: no chip there (an empty spot)."""
        leaving = self.leaving.get(spot)
        if leaving is not None and now >= leaving.start:
            if now >= leaving.end:
                return None
            return ChipPose(leaving.amount, leaving.towards, 1 - leaving.travelled(now))
        arriving = self.arriving.get(spot)
        if arriving is not None and now < arriving.end:
            if now < arriving.start:
                return None
            return ChipPose(self.lying.get(spot, arriving.amount), PLAYER, arriving.travelled(now))
        amount = leaving.amount if leaving is not None else self.lying.get(spot)
        paying = self.paying.get(spot)
        if amount is not None and paying is not None and now < paying.end:
            amount -= paying.amount  # the stake alone until its pay has come
        return None if amount is None else ChipPose(amount, None, AT_REST)

    def payments(self, now: float) -> dict[ChipSpot, ChipPose]:
        """The dealer's pay on its way to each won bet's spot at ``now``."""
        return {
            spot: ChipPose(move.amount, DEALER, move.travelled(now))
            for spot, move in self.paying.items()
            if move.start <= now < move.end
        }

    def moving(self, now: float) -> set[ChipSpot]:
        """The spots whose chip is on its way at ``now``."""
        return {
            spot
            for moves in (self.arriving, self.leaving)
            for spot, move in moves.items()
            if move.start <= now < move.end
        }

    def spots(self) -> set[ChipSpot]:
        """Every spot a chip lies on or moves to or from."""
        return set(self.lying) | set(self.arriving) | set(self.leaving)

    def busy(self, now: float) -> bool:
        return any(
            now < move.end for moves in (self.arriving, self.leaving, self.paying) for move in moves.values()
        )

    def skip(self) -> None:
        """Every chip where it is going, at once."""
        self.arriving.clear()
        self.leaving.clear()
        self.paying.clear()
