"""The player's history of the last ten rounds under HELP: the cards as dealt, every exchange
and the final hands, the decisions and the result, from the rounds the books keep."""

from __future__ import annotations

from pathlib import Path

from support import books, settled
from test_screen import kiosk, settle

from oasis_kiosk.config import Config
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
