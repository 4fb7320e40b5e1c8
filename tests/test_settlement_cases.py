"""Hand-picked settlement cases with every expected number worked out by hand from RULES.md
and the shipped profiles (never copied from the engine): an independent check of the round.

Each case stacks the deck (box 1, box 2, ..., the dealer's five with the face-up card last,
then the cards drawn later: burn card, replacements in ascending position order, sixth
card, the dealer's replacement), plays a list of actions and compares a few fields of the
settlement. Amounts are minor units (cents, haléře, kopecks).

Actions: "play", "fold", "exchange 2 4", "buy_sixth_card", "insure 6000", "decline",
"buy_dealer_card", "buy_game"; "!action" must raise IllegalAction; "@1" asserts that box
index 1 is the one to act.

Expected box fields: outcome; ante, play, bonus, ins (the amounts *returned*, stake
included); main (ante + play returned, where the split of a capped or protected payment is
not fixed by the rules); fees; jackpot; hand (category); net. Round fields: net, dealer
(his category), qual (whether he qualifies).

Base bets of the profiles: standard 1000 ante / 2000 play (10 / 100 / 3 000 EUR table,
max payout 300000, cap "total"); czech* 2000 / 4000 (max 10000000, cap "play", fixed bonus
stake 2000); golden-oasis 1000 / 2000 (max 200000, cap "total", privilege fee 10 % of the
ante, 60 at 500); russian-three-box 500 / 1000 (max 200000, cap "total"); stand-* 10000 /
20000 (max 20000000, cap "total", quads 15:1, straight flush 45:1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from oasis_kiosk import IllegalAction, Round, load_profile

JACKPOT = {"category": "RoyalFlush", "share": "1"}
RETURNED = '[game]\nno_qualify_ante = "returned"'
CAP_PLAY = '[game]\ncap = "play"'
CAP_TOTAL = '[game]\ncap = "total"'
CZ_MAX_1M = "[table]\nmax_payout = 1000000"

BoxExpect = dict[str, Any]


@dataclass(frozen=True)
class Case:
    id: str
    profile: str
    antes: int | list[int]
    deck: str
    actions: str
    net: int
    bonus: Any = None
    overrides: str | None = None
    dealer: str | None = None
    qual: bool | None = None
    boxes: list[BoxExpect] = field(default_factory=list)


def case(
    cid: str,
    profile: str,
    antes: int | list[int],
    deck: str,
    actions: str,
    net: int,
    *,
    bonus: Any = None,
    ov: str | None = None,
    dealer: str | None = None,
    qual: bool | None = None,
    boxes: list[BoxExpect] | None = None,
    **box: Any,
) -> Case:
    """One case; keyword fields not named above are the expectations of box 1."""
    assert not (boxes and box), "either per-box expectations or box 1's fields"
    return Case(cid, profile, antes, deck, actions, net, bonus, ov, dealer, qual, boxes or [box])


# --------------------------------------------------------------------------------------------
# (1) Main game: comparisons and ties (§1, §2.5). standard: ante 1000, play 2000; a win pays
# ante 1:1 and the play bet at odds, so net = 1000 + 2000 x odds.
MAIN = [
    case("tie-ak-equal-ranks-other-suits", "standard", 1000, "Ah Kd 9c 7s 3h / As Kc 9d 7h 3c", "play", 0,
         outcome="push", ante=1000, play=2000, hand="AceKing", dealer="AceKing", qual=True),
    case("ak-vs-dealer-ak-third-card-player", "standard", 1000, "Ah Kd Qc 7s 3h / As Kc Jd 9h 8c", "play",
         3000, outcome="won", ante=2000, play=4000, hand="AceKing", dealer="AceKing"),
    case("ak-vs-dealer-ak-fifth-card-dealer", "standard", 1000, "Ah Kd Qc 7s 2h / As Kc Qd 7h 3c", "play",
         -3000, outcome="lost", ante=0, play=0),
    case("ak-vs-dealer-ak-fourth-card-player", "standard", 1000, "Ah Kd Qc 8s 2h / As Kc Qd 7h 6c", "play",
         3000, outcome="won"),
    case("ak-vs-dealer-ak-fifth-card-player", "standard", 1000, "Ah Kd Jc 8s 4h / As Kc Jd 8h 3c", "play",
         3000, outcome="won"),
    case("ace-high-straight-beats-wheel", "standard", 1000, "Ac Kd Qh Js 10c / Ad 2c 3d 4h 5s", "play",
         9000, outcome="won", ante=2000, play=10000, hand="Straight", dealer="Straight"),
    case("wheel-loses-to-six-high-straight", "standard", 1000, "Ah 2d 3c 4s 5h / 2s 3d 4h 5c 6d", "play",
         -3000, outcome="lost", hand="Straight"),
    case("wheel-vs-wheel-push", "standard", 1000, "Ah 2d 3c 4s 5h / As 2c 3d 4h 5c", "play", 0,
         outcome="push", ante=1000, play=2000),
    case("wheel-is-a-straight-beats-dealer-ak", "standard", 1000, "Ah 2d 3c 4s 5h / As Kc 9d 7h 3d", "play",
         9000, outcome="won", hand="Straight"),
    case("wraparound-k-a-2-3-4-is-ak-not-straight", "standard", 1000, "Kh Ad 2c 3s 4h / As Kc 9d 7h 6c",
         "play", -3000, outcome="lost", hand="AceKing"),
    case("dealer-wraparound-qualifies-as-ak", "standard", 1000, "2h 2d 9c 7s 5h / Kc Ad 2s 3s 4c", "play",
         3000, outcome="won", dealer="AceKing", qual=True),
    case("pair-vs-pair-first-kicker", "standard", 1000, "8h 8d Kc 7s 3h / 8s 8c Qd 9h 4c", "play", 3000,
         outcome="won", hand="OnePair"),
    case("pair-vs-pair-second-kicker-dealer", "standard", 1000, "Jh Jd Ac 9s 2h / Js Jc Ad 10h 3c", "play",
         -3000, outcome="lost"),
    case("pair-vs-pair-third-kicker", "standard", 1000, "8h 8d Kc 7s 4h / 8s 8c Kd 7h 3c", "play", 3000,
         outcome="won"),
    case("pair-vs-pair-all-kickers-equal-push", "standard", 1000, "8h 8d Kc 7s 4h / 8s 8c Kd 7h 4c", "play",
         0, outcome="push", ante=1000, play=2000),
    case("higher-pair-beats-better-kickers", "standard", 1000, "9h 9d 4c 3s 2h / 8s 8c Ad Kh Qc", "play",
         3000, outcome="won"),
    case("dealer-higher-pair-wins", "standard", 1000, "8h 8d Ac Ks Qh / 9s 9c 4d 3h 2c", "play", -3000,
         outcome="lost"),
    case("flush-vs-flush-fifth-card", "standard", 1000, "Ah Jh 9h 6h 3h / As Js 9s 6s 2s", "play", 11000,
         outcome="won", ante=2000, play=12000, hand="Flush", dealer="Flush"),
    case("flush-vs-flush-second-card-dealer", "standard", 1000, "Ah Jh 9h 6h 3h / Ac Qc 4c 3c 2c", "play",
         -3000, outcome="lost"),
    case("flush-vs-flush-equal-ranks-push", "standard", 1000, "Kh Jh 9h 6h 3h / Ks Js 9s 6s 3s", "play", 0,
         outcome="push"),
    case("two-pair-kicker", "standard", 1000, "Kh Kd 7c 7s Ah / Ks Kc 7d 7h Qc", "play", 5000,
         outcome="won", ante=2000, play=6000, hand="TwoPair"),
    case("two-pair-low-pair", "standard", 1000, "Kh Kd 8c 8s 2h / Ks Kc 7d 7h Ac", "play", 5000,
         outcome="won"),
    case("two-pair-high-pair-dealer", "standard", 1000, "Qh Qd Jc Js Ah / Ks Kc 3d 3h 2c", "play", -3000,
         outcome="lost"),
    case("trips-vs-trips", "standard", 1000, "9h 9d 9c 3s 2h / 8s 8c 8d Ah Kc", "play", 7000,
         outcome="won", play=8000, hand="ThreeOfAKind"),
    case("full-house-set-rank-first", "standard", 1000, "5h 5d 5c 2s 2h / 4s 4c 4d Ah Ac", "play", 15000,
         outcome="won", play=16000, hand="FullHouse", dealer="FullHouse"),
    case("straight-vs-higher-straight", "standard", 1000, "9h 8d 7c 6s 5h / 10s 9c 8h 7d 6d", "play",
         -3000, outcome="lost"),
    case("straight-push-other-suits", "standard", 1000, "9h 8d 7c 6s 5h / 9s 8c 7d 6h 5c", "play", 0,
         outcome="push"),
    case("flush-beats-straight", "standard", 1000, "2h 5h 7h 9h Jh / 10s 9c 8c 7d 6d", "play", 11000,
         outcome="won"),
    case("quads-beat-full-house", "standard", 1000, "7h 7d 7c 7s 2h / Ks Kc Kd Ah Ac", "play", 41000,
         outcome="won", play=42000, hand="FourOfAKind"),
    case("quads-vs-quads", "standard", 1000, "9h 9d 9c 9s 2h / 8s 8c 8d 8h Ac", "play", 41000,
         outcome="won"),
    case("straight-flush-beats-quads", "standard", 1000, "5c 6c 7c 8c 9c / Ks Kc Kd Kh Ac", "play", 101000,
         outcome="won", play=102000, hand="StraightFlush"),
    case("steel-wheel-is-straight-flush", "standard", 1000, "Ad 2d 3d 4d 5d / 10s 9c 8h 7c 6h", "play",
         101000, outcome="won", hand="StraightFlush"),
    case("royal-flush-at-10-100-3000-example-2", "standard", 1000, "10h Jh Qh Kh Ah / 2s 2c 5d 7c 9s",
         "play", 201000, outcome="won", ante=2000, play=202000, hand="RoyalFlush"),
    case("high-card-loses-to-dealer-ak", "standard", 1000, "Qh Jd 9c 7s 3h / As Kc 8d 6h 2c", "play", -3000,
         outcome="lost", hand="HighCard", qual=True),
    case("czech-two-pair-2-to-1", "czech", 2000, "Kh Kd 7c 7s Ah / 2s 2c 5d 9h Jc", "play", 10000,
         outcome="won", ante=4000, play=12000),
    case("czech-pair-kickers-push", "czech", 2000, "8h 8d Kc 7s 4h / 8s 8c Kd 7h 4c", "play", 0,
         outcome="push", ante=2000, play=4000),
    case("stand-b-quads-15-to-1", "stand-b", 10000, "7h 7d 7c 7s 2h / Ks Kc 9d Ah 3c", "play", 310000,
         outcome="won", ante=20000, play=320000),
    case("stand-b-straight-flush-45-to-1", "stand-b", 10000, "5c 6c 7c 8c 9c / Ks Kc 9d Ah 3h", "play",
         910000, outcome="won", play=920000),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# (2) Dealer not qualifying (§2.5: ante 1:1, play bet returned; `no_qualify_ante = "returned"`:
# both returned) and folds (ante lost, bonus forfeited, fees kept).
NOT_QUALIFIED_AND_FOLDS = [
    case("nq-ace-queen-high", "standard", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play", 1000,
         outcome="dealer_not_qualified", ante=2000, play=2000, qual=False, dealer="HighCard"),
    case("nq-king-queen-high", "standard", 1000, "8h 8d 9c 7s 3h / Ks Qc Jd 5h 2c", "play", 1000,
         outcome="dealer_not_qualified", qual=False),
    case("nq-player-lower-high-card-still-wins-ante", "standard", 1000, "Qh Jd 9c 7s 3h / As Qc 10d 5h 2c",
         "play", 1000, outcome="dealer_not_qualified", ante=2000, play=2000),
    case("nq-royal-flush-paid-ante-only", "standard", 1000, "10h Jh Qh Kh Ah / As Qc 9d 5s 2c", "play", 1000,
         outcome="dealer_not_qualified", ante=2000, play=2000),
    case("nq-a-q-j-10-9-is-no-straight", "standard", 1000, "8h 8d 4c 7s 3h / Ad Qc Js 10h 9c", "play", 1000,
         outcome="dealer_not_qualified"),
    case("nq-four-flush-is-no-flush", "standard", 1000, "8h 8d 4h 7s 3h / Ac Qc 9c 5c 2d", "play", 1000,
         outcome="dealer_not_qualified"),
    case("nq-czech", "czech", 2000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play", 2000,
         outcome="dealer_not_qualified", ante=4000, play=4000),
    case("nq-stand-b", "stand-b", 10000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play", 10000,
         outcome="dealer_not_qualified", ante=20000, play=20000),
    case("nq-russian", "russian-three-box", 500, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play", 500,
         outcome="dealer_not_qualified", ante=1000, play=1000),
    case("nq-golden-without-bonus-no-purchase", "golden-oasis", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c",
         "play", 1000, outcome="dealer_not_qualified"),
    case("nq-golden-bonus-declines-game", "golden-oasis", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c",
         "play, decline", 900, bonus=True, outcome="dealer_not_qualified", bonus_=0, fees=0),
    case("nq-czech-exchange-declines-dealer-card", "czech-exchange", 2000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c",
         "play, decline", 2000, outcome="dealer_not_qualified", fees=0),
    case("nq-returned-standard", "standard", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play", 0, ov=RETURNED,
         outcome="dealer_not_qualified", ante=1000, play=2000),
    case("nq-returned-russian", "russian-three-box", 500, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play", 0,
         ov=RETURNED, ante=500, play=1000),
    case("nq-returned-stand-a", "stand-a", 10000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play", 0, ov=RETURNED,
         ante=10000, play=20000),
    case("nq-returned-czech-fixed-bonus-trips-still-pays", "czech", 2000, "9h 9d 9c 7s 3h / As Qc Jd 5h 2c",
         "play", 8000, ov=RETURNED, bonus=True, ante=2000, play=4000, bonus_=10000),
    case("nq-returned-golden-bonus-fee-kept", "golden-oasis", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c",
         "play, decline", -100, ov=RETURNED, bonus=True, ante=1000, play=2000),
    case("nq-returned-does-not-touch-a-qualifying-dealer", "standard", 1000,
         "Kh Kd 7c 7s 2h / 5s 5c Qd 9h 3c",
         "play", 5000, ov=RETURNED, outcome="won", ante=2000, play=6000),
    case("fold-standard", "standard", 1000, "Qh Jd 9c 7s 3h / As Kc 8d 6h 2c", "fold", -1000,
         outcome="folded", ante=0, play=0),
    case("fold-standard-bonus-lost", "standard", 1000, "Qh Jd 9c 7s 3h / As Kc 8d 6h 2c", "fold", -1200,
         bonus=200, outcome="folded", bonus_=0),
    case("fold-dealt-flush-bonus-forfeited", "standard", 1000, "Ah Jh 9h 6h 3h / As Kc 8d 6s 2c", "fold",
         -1500, bonus=500, outcome="folded", bonus_=0),
    case("fold-dealt-royal-no-jackpot", "standard", 1000, "10h Jh Qh Kh Ah / As Kc 8d 6s 2c", "fold", -1200,
         bonus=200, outcome="folded", bonus_=0, jackpot=None),
    case("fold-against-non-qualifying-dealer", "standard", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "fold",
         -1000, outcome="folded"),
    case("fold-czech-trips-fixed-bonus-forfeited", "czech", 2000, "9h 9d 9c 7s 3h / As Kc 8d 6s 2c", "fold",
         -4000, bonus=True, outcome="folded", bonus_=0),
    case("fold-czech-no-bonus", "czech", 2000, "Qh Jd 9c 7s 3h / As Kc 8d 6h 2c", "fold", -2000,
         outcome="folded"),
    case("fold-after-exchange-fee-kept", "standard", 1000, "Ah Kd 9c 7s 3h / 5s 5c Qd 6h 2c / 4d",
         "exchange 4, fold", -2000, outcome="folded", fees=1000),
    case("fold-golden-privilege-fee-kept-at-500", "golden-oasis", 500, "Qh Jd 9c 7s 3h / As Kc 8d 6h 2c",
         "fold", -560, bonus=True, outcome="folded", bonus_=0),
    case("fold-golden-after-two-card-exchange-with-bonus", "golden-oasis", 1000,
         "Ah Kd 9c 7s 3h / 5s 5c Qd 6h 2c / 4d 8d", "exchange 3 4, fold", -2100, bonus=True,
         outcome="folded", fees=1000),
    case("fold-stand-b", "stand-b", 10000, "Qh Jd 9c 7s 3h / As Kc 8d 6h 2c", "fold", -10000,
         outcome="folded"),
    case("fold-stand-a-without-exchange", "stand-a", 10000, "Qh Jd 9c 7s 3h / As Kc 8d 6h 2c", "fold",
         -10000, outcome="folded"),
    case("fold-russian-bonus-lost", "russian-three-box", 500, "Qh Jd 9c 7s 3h / As Kc 8d 6h 2c", "fold", -600,
         bonus=100, outcome="folded", bonus_=0),
    case("fold-czech-exchange-no-dealer-card-purchase", "czech-exchange", 2000,
         "Qh Jd 9c 7s 3h / As 10c 8d 6h 2c", "fold, !buy_dealer_card", -2000, outcome="folded"),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# (3) Maximum payout (§2.6): "total" caps ante win + play win, "play" the play win alone;
# bonus wins and fees are outside the cap.
RF = "10h Jh Qh Kh Ah / 2s 2c 5d 7c 9s"
SF = "5c 6c 7c 8c 9c / 2s 2d 5d 7h Js"
QUADS = "7h 7d 7c 7s 2h / Ks Kc 9d Ah 3c"
CAPS = [
    case("standard-royal-ante-1400-under", "standard", 1400, RF, "play", 281400, main=285600),
    case("standard-royal-ante-1500-capped", "standard", 1500, RF, "play", 300000, main=304500),
    case("standard-sf-ante-2900-under", "standard", 2900, SF, "play", 292900, main=301600),
    case("standard-sf-ante-3000-capped", "standard", 3000, SF, "play", 300000, main=309000),
    case("standard-sf-ante-10000-capped", "standard", 10000, SF, "play", 300000, main=330000),
    case("standard-quads-ante-7000-under", "standard", 7000, QUADS, "play", 287000, main=308000),
    case("standard-quads-ante-7300-under", "standard", 7300, QUADS, "play", 299300, main=321200),
    case("standard-quads-ante-7400-capped", "standard", 7400, QUADS, "play", 300000, main=322200),
    case("standard-quads-ante-7500-capped", "standard", 7500, QUADS, "play", 300000, main=322500),
    case("standard-cap-play-sf-ante-10000", "standard", 10000, SF, "play", 310000, ov=CAP_PLAY,
         ante=20000, play=320000),
    case("standard-cap-play-quads-exactly-max", "standard", 7500, QUADS, "play", 307500, ov=CAP_PLAY,
         ante=15000, play=315000),
    case("standard-max-100000-sf-capped", "standard", 1000, SF, "play", 100000,
         ov="[table]\nmax_payout = 100000", main=103000),
    case("standard-max-100000-full-house-under", "standard", 5000, "5h 5d 5c 2s 2h / Ks Kc 9d Ah 3c", "play",
         75000, ov="[table]\nmax_payout = 100000", main=90000),
    case("standard-odds-bonus-outside-cap", "standard", 10000, SF, "play", 550000, bonus=500, main=330000,
         bonus_=250500),
    case("standard-exchange-fee-outside-cap", "standard", 10000, "5c 6c 7c 8c Kd / 2s 2d 5d 7h Js / 9c",
         "exchange 4, play", 290000, main=330000, fees=10000, hand="StraightFlush"),
    case("czech-royal-ante-50000-exactly-max", "czech", 50000, RF, "play", 10050000, ante=100000,
         play=10100000),
    case("czech-sf-ante-50000-under", "czech", 50000, SF, "play", 5050000, ante=100000, play=5100000),
    case("czech-max-1m-sf-ante-20000-play-capped", "czech", 20000, SF, "play", 1020000, ov=CZ_MAX_1M,
         ante=40000, play=1040000),
    case("czech-max-1m-quads-ante-20000-under", "czech", 20000, QUADS, "play", 820000, ov=CZ_MAX_1M,
         ante=40000, play=840000),
    case("czech-max-1m-quads-ante-25000-exactly", "czech", 25000, QUADS, "play", 1025000, ov=CZ_MAX_1M,
         ante=50000, play=1050000),
    case("czech-max-1m-quads-ante-30000-capped", "czech", 30000, QUADS, "play", 1030000, ov=CZ_MAX_1M,
         ante=60000, play=1060000),
    case("czech-max-1m-cap-total-quads-ante-30000", "czech", 30000, QUADS, "play", 1000000,
         ov=CZ_MAX_1M + "\n" + CAP_TOTAL, main=1090000),
    case("czech-max-1m-fixed-bonus-outside-cap", "czech", 20000, SF, "play", 2018000, ov=CZ_MAX_1M,
         bonus=True, ante=40000, play=1040000, bonus_=1000000),
    case("golden-royal-ante-5000-total-example-3", "golden-oasis", 5000, RF, "play, decline", 200000,
         main=215000),
    case("golden-royal-ante-5000-cap-play", "golden-oasis", 5000, RF, "play, decline", 205000, ov=CAP_PLAY,
         ante=10000, play=210000),
    case("golden-royal-ante-5000-privilege-fee-outside", "golden-oasis", 5000, RF, "play, decline", 199500,
         bonus=True, main=215000, bonus_=0),
    case("stand-a-royal-ante-500000-capped", "stand-a", 500000, RF, "play", 20000000, main=21500000),
    case("stand-a-sf-ante-200000-under", "stand-a", 200000, SF, "play", 18200000, main=18800000),
    case("stand-a-sf-ante-300000-capped", "stand-a", 300000, SF, "play", 20000000, main=20900000),
    case("stand-b-quads-ante-500000-under", "stand-b", 500000, QUADS, "play", 15500000, main=17000000),
    case("russian-quads-ante-5000-capped", "russian-three-box", 5000, QUADS, "play", 200000, main=215000),
    case("russian-quads-ante-4000-under", "russian-three-box", 4000, QUADS, "play", 164000, main=176000),
    case("russian-three-boxes-each-capped", "russian-three-box", [5000, 5000, 5000],
         "2c 2d 2h 2s Ah / 3c 3d 3h 3s Kh / 4c 4d 4h 4s Qh / 9c 9d 5h 6s 7c", "play, play", 600000,
         boxes=[{"net": 200000, "main": 215000}] * 3),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# (4) Card exchange (§3.1): fees in antes per profile, never returned.
AK_VS_FIVES = "Ah Kd 9c 7s 3h / 5s 5c Qd 6h 2c"
FIVE_NEW = "2h 4d 6c 8s 10h / 5s 5c Qd 6h 2c"
EXCHANGE = [
    case("standard-one-card-dealer-nq-example-6", "standard", 1000, "Ah Kd 9c 7s 3h / Qs Jc 8d 6h 2c / 4d",
         "exchange 4, play", 0, outcome="dealer_not_qualified", fees=1000, ante=2000, play=2000),
    case("standard-one-card-pairs-and-wins", "standard", 1000, AK_VS_FIVES + " / 9d", "exchange 4, play",
         2000, outcome="won", fees=1000, hand="OnePair"),
    case("standard-one-card-misses-and-loses", "standard", 1000, AK_VS_FIVES + " / 4d", "exchange 4, play",
         -4000, outcome="lost", fees=1000, hand="AceKing"),
    case("standard-position-0-makes-flush", "standard", 1000, "2c 9h 7h 5h 3h / 5s 5c Qd 6h 2d / Kh",
         "exchange 0, play", 10000, fees=1000, hand="Flush", play=12000),
    case("standard-exchange-forfeits-bonus", "standard", 1000, "2c 9h 7h 5h 3h / 5s 5c Qd 6h 2d / Kh",
         "exchange 0, play", 9800, bonus=200, fees=1000, bonus_=0),
    case("standard-two-cards-not-offered", "standard", 1000, AK_VS_FIVES + " / 9d",
         "!exchange 0 1, exchange 4, play", 2000, fees=1000),
    case("standard-second-exchange-not-offered", "standard", 1000, AK_VS_FIVES + " / 9d",
         "exchange 4, !exchange 3, play", 2000, fees=1000),
    case("czech-buy-card-burns-first-card", "czech-buy-card", 2000, "Ah Kd 7c 5s 2h / 8s 8c Qd 6h 3c / Ac 3d",
         "exchange 4, play", -8000, outcome="lost", fees=2000, hand="AceKing"),
    case("czech-buy-card-burn-then-ace", "czech-buy-card", 2000, "Ah Kd 7c 5s 2h / 8s 8c Qd 6h 3c / 4d Ad",
         "exchange 4, play", 4000, outcome="won", fees=2000, hand="OnePair"),
    case("czech-buy-card-forfeits-bonus-example-11", "czech-buy-card", 2000,
         "9h 9d 9c 5s 2h / 10s Jc Qd Kh As / 3c 4d", "exchange 4, play", -10000, bonus=True, outcome="lost",
         fees=2000, bonus_=0, hand="ThreeOfAKind"),
    case("czech-buy-card-two-cards-not-offered", "czech-buy-card", 2000, "Ah Kd 7c 5s 2h / 8s 8c Qd 6h 3c",
         "!exchange 3 4, fold", -2000, fees=0),
    case("czech-exchange-two-cards-two-antes", "czech-exchange", 2000,
         "Ah Kd 7c 5s 2h / 8s 8c Qd 6h 3c / Ac Kc",
         "exchange 2 4, play", 6000, fees=4000, hand="TwoPair", ante=4000, play=12000),
    case("czech-exchange-no-burn", "czech-exchange", 2000, "Ah Kd 7c 5s 2h / 8s 8c Qd 6h 3c / Ad",
         "exchange 4, play", 4000, fees=2000, hand="OnePair"),
    case("czech-exchange-three-cards-not-offered", "czech-exchange", 2000, "Ah Kd 7c 5s 2h / 8s 8c Qd 6h 3c",
         "!exchange 0 1 2, play", -6000, fees=0),
    case("czech-has-no-exchange", "czech", 2000, AK_VS_FIVES, "!exchange 0, play", -6000, fees=0),
    case("stand-a-one-card-then-play-compulsory", "stand-a", 10000, AK_VS_FIVES + " / 9d",
         "exchange 4, !fold, play", 20000, fees=10000, outcome="won"),
    case("stand-a-five-cards-one-ante", "stand-a", 10000, FIVE_NEW + " / Ac Ad Kc Kd Ks",
         "exchange 0 1 2 3 4, !fold, play", 140000, fees=10000, hand="FullHouse"),
    case("stand-a-compulsory-play-loses", "stand-a", 10000, AK_VS_FIVES + " / 4d", "exchange 4, play", -40000,
         fees=10000, outcome="lost"),
    case("stand-a-two-cards-not-offered", "stand-a", 10000, AK_VS_FIVES, "!exchange 0 1, fold", -10000,
         outcome="folded", fees=0),
    case("stand-b-two-cards-two-antes", "stand-b", 10000, AK_VS_FIVES + " / Ac Kc", "exchange 2 4, play",
         30000, fees=20000, hand="TwoPair"),
    case("stand-b-four-cards-four-antes", "stand-b", 10000, "Ah 3d 5c 7s 9h / 5s 5d Qd 6h 2c / Ac Ad Kh Kd",
         "exchange 1 2 3 4, play", 110000, fees=40000, hand="FullHouse"),
    case("stand-b-five-cards-one-ante", "stand-b", 10000, FIVE_NEW + " / Ac Ad Kc Kd Ks",
         "exchange 0 1 2 3 4, play", 140000, fees=10000),
    case("stand-b-three-cards-then-fold", "stand-b", 10000, AK_VS_FIVES + " / 4d 8d Jc",
         "exchange 2 3 4, fold", -40000, fees=30000, outcome="folded"),
    case("stand-b-no-second-exchange", "stand-b", 10000, AK_VS_FIVES + " / 9d",
         "exchange 4, !exchange 3, play",
         20000, fees=10000),
    case("stand-c-three-then-one-example-12", "stand-c", 10000, AK_VS_FIVES + " / Ac Kc 4d Ad",
         "exchange 2 3 4, exchange 4, play", 100000, fees=50000, hand="FullHouse"),
    case("stand-c-second-exchange-is-one-card-only", "stand-c", 10000, AK_VS_FIVES + " / Ac Kc 4d Ad",
         "exchange 2 3 4, !exchange 0 1, exchange 4, play", 100000, fees=50000),
    case("stand-c-one-then-one", "stand-c", 10000, AK_VS_FIVES + " / 4d 9d", "exchange 4, exchange 3, play",
         0,
         fees=30000, hand="OnePair", outcome="won"),
    case("stand-c-no-third-exchange", "stand-c", 10000, AK_VS_FIVES + " / 4d 9d",
         "exchange 4, exchange 3, !exchange 0, play", 0, fees=30000),
    case("golden-one-card-one-ante", "golden-oasis", 1000, AK_VS_FIVES + " / 9d", "exchange 4, play", 2000,
         fees=1000),
    case("golden-two-cards-one-and-a-half-antes-example-7", "golden-oasis", 1000, AK_VS_FIVES + " / Ac Kc",
         "exchange 2 4, play", 3500, fees=1500, hand="TwoPair"),
    case("golden-two-cards-with-bonus-one-ante-example-7", "golden-oasis", 1000, AK_VS_FIVES + " / Ac Kc",
         "exchange 2 4, play", 3900, bonus=True, fees=1000, bonus_=0),
    case("golden-three-cards-with-bonus-still-1.5", "golden-oasis", 1000, AK_VS_FIVES + " / Ac Kc 4d",
         "exchange 2 3 4, play", 3400, bonus=True, fees=1500, hand="TwoPair"),
    case("golden-five-cards-one-ante", "golden-oasis", 1000, FIVE_NEW + " / Ac Ad Kc Kd 3s",
         "exchange 0 1 2 3 4, play", 4000, fees=1000, hand="TwoPair"),
    case("golden-four-cards-not-offered", "golden-oasis", 1000, AK_VS_FIVES + " / 9d",
         "!exchange 0 1 2 3, exchange 4, play", 2000, fees=1000),
    case("golden-two-cards-ante-500-no-bonus", "golden-oasis", 500, AK_VS_FIVES + " / Ac Kc",
         "exchange 2 4, play", 1750, fees=750),
    case("golden-two-cards-ante-500-with-bonus", "golden-oasis", 500, AK_VS_FIVES + " / Ac Kc",
         "exchange 2 4, play", 1940, bonus=True, fees=500),
    case("golden-three-cards-ante-900", "golden-oasis", 900, AK_VS_FIVES + " / Ac Kc 4d",
         "exchange 2 3 4, play", 3150, fees=1350),
    case("russian-two-cards-two-antes-forfeits-bonus", "russian-three-box", 500, AK_VS_FIVES + " / Ac Kc",
         "exchange 2 4, play", 1400, bonus=100, fees=1000, bonus_=0),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# (5) Bonus bets (§3.6): fixed (czech, stake 2000, the listed amount returned), odds
# (standard, russian: stake x (odds + 1) on the cards as dealt; a dealt royal wins the
# jackpot instead and the stake is lost), privilege fee (golden: 10 % of the ante, kept).
PAIR4 = "4s 4c Qd Kh 3c"
BONUS = [
    case("czech-trips-dealer-wins-example-11", "czech", 2000, "9h 9d 9c 5s 2h / 10s Jc Qd Kh As", "play",
         2000,
         bonus=True, outcome="lost", bonus_=10000),
    case("czech-trips-player-wins", "czech", 2000, "9h 9d 9c 5s 2h / " + PAIR4, "play", 22000, bonus=True,
         ante=4000, play=16000, bonus_=10000),
    case("czech-straight-500-kc", "czech", 2000, "5h 6d 7c 8s 9h / " + PAIR4, "play", 66000, bonus=True,
         bonus_=50000),
    case("czech-flush-dealer-nq", "czech", 2000, "Ah Jh 9h 6h 3h / As Qc Jd 5s 2c", "play", 100000,
         bonus=True, outcome="dealer_not_qualified", bonus_=100000),
    case("czech-full-house", "czech", 2000, "5h 5d 5c 2s 2h / " + PAIR4, "play", 228000, bonus=True,
         bonus_=200000),
    case("czech-quads", "czech", 2000, "7h 7d 7c 7s 2h / " + PAIR4, "play", 680000, bonus=True,
         bonus_=600000),
    case("czech-straight-flush", "czech", 2000, "5c 6c 7c 8c 9c / 4s 4d Qd Kh 3h", "play", 1200000,
         bonus=True, bonus_=1000000),
    case("czech-royal-fixed-no-jackpot", "czech", 2000, "10h Jh Qh Kh Ah / 4s 4c Qd 9h 3c", "play", 5400000,
         bonus=True, bonus_=5000000, jackpot=None),
    case("czech-two-pair-stake-lost", "czech", 2000, "Kh Kd 7c 7s Ah / 4s 4c Qd 9h 3c", "play", 8000,
         bonus=True, bonus_=0),
    case("czech-pair-dealer-nq-stake-lost", "czech", 2000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play", 0,
         bonus=True, bonus_=0),
    case("standard-straight-40-to-1", "standard", 1000, "5h 6d 7c 8s 9h / " + PAIR4, "play", 17000, bonus=200,
         bonus_=8200, jackpot=None),
    case("standard-bonus-true-is-least-stake-200", "standard", 1000, "5h 6d 7c 8s 9h / " + PAIR4, "play",
         17000, bonus=True, bonus_=8200),
    case("standard-flush-60-to-1-stake-300", "standard", 1000, "Ah Jh 9h 6h 3h / 4s 4c Qd Kc 2c", "play",
         29000, bonus=300, bonus_=18300),
    case("standard-full-house-100-to-1-stake-500", "standard", 1000, "5h 5d 5c 2s 2h / " + PAIR4, "play",
         65000, bonus=500, bonus_=50500),
    case("standard-quads-200-to-1", "standard", 1000, "7h 7d 7c 7s 2h / " + PAIR4, "play", 81000, bonus=200,
         bonus_=40200),
    case("standard-straight-flush-500-to-1-stake-400", "standard", 1000, "5c 6c 7c 8c 9c / 4s 4d Qd Kh 3h",
         "play", 301000, bonus=400, bonus_=200400),
    case("standard-dealt-royal-wins-jackpot", "standard", 1000, "10h Jh Qh Kh Ah / 4s 4c Qd 9h 3c", "play",
         200800, bonus=200, bonus_=0, jackpot=JACKPOT, main=204000),
    case("standard-dealt-royal-jackpot-dealer-nq", "standard", 1000, "10h Jh Qh Kh Ah / As Qc 9d 5s 2c",
         "play", 800, bonus=200, bonus_=0, jackpot=JACKPOT, outcome="dealer_not_qualified"),
    case("standard-royal-without-bonus-no-jackpot", "standard", 1000, "10h Jh Qh Kh Ah / 4s 4c Qd 9h 3c",
         "play", 201000, jackpot=None),
    case("standard-trips-pays-nothing", "standard", 1000, "9h 9d 9c 5s 2h / " + PAIR4, "play", 6800,
         bonus=200, bonus_=0),
    case("standard-pair-stake-500-lost", "standard", 1000, "8h 8d 9c 7s 3h / 4s 4c Qd Kh 2c", "play", 2500,
         bonus=500, bonus_=0),
    case("standard-straight-paid-when-dealer-wins", "standard", 1000, "5h 6d 7c 8d 9h / As Js 8s 4s 2s",
         "play",
         5000, bonus=200, outcome="lost", bonus_=8200),
    case("standard-flush-paid-when-dealer-nq", "standard", 1000, "Ah Jh 9h 6h 3h / As Qc Jd 5s 2c", "play",
         13000, bonus=200, bonus_=12200),
    case("standard-exchange-forfeits-dealt-straight", "standard", 1000,
         "5h 6d 7c 8s 9h / " + PAIR4 + " / 10d",
         "exchange 0, play", 7700, bonus=300, bonus_=0, fees=1000, hand="Straight"),
    case("standard-royal-by-exchange-no-jackpot", "standard", 1000, "Ah Kh Qh Jh 2c / 4s 4d Qd 9h 3c / 10h",
         "exchange 4, play", 199800, bonus=200, bonus_=0, jackpot=None, hand="RoyalFlush"),
    case("russian-straight-stake-100", "russian-three-box", 500, "5h 6d 7c 8s 9h / " + PAIR4, "play", 8500,
         bonus=True, bonus_=4100),
    case("russian-dealt-royal-jackpot", "russian-three-box", 500, "10h Jh Qh Kh Ah / 4s 4c Qd 9h 3c", "play",
         100400, bonus=100, bonus_=0, jackpot=JACKPOT),
    case("russian-exchange-forfeits-flush", "russian-three-box", 500, "Ah Jh 9h 6h 3h / 4s 4c Qd Kc 2c / 2h",
         "exchange 4, play", 4800, bonus=200, bonus_=0, fees=500, hand="Flush"),
    case("russian-flush-paid-dealer-full-house", "russian-three-box", 500, "Ah Jh 9h 6h 3h / 4s 4c 4d Kc Ks",
         "play", 28500, bonus=500, outcome="lost", bonus_=30500),
    case("golden-privilege-60-at-ante-500", "golden-oasis", 500, "8h 8d 9c 7s 3h / 4s 4c Qd Kh 2c", "play",
         1440, bonus=True, bonus_=0),
    case("golden-privilege-100-kept-on-loss", "golden-oasis", 1000, "8h 8d 9c 7s 3h / 10s 10c Qd Kh 2c",
         "play",
         -3100, bonus=True, bonus_=0, outcome="lost"),
    case("golden-privilege-250-at-ante-2500", "golden-oasis", 2500, "5h 5d 5c 2s 2h / " + PAIR4,
         "play, decline", 37250, bonus=True, bonus_=0),
    case("golden-privilege-500-at-ante-5000-nq", "golden-oasis", 5000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c",
         "play, decline", 4500, bonus=True, bonus_=0),
    case("golden-privilege-70-given-as-stake-fold", "golden-oasis", 700, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c",
         "fold", -770, bonus=70, bonus_=0),
    case("golden-privilege-kept-on-push", "golden-oasis", 1000, "Ah Kd 9c 7s 3h / As Kc 9d 7h 3c", "play",
         -100, bonus=True, outcome="push", bonus_=0),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# (6) Buying the dealer's card (czech-exchange, §3.2): 1 ante (2000); he discards his highest
# card and draws the next card of the deck. ante 2000, play 4000.
BUY = "play, buy_dealer_card"
DEALER_CARD = [
    case("pair-qualifies-two-pair-wins-example-10", "czech-exchange", 2000,
         "Kh Kd 7c 7s 2h / As Qd 9c 6h 3c / 9d",
         BUY, 8000, outcome="won", fees=2000, ante=4000, play=12000, dealer="OnePair", qual=True),
    case("still-not-qualified-example-10", "czech-exchange", 2000, "Kh Kd 7c 7s 2h / As Qd 9c 6h 3c / Kc",
         BUY, -2000, outcome="dealer_still_not_qualified", fees=2000, ante=2000, play=4000, qual=False),
    case("decline-takes-ante-win", "czech-exchange", 2000, "Kh Kd 7c 7s 2h / As Qd 9c 6h 3c / 9d",
         "play, decline", 2000, outcome="dealer_not_qualified", fees=0, ante=4000, play=4000),
    case("dealer-pair-beats-player-pair", "czech-exchange", 2000, "4h 4d Kc 7s 2h / As Qd 9c 6h 3c / 9d", BUY,
         -8000, outcome="lost", ante=0, play=0, fees=2000),
    case("exact-tie-after-buy-push", "czech-exchange", 2000, "9h 9d Qc 7s 3h / As Qd 9c 7h 3c / 9s", BUY,
         -2000, outcome="push", ante=2000, play=4000, fees=2000),
    case("kicker-decides-after-buy", "czech-exchange", 2000, "9h 9d Kc 7s 3h / As Qd 9c 7h 3c / 9s", BUY,
         4000,
         outcome="won"),
    case("discards-the-ace-not-the-three", "czech-exchange", 2000, "4h 4d Kc 8s 2h / As Qd 9c 7h 3c / 3d",
         BUY,
         4000, outcome="won", dealer="OnePair"),
    case("discarded-ace-replaced-by-ace-still-nq", "czech-exchange", 2000,
         "4h 4d Kc 8s 2h / As Qd 9c 7h 3c / Ad",
         BUY, -2000, outcome="dealer_still_not_qualified"),
    case("king-high-discards-king-draws-ace-still-nq", "czech-exchange", 2000,
         "4h 4d Jc 8s 2h / Ks Qd 9c 7h 3c / Ac", BUY, -2000, outcome="dealer_still_not_qualified"),
    case("dealer-draws-into-straight", "czech-exchange", 2000, "Kh Kd Kc 5s 2h / Qs Jd 10c 9h 7c / 8d", BUY,
         -8000, outcome="lost", dealer="Straight"),
    case("dealer-draws-into-wheel", "czech-exchange", 2000, "Kh Kd Qc Qs 7h / 8s 5d 4c 3h 2c / Ac", BUY,
         -8000,
         outcome="lost", dealer="Straight"),
    case("dealer-draws-into-flush", "czech-exchange", 2000, "Kh Kd 7c 7s 2d / Ac 9h 7h 4h 2h / 5h", BUY,
         -8000,
         outcome="lost", dealer="Flush"),
    case("player-flush-beats-dealer-pair", "czech-exchange", 2000, "Ks Js 9s 6s 3s / Ad Qh 8c 5h 2c / 8d",
         BUY,
         20000, outcome="won", play=24000),
    case("player-ak-loses-to-new-pair", "czech-exchange", 2000, "Ah Kd 9c 7s 3h / Qs Jd 8c 6h 2c / 2d", BUY,
         -8000, outcome="lost"),
    case("dealer-queens-beat-player-jacks", "czech-exchange", 2000, "Jh Jd 8c 5s 2h / Ks Qd 9c 7h 3c / Qc",
         BUY,
         -8000, outcome="lost"),
    case("player-kings-beat-dealer-queens", "czech-exchange", 2000, "Kh Kd 8c 5s 2h / Ks Qd 9c 7h 3c / Qc",
         BUY,
         4000, outcome="won"),
    case("player-full-house-paid-7-to-1", "czech-exchange", 2000, "5h 5d 5c 2s 2h / As Jd 9c 7h 3c / 9d", BUY,
         28000, outcome="won", play=32000),
    case("dealer-pairs-his-low-card", "czech-exchange", 2000, "5h 5d Kc 9s 2h / Ad Jc 8h 6s 4d / 4c", BUY,
         4000,
         outcome="won"),
    case("player-high-card-dealer-still-nq", "czech-exchange", 2000, "Qh Jh 8c 5s 2h / As 10d 9c 7h 3c / Kd",
         BUY, -2000, outcome="dealer_still_not_qualified"),
    case("player-high-card-dealer-now-pair", "czech-exchange", 2000, "Qh Jh 8c 5s 2h / As 10d 9c 7h 3c / 10c",
         BUY, -8000, outcome="lost"),
    case("fixed-bonus-trips-and-bought-card-wins", "czech-exchange", 2000,
         "9h 9d 9c 5s 2h / As Qd 8c 6h 3c / 8d", BUY, 20000, bonus=True, outcome="won", bonus_=10000,
         fees=2000),
    case("fixed-bonus-trips-dealer-still-nq", "czech-exchange", 2000, "9h 9d 9c 5s 2h / As Qd 8c 6h 3c / Kc",
         BUY, 6000, bonus=True, outcome="dealer_still_not_qualified", bonus_=10000),
    case("fixed-bonus-lost-and-hand-lost", "czech-exchange", 2000, "4h 4d Kc 7s 2h / As Qd 9c 6h 3c / 9d",
         BUY,
         -10000, bonus=True, bonus_=0, outcome="lost"),
    case("after-player-exchange-dealer-draws-next", "czech-exchange", 2000,
         "Ah Kd 7c 5s 2h / Qs Jd 9c 6h 3c / Ad Jc", "exchange 4, " + BUY, 2000, outcome="won", fees=4000),
    case("after-player-exchange-still-nq", "czech-exchange", 2000, "Ah Kd 7c 5s 2h / Qs Jd 9c 6h 3c / Ad 5d",
         "exchange 4, " + BUY, -4000, outcome="dealer_still_not_qualified", fees=4000),
    case("after-two-card-exchange", "czech-exchange", 2000, "Ah Kd 7c 5s 2h / Qs Jd 9c 6h 3c / Ac Kc Jc",
         "exchange 2 4, " + BUY, 4000, outcome="won", fees=6000, hand="TwoPair"),
    case("not-offered-when-dealer-qualifies", "czech-exchange", 2000, "8h 8d 9c 7s 3h / As Kc Jd 5h 2c",
         "play, !buy_dealer_card", 6000, outcome="won", fees=0),
    case("not-offered-after-fold", "czech-exchange", 2000, "Qh Jd 9c 7s 3h / As 10c 8d 6h 2c",
         "fold, !buy_dealer_card", -2000, outcome="folded", fees=0),
    case("czech-profile-has-no-dealer-card", "czech", 2000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c",
         "play, !buy_dealer_card", 2000, outcome="dealer_not_qualified"),
    case("returned-override-decline", "czech-exchange", 2000, "Kh Kd 7c 7s 2h / As Qd 9c 6h 3c / 9d",
         "play, decline", 0, ov=RETURNED, outcome="dealer_not_qualified", ante=2000, play=4000),
    case("returned-override-buy-and-win", "czech-exchange", 2000, "Kh Kd 7c 7s 2h / As Qd 9c 6h 3c / 9d", BUY,
         8000, ov=RETURNED, outcome="won"),
    case("returned-override-buy-still-nq", "czech-exchange", 2000, "Kh Kd 7c 7s 2h / As Qd 9c 6h 3c / Kc",
         BUY,
         -2000, ov=RETURNED, outcome="dealer_still_not_qualified", ante=2000, play=4000),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# (7) golden-oasis (§3.3-§3.5): sixth card (1 ante, with the bonus), buying the game (1 ante,
# with the bonus), insurance (1 ante .. play bet x odds), straight-flush protection
# ((ante + play x odds) / 2, capped). ante 1000, play 2000, privilege fee 100.
SF_NQ = "5c 6c 7c 8c 9c / As Qd Jh 4s 2d"
TRIPS = "9h 9d 9c 5s 2h / "
GOLDEN = [
    case("sixth-card-pairs", "golden-oasis", 1000, AK_VS_FIVES + " / 9d", "buy_sixth_card, play", 1900,
         bonus=True, fees=1000, hand="OnePair", outcome="won"),
    case("sixth-card-completes-flush", "golden-oasis", 1000, "Ah Jh 9h 6h 3c / 5s 5c Qd 6d 2c / 2h",
         "buy_sixth_card, play, decline", 9900, bonus=True, fees=1000, hand="Flush"),
    case("sixth-card-completes-straight", "golden-oasis", 1000, "5h 6d 7c 8s Kh / As Kc Jd 4h 2c / 9h",
         "buy_sixth_card, play, decline", 7900, bonus=True, fees=1000, hand="Straight"),
    case("sixth-card-misses", "golden-oasis", 1000, AK_VS_FIVES + " / 4d", "buy_sixth_card, play", -4100,
         bonus=True, fees=1000, outcome="lost"),
    case("sixth-card-then-fold", "golden-oasis", 1000, AK_VS_FIVES + " / 4d", "buy_sixth_card, fold", -2100,
         bonus=True, fees=1000, outcome="folded"),
    case("sixth-card-needs-bonus", "golden-oasis", 1000, "8h 8d 9c 7s 3h / " + PAIR4, "!buy_sixth_card, play",
         3000, fees=0),
    case("sixth-card-then-no-exchange", "golden-oasis", 1000, AK_VS_FIVES + " / 9d",
         "buy_sixth_card, !exchange 0, play", 1900, bonus=True, fees=1000),
    case("exchange-then-no-sixth-card", "golden-oasis", 1000, AK_VS_FIVES + " / 9d",
         "exchange 4, !buy_sixth_card, play", 1900, bonus=True, fees=1000),
    case("sixth-card-trips-insurance-declined", "golden-oasis", 1000, "9h 9d Kc 7s 3h / 5s 5c Qd 6h 2c / 9c",
         "buy_sixth_card, play, decline", 5900, bonus=True, fees=1000, hand="ThreeOfAKind"),
    case("sixth-card-dealer-nq-game-declined", "golden-oasis", 1000, "Ah Kd 9c 7s 3h / Qs Jc 8d 6h 2c / 4d",
         "buy_sixth_card, play, decline", -100, bonus=True, fees=1000, outcome="dealer_not_qualified"),
    # Buying the game is the dealer's redraw (RULES.md §3.4): his ace goes, he draws one more.
    case("buy-game-pair-beats-dealers-new-pair", "golden-oasis", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c / 5d",
         "play, buy_game", 1900, bonus=True, fees=1000, outcome="won", ante=2000, play=4000, dealer="OnePair"),
    case("buy-game-dealer-draws-a-higher-pair", "golden-oasis", 1000,
         "8h 8d 9c 7s 3h / As Qc Jd 5h 2c / Qh", "play, buy_game", -4100, bonus=True, fees=1000, outcome="lost",
         ante=0, play=0),
    case("buy-game-dealer-still-not-qualified", "golden-oasis", 1000,
         "8h 8d 9c 7s 3h / As Qc Jd 5h 2c / 4d", "play, buy_game", -1100, bonus=True, fees=1000,
         outcome="dealer_still_not_qualified", ante=1000, play=2000, qual=False),
    case("buy-game-declined", "golden-oasis", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play, decline", 900,
         bonus=True, fees=0, outcome="dealer_not_qualified"),
    case("buy-game-full-house", "golden-oasis", 1000, "5h 5d 5c 2s 2h / As Qc Jd 6h 3c / Qd",
         "play, decline, buy_game", 13900, bonus=True, fees=1000, outcome="won"),
    # Only A-K or better may buy the game (min_category): a high card could only lose by it.
    case("buy-game-not-sold-to-high-card", "golden-oasis", 1000, "Kh Jd 9c 7s 3h / As Qc 10d 5h 2c",
         "play, !buy_game", 900, bonus=True, fees=0, outcome="dealer_not_qualified", ante=2000, play=2000),
    case("buy-game-not-sold-to-high-card-tie", "golden-oasis", 1000, "Ah Qd 9c 7s 3h / As Qc 9d 7h 3c",
         "play, !buy_game", 900, bonus=True, fees=0, outcome="dealer_not_qualified", ante=2000, play=2000),
    # A-K may buy, but a dealer who discards his highest card qualifies only with a pair or more.
    case("buy-game-ace-king-loses-to-the-new-pair", "golden-oasis", 1000, "Ah Kd 9c 7s 3h / Ac Qc Jd 5h 2c / 2d",
         "play, buy_game", -4100, bonus=True, outcome="lost", hand="AceKing"),
    case("buy-game-ante-500", "golden-oasis", 500, "Kh Kd 7c 7s 2h / As Qc Jd 5h 3c / 5d", "play, buy_game",
         1940, bonus=True, fees=500, outcome="won"),
    case("buy-game-needs-bonus", "golden-oasis", 1000, "8h 8d 9c 7s 3h / As Qc Jd 5h 2c", "play, !buy_game",
         1000, outcome="dealer_not_qualified"),
    case("buy-game-not-offered-dealer-qualifies", "golden-oasis", 1000, "8h 8d 9c 7s 3h / " + PAIR4,
         "play, !buy_game", 2900, bonus=True, fees=0, outcome="won"),
    case("buy-game-straight-flush-paid-in-full", "golden-oasis", 1000, SF_NQ + " / Qh", "play, decline, buy_game",
         99900, bonus=True, fees=1000, outcome="won", main=104000),
    # Still not paid in full after the purchase: protected, (1000 + 2000 × 50) / 2, the fee lost.
    case("buy-game-straight-flush-still-protected", "golden-oasis", 1000, SF_NQ + " / 3h",
         "play, decline, buy_game", 49400, bonus=True, fees=1000, outcome="protected", main=53500),
    case("insurance-dealer-nq-example-8", "golden-oasis", 1000, TRIPS + "As Qc Jd 6h 3c", "play, insure 6000",
         7000, outcome="dealer_not_qualified", ins=12000, ante=2000, play=2000),
    case("insurance-dealer-lower-pair-example-8", "golden-oasis", 1000, TRIPS + "4s 4c Jd 6h 3c",
         "play, insure 6000", 1000, outcome="won", ins=0, ante=2000, play=8000),
    case("insurance-dealer-straight-example-8", "golden-oasis", 1000, TRIPS + "10s Jc Qd Kh Ac",
         "play, insure 6000", -3000, outcome="lost", ins=6000, ante=0, play=0),
    case("insurance-dealer-higher-trips-returned", "golden-oasis", 1000, TRIPS + "Ks Kc Kd 6h 3c",
         "play, insure 6000", -3000, outcome="lost", ins=6000),
    case("insurance-one-ante-minimum", "golden-oasis", 1000, TRIPS + "As Qc Jd 6h 3c", "play, insure 1000",
         2000, ins=2000),
    case("insurance-partial-player-wins", "golden-oasis", 1000, TRIPS + "4s 4c Jd 6h 3c", "play, insure 2500",
         4500, ins=0),
    case("insurance-push-returned", "golden-oasis", 1000, "9h 8d 7c 6s 5h / 9s 8c 7d 6h 5c",
         "play, insure 8000", 0, outcome="push", ins=8000),
    case("insurance-full-house-max-14000", "golden-oasis", 1000, "5h 5d 5c 2s 2h / As Qc Jd 6h 3c",
         "play, insure 14000", 15000, ins=28000),
    case("insurance-limits", "golden-oasis", 1000, TRIPS + "As Qc Jd 6h 3c",
         "play, !insure 6100, !insure 900, insure 6000", 7000, ins=12000),
    case("insurance-with-bonus-then-game-declined", "golden-oasis", 1000, TRIPS + "As Qc Jd 6h 3c",
         "play, insure 3000, decline", 3900, bonus=True, ins=6000, fees=0),
    case("protection-dealer-nq-example-9", "golden-oasis", 1000, SF_NQ, "play, decline", 50500,
         outcome="protected", main=53500),
    case("protection-tie-example-9", "golden-oasis", 1000, "5c 6c 7c 8c 9c / 5d 6d 7d 8d 9d", "play, decline",
         50500, outcome="protected", main=53500),
    case("protection-higher-straight-flush-example-9", "golden-oasis", 1000,
         "5c 6c 7c 8c 9c / 6d 7d 8d 9d 10d",
         "play, decline", 50500, outcome="protected", main=53500),
    case("straight-flush-beats-qualifying-dealer", "golden-oasis", 1000, "5c 6c 7c 8c 9c / 4s 4d Qd Kh 3h",
         "play, decline", 101000, outcome="won", ante=2000, play=102000),
    case("protection-royal-dealer-nq", "golden-oasis", 1000, "10h Jh Qh Kh Ah / As Qc 9d 5s 2c",
         "play, decline", 100500, outcome="protected"),
    case("protection-royal-vs-royal", "golden-oasis", 1000, "10h Jh Qh Kh Ah / 10s Js Qs Ks As",
         "play, decline", 100500, outcome="protected"),
    case("protection-capped-at-max-payout", "golden-oasis", 5000, "10h Jh Qh Kh Ah / As Qc 9d 5s 2c",
         "play, decline", 200000, outcome="protected", main=215000),
    case("protection-ante-500", "golden-oasis", 500, SF_NQ, "play, decline", 25250, outcome="protected"),
    case("protection-plus-insurance-dealer-nq", "golden-oasis", 1000, SF_NQ, "play, insure 1000", 51500,
         outcome="protected", ins=2000),
    case("protection-plus-insurance-higher-sf", "golden-oasis", 1000, "5c 6c 7c 8c 9c / 6d 7d 8d 9d 10d",
         "play, insure 100000", 50500, outcome="protected", ins=100000),
    case("insurance-limited-by-max-payout-not-capped", "golden-oasis", 5000,
         "10h Jh Qh Kh Ah / As Qc 9d 5s 2c",
         "play, !insure 200100, !insure 4900, insure 200000", 400000, outcome="protected", main=215000,
         ins=400000),
    case("sixth-card-into-straight-flush-protected", "golden-oasis", 1000,
         "5c 6c 7c 8c Kd / As Qd Jh 4s 2d / 9c",
         "buy_sixth_card, play, decline, decline", 49400, bonus=True, outcome="protected", fees=1000,
         hand="StraightFlush"),
    case("protection-with-bonus-game-declined", "golden-oasis", 1000, SF_NQ, "play, decline, decline", 50400,
         bonus=True, outcome="protected", fees=0),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# (8) Several boxes (§3.7): standard (two looked at, the third blind: ante and play bet up
# front, no decision), russian-three-box (third compulsory), golden-oasis (two boxes,
# identical antes of at least 1500, purchases from the last box to the first).
STD3 = "Kh Kd 7c 7s 2h / Qh Jd 10c 6s 3h / 9h 9d 9c 4s 3d / 5s 5c Ad 8h 2c"
RUS3 = "Qh Jd 10c 6s 3h / 8h 8d Ac 7s 4h / 9h 9d 9c 4s 3d"
GOLD2_NQ = "8h 8d 9c 7s 3h / Kh Kd 10c 6s 2h / As Qc Jc 5h 2c"
BOXES = [
    case("standard-blind-third-box-wins", "standard", [1000] * 3, STD3, "@0, play, @1, fold", 11000, boxes=[
        {"outcome": "won", "net": 5000}, {"outcome": "folded", "net": -1000},
        {"outcome": "won", "net": 7000, "ante": 2000, "play": 8000, "hand": "ThreeOfAKind"}]),
    case("standard-blind-box-cannot-act", "standard", [1000] * 3, STD3, "play, fold, !fold, !play", 11000),
    case("standard-blind-third-box-loses", "standard", [1000] * 3,
         "Kh Kd 7c 7s 2h / Qh Qd 10c 6s 3h / Jh 10d 8c 4s 3d / 5s 5c Ad 8h 2c", "play, play", 5000, boxes=[
             {"net": 5000}, {"net": 3000, "outcome": "won"}, {"net": -3000, "outcome": "lost", "ante": 0}]),
    case("standard-blind-third-box-dealer-nq", "standard", [1000] * 3,
         "Kh Kd 7c 7s 2h / Qh Qd 10c 6s 3h / Jh 10d 8c 4s 3d / As Qc 9d 5h 2c", "fold, fold", -1000, boxes=[
             {"net": -1000}, {"net": -1000}, {"net": 1000, "outcome": "dealer_not_qualified", "play": 2000}]),
    case("standard-different-antes", "standard", [1000, 2000, 1500],
         "Qh Jd 10c 6s 3h / 8h 8d Ac 7s 4h / Jh 10d 9c 4s 3d / 5s 5c Kd 7h 2c", "fold, play", 500, boxes=[
             {"net": -1000}, {"net": 6000, "ante": 4000, "play": 8000}, {"net": -4500, "outcome": "lost"}]),
    case("standard-exchange-draws-in-box-order", "standard", [1000] * 3,
         "Ah Kd 9c 7s 3h / Qh Qd 8c 6s 2h / Jh 10d 5c 4s 3d / 5s 5d Jd 4h 2c / 9d Qc",
         "exchange 4, play, exchange 4, play", 5000, boxes=[
             {"net": 2000, "hand": "OnePair", "fees": 1000},
             {"net": 6000, "hand": "ThreeOfAKind", "fees": 1000}, {"net": -3000, "fees": 0}]),
    case("standard-blind-box-odds-bonus", "standard", [1000] * 3,
         "Kh Kd 7c 7s 2h / Qh Jd 10c 6s 3h / Ad 10d 9d 6d 3d / 5s 5c Kc 8h 2c", "fold, fold", 21000,
         bonus=[False, False, 200], boxes=[{"net": -1000}, {"net": -1000}, {"net": 23000, "bonus": 12200}]),
    case("standard-blind-box-dealt-royal-jackpot", "standard", [1000] * 3,
         "Kh Kd 7c 7s 2h / Qh Jd 10c 6s 3h / 10s Js Qs Ks As / 5d 5c Kc 8h 2c", "fold, fold", 198800,
         bonus=[False, False, 200], boxes=[
             {"net": -1000}, {"net": -1000}, {"net": 200800, "bonus": 0, "jackpot": JACKPOT}]),
    case("standard-two-boxes-both-win", "standard", [1000, 1000],
         "8h 8d 9c 7s 3h / Ah Kd Qc 7h 2h / As Kc Jd 9h 8c", "play, play", 6000,
         boxes=[{"net": 3000}, {"net": 3000, "hand": "AceKing"}]),
    case("standard-royal-on-box-2-jackpot", "standard", [1000, 1000],
         "8h 8d 9c 7s 3h / 10s Js Qs Ks As / 4c 4d Qd Kh 2c", "play, play", 203600, bonus=[200, 200], boxes=[
             {"net": 2800, "jackpot": None, "bonus": 0}, {"net": 200800, "jackpot": JACKPOT, "bonus": 0}]),
    case("standard-two-boxes-exchange-and-fold", "standard", [1000, 2500],
         "Ah Kd 9c 7s 3h / Jh Jd 8c 6s 2h / 5s 5c Qd 8h 4c / 2d", "exchange 4, fold, play", 5500, boxes=[
             {"net": -2000, "fees": 1000, "outcome": "folded"}, {"net": 7500, "outcome": "won"}]),
    case("standard-blind-box-push", "standard", [1000] * 3,
         "Qh Jd 10c 6s 2h / 8h 8d 5c 4s 2d / Ah Kd 9c 7s 3h / As Kc 9d 7h 3c", "fold, fold", -2000, boxes=[
             {"net": -1000}, {"net": -1000}, {"net": 0, "outcome": "push", "ante": 1000, "play": 2000}]),
    case("standard-blind-box-capped", "standard", [1000, 1000, 10000],
         "Qh Jd 10h 6s 2h / 8h 8d 5h 4s 2d / 5c 6c 7c 8c 9c / Ks Kd Qd 7h 3c", "fold, fold", 298000, boxes=[
             {"net": -1000}, {"net": -1000}, {"net": 300000, "main": 330000}]),
    case("standard-three-boxes-three-bonus-stakes", "standard", [1000] * 3,
         "Ah Jh 9h 6h 3h / 5c 6d 7c 8s 9d / Ks Kd Kc 2s 2d / 4s 4c Qd Jc 10s", "fold, play", 84800,
         bonus=[200, 300, 500], boxes=[
             {"net": -1200, "bonus": 0}, {"net": 21000, "bonus": 12300}, {"net": 65000, "bonus": 50500}]),
    case("russian-third-box-compulsory", "russian-three-box", [500, 1000, 1500], RUS3 + " / 5s 5c Kd 7h 2c",
         "@0, fold, @1, play", 13000, boxes=[
             {"net": -500, "outcome": "folded"}, {"net": 3000, "ante": 2000, "play": 4000},
             {"net": 10500, "ante": 3000, "play": 12000, "outcome": "won"}]),
    case("russian-third-box-no-decision", "russian-three-box", [500, 1000, 1500], RUS3 + " / 5s 5c Kd 7h 2c",
         "fold, fold, !exchange 0, !fold", 9000, boxes=[{"net": -500}, {"net": -1000}, {"net": 10500}]),
    case("russian-exchange-forfeits-only-its-bonus", "russian-three-box", [500, 1000, 1500],
         "Ah Kd 9c 7s 3h / 5h 6d 7c 8s 9d / Jh 10d 4c 4s 3d / 5s 5c Qd 7h 2c / 9s",
         "exchange 4, play, play", 9300, bonus=[100, 100, 100], boxes=[
             {"net": 900, "bonus": 0, "fees": 500}, {"net": 13000, "bonus": 4100},
             {"net": -4600, "bonus": 0, "outcome": "lost"}]),
    case("russian-third-box-bonus-straight", "russian-three-box", [500, 1000, 1500],
         "Qh Jd 10c 6s 3h / 8h 8d Ac 7s 4h / 5h 6d 7c 8s 9h / 5s 5c Kd 7h 2c", "fold, fold", 32000,
         bonus=[False, False, 500], boxes=[{"net": -500}, {"net": -1000}, {"net": 33500, "bonus": 20500}]),
    case("russian-all-play-dealer-nq", "russian-three-box", [500, 1000, 1500], RUS3 + " / Ks Qc Jh 5h 2c",
         "play, play", 3000, boxes=[{"net": 500}, {"net": 1000}, {"net": 1500, "play": 3000}]),
    case("russian-all-play-dealer-nq-returned", "russian-three-box", [500, 1000, 1500],
         RUS3 + " / Ks Qc Jh 5h 2c", "play, play", 0, ov=RETURNED, boxes=[
             {"net": 0, "ante": 500}, {"net": 0, "ante": 1000}, {"net": 0, "ante": 1500, "play": 3000}]),
    case("russian-box-2-two-card-exchange", "russian-three-box", [500, 1000, 500],
         "Qh Jd 10c 6s 3h / Ah Kd 9c 7s 3d / 4h 4d 8c 8s 2h / 5s 5c Qd 8h 2c / Ac Kc",
         "fold, exchange 2 4, play", 5000, boxes=[
             {"net": -500}, {"net": 3000, "fees": 2000, "hand": "TwoPair"}, {"net": 2500,
             "hand": "TwoPair"}]),
    case("russian-two-boxes-only", "russian-three-box", [500, 700],
         "Kh Kd 7c 7s 2h / Ah Qd 9c 6s 3h / 5s 5c Qc 8h 4c", "play, play", 400,
         boxes=[{"net": 2500}, {"net": -2100, "outcome": "lost"}]),
    case("russian-third-box-loses", "russian-three-box", [500, 500, 500],
         "Kh Kd 7c 7s 2h / Qh Jd 10c 6s 3h / Jh 10d 8c 4s 3d / 5s 5c Ad 8h 2c", "play, fold", 500, boxes=[
             {"net": 2500}, {"net": -500}, {"net": -1500, "outcome": "lost", "ante": 0, "play": 0}]),
    case("golden-two-boxes-play-and-fold", "golden-oasis", [1500, 1500],
         "8h 8d 9c 7s 3h / Qh Jd 10c 6s 2h / 4s 4c Kd Ah 2c", "play, fold", 3000,
         boxes=[{"net": 4500, "outcome": "won"}, {"net": -1500, "outcome": "folded"}]),
    case("golden-two-boxes-dealer-nq", "golden-oasis", [1500, 1500], GOLD2_NQ, "play, play", 3000,
         boxes=[{"net": 1500}, {"net": 1500}]),
    case("golden-two-boxes-no-five-card-exchange", "golden-oasis", [1500, 1500], GOLD2_NQ,
         "!exchange 0 1 2 3 4, fold, fold", -3000, boxes=[{"net": -1500, "fees": 0}, {"net": -1500}]),
    # The dealer's redraw, a five, pairs him for the box that bought; box 1, which declined,
    # settles against the hand he revealed.
    case("golden-purchase-last-box-first-box-2-buys", "golden-oasis", [1500, 1500], GOLD2_NQ + " / 5d",
         "play, play, @1, buy_game, @0, decline", 4200, bonus=True, boxes=[
             {"net": 1350, "fees": 0, "outcome": "dealer_not_qualified"},
             {"net": 2850, "fees": 1500, "outcome": "won"}]),
    case("golden-purchase-last-box-first-box-1-buys", "golden-oasis", [1500, 1500], GOLD2_NQ + " / 5d",
         "play, play, @1, decline, @0, buy_game", 4200, bonus=True, boxes=[
             {"net": 2850, "fees": 1500, "outcome": "won"}, {"net": 1350, "fees": 0}]),
    case("golden-both-boxes-buy-the-game", "golden-oasis", [1500, 1500],
         "8h 8d 9c 7s 3h / Kh Kd 10c 6s 2h / As Qc Jc 5h 4c / 5d 2d", "play, play, buy_game, buy_game", 5700,
         bonus=True, boxes=[{"net": 2850}, {"net": 2850}]),
    case("golden-two-boxes-bonus-dealer-qualifies", "golden-oasis", [1500, 1500],
         "8h 8d 9c 7s 3h / Kh Kd 10c 6s 2h / 4s 4c Qd Ad 2c", "play, play", 8700, bonus=True,
         boxes=[{"net": 4350, "bonus": 0}, {"net": 4350}]),
    case("golden-insurance-on-box-2", "golden-oasis", [1500, 1500],
         "8h 8d 9c 7s 3h / Kh Kd Kc 6s 2h / As Qc Jc 5h 2d", "play, play, insure 9000", 12000,
         boxes=[{"net": 1500}, {"net": 10500, "ins": 18000}]),
    case("golden-two-boxes-two-card-exchanges-with-bonus", "golden-oasis", [1500, 1500],
         "Ah Kd 9c 7s 3h / Qh Jd 10c 6s 2h / 5s 5c Qd 8d 2c / Ac Kc 9h 8h",
         "exchange 3 4, play, exchange 3 4, play, decline", 17700, bonus=True, boxes=[
             {"net": 5850, "fees": 1500, "hand": "TwoPair"},
             {"net": 11850, "fees": 1500, "hand": "Straight"}]),
    case("golden-sixth-card-on-box-1-exchange-on-box-2", "golden-oasis", [1500, 1500],
         "Ah Kd 9c 7s 3h / Qh Qd 8c 6s 2h / 5s 5c Jd 4h 2c / 9d Qc",
         "buy_sixth_card, play, exchange 4, play, decline", 11700, bonus=True, boxes=[
             {"net": 2850, "fees": 1500, "hand": "OnePair"},
             {"net": 8850, "fees": 1500, "hand": "ThreeOfAKind"}]),
    case("golden-insurance-on-box-1-lost-box-2-folds", "golden-oasis", [1500, 1500],
         "9h 9d 9c 5s 2h / Qh Jd 10c 6s 3h / 4s 4c Kd 7h 2c", "play, insure 4500, fold", 4500, boxes=[
             {"net": 6000, "ins": 0, "outcome": "won"}, {"net": -1500, "outcome": "folded"}]),
    case("golden-two-boxes-protection-on-box-1", "golden-oasis", [1500, 1500],
         "5c 6c 7c 8c 9c / 8h 8d Ac 7s 3h / As Qd Jh 4s 2d", "play, decline, play", 77250,
         boxes=[{"net": 75750, "outcome": "protected"}, {"net": 1500}]),
]  # fmt: skip

OPTIONS: dict[str, list[Case]] = {
    "main": MAIN,
    "not-qualified-fold": NOT_QUALIFIED_AND_FOLDS,
    "cap": CAPS,
    "exchange": EXCHANGE,
    "bonus": BONUS,
    "dealer-card": DEALER_CARD,
    "golden": GOLDEN,
    "boxes": BOXES,
}
ALL = [pytest.param(c, id=f"{option}:{c.id}") for option, cases in OPTIONS.items() for c in cases]


def act(round_: Round, step: str) -> None:
    """Applies one action of a case."""
    if step.startswith("@"):
        assert round_.current_box == int(step[1:]), f"box {round_.current_box} acts, not {step[1:]}"
        return
    name, *args = step.lstrip("!").split()
    numbers = [int(a) for a in args]
    if step.startswith("!"):
        with pytest.raises(IllegalAction):
            call(round_, name, numbers)
    else:
        call(round_, name, numbers)


def call(round_: Round, name: str, numbers: list[int]) -> None:
    if name == "exchange":
        round_.exchange(numbers)
    elif name == "insure":
        round_.insure(numbers[0])
    else:
        getattr(round_, name)()


FIELDS = {
    "outcome": lambda b: b["outcome"],
    "ante": lambda b: b["ante"]["returned"],
    "play": lambda b: b["play"]["returned"],
    "bonus": lambda b: b["bonus"]["returned"],
    "bonus_": lambda b: b["bonus"]["returned"],
    "ins": lambda b: b["insurance"]["returned"],
    "main": lambda b: b["ante"]["returned"] + b["play"]["returned"],
    "fees": lambda b: b["fees"],
    "jackpot": lambda b: b["jackpot"],
    "hand": lambda b: b["hand"]["category"],
    "net": lambda b: b["net"],
}


def test_every_option_has_at_least_30_cases() -> None:
    assert {option: len(cases) >= 30 for option, cases in OPTIONS.items()} == dict.fromkeys(OPTIONS, True)
    ids = [c.id for cases in OPTIONS.values() for c in cases]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("c", ALL)
def test_settlement(c: Case) -> None:
    profile = load_profile(c.profile, c.overrides) if c.overrides else load_profile(c.profile)
    round_ = Round(profile, c.antes, bonus=c.bonus, deck=c.deck)
    for step in c.actions.split(","):
        act(round_, step.strip())
    assert round_.phase == "settled"
    s = round_.settlement()
    got: dict[str, Any] = {"net": s["net"]}
    want: dict[str, Any] = {"net": c.net}
    if c.dealer is not None:
        got["dealer"], want["dealer"] = s["dealer_hand"]["category"], c.dealer
    if c.qual is not None:
        got["qual"], want["qual"] = s["dealer_qualifies"], c.qual
    for index, expected in enumerate(c.boxes):
        box = s["boxes"][index]
        for key, value in expected.items():
            got[f"box{index + 1}.{key}"] = FIELDS[key](box)
            want[f"box{index + 1}.{key}"] = value
    assert got == want
    # The engine's own bookkeeping agrees with the definition of net.
    for box in s["boxes"]:
        parts = [box[k] for k in ("ante", "play", "bonus", "insurance")]
        assert box["net"] == sum(p["returned"] - p["stake"] for p in parts) - box["fees"]
    assert s["net"] == sum(box["net"] for box in s["boxes"])
