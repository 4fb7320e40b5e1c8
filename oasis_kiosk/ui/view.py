"""What the game screen shows, read off the terminal as plain values (no pygame): the cards
on the table, the bets in each spot, the meters, the sentence that says what the player can
do, the buttons and the overlays. The screen compares one view with the last to redraw
only what changed; the tests read it to check what the player is told."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from oasis_kiosk import Round, i18n
from oasis_kiosk.i18n import N_, _
from oasis_kiosk.machine.advisor import Advisor
from oasis_kiosk.machine.cash_out_kinds import payout_device
from oasis_kiosk.machine.intents import ACTION_INTENTS, BUTTON_LABELS, Intent
from oasis_kiosk.machine.mode import Mode
from oasis_kiosk.machine.money_kinds import MONEY_KINDS
from oasis_kiosk.machine.outcome import bonus_category, round_win
from oasis_kiosk.machine.terminal import Response, Terminal
from oasis_kiosk.ui import prompt
from oasis_kiosk.ui.motion import Face
from oasis_kiosk.ui.rules_text import hand_name

if TYPE_CHECKING:
    from oasis_kiosk._core import _BoxSettlement as BoxSettlement
    from oasis_kiosk._core import _Phase as Phase
    from oasis_kiosk._core import _RoundRecord as RoundRecord
    from oasis_kiosk._core import _Settlement as Settlement
    from oasis_kiosk.store.db.rounds import RoundSettlement

    class ShownSettlement(RoundSettlement):
        """The last round's settlement as the table shows it, with the round it settled."""

        round: int
        record: RoundRecord


OUTCOMES = {
    "folded": N_("folded"),
    "dealer_not_qualified": N_("dealer does not qualify"),
    "dealer_still_not_qualified": N_("dealer still does not qualify"),
    "won": N_("won"),
    "lost": N_("lost"),
    "push": N_("stand-off"),
    "protected": N_("protected"),
    "void": N_("void: stakes returned"),
}
"""A settled box's outcome in the words its caption says it."""
AGAINST_THE_NET = {"won": N_("beats the dealer"), "lost": N_("loses to the dealer")}
"""The outcome of a box whose net goes the other way (a win against the dealer that its
bonus stake, insurance or fees outweigh; a loss that its bonus pays more than): the hands'
verdict, so that no caption reads "won" beside a loss or "lost" beside a gain."""
SettledBet = Literal["ante", "play", "bonus", "insurance"]
"""A settled box's bet (its key in the box's settlement)."""


@dataclass(frozen=True)
class BoxView:
    label: str
    cards: tuple[Face, ...]
    selected: frozenset[int]
    current: bool
    hand: str
    """The hand's name (and a fold), all that shows while the dealer's cards are still turning."""
    caption: str
    """The hand and, once the round is settled, its outcome and net ("Flush: won, +€98.00")."""
    bets: tuple[tuple[str, int], ...]
    """(spot, amount): "ante", "play", "bonus", "insure"."""
    won: bool
    folded: bool
    shorter_label: str = ""
    """The label without the blind box's note, for a box too narrow for the label at the
    text floor (a box's own ante said in it)."""


@dataclass(frozen=True)
class View:
    round_key: tuple[int, str] | None
    """(round number, "open" or "settled"): a new key is a new deal."""
    dealer: tuple[Face, ...]
    dealer_verdict: str
    boxes: tuple[BoxView, ...]
    lit_category: str | None
    """The paytable row of the current hand, or of the winning hand of a settled round."""
    prompt: str
    credits: int
    bet: int
    win: int
    """What the settled round won: what it paid back minus what it took, never below 0."""
    returned: int
    """All the settled round put back on the credits (stakes included; nothing when its win
    is paid by hand): CREDIT holds it back until the outcome shows."""
    bonus_category: str | None
    """The bonus table's row a settled box's bonus won on."""
    jackpot: int | None
    """The meter shown (None: a linked jackpot whose pool the hub has not told yet)."""
    jackpot_won: int
    jackpot_before: int | None
    """The meter as it stood before the settled round's jackpot hit (else the meter): shown
    until the outcome, so that no drop of the meter tells it first."""
    buttons: tuple[tuple[str, str, bool], ...]
    """(cabinet button, label, live)."""
    overlay: tuple[str, ...]
    """("tilt" | "handpay" (a win's) | "cash-out handpay" | "payout" | "pending" | "operator",
    lines...) or empty."""
    ante_unit: int
    thinking: bool
    """A hint is being worked out: the view is read again when it is ready."""


def last_settlement(terminal: Terminal) -> ShownSettlement | None:
    """The last round's settlement, shown until the next deal."""
    rounds = terminal.last_rounds(1)
    if not rounds:
        return None
    last = rounds[-1]
    if last["state"] != "settled":
        return None
    return {**last["settlement"], "round": last["id"], "record": last["record"]}


def paid_back(settlement: ShownSettlement | None) -> int:
    """What a settled round paid back, stakes and jackpots included."""
    if settlement is None:
        return 0
    return int(settlement.get("paid", 0)) + int(settlement.get("jackpot_awards", 0))


def last_win(settlement: ShownSettlement | None) -> int:
    """What a settled round won, for the WIN meter: its net gain (``round_win``). Stakes that
    merely come back (a fold's, a stand-off's, a loss's returned ante) are no win."""
    if settlement is None:
        return 0
    return max(round_win(settlement, int(settlement.get("jackpot_awards", 0))), 0)


CABINET_OVERLAYS = {"tilt", "operator"}
"""Overlays that tell of the cabinet, not of a round's outcome: they show during a reveal."""


def while_the_dealer_turns(view: View) -> View:
    """A round as it shows while the dealer's cards are turning: no verdict, and no prompt,
    panel or button of what comes after (a handpay's, DEAL, or the offers to a dealer who
    does not qualify): a press only hurries the reveal."""
    cabinet = bool(view.overlay) and view.overlay[0] in CABINET_OVERLAYS
    return replace(
        view,
        overlay=view.overlay if cabinet else (),
        prompt=view.prompt if cabinet else "",
        buttons=(),
        dealer_verdict="",
    )


def while_the_cards_land(view: View, landing: frozenset[int]) -> View:
    """A round as it shows while the cards of the boxes ``landing`` are still coming, turning
    or being swapped: their hands unnamed, no paytable row lit, nothing offered yet (a box
    decided before keeps its caption)."""
    return replace(
        while_the_dealer_turns(view),
        boxes=tuple(
            replace(box, hand="", caption="") if index in landing else box
            for index, box in enumerate(view.boxes)
        ),
        lit_category=None,
    )


def before_reveal(view: View, lit_category: str | None) -> View:
    """The settled round as it shows while the dealer's cards are still turning: the hands,
    no outcome, no money moved (``while_the_dealer_turns``); ``lit_category`` stays lit
    meanwhile (so that no row going dark tells the outcome first)."""
    return replace(
        while_the_dealer_turns(view),
        boxes=tuple(replace(box, caption=box.hand, won=False) for box in view.boxes),
        lit_category=lit_category,
        win=0,
        credits=view.credits - view.returned,
        returned=0,
        bonus_category=None,
        jackpot=view.jackpot_before,
        jackpot_won=0,
    )


def _folded_boxes(record: RoundRecord) -> set[int]:
    return {action["box"] for action in record["actions"] if action["action"] == "fold"}


def _bonus_category(terminal: Terminal, last: ShownSettlement, settled: BoxSettlement) -> str | None:
    """The hand a settled box's bonus won on: the final hand or, where the profile judges
    the bonus on the five cards dealt and the box changed them, the hand dealt."""
    if settled["jackpot"]:
        return str(settled["jackpot"]["category"])
    bonus = settled["bonus"]
    if not bonus["stake"] or bonus["returned"] <= bonus["stake"]:
        return None
    record: RoundRecord = last["record"]
    final = str(settled["hand"]["category"])
    return bonus_category(terminal.profile_of(record["profile_digest"]), record, settled["box"], final)


def cash_for(terminal: Terminal) -> Callable[[int], str]:
    table = terminal.rules["table"]
    currency, minor = table["currency"], table["minor_units"]
    return lambda amount: i18n.money(amount, currency, minor)


def _bets_in_play(terminal: Terminal, box: int) -> tuple[tuple[str, int], ...]:
    """The stakes on a box of the round in play, as the round holds them."""
    assert terminal.round is not None
    stakes = terminal.round.stakes(box)
    if stakes is None:
        return ()
    placed = (
        ("ante", stakes["ante"]),
        ("play", stakes["play"]),
        ("bonus", stakes["bonus"]),
        ("insure", stakes["insurance"]),
    )
    return tuple((spot, amount) for spot, amount in placed if amount)


def _staged_bets(terminal: Terminal, box: int, *, blind: bool) -> tuple[tuple[str, int], ...]:
    """The stakes box ``box`` will take at the deal: its ante, its bonus stake and, on a
    blind box, its play bet (placed at the deal, RULES.md §2.7)."""
    ante = terminal.antes[box]
    staged = [("ante", ante)]
    if terminal.bonus_stake:
        staged.append(("bonus", terminal.bonus_stake))
    if blind:
        staged.append(("play", terminal.profile.prices(ante)["play_bet"]))
    return tuple(staged)


def _settled_bets(box: BoxSettlement) -> tuple[tuple[str, int], ...]:
    spots: tuple[tuple[str, SettledBet], ...] = (
        ("ante", "ante"),
        ("play", "play"),
        ("bonus", "bonus"),
        ("insure", "insurance"),
    )
    return tuple((spot, box[key]["stake"]) for spot, key in spots if box[key]["stake"])


def snapshot(terminal: Terminal, message: Response | None = None, advisor: Advisor | None = None) -> View:
    """``message``: a refused press or a notice, said after the prompt; ``advisor``: hints are on."""
    cash = cash_for(terminal)
    round_ = terminal.round
    last = None if round_ is not None or terminal.bet_since_round else last_settlement(terminal)
    live = terminal.live()
    table = _table_shown(terminal, last, cash)
    shown = terminal.jackpot_shown
    advised = prompt.hint(terminal, cash, advisor)
    return View(
        round_key=table.key,
        dealer=table.dealer,
        dealer_verdict=table.verdict,
        boxes=table.boxes,
        lit_category=table.lit,
        prompt=prompt.message_line(terminal, live, cash, advised, message),
        credits=terminal.credits,
        bet=_bet_shown(terminal, last),
        win=last_win(last),
        returned=0 if last is not None and last.get("handpaid") else paid_back(last),
        bonus_category=table.bonus_category,
        jackpot=shown,
        jackpot_won=int(last.get("jackpot_awards", 0)) if last else 0,
        jackpot_before=_jackpot_before(terminal, last, shown),
        buttons=buttons(terminal, live, cash),
        overlay=overlay(terminal, cash, last),
        ante_unit=table.ante_unit,
        thinking=advisor is not None and bool(advised) and not advisor.ready(),
    )


def _bet_shown(terminal: Terminal, last: ShownSettlement | None) -> int:
    """BET: what the round in play has taken; the settled round's stakes while it is shown
    (its chips are on the felt); else what DEAL will take."""
    if terminal.round is not None:
        return terminal.round.collected
    if last is not None:
        return int(last["collected"])
    return terminal.placed_at_deal()


def _jackpot_before(terminal: Terminal, last: ShownSettlement | None, shown: int | None) -> int | None:
    """The cabinet's meter before the last round's hit, as its settlement kept it; the meter
    ``shown`` where no round is settled or the jackpot is the hub's."""
    if terminal.linked_jackpot or not last:
        return shown
    return int(last.get("jackpot_before", terminal.jackpot.value))


@dataclass(frozen=True)
class _TableShown:
    """The table's part of a view: the round in play's, the last settled round's, or none;
    and the boxes staged for the next deal."""

    ante_unit: int
    key: tuple[int, str] | None = None
    dealer: tuple[Face, ...] = ()
    verdict: str = ""
    boxes: tuple[BoxView, ...] = ()
    lit: str | None = None
    bonus_category: str | None = None


def _table_shown(terminal: Terminal, last: ShownSettlement | None, cash: Callable[[int], str]) -> _TableShown:
    looked_at = int(terminal.rules["boxes"]["looked_at"])
    if terminal.round is not None:
        table = _round_in_play(terminal, terminal.round, looked_at)
    else:
        if last is None:
            table = _TableShown(ante_unit=terminal.ante)
        else:
            table = _settled_round(terminal, last, looked_at, cash)
        table = replace(table, boxes=_with_staged_boxes(terminal, table.boxes, looked_at))
    return replace(table, boxes=_with_own_antes(table.boxes, cash))


def _with_own_antes(boxes: tuple[BoxView, ...], cash: Callable[[int], str]) -> tuple[BoxView, ...]:
    """The boxes, each label saying the box's own ante while the antes differ (a box bet
    alone, RULES.md §3.7): a chip too small for its amount shows none, and the BET meter
    tells only their total."""
    antes = [dict(box.bets).get("ante") for box in boxes]
    if len({ante for ante in antes if ante}) < 2:
        return boxes
    said = _("{box} · {ante}")
    return tuple(
        replace(
            box,
            label=said.format(box=box.label, ante=cash(ante)),
            shorter_label=said.format(box=_box_label(index, index + 1), ante=cash(ante)),
        )
        if ante
        else box
        for index, (box, ante) in enumerate(zip(boxes, antes, strict=True))
    )


def _round_in_play(terminal: Terminal, round_: Round, looked_at: int) -> _TableShown:
    """The round being played: each box's cards and hand, the current box's cards selected
    and its hand lit in the paytable."""
    assert terminal.round_id is not None
    folded = _folded_boxes(round_.record())
    boxes: list[BoxView] = []
    lit = None
    for index in range(round_.box_count):
        current = round_.current_box == index
        hand = round_.hand(index)
        cards = round_.box_cards(index)
        name = hand_name(hand.category) if hand is not None else ""
        boxes.append(
            BoxView(
                label=_box_label(index, looked_at),
                cards=tuple(cards) if cards else (None,) * 5,
                selected=frozenset(terminal.selected) if current else frozenset(),
                current=current,
                hand=name,
                caption=_named(name, index in folded),
                bets=_bets_in_play(terminal, index),
                won=False,
                folded=index in folded,
            )
        )
        if current and hand is not None:
            lit = hand.category
    return _TableShown(
        ante_unit=terminal.ante,
        key=(terminal.round_id, "open"),
        dealer=tuple(round_.dealer_cards),
        boxes=tuple(boxes),
        lit=lit,
    )


def _named(hand: str, folded: bool) -> str:
    """A box's hand as it is named before the outcome: a fold said in words, not by the
    greyed cards alone (it tells nothing of the dealer's hand)."""
    return (
        _("{hand}: {outcome}").format(hand=hand, outcome=_(OUTCOMES["folded"])) if hand and folded else hand
    )


def _settled_round(
    terminal: Terminal, last: ShownSettlement, looked_at: int, cash: Callable[[int], str]
) -> _TableShown:
    """The last round settled, shown until the next bet: each box's result, the winning
    hand lit in the paytable (the best of the hands whose play bet it paid: a bonus win is
    the bonus table's), and the bonus table's row a bonus won on."""
    awards = jackpot_awards(last)
    boxes: list[BoxView] = []
    lit: tuple[tuple[bool, int], str] | None = None
    bonus_category: str | None = None
    for settled in last["boxes"]:
        won = settled["net"] > 0 or bool(settled["jackpot"])
        name = hand_name(settled["hand"]["category"])
        boxes.append(
            BoxView(
                label=_box_label(settled["box"], looked_at),
                cards=tuple(settled["cards"]),
                selected=frozenset(),
                current=False,
                # A blind box's cards turn with the dealer's: nothing names its hand before.
                hand="" if settled["box"] >= looked_at else _named(name, settled["outcome"] == "folded"),
                caption=box_result(settled, awards.get(settled["box"], 0), cash),
                bets=_settled_bets(settled),
                won=won,
                folded=settled["outcome"] == "folded",
            )
        )
        paid_by_the_table = settled["play"]["returned"] > settled["play"]["stake"]
        rank = (settled["net"] > 0, settled["hand"]["strength"])
        if paid_by_the_table and (lit is None or rank > lit[0]):
            lit = (rank, settled["hand"]["category"])
        bonus_category = bonus_category or _bonus_category(terminal, last, settled)
    return _TableShown(
        ante_unit=min((settled["ante"]["stake"] for settled in last["boxes"]), default=terminal.ante),
        key=(int(last["round"]), "settled"),
        dealer=tuple(last["dealer_cards"]),
        verdict=dealer_verdict(last),
        boxes=tuple(boxes),
        lit=lit[1] if lit else None,
        bonus_category=bonus_category,
    )


def _with_staged_boxes(terminal: Terminal, boxes: tuple[BoxView, ...], looked_at: int) -> tuple[BoxView, ...]:
    """The boxes shown, then each further box bet on for the next deal, empty, with the
    stakes it will take."""
    staged = list(boxes)
    boxes_max = int(terminal.rules["boxes"]["max"])
    while len(staged) < max(terminal.boxes, 1) and len(staged) < boxes_max:
        index = len(staged)
        staged.append(
            BoxView(
                _box_label(index, looked_at),
                (),
                frozenset(),
                terminal.bet_box == index,  # lit as the box BET steps alone
                "",
                "",
                _staged_bets(terminal, index, blind=index >= looked_at),
                False,
                False,
            )
        )
    return tuple(staged)


def dealer_verdict(settlement: Settlement) -> str:
    """The dealer's hand and whether it qualifies, as a settled round shows it; after a
    bought redraw, the hand he revealed too, which the boxes that declined settled against
    (none is kept by books of an earlier release)."""
    hand = hand_name(settlement["dealer_hand"]["category"])
    revealed = settlement.get("dealer_revealed")
    if revealed is not None:
        template = (
            _("{revealed}: the dealer does not qualify; his redraw, {hand}, qualifies")
            if settlement["dealer_qualifies"]
            else _("{revealed}: the dealer does not qualify, nor does his redraw, {hand}")
        )
        return template.format(revealed=hand_name(revealed["category"]), hand=hand)
    template = (
        _("{hand}: the dealer qualifies")
        if settlement["dealer_qualifies"]
        else _("{hand}: the dealer does not qualify")
    )
    return template.format(hand=hand)


def jackpot_awards(settlement: RoundSettlement) -> dict[int, int]:
    """Each box's jackpot award in a settled round (none kept by books of an earlier release)."""
    return {int(hit["box"]): int(hit["award"]) for hit in settlement.get("jackpot_hits", ())}


def box_result(settled: BoxSettlement, award: int, cash: Callable[[int], str]) -> str:
    """A settled box's hand, outcome and net, its jackpot ``award`` included."""
    result = settled["net"] + award
    net = cash(result) if result <= 0 else "+" + cash(result)
    outcome = settled["outcome"]
    belied = (outcome == "won" and result <= 0) or (outcome == "lost" and result > 0)
    words = AGAINST_THE_NET[outcome] if belied else OUTCOMES[outcome]
    hand, said = hand_name(settled["hand"]["category"]), _(words)
    if award:
        return _("{hand}: {outcome}, the jackpot pays, {net}").format(hand=hand, outcome=said, net=net)
    if settled["bonus"]["returned"] > settled["bonus"]["stake"]:
        return _("{hand}: {outcome}, the bonus pays, {net}").format(hand=hand, outcome=said, net=net)
    return _("{hand}: {outcome}, {net}").format(hand=hand, outcome=said, net=net)


def _box_label(index: int, looked_at: int) -> str:
    if index >= looked_at:
        return _("BOX {number} (blind)").format(number=index + 1)
    return _("BOX {number}").format(number=index + 1)


def buttons(
    terminal: Terminal, live: set[Intent], cash: Callable[[int], str]
) -> tuple[tuple[Intent, str, bool], ...]:
    """The buttons that belong to the moment, lit when live (the cabinet's lamps)."""
    round_ = terminal.round
    if terminal.mode.calls_attendant:
        names = [Intent.ATTENDANT, Intent.HELP]
    else:
        names = _bar_names(terminal, None if round_ is None else round_.phase)
    labels = []
    for name in names:
        label = _button_label(terminal, name, round_ is None, cash)
        lit = name in live
        if name is Intent.EXCHANGE:
            price = prompt.exchange_price(terminal)
            lit = lit and price is not None
            label = f"{label} {cash(price)}" if price is not None else label
        labels.append((name, label, lit))
    return tuple(labels)


def bars_to_come(terminal: Terminal, cash: Callable[[int], str]) -> list[tuple[str, ...]]:
    """The labels of each bar of buttons a round shows as it goes (placing the bets, then
    each phase the profile asks in), as they read now: what the screen renders ahead."""
    phases: list[Phase | None] = [None, *dict(terminal.profile.offered_actions())]
    return [
        tuple(_button_label(terminal, name, phase is None, cash) for name in _bar_names(terminal, phase))
        for phase in phases
    ]


def _bar_names(terminal: Terminal, phase: Phase | None) -> list[Intent]:
    """The buttons of a round's ``phase`` (None: placing the bets), HELP last: in a round,
    each action the profile may offer in it (the core's ``offered_actions``), by its intent."""
    if phase is None:
        names = [Intent.BET_DOWN, Intent.BET, Intent.MAX_BET]
        if terminal.profile.bonus_stakes(terminal.ante):
            names.append(Intent.BONUS)
        if int(terminal.rules["boxes"]["max"]) > 1:
            names.append(Intent.BOXES)
        if terminal.last_bets is not None and terminal.last_bets != terminal.bets:
            names.append(Intent.REPEAT_BET)  # beside DEAL only when it deals something else
        names += [Intent.DEAL, Intent.CASHOUT, Intent.LANGUAGE]
    else:
        offered = dict(terminal.profile.offered_actions()).get(phase, [])
        names = [ACTION_INTENTS[action] for action in offered]
        if phase == "insurance":
            names[:0] = [Intent.BET_DOWN, Intent.BET]  # BET and BET − choose the amount to insure
    return [*names, Intent.HELP]


def _button_label(terminal: Terminal, name: Intent, betting: bool, cash: Callable[[int], str]) -> str:
    """A button's label with the amount it stakes or the count it sets (``betting``: before
    the deal; an exchange's price is the selection's: ``buttons``)."""
    label = _(BUTTON_LABELS[name])
    if name is Intent.BET and betting:
        return f"{label} {cash(terminal.stepped_ante)}"
    if name is Intent.BET:
        return f"{label} {cash(terminal.insurance_amount or 0)}"
    if name is Intent.BONUS:
        stake = cash(terminal.bonus_stake) if terminal.bonus_stake else _("OFF")
        return f"{label} {stake}"
    if name is Intent.BOXES:
        return f"{label} {terminal.boxes}"
    return label


def overlay(terminal: Terminal, cash: Callable[[int], str], last: ShownSettlement | None) -> tuple[str, ...]:
    """The panel over the table when the game cannot go on; ``last``: the settled round shown."""
    mode = terminal.mode
    if mode is Mode.OPERATOR:
        return ("operator",)
    if mode is Mode.PAYING:
        words = payout_device(terminal.config).words
        return ("payout", _("PAYING OUT"), _(words.to_come).format(coins=terminal.payout_items))
    if mode is Mode.HANDPAY and terminal.handpay is not None:
        title, won = _handpaid_win(terminal, cash, last)
        return (
            "handpay" if terminal.handpay_win is not None else "cash-out handpay",
            title,
            cash(terminal.handpay),
            *won,
            _("Please wait: the attendant pays this amount by hand."),
        )
    if mode is Mode.JACKPOT_PENDING:
        return ("pending", _("JACKPOT PENDING"), _("Jackpot pending: the award is being confirmed"))
    if mode.calls_attendant:
        reasons = [prompt.tilt_reason(kind, detail) for kind, detail in terminal.tilts.items()]
        return ("tilt", _("OUT OF ORDER"), *reasons, _("Please call the attendant."))
    return ()


def _handpaid_win(
    terminal: Terminal, cash: Callable[[int], str], last: ShownSettlement | None
) -> tuple[str, tuple[str, ...]]:
    """The handpay panel's title and what its handpay is, where WIN shows another amount:
    the win, on the bets the round took (the two make what it pays back, a lost bet's loss
    being in the win), and the jackpot in it; or a linked jackpot's award, paid after the
    round's win. A jackpot's lock-up says so in its title."""
    won = terminal.handpay_win
    if won is not None and won.get("linked"):
        return _("JACKPOT: HANDPAY"), (_("The linked jackpot's award"),)
    if won is None or last is None or last["round"] != won["round_id"]:
        return _("HANDPAY"), ()
    bets = int(last.get("collected", 0))
    won_words = _("Won {win} on bets of {bets}").format(win=cash(last_win(last)), bets=cash(bets))
    jackpot = sum(jackpot_awards(last).values())
    if not jackpot:
        return _("HANDPAY"), (won_words,)
    line = _("{won}, the jackpot's {jackpot} included").format(won=won_words, jackpot=cash(jackpot))
    return _("JACKPOT: HANDPAY"), (line,)


def legend(rows: list[tuple[str, str, int | None]], cash: Callable[[int], str]) -> list[tuple[str, str]]:
    """The desktop's keys as the on-screen legend shows them: (key, what it does)."""
    shown = []
    for key, name, value in rows:
        if name in BUTTON_LABELS:
            meaning = _(BUTTON_LABELS[Intent(name)])
        elif name.startswith("card"):
            meaning = _("CARD {number}").format(number=name[4:])
        elif name in MONEY_KINDS:
            meaning = _(MONEY_KINDS[name].said).format(amount=cash(value or 0))
        elif name == "door":
            meaning = _("door open / closed")
        else:
            meaning = _("operator key")
        shown.append(({"return": _("ENTER")}.get(key, key.upper()), meaning))
    return shown
