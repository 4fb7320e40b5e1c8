"""The event log as the operator reads it: a sentence for each event, money in the currency,
the money taken in and paid out among the events."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from support import books, logged_in_menu, settled

from oasis_kiosk import i18n
from oasis_kiosk.config import Config
from oasis_kiosk.hardware import essp
from oasis_kiosk.machine import cash_out_kinds
from oasis_kiosk.machine.cash_out_kinds import HOPPER, PayoutDevice
from oasis_kiosk.machine.events import SENTENCES, event_log, sentence
from oasis_kiosk.machine.meters import METERS
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.machine.tilts import TiltKind
from oasis_kiosk.ui.view import cash_for

PACKAGE = Path(__file__).parent.parent / "oasis_kiosk"
MONEY_KINDS = ("coin", "bill")
"""What the cabinet wires a money device as: the ``{kind}`` of a device's event names."""

# A kind as the code writes it where it is logged: the first argument of ``store.event``,
# ``OperatorMenu._log`` or ``Terminal.device_event``, and the event names of the money
# devices' reports (``money.Rejected``, ``money.Glitch``, ``money.Held``).
LOGGED = [
    re.compile(r"""(?:\.event|\b_log|device_event)\(\s*f?"([a-z_{}]+)\""""),
    re.compile(r"""\b(?:Rejected|Glitch|Report)\(\s*f?"([a-z_{}]+)\""""),
    re.compile(r"""money\.Held\(\s*\w+,\s*"([a-z_]+)\""""),
]
NAMED_BY_CONSTANT = re.compile(r"""\b(?:Rejected|Glitch|Report)\(\s*([A-Z][A-Z_]+)\b""")
"""A device's report whose event name is a constant of its module (the hopper's)."""
CONSTANT = r"""^{name} = (?:"([a-z_]+)"|TiltKind\.([A-Z_]+))$"""
HELD_ITEM = re.compile(r"""money\.Held\(\s*\w+,\s*"[a-z_]+",\s*"([a-z]+)\"""")


def logged_kinds() -> set[str]:
    """Every event kind the package logs, read from its source; a name made of the device's
    kind or item (``f"{kind}_rejected"``) stands for each of them."""
    sources = [path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py")]
    items = {item for source in sources for item in HELD_ITEM.findall(source)}
    named = {name for source in sources for pattern in LOGGED for name in pattern.findall(source)}
    for source in sources:
        for constant in NAMED_BY_CONSTANT.findall(source):
            found = re.search(CONSTANT.format(name=constant), source, re.MULTILINE)
            assert found, f"{constant}: an event name this test cannot read"
            literal, tilt = found.groups()
            named.add(literal or TiltKind[tilt].value)
    kinds = set(essp.NAMES.values())  # the validator's reports, named in a table
    for name in named:
        kinds |= {name.format(kind=kind, item=item) for kind in MONEY_KINDS for item in items}
    return kinds


def test_every_event_kind_the_code_logs_has_a_sentence() -> None:
    kinds = logged_kinds()
    assert {"door_open", "tilt", "handpay_paid", "operator_login", "coin_rejected", "note_returned"} <= kinds
    assert {"hopper_exit_noise", "hopper_exit_blocked"} <= kinds, "the hopper's own reports"
    assert len(kinds) > 40
    assert sorted(kinds - set(SENTENCES)) == []


def cash(amount: int) -> str:
    return i18n.money(amount, "EUR", 100)


@pytest.mark.parametrize(
    ("kind", "detail", "said"),
    [
        ("coin_in", {"amount": 100}, "Coin of €1.00 credited"),
        ("bill_in", {"amount": 2000}, "Note of €20.00 credited"),
        ("handpay_paid", {"amount": 120_000, "round_id": None}, "Handpay of €1,200.00 paid"),
        ("door_open", {}, "Door opened"),
        ("tilt", {"kind": "door", "message": "the door is open"}, "Tilt: The door is open."),
        (
            "tilt",
            {"kind": "pin_lockout", "message": "5 wrong PINs"},
            "Tilt: The operator menu is locked after too many wrong PINs.",
        ),
        ("tilt", {"kind": "an_older_releases", "message": "coin jam"}, "Tilt: coin jam"),
        # What was cleared is quoted: "cleared: the door is open" read as the door open now.
        (
            "tilt_cleared",
            {"kind": "door", "message": "the door is open"},
            "Tilt cleared: “The door is open.”",
        ),
        (
            "round_settled",
            {"round_id": 42, "staked": 3000, "paid": 1000},
            "Round 42 settled: staked €30.00, paid €10.00",
        ),
        (
            "configuration_changed",
            {"setting": "jackpot", "after": {"base": 100_000, "rate": "3/20", "maximum": 900_000}},
            "Jackpot set: base €1,000.00, share 3/20, maximum €9,000.00",
        ),
        ("configuration_changed", {"setting": "hints", "after": True}, "Hints turned on"),
        (
            "configuration_changed",
            {"setting": "speed", "before": "normal", "after": "fast"},
            "Speed changed from normal to fast",
        ),
        (
            "configuration_changed",
            {"setting": "attract_volume", "before": 3, "after": 0},
            "Attract mode volume changed from 3 to 0",
        ),
        ("a_new_kind", {"amount": 5}, "A new kind"),
        ("jackpot_hit", {"round_id": 3}, "Jackpot hit"),
    ],
)
def test_an_event_reads_as_a_sentence_with_its_money(kind: str, detail: dict[str, object], said: str) -> None:
    i18n.use("en")
    assert sentence({"kind": kind, "detail": detail}, cash) == said


def test_a_setting_in_words_reads_in_the_screens_language() -> None:
    i18n.use("cs")
    try:
        said = sentence(
            {
                "kind": "configuration_changed",
                "detail": {"setting": "speed", "before": "normal", "after": "fast"},
            },
            cash,
        )
        assert said == "Rychlost změněna: normální → rychlá"
    finally:
        i18n.use("en")


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_a_refused_press_reads_in_the_screens_language_with_its_money_and_button(
    tmp_path: Path, language: str
) -> None:
    """A refusal is logged with its English message (the books', the hub's) and reads on a
    Czech or Russian menu in that language: it had read «Ввод отклонён (СДАТЬ): deal needs
    3000, its play bets included; the credit is 0», cents unformatted, and a card as
    ``card``. A device's reading of milliseconds is written in the language's digits."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, language=language), books(database))
    assert not terminal.handle("deal").ok
    assert terminal.handle("bill", 5000).ok
    assert terminal.handle("deal").ok
    assert not terminal.handle("card", 9).ok
    with terminal.store.transaction():
        terminal.store.event("bill_line_noise", width_ms=3.2)
    refused = [event for event in terminal.store.events() if event["kind"] == "refused"]
    assert refused[0]["detail"]["reason"] == "deal needs 3000, its play bets included; the credit is 0"
    i18n.use(language)
    try:
        cash = cash_for(terminal)
        said = [sentence(event, cash) for event in event_log(terminal.store, 50)]
        denied = [line for line in said if line.startswith(i18n._("Input refused ({intent}): {reason}")[:5])]
        assert len(denied) == len(refused) >= 2
        for line in denied:
            assert not re.search(r"\b(needs|credit|card|not|now|value|play)\b", line), line
        assert cash(3000) in denied[0], denied[0]
        assert cash(0) in denied[0], denied[0]
        assert "3,2" in said[-1], said[-1]
    finally:
        i18n.use("en")


def test_a_refusal_the_core_explains_keeps_its_reason_in_the_english_log(tmp_path: Path) -> None:
    """A press the round refuses says why in the core's words (an exchange of no card): the
    log must keep that reason, not only "not possible"."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    assert terminal.handle("bill", 5000).ok
    assert terminal.handle("deal").ok
    refused = terminal.handle("exchange")  # no card selected
    assert not refused.ok
    assert refused.reason == "an exchange takes at least one card"
    said = [sentence(event, cash_for(terminal)) for event in event_log(terminal.store, 50)]
    (line,) = [line for line in said if line.startswith("Input refused")]
    assert line.endswith(refused.reason), line
    assert sentence(
        {"kind": "refused", "detail": {"intent": "exchange", "said": {**refused.logged(), "reason": ""}}},
        cash_for(terminal),
    ) == line.removesuffix(f": {refused.reason}"), "an entry without a reason reads as before"


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_a_refused_press_names_its_button_once(tmp_path: Path, language: str) -> None:
    """A refusal's own words begin with the button ("EXCHANGE is not possible now"): the
    log's line had named it again before them ("Input refused (EXCHANGE): EXCHANGE is not
    possible now"). A refusal whose words do not name the button (a card's) still names it."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, language=language), books(database))
    assert terminal.handle("bill", 5000).ok
    assert terminal.handle("deal").ok
    assert not terminal.handle("exchange").ok  # no card selected
    assert not terminal.handle("card", 9).ok
    i18n.use(language)
    try:
        said = [sentence(event, cash_for(terminal)) for event in event_log(terminal.store, 50)]
        exchange, card = i18n._("EXCHANGE"), i18n._("CARD")
        (line,) = [line for line in said if exchange in line]
        assert line.count(exchange) == 1, line
        (line,) = [
            line for line in said if i18n._("card {card}: the cards are 1 to 5").format(card=9) in line
        ]
        assert line.count(card) == 1, line
    finally:
        i18n.use("en")


@pytest.mark.parametrize(
    ("language", "paid", "stakes"),
    [("en", "pays", "coin out"), ("cs", "vypl", "sázek"), ("ru", "выплач", "ставк")],
)
def test_the_money_paid_out_reads_as_paid_not_won(language: str, paid: str, stakes: str) -> None:
    """The coin-out meter and a handpay's entry count what the player is paid, stakes
    included: said as "won" ("Vyhráno", "Round 4 won") they read as a win that disagrees with
    the player's WIN, which is net of the stakes."""
    i18n.use(language)
    try:
        label = i18n._(METERS["coin_out"].label)
        handpay = sentence({"kind": "handpay_win", "detail": {"round_id": 4, "amount": 150_000}}, cash)
        amount = cash(150_000)
    finally:
        i18n.use("en")
    if language == "en":
        assert label == "Won (coin out)"
    else:
        assert paid in label.lower(), label
        assert stakes in label, label
        assert not re.search(r"(?i)vyhr|выигр", label + handpay), (label, handpay)
    assert paid in handpay.lower(), handpay
    assert amount in handpay, handpay
    assert "4" in handpay, handpay
    assert not re.search(r"(?i)\bwon\b", handpay), handpay


def test_the_log_says_the_money_taken_in_and_paid_out_among_the_events(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database), seed_for_round=seeds_from(bytes(32)))
    terminal.handle("coin", 100)
    terminal.handle("bill", 2000)
    terminal.handle("bill", 5000)
    terminal.handle("deal")
    terminal.handle("fold")
    terminal.handle("door_open")
    terminal.handle("door_close")
    terminal.handle("cashout")
    terminal.handle("attendant")
    menu = logged_in_menu(terminal)
    said = [sentence(event, cash) for event in menu.events()]
    staked = settled(terminal.store.rounds()[-1])["collected"]
    credits = 7100 - staked
    expected = [
        "Coin of €1.00 credited",
        "Note of €20.00 credited",
        "Note of €50.00 credited",
        f"Round 1 settled: staked {cash(staked)}, paid €0.00",
        "Door opened",
        "Door closed",
        f"Handpay of {cash(credits)} called for",
        f"Handpay of {cash(credits)} paid",
        "Operator key turned",
        "Operator logged in",
    ]
    assert [line for line in said if line in expected] == expected
    assert not [line for line in said if re.search(r"[{}=]|\w_\w", line)], "no raw detail"
    assert menu.events(2) == menu.events()[-2:]


TICKET_PRINTER = PayoutDevice(
    "ticket_printer",
    unit=lambda config: 1,
    meter="printer_out",
    stopped_short=TiltKind.FAULT,  # a printer's own tilts would be entries of machine/tilts.py
    short_for_cause={},
    overpaid=TiltKind.FAULT,
    words=replace(
        HOPPER.words,
        logged_paid="Ticket of {amount} printed",
        logged_started="Ticket printing started",
        logged_stopped="Ticket printing stopped by the attendant",
        logged_interrupted="The power failed while a ticket printed: it is handpaid",
    ),
)
"""A second payout device, as a ticket printer would be registered."""


@pytest.mark.parametrize(
    ("kind", "detail", "said"),
    [
        ("cash_out", {"amount": 1050, "device": "ticket_printer"}, "Ticket of €10.50 printed"),
        (
            "payout_requested",
            {"coins": 1050, "coin": 1, "device": "ticket_printer"},
            "Ticket printing started",
        ),
        (
            "payout_stop_requested",
            {"coins_owed": 1050, "device": "ticket_printer"},
            "Ticket printing stopped by the attendant",
        ),
        (
            "payout_interrupted",
            {"coins_owed": 1050, "device": "ticket_printer"},
            "The power failed while a ticket printed: it is handpaid",
        ),
        ("cash_out", {"amount": 100, "device": "hopper"}, "Coin of €1.00 paid out by the hopper"),
        (
            "payout_requested",
            {"coins": 10, "coin": 100, "device": "hopper"},
            "Payout started: 10 × €1.00",
        ),
        # An event of a release that named no device was the hopper's.
        ("cash_out", {"amount": 100}, "Coin of €1.00 paid out by the hopper"),
        ("payout_stop_requested", {"coins_owed": 7}, "Payout stopped by the attendant, coins owed: 7"),
        (
            "payout_interrupted",
            {"coins_owed": 7},
            "The power failed during a payout; coins owed, handpaid: 7",
        ),
    ],
)
def test_a_payout_reads_in_the_words_of_the_device_that_paid_it(
    monkeypatch: pytest.MonkeyPatch, kind: str, detail: dict[str, object], said: str
) -> None:
    i18n.use("en")
    monkeypatch.setitem(cash_out_kinds.PAYOUT_DEVICES, TICKET_PRINTER.name, TICKET_PRINTER)
    assert sentence({"kind": kind, "detail": detail}, cash) == said


def test_the_log_names_the_device_of_a_payout_from_its_ledger_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    i18n.use("en")
    monkeypatch.setitem(cash_out_kinds.PAYOUT_DEVICES, TICKET_PRINTER.name, TICKET_PRINTER)
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    terminal.handle("bill", 2000)
    with terminal.store.transaction():
        terminal.store.post("cash_out", -100, device=HOPPER.name)
        terminal.store.post("cash_out", -1050, device=TICKET_PRINTER.name)
    said = [sentence(event, cash) for event in event_log(terminal.store, 10)]
    assert said[-2:] == ["Coin of €1.00 paid out by the hopper", "Ticket of €10.50 printed"]
