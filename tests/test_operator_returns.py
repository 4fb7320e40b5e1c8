"""The operator menu holds the rules to the configuration's return bounds: it shows the
return of the rules being chosen, refuses rules outside the bounds with the figure and the
bound, and computes a return not known yet in a worker thread while the screen goes on."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from support import books, logged_in_menu
from test_returns import FEW_ROUNDS, PLAYERS_GAME, STRICT, figures_of
from test_screen import SIZES, CheckedSurface, Clock, _texts_are_known, logged_in, shot

from oasis_kiosk import i18n, load_profile, returns
from oasis_kiosk.config import Config, ReturnBounds
from oasis_kiosk.machine.operator import ReturnsRefusedError, ReturnsUnknownError
from oasis_kiosk.machine.selftest import return_problems
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.ui.app import App
from oasis_kiosk.ui.view import cash_for

__all__ = ["_texts_are_known"]  # every text drawn is checked to lie inside its region


def test_the_menu_refuses_rules_outside_the_bounds_and_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, profile="caribbean", return_bounds=STRICT), books(database))
    menu = logged_in_menu(terminal)
    events = len(terminal.store.events(1000))
    with pytest.raises(
        ReturnsRefusedError,
        match=r"standard at an ante of 10\.00 EUR returns .*above the maximum of 95\.00 %",
    ):
        menu.set_rules("standard")
    assert terminal.profile.id == "caribbean"
    assert terminal.store.get_state("rules") is None
    assert len(terminal.store.events(1000)) == events, "a refused change changes nothing"


def test_a_players_game_is_computed_booked_and_refused(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    menu = logged_in_menu(terminal)
    with pytest.raises(ReturnsUnknownError) as unknown:
        menu.set_rules("standard", PLAYERS_GAME)
    figures = returns.compute(unknown.value.profile, rounds=FEW_ROUNDS, seed=bytes(32))
    assert figures.at_min_ante.value > 1.5, "a pair paying 10:1 is a player's game"
    menu.book_returns(figures)
    with pytest.raises(ReturnsRefusedError, match=r"above the maximum of 100\.00 %") as refused:
        menu.set_rules("standard", PLAYERS_GAME)
    assert {breach.amount for breach in refused.value.breaches} >= {1000, 10000}
    assert terminal.profile.digest == load_profile("standard").digest, "nothing changed"
    terminal.store.close()
    # The figures are in the books: a restart knows them, and refuses the rules at start.
    again = Terminal(Config(database=database, profile_overrides=PLAYERS_GAME), books(database))
    assert returns.booked(again.store, again.profile) == figures
    findings = return_problems(again.config, again.store)
    refused_at_start = [finding.split(" returns ")[0] for finding in findings]
    assert refused_at_start[:2] == [
        "configuration: standard at an ante of 10.00 EUR",
        "configuration: standard at an ante of 100.00 EUR",
    ]
    assert "configuration: standard at an ante of 10.00 EUR (without the bonus bet)" in refused_at_start
    main_game = [finding for finding in findings if "side bet" not in finding]
    assert [finding for finding in main_game if not finding.endswith("above the maximum of 100.00 %")] == []
    assert "returns_computed" in [event["kind"] for event in again.store.events()]


def menu_kiosk(tmp_path: Path, size: tuple[int, int], language: str = "en", **config: Any) -> App:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, language=language, **config), books(database))
    app = App(terminal, size=size, clock=Clock())
    app.screen = app.game.screen = app.operator.screen = CheckedSurface(size)
    logged_in(app)
    while app.operator.page_name != "settings":
        app.key("b")
    return app


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
@pytest.mark.parametrize("size", SIZES)
def test_the_rules_page_shows_the_return_and_refuses_rules_outside_the_bounds(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    app = menu_kiosk(tmp_path, size, language, profile="caribbean", return_bounds=STRICT)
    terminal = app.terminal
    while app.operator.rules_choice != ("standard", None):
        app.key("1")
    lines = dict(app.operator._return_lines(("standard", None)))
    figures = figures_of("standard")
    cash = cash_for(terminal)
    assert lines[i18n._("Return at an ante of {ante}").format(ante=cash(1000))].startswith(
        i18n.percent(figures.at_min_ante.value) + " ± "
    )
    assert i18n._("Side bet at a stake of {stake}").format(stake=cash(200)) in lines
    # The most any other way of betting gives, and the most the side bet gives with the jackpot.
    best = max(figures.other_bets, key=lambda main: main.value + main.ci95)
    assert lines[i18n._("Other ways of playing a box, at most")].startswith(i18n.percent(best.value))
    assert figures.side is not None
    assert figures.side.greatest is not None
    most = returns.jackpot_most(figures.side, terminal.config.jackpot)
    assert lines[i18n._("Side bet at most")] == i18n.percent(figures.side.greatest + most)
    shot(app, f"operator-rules-{language}")
    app.key("return")
    app.key("return")
    assert terminal.profile.id == "caribbean", "refused: nothing changed"
    assert i18n.percent(0.95) in app.operator.notice
    assert cash(1000) in app.operator.notice
    if language == "en":
        assert app.operator.notice.startswith("standard at an ante of €10.00 returns")
    else:
        assert "returns" not in app.operator.notice, "said in the screen's language"
    shot(app, f"operator-rules-refused-{language}")


def test_rules_whose_return_is_unknown_are_computed_in_a_worker_while_frames_go_on(tmp_path: Path) -> None:
    overrides = {"table": {"max_payout": 400000}}
    loose = ReturnBounds(0.0, 2.0, 0.0, 2.0)  # a few thousand rounds: wide intervals
    app = menu_kiosk(tmp_path, (800, 480), profile_overrides=overrides, return_bounds=loose)
    terminal = app.terminal
    assert app.operator.rules_choice == ("standard", overrides), "the rules the terminal started with"
    assert dict(app.operator._return_lines(app.operator.rules_choice))["Return"].startswith("not known")
    app.operator.rounds = FEW_ROUNDS
    app.key("return")
    app.key("return")
    worker = app.operator.worker
    assert worker is not None
    frames, shown = 0, False
    while not worker.finished:
        app.update(1 / 60)
        app.draw()
        frames += 1
        if not shown and 0 < worker.done < 1:
            shot(app, "operator-rules-computing")
            shown = True
        app.key("b")  # ignored while the return is computed
        time.sleep(0.005)
    assert frames > 20, "the frame loop went on while the core computed"
    assert app.operator.page_name == "settings"
    app.update(1 / 60)
    assert app.operator.worker is None
    assert returns.booked(terminal.store, terminal.profile) is not None
    assert terminal.store.get_state("rules") == {"profile": "standard", "overrides": overrides}, (
        app.operator.notice
    )
    assert app.operator.notice == "The rules are now Standard Oasis Poker."
    assert return_problems(terminal.config, terminal.store) == [], "known at the next start"


def test_leaving_the_menu_cancels_a_computation_and_changes_nothing(tmp_path: Path) -> None:
    app = menu_kiosk(tmp_path, (800, 480), profile_overrides={"table": {"max_payout": 400000}})
    app.operator.rounds = 50_000_000  # long enough to be cancelled on the way
    app.key("return")
    app.key("return")
    worker = app.operator.worker
    assert worker is not None
    app.key("m")  # the key turned back
    app.update(1 / 60)
    worker.thread.join(timeout=30)
    assert worker.finished
    assert worker.figures is None
    assert worker.error is None
    assert app.operator.worker is None
    assert app.terminal.store.get_state("rules") is None


def test_a_jackpot_whose_awards_would_return_past_the_bounds_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    menu = logged_in_menu(terminal)
    events = len(terminal.store.events(1000))
    with pytest.raises(
        ReturnsRefusedError, match=r"kept on every hand, each jackpot award at the meter's maximum"
    ):
        menu.set_jackpot(base=1_000_000, rate="0.1", maximum=100_000_000)
    assert terminal.config.jackpot == Config().jackpot
    assert len(terminal.store.events(1000)) == events, "a refused change changes nothing"
    menu.set_jackpot(base=1_000_000, rate="0.015", maximum=8_000_000)
    assert terminal.config.jackpot.maximum == 8_000_000
    assert terminal.store.get_state("configuration:jackpot") == {
        "base": 1_000_000,
        "rate": "3/200",
        "maximum": 8_000_000,
    }
