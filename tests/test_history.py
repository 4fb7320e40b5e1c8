"""The player's history of the last ten rounds under HELP: the cards as dealt, every exchange
and the final hands, the decisions and the result, from the rounds the books keep."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import REDRAW_DECK, books, golden_oasis_two_boxes, settled
from test_screen import kiosk, settle

from oasis_kiosk import OasisError
from oasis_kiosk.cli import main
from oasis_kiosk.config import Config, ReturnBounds
from oasis_kiosk.machine import recall
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui import history
from oasis_kiosk.ui.view import cash_for

TRIPS = "As Ad Ac Kd 2h / Ks Kh 4c 5c 9d"


def played(tmp_path: Path, rounds: int) -> Terminal:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database), deck_for_round=lambda number: TRIPS)
    terminal.handle("bill", 5000)
    terminal.handle("bill", 5000)
    for _ in range(rounds):
        assert terminal.handle("deal").ok
        terminal.handle("card", 5)
        assert terminal.handle("exchange").ok
        assert terminal.handle("play").ok
    return terminal


def test_the_history_tells_each_round_from_the_deal_to_the_result(tmp_path: Path) -> None:
    terminal = played(tmp_path, 1)
    (title, story) = history.history_lines(terminal, cash_for(terminal))
    assert title == "LAST ROUNDS"
    settlement = settled(terminal.store.rounds(last=1)[0])
    final = settlement["boxes"][0]["cards"]
    assert story.startswith("Round 1, "), story
    assert "Box 1: dealt A♠ A♦ A♣ K♦ 2♥" in story
    assert f"EXCHANGE 5: A♠ A♦ A♣ K♦ {history.card_text(final[4])}" in story
    assert "PLAY" in story
    net = settlement["boxes"][0]["net"]
    assert f"Three of a kind: won, +{cash_for(terminal)(net)}" in story
    assert "Dealer: K♠ K♥ 4♣ 5♣ 9♦, one pair: the dealer qualifies" in story.replace("One pair", "one pair")


def test_the_history_holds_the_last_ten_rounds_newest_first(tmp_path: Path) -> None:
    terminal = played(tmp_path, 12)
    lines = history.history_lines(terminal, cash_for(terminal))
    assert len(lines) == 1 + 10
    assert lines[1].startswith("Round 12, ")
    assert lines[-1].startswith("Round 3, ")


def test_help_shows_the_history_after_the_rules(tmp_path: Path) -> None:
    app, clock = kiosk(tmp_path, (1280, 720), deck=TRIPS)
    app.key("f8")
    app.key("f8")
    app.key("return")
    settle(app, clock, 1)
    app.key("p")
    settle(app, clock, 4)
    seen = []
    app.key("h")
    while app.game.showing_help:
        seen.append(app.game.help_page)
        app.draw()
        app.key("h")
    pages = app.game.help_pages(app.game.layout)
    assert len(seen) == len(pages)
    assert any(page and page[0] == "LAST ROUNDS" for page in pages), "a page of the last rounds"
    assert pages[-1][-1].startswith("Round 1, ")


def test_the_history_shows_the_hand_the_dealer_revealed_and_his_redraw(tmp_path: Path) -> None:
    """After a bought redraw the line names both of the dealer's hands: the cards must show
    both (only the redrawn ones were listed, beside a verdict naming the revealed hand)."""
    terminal = golden_oasis_two_boxes(tmp_path / "kiosk.db", REDRAW_DECK)
    for intent in ["play", "play", "buy_game", "decline"]:
        assert terminal.handle(intent).ok, intent
    (_title, story) = history.history_lines(terminal, cash_for(terminal))
    settlement = settled(terminal.store.rounds(last=1)[0])
    revealed, redrawn = story.split("Dealer: ")[1].split(",")[0].split(" → ")
    assert redrawn == " ".join(history.card_text(card) for card in settlement["dealer_cards"])
    assert revealed != redrawn
    assert "Q♠" in revealed, "his highest card, which he changed"


def test_the_consoles_recall_shows_the_hand_the_dealer_revealed_and_his_redraw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``oasis-kiosk recall`` printed only the redraw beside the boxes that declined it and
    settled against the hand he revealed, which it never showed."""
    database = tmp_path / "kiosk.db"
    terminal = golden_oasis_two_boxes(database, REDRAW_DECK)
    for intent in ["play", "play", "buy_game", "decline"]:
        assert terminal.handle(intent).ok, intent
    settlement = settled(terminal.store.rounds(last=1)[0])
    revealed = settlement["dealer_revealed"]
    assert revealed is not None
    hands = terminal.recalled_hands(terminal.store.rounds(last=1)[0])
    shown_first = " ".join(card or "" for card in hands[0].steps[0].cards)
    terminal.store.close()
    capsys.readouterr()
    assert main(["recall", "--db", str(database), "1"]) == 0
    printed = capsys.readouterr().out
    dealer = next(line for line in printed.splitlines() if line.strip().startswith("dealer"))
    assert f"revealed {shown_first}  {revealed['category']}" in dealer, dealer
    assert (
        f"redraw {' '.join(settlement['dealer_cards'])}  {settlement['dealer_hand']['category']}" in dealer
    ), dealer


def test_the_consoles_recall_names_no_revealed_hand_where_the_record_no_longer_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record that no longer replays shows its hands as settled: the dealer's first step is
    then his redraw, which the console must not print as the hand he revealed."""
    database = tmp_path / "kiosk.db"
    terminal = golden_oasis_two_boxes(database, REDRAW_DECK)
    for intent in ["play", "play", "buy_game", "decline"]:
        assert terminal.handle(intent).ok, intent
    settlement = settled(terminal.store.rounds(last=1)[0])
    terminal.store.close()

    def unreplayable(*_: object) -> None:
        raise OasisError("the record does not replay")

    monkeypatch.setattr(recall, "replayed_hands", unreplayable)
    capsys.readouterr()
    assert main(["recall", "--db", str(database), "1"]) == 0
    dealer = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("dealer"))
    assert "revealed" not in dealer, dealer
    assert " ".join(settlement["dealer_cards"]) in dealer, dealer


def test_the_history_gives_the_amount_insured(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    profile = "golden-oasis"
    terminal = Terminal(
        Config(database=database, profile=profile, return_bounds=ReturnBounds(return_max=1.05)),
        books(database, profile),
        deck_for_round=lambda n: "As Ad Ac Kd 2h / Ks Qh 4c 5c 9d",
    )
    for intent, value in [*[("bill", 5000)] * 4, ("bonus", None), ("deal", None), ("play", None)]:
        assert terminal.handle(intent, value).ok, intent
    amount = terminal.insurance_amount
    assert amount, "trips may be insured"
    assert terminal.handle("insure").ok
    assert terminal.handle("decline").ok, "the dealer did not qualify: no redraw bought"
    (_title, story) = history.history_lines(terminal, cash_for(terminal))
    assert f"INSURE {cash_for(terminal)(amount)}" in story, story


def test_a_ten_reads_as_on_the_card() -> None:
    assert [history.card_text(card) for card in ("Th", "As", None)] == ["10♥", "A♠", "–"]
