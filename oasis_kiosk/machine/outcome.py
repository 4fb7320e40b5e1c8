"""A round's outcome as the core settles it, for every place that names it: the hand a box's
bonus is judged on, and what the round won."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oasis_kiosk._core import Profile, Round

if TYPE_CHECKING:
    from oasis_kiosk._core import _RoundRecord as RoundRecord
    from oasis_kiosk._core import _Settlement as Settlement


def bonus_category(profile: Profile, record: RoundRecord, box: int, hand: str) -> str:
    """The hand category box ``box``'s bonus is judged on, as the core settles it: ``hand``,
    the box's hand now, or where ``profile`` judges the bonus on the five cards dealt (an
    exchange, a sixth card or a new hand bought do not change it), the hand those made.
    ``record`` is the round's, dealt under ``profile``."""
    bonus = profile.to_dict().get("bonus")
    if bonus is None or bonus["judged_on"] != "dealt":
        return hand
    # A box's cards come into sight only once the boxes before it are decided: the first
    # sight of them is before any action of its own, its cards as dealt.
    actions = record["actions"]
    for count in range(len(actions) + 1):
        dealt = Round.replay(profile, {**record, "actions": actions[:count]}).hand(box)
        if dealt is not None:
            return dealt.category
    return hand


def round_win(settlement: Settlement, awards: int) -> int:
    """What a settled round won (below 0: lost): the core's net of everything the player paid
    in during the round, with the jackpot ``awards`` the terminal paid on it. The WIN meter,
    the games won and the handpay limit all count this."""
    return settlement["net"] + awards
