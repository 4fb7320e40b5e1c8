"""Free play and the attract mode: the demo plays whole rounds by the strategy on a
terminal of its own, and the cabinet's books never see it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from support import books

from oasis_kiosk import profile_names
from oasis_kiosk.config import Config
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.demo import DemoPlayer, free_play_terminal
from oasis_kiosk.machine.terminal import Terminal


@pytest.mark.parametrize("profile", profile_names())
def test_the_demo_plays_whole_rounds_by_the_strategy_without_a_refused_press(
    tmp_path: Path, profile: str
) -> None:
    database = tmp_path / "kiosk.db"
    terminal = free_play_terminal(Config(database=database, profile=profile))
    player = DemoPlayer(terminal, seed=7)
    settled = 0
    for _ in range(400):
        intent, value = player.wait_input()
        response = terminal.handle(intent, value)
        assert response.ok, f"{intent} {value}: {response.message}"
        settled = len([r for r in terminal.store.rounds(last=1000) if r["state"] == "settled"])
        if settled >= 5:
            break
    assert settled >= 5
    assert audit(terminal.store).ok
    assert not database.exists(), "free play never opens the cabinet's database"


def test_the_attract_mode_starts_when_idle_plays_and_leaves_the_books_alone(tmp_path: Path) -> None:
    from oasis_kiosk.ui.app import STEP, App

    database = tmp_path / "kiosk.db"
    terminal = Terminal(replace(Config(database=database), attract_after=2), books(database))
    before = (terminal.store.meters(), terminal.store.ledger())
    now = [0.0]
    app = App(terminal, size=(800, 480), clock=lambda: now[0])

    def run(seconds: float) -> None:
        for _ in range(round(seconds / STEP)):
            now[0] += STEP
            app.advance(STEP)

    run(1.5)
    assert app.attract is None
    run(1.0)
    assert app.attract is not None, "two idle seconds without credits start the demo"
    run(40)
    demo = app.attract.terminal
    assert len(demo.store.rounds(last=100)) >= 2, "the demo deals and plays rounds"
    assert (terminal.store.meters(), terminal.store.ledger()) == before
    assert terminal.store.rounds(last=10) == []
    app.key("return")
    assert app.attract is None, "any key ends the demo"
    assert terminal.round is None, "and does nothing else"
    app.key("f8")
    run(5)
    assert app.attract is None, "a player with credits is never interrupted"


def test_the_attract_mode_marks_its_meters_demo_and_shows_no_credit_of_its_own_as_money(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oasis_kiosk.ui import render
    from oasis_kiosk.ui.app import STEP, App

    database = tmp_path / "kiosk.db"
    terminal = Terminal(replace(Config(database=database), attract_after=1), books(database))
    now = [0.0]
    app = App(terminal, size=(1280, 720), clock=lambda: now[0])
    while app.attract is None:
        now[0] += STEP
        app.advance(STEP)
    drawn: list[str] = []
    text = render.text
    monkeypatch.setattr(render, "text", lambda words, *a, **k: drawn.append(words) or text(words, *a, **k))
    for _ in range(round(2 / STEP)):
        now[0] += STEP
        app.advance(STEP)
        app.draw()
    assert app.attract.terminal.credits > 0, "the demo plays on credits of its own"
    assert "DEMO CREDIT" in drawn
    assert "CREDIT" not in drawn, "no meter claims the demo's credits as the cabinet's"
