"""The player's language button: cs, en, ru in turn, for one session; the house language
again once the session's money is gone, or when the attract demo starts."""

from __future__ import annotations

from pathlib import Path

from support import books
from test_screen import kiosk

from oasis_kiosk import i18n
from oasis_kiosk.config import Config
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.ui.view import snapshot


def terminal(database: Path, language: str = "cs") -> Terminal:
    config = Config(database=database, language=language)
    return Terminal(config, books(database, config.profile), seed_for_round=seeds_from(bytes(32)))


def test_the_language_button_steps_through_the_languages_from_the_house_one(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    assert t.language == "cs"
    assert "language" in t.live(), "a player may choose before paying"
    seen = []
    for _ in range(3):
        assert t.handle("language").ok
        seen.append(t.language)
    assert seen == ["ru", "en", "cs"]
    assert t.config.language == "cs", "the house language is the operator's"


def test_the_house_language_returns_when_the_sessions_money_is_gone(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db")
    t.handle("language")
    t.handle("coin", 200)
    t.handle("help")
    assert t.language == "ru", "kept while the session has money"
    t.handle("cashout")  # paid by hand: the session lasts until the attendant has paid
    assert t.language == "ru"
    t.handle("attendant")
    assert t.handpay is None
    assert t.language == "cs"


def test_a_round_that_loses_the_last_credit_ends_the_session(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    config = Config(database=database, language="en")
    losing = "2c 3d 5s 7s 9c / Kd Kc 4h 5h 9d"  # the dealer's pair of kings beats nine high
    t = Terminal(config, books(database, config.profile), deck_for_round=lambda number: losing)
    t.handle("bill", 2000)
    t.handle("bill", 1000)
    t.handle("language")
    assert t.handle("deal").ok
    assert t.language == "cs", "all the credit is on the table: the session goes on"
    assert t.handle("play").ok
    assert t.credits == 0
    assert t.language == "en"


def test_the_attract_demo_forgets_the_players_language(tmp_path: Path) -> None:
    t = terminal(tmp_path / "kiosk.db", language="en")
    t.handle("language")
    t.handle("help")
    assert t.language == "cs", "chosen before paying, kept while the player reads"
    t.forget_the_player()
    assert t.language == "en"
    assert t.store.get_state("terminal")["player_language"] is None


def test_the_attract_demo_forgets_the_box_bet_alone(tmp_path: Path) -> None:
    """A box chosen for BET to step alone had carried into the next player's session."""
    t = terminal(tmp_path / "kiosk.db", language="en")
    t.handle("bill", 5000)
    t.handle("boxes")
    assert t.handle("card", 2).ok
    assert t.bet_box == 1
    t.forget_the_player()
    assert t.bet_box is None
    assert t.store.get_state("terminal")["bet_box"] is None


def test_the_players_language_survives_a_power_cut(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    t = terminal(database)
    t.handle("coin", 200)
    t.handle("language")
    t.store.close()
    assert terminal(database).language == "ru"


def test_the_screen_speaks_the_players_language_at_once(tmp_path: Path) -> None:
    app, _clock = kiosk(tmp_path, (1280, 720), language="en")
    try:
        app.draw()
        assert snapshot(app.terminal).prompt == "Insert coins or notes to play."
        app.key("u")  # the language button: cs after en
        app.draw()
        assert i18n.active() == "cs"
        assert snapshot(app.terminal).prompt == i18n._("Insert coins or notes to play.")
        assert app.terminal.config.language == "en"
    finally:
        i18n.use("en")
