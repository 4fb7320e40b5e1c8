"""Type stubs of the native module built from ``rust/py`` (checked by mypy.stubtest)."""

from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict, final, overload

import numpy
from numpy.typing import NDArray
from typing_extensions import Buffer

__all__ = [
    "CATEGORIES",
    "MIN_ROUNDS",
    "SHIPPED_PROFILES",
    "Advice",
    "AnalysisError",
    "BetError",
    "CardError",
    "Choice",
    "EntropyError",
    "HandValue",
    "IllegalAction",
    "OasisError",
    "Profile",
    "ProfileError",
    "RecordError",
    "Round",
    "Shoe",
    "ShoeError",
    "SimulationError",
    "card_code",
    "card_name",
    "evaluate",
    "evaluate_many",
    "exact_analysis",
    "shuffled_deck",
    "side_bet_bound",
    "simulate",
]

CATEGORIES: tuple[str, ...]
MIN_ROUNDS: int
"""The least rounds a simulation plays: two per rank of the up card."""
SHIPPED_PROFILES: tuple[str, ...]
"""The ids of the profiles the package ships, sorted, as the core was built from their folder."""

class OasisError(Exception):
    """Every error the kiosk reports."""

class CardError(ValueError, OasisError):
    """A card, hand or card buffer that is not valid."""

class ShoeError(ValueError, OasisError):
    """A seed or a deal the shoe cannot serve."""

class EntropyError(OSError, OasisError):
    """The operating system's random source failed."""

@final
class HandValue:
    def __new__(cls, strength: int) -> HandValue: ...
    @property
    def category(self) -> str: ...
    @property
    def strength(self) -> int: ...
    def __int__(self) -> int: ...
    def __lt__(self, value: object, /) -> bool: ...
    def __le__(self, value: object, /) -> bool: ...
    def __gt__(self, value: object, /) -> bool: ...
    def __ge__(self, value: object, /) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Shoe:
    def __new__(cls, seed: bytes | None = None) -> Shoe: ...
    @property
    def seed(self) -> bytes: ...
    def deal(self, count: int = 1) -> list[str]: ...
    @property
    def remaining(self) -> int: ...
    @property
    def dealt(self) -> list[str]: ...

def evaluate(cards: str | Iterable[str | int]) -> HandValue: ...
@overload
def evaluate_many(codes: NDArray[numpy.uint8], hand_size: int = 5) -> NDArray[numpy.uint32]: ...
@overload
def evaluate_many(codes: Buffer, hand_size: int = 5) -> array[int]: ...
def shuffled_deck(seed: bytes | None = None) -> list[str]: ...
def card_code(card: str | int) -> int: ...
def card_name(card: str | int) -> str: ...

class ProfileError(ValueError, OasisError):
    """A rule profile that cannot be loaded."""

class BetError(ValueError, OasisError):
    """Bets or credit that cannot start a round."""

class IllegalAction(OasisError):  # noqa: N818 - the name the rules use
    """An action the rules do not allow now; the round is unchanged."""

class RecordError(ValueError, OasisError):
    """A round record that does not replay."""

@final
class Profile:
    @staticmethod
    def from_toml(
        text: str, source: str = "<profile>", overrides: str | Mapping[str, Any] | None = None
    ) -> Profile: ...
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def digest(self) -> str: ...
    def allowed_antes(self, boxes: int = 1) -> list[int]: ...
    def extreme_antes(self) -> list[int]: ...
    def offered_actions(self) -> list[tuple[_Phase, list[_ActionName]]]: ...
    def standard_bonus_stake(self, ante: int) -> int | None: ...
    def bonus_stakes(self, ante: int) -> list[int]: ...
    def deal_needs(
        self, antes: int | Sequence[int], bonus: _Bonus | Sequence[_Bonus] | None = None
    ) -> int: ...
    def placed_at_deal(
        self, antes: int | Sequence[int], bonus: _Bonus | Sequence[_Bonus] | None = None
    ) -> int: ...
    def prices(self, ante: int) -> _PriceList: ...
    def to_dict(self) -> _ProfileRules: ...

_Bonus = bool | int

class _TableRules(TypedDict):
    currency: str
    minor_units: int
    """Minor units in one major unit (100 cents in a euro)."""
    ante_min: int
    ante_max: int
    ante_step: int
    max_payout: int

class _GameRules(TypedDict):
    qualifier: _Category
    play_multiple: int
    cap: Literal["play", "total"]
    no_qualify_ante: Literal["pays", "returned"]

class _BoxRules(TypedDict):
    max: int
    looked_at: int
    identical_antes: bool
    min_ante_multi: NotRequired[int]
    max_exchange_multi: NotRequired[int]

class _ExchangeRoundRules(TypedDict):
    fees: dict[str, str]
    """Cards exchanged (a whole number as text) -> the fee in antes (an exact decimal as text)."""
    with_bonus: dict[str, str]

class _ExchangeRules(TypedDict):
    rounds: list[_ExchangeRoundRules]
    burn: bool
    forfeits_bonus: bool
    must_play_after: bool

class _JackpotAward(TypedDict):
    category: _Category
    share: str
    """Of the meter, an exact decimal as text."""

class _BonusRules(TypedDict):
    kind: Literal["fixed", "odds", "privilege"]
    stake_min: NotRequired[int]
    stake_max: NotRequired[int]
    stake_step: NotRequired[int]
    fee: NotRequired[str]
    """In antes, an exact decimal as text."""
    fee_at_ante: dict[str, int]
    """Ante (a whole number as text) -> the fee at that ante."""
    pays: dict[_Category, int]
    judged_on: Literal["dealt", "final"]
    forfeited_by_fold: bool
    jackpot: list[_JackpotAward]

class _PurchaseRules(TypedDict):
    fee: str
    """In antes, an exact decimal as text."""
    needs_bonus: bool
    min_category: NotRequired[_Category]

class _InsuranceRules(TypedDict):
    min_category: _Category

class _ProtectionRules(TypedDict):
    categories: list[_Category]

class _ProfileRules(TypedDict):
    """``Profile.to_dict``: the profile as its TOML file says it, amounts in minor units."""

    id: str
    name: str
    source: str
    table: _TableRules
    game: _GameRules
    paytable: dict[_Category, int]
    boxes: _BoxRules
    exchange: NotRequired[_ExchangeRules]
    bonus: NotRequired[_BonusRules]
    sixth_card: NotRequired[_PurchaseRules]
    buy_game: NotRequired[_PurchaseRules]
    buy_dealer_card: NotRequired[_PurchaseRules]
    insurance: NotRequired[_InsuranceRules]
    protection: NotRequired[_ProtectionRules]

class _ExchangeFee(TypedDict):
    count: int
    fee: int | None
    with_bonus: int | None

class _PriceList(TypedDict):
    ante: int
    play_bet: int
    bonus: int | None
    exchanges: list[list[_ExchangeFee]]
    sixth_card: int | None
    redraw: int | None

_Phase = Literal["decision", "insurance", "purchase", "settled"]
_ActionName = Literal[
    "fold", "play", "exchange", "buy_sixth_card", "insure", "decline", "buy_dealer_card", "buy_game"
]
_Outcome = Literal[
    "folded",
    "dealer_not_qualified",
    "dealer_still_not_qualified",
    "won",
    "lost",
    "push",
    "protected",
    "void",
]

class _InsuranceRange(TypedDict):
    min: int
    max: int

class _LegalActions(TypedDict, total=False):
    """What the box may do now and at what price (minor units); exchange: by card count."""

    fold: int
    play: int
    exchange: dict[int, int]
    buy_sixth_card: int
    insure: _InsuranceRange
    decline: int
    buy_dealer_card: int
    buy_game: int

class _Stakes(TypedDict):
    ante: int
    play: int
    bonus: int
    insurance: int

class _BetResult(TypedDict):
    stake: int
    returned: int

class _Hand(TypedDict):
    category: str
    strength: int

class _BoxAction(TypedDict):
    action: Literal["fold", "play", "buy_sixth_card", "decline", "buy_dealer_card", "buy_game"]
    box: int

class _ExchangeAction(TypedDict):
    action: Literal["exchange"]
    box: int
    positions: list[int]

class _InsureAction(TypedDict):
    action: Literal["insure"]
    box: int
    amount: int

_RecordedAction = _BoxAction | _ExchangeAction | _InsureAction

class _SeededDeck(TypedDict):
    seed: str
    """32 bytes in lowercase hexadecimal."""

class _StackedDeck(TypedDict):
    stacked: list[str]
    """These cards on top, then the rest in code order."""

_DeckSource = _SeededDeck | _StackedDeck

class _RoundRecord(TypedDict):
    """``Round.record``: everything that rebuilds the round (``Round.replay``)."""

    profile: str
    profile_digest: str
    deck: _DeckSource
    antes: list[int]
    bonus: list[int]
    """Each box's bonus stake, 0 without the bonus bet."""
    credit: int | None
    actions: list[_RecordedAction]

class _JackpotWin(TypedDict):
    category: str
    share: str

class _BoxSettlement(TypedDict):
    box: int
    cards: list[str]
    hand: _Hand
    outcome: _Outcome
    ante: _BetResult
    play: _BetResult
    bonus: _BetResult
    insurance: _BetResult
    fees: int
    jackpot: _JackpotWin | None
    net: int

class _Settlement(TypedDict):
    boxes: list[_BoxSettlement]
    dealer_cards: list[str]
    dealer_hand: _Hand
    dealer_qualifies: bool
    dealer_revealed: _Hand | None
    """The hand the dealer revealed, where a box bought his redraw: the boxes that declined it
    settled against it."""
    void: str | None
    collected: int
    paid: int
    net: int

@final
class Choice:
    @property
    def action(self) -> _ActionName: ...
    @property
    def positions(self) -> list[int] | None: ...
    @property
    def amount(self) -> int | None: ...
    @property
    def ev(self) -> float: ...
    @property
    def exact(self) -> bool: ...

@final
class Advice:
    @property
    def box_index(self) -> int: ...
    @property
    def choices(self) -> list[Choice]: ...
    @property
    def best(self) -> Choice: ...

@final
class Round:
    def __new__(
        cls,
        profile: Profile | str,
        antes: int | Sequence[int],
        bonus: _Bonus | Sequence[_Bonus] | None = None,
        seed: bytes | None = None,
        credit: int | None = None,
        *,
        deck: str | Sequence[str | int] | None = None,
    ) -> Round: ...
    @property
    def profile(self) -> Profile: ...
    @property
    def phase(self) -> _Phase: ...
    @property
    def current_box(self) -> int | None: ...
    @property
    def box_count(self) -> int: ...
    @property
    def antes(self) -> list[int]: ...
    @property
    def credit(self) -> int | None: ...
    @property
    def collected(self) -> int: ...
    def box_cards(self, box_index: int) -> list[str] | None: ...
    def stakes(self, box_index: int) -> _Stakes | None: ...
    def hand(self, box_index: int) -> HandValue | None: ...
    @property
    def dealer_cards(self) -> list[str | None]: ...
    def legal_actions(self, box_index: int | None = None) -> _LegalActions: ...
    def advice(self, box_index: int | None = None) -> Advice: ...
    def fold(self, box_index: int | None = None) -> None: ...
    def play(self, box_index: int | None = None) -> None: ...
    def exchange(self, positions: Sequence[int], box_index: int | None = None) -> None: ...
    def buy_sixth_card(self, box_index: int | None = None) -> None: ...
    def insure(self, amount: int, box_index: int | None = None) -> None: ...
    def decline(self, box_index: int | None = None) -> None: ...
    def buy_dealer_card(self, box_index: int | None = None) -> None: ...
    def buy_game(self, box_index: int | None = None) -> None: ...
    def settlement(self) -> _Settlement: ...
    def record(self) -> _RoundRecord: ...
    @staticmethod
    def replay(profile: Profile, record: _RoundRecord | str) -> Round: ...

class AnalysisError(ValueError, OasisError):
    """A profile or ante the exact analysis does not cover."""

_BoxPlay = Literal["standard", "without_bonus", "for_main", "blind"]

class _SideBetBound(TypedDict):
    stake: int
    return_per_stake: float
    jackpot_frequency: float

_Category = Literal[
    "HighCard",
    "AceKing",
    "OnePair",
    "TwoPair",
    "ThreeOfAKind",
    "Straight",
    "Flush",
    "FullHouse",
    "FourOfAKind",
    "StraightFlush",
    "RoyalFlush",
]

class _ExactAnalysis(TypedDict):
    """``exact_analysis``: amounts in minor units at ``ante``, returns per ante or per unit."""

    profile: str
    profile_digest: str
    ante: int
    play_multiple: int
    cap_binds: list[_Category]
    total_combinations: int
    outcomes: dict[str, int]
    """The return table in its order: outcome (``won_<category>``, ``dealer_not_qualified``,
    ``push``, ``folded``, ``lost``) -> combinations."""
    net: dict[str, int]
    """The same outcomes -> the player's net over ante and play bet."""
    player_net: int
    house_edge: float
    element_of_risk: float
    play_fraction: float
    average_wager: float
    standard_deviation: float
    situations: int
    situations_played: int
    player_classes: int
    table_bytes: int
    play: _BoxPlay
    bonus_stake: int
    bonus_return_per_stake: float | None

def exact_analysis(
    profile: Profile | str,
    ante: int | None = None,
    play: _BoxPlay = "standard",
    progress: Callable[[int, int], object] | None = None,
) -> _ExactAnalysis: ...
def side_bet_bound(profile: Profile | str, stake: int | None = None) -> _SideBetBound | None: ...

class SimulationError(ValueError, OasisError):
    """A simulation that cannot run: no rounds, an ante or a way of playing the profile does not allow."""

class _Estimate(TypedDict):
    value: float
    ci95: float
    """Half the 95 % interval."""

class _ControlVariate(TypedDict):
    base_return_per_ante: float
    variance_reduction: float | None

class _OptionFigures(TypedDict):
    taken: int
    frequency: float
    paid: float
    contribution: float

_OptionName = Literal["exchange", "sixth_card", "insurance", "buy_dealer_card", "buy_game"]

class _BonusHit(TypedDict):
    hits: int
    frequency: float
    pays: str
    """Minor units (fixed), ``N:1`` (odds), or a jackpot award's share of the meter."""

class _BonusFigures(TypedDict):
    kind: Literal["fixed", "odds", "privilege"]
    stake: int
    return_per_stake: _Estimate
    hits: dict[_Category, _BonusHit]
    jackpot_hits: dict[_Category, _BonusHit]

class _Simulation(TypedDict):
    """``simulate``: amounts in minor units at ``ante``, returns per ante or per unit."""

    profile: str
    profile_digest: str
    ante: int
    play: _BoxPlay
    bonus_stake: int
    seed: str
    rounds: int
    method: str
    cap_binds: list[_Category]
    house_edge: float
    house_edge_ci95: float
    control_variate: _ControlVariate
    monte_carlo_return_per_ante: _Estimate
    return_per_ante: _Estimate
    return_per_wager: _Estimate
    element_of_risk: float
    element_of_risk_ci95: float
    average_wager: float
    standard_deviation: float
    play_fraction: float
    play_fraction_ci95: float
    return_with_bonus: _Estimate
    outcomes: dict[str, int]
    """Rounds by outcome (``exact_analysis``'s, and ``dealer_still_not_qualified``, ``protected``)."""
    outcome_return: dict[str, float]
    bonus: _BonusFigures | None
    options: dict[_OptionName, _OptionFigures]
    exchanges: dict[str, int]
    """``round_<r>_cards_<k>`` -> rounds in which the box exchanged k cards in exchange round r."""
    distribution: list[list[float]]
    """[net in antes, rounds] pairs by ascending net (JSON's arrays: the rounds a whole number)."""

def simulate(
    profile: Profile | str,
    rounds: int,
    seed: bytes | None = None,
    ante: int | None = None,
    play: _BoxPlay = "standard",
    progress: Callable[[int, int], object] | None = None,
) -> _Simulation: ...
