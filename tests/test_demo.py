"""Free play and the attract mode: the demo plays whole rounds by the strategy on a
terminal of its own, and the cabinet's books never see it."""

from __future__ import annotations

import time
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pytest
from support import books

from oasis_kiosk import profile_names
from oasis_kiosk.cli import main
from oasis_kiosk.config import Config
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.demo import DemoPlayer, free_play_terminal
from oasis_kiosk.machine.terminal import Terminal

if TYPE_CHECKING:
    from oasis_kiosk.ui.app import App


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
    # The demo's player takes the strategy's advice from a thread, in real time: on a loaded
    # machine the screen's forty seconds may pass before it is given.
    waited_until = time.monotonic() + 60
    while len(demo.store.rounds(last=100)) < 2 and time.monotonic() < waited_until:
        run(1)
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
    from oasis_kiosk.ui.app import STEP, App
    from oasis_kiosk.ui.scenes.game.scene import MOST_FRAMES_WAITED

    database = tmp_path / "kiosk.db"
    terminal = Terminal(replace(Config(database=database), attract_after=1), books(database))
    now = [0.0]
    app = App(terminal, size=(1280, 720), clock=lambda: now[0])
    while app.attract is None:
        now[0] += STEP
        app.advance(STEP)
    drawn = texts_drawn(monkeypatch)
    for _ in range(round(2 / STEP)):
        now[0] += STEP
        app.advance(STEP)
        app.draw()
    assert app.attract.terminal.credits > 0, "the demo plays on credits of its own"
    for _ in range(MOST_FRAMES_WAITED):  # a region a busy frame left waits at most this long
        app.draw()
    # A frame repaints only the meters' digits that change, so their names may have been
    # painted before the texts were noted: the screen is drawn afresh, and must not change.
    shown = pygame.image.tobytes(app.screen, "RGB")
    app.repaint()
    assert pygame.image.tobytes(app.screen, "RGB") == shown, "the frames drew what a repaint draws"
    assert "DEMO CREDIT" in drawn
    assert "CREDIT" not in drawn, "no meter claims the demo's credits as the cabinet's"


def test_the_attract_demo_lights_no_button_a_visitor_might_press(tmp_path: Path) -> None:
    """The demo's buttons are its player's: lit, they had told a passer-by that BET, DEAL or
    CASH OUT beside the demo's credit would do something, where a press only ends the demo."""
    from oasis_kiosk.ui.app import STEP

    app, now = idle_kiosk(tmp_path)
    while app.attract is None:
        now[0] += STEP
        app.advance(STEP)
    seen = set()
    for _ in range(round(20 / STEP)):
        now[0] += STEP
        app.advance(STEP)
        view = app.attract.game.view if app.attract is not None else None
        if view is not None:
            seen |= {lit for _name, _label, lit in view.buttons}
            assert view.buttons, "the bar still shows what the demo plays"
    assert seen == {False}


def texts_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each text rendered from now on, in order."""
    from oasis_kiosk.ui import render

    drawn: list[str] = []
    text = render.text

    def noted(content: str, *rest: Any, **options: Any) -> object:
        drawn.append(content)
        return text(content, *rest, **options)

    monkeypatch.setattr(render, "text", noted)
    return drawn


def idle_kiosk(tmp_path: Path, profile: str = "standard", **settings: Any) -> tuple[App, list[float]]:
    """A kiosk without credits whose attract mode starts after a second, on a clock the test
    moves."""
    from oasis_kiosk.ui.app import App

    database = tmp_path / "kiosk.db"
    config = replace(Config(database=database, profile=profile), attract_after=1, **settings)
    terminal = Terminal(config, books(database, profile))
    now = [0.0]
    return App(terminal, size=(1280, 720), clock=lambda: now[0]), now


@pytest.mark.parametrize(
    ("profile", "cycle"),
    [
        ("standard", ["round", "title", "paytable", "jackpot", "round"]),
        ("caribbean", ["round", "title", "paytable", "round"]),  # no jackpot: no jackpot card
    ],
)
def test_the_attract_mode_turns_a_demo_round_the_title_the_paytable_and_the_jackpot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, profile: str, cycle: list[str]
) -> None:
    from oasis_kiosk.ui.app import STEP
    from oasis_kiosk.ui.scenes.attract import CARD_SECONDS
    from oasis_kiosk.ui.view import cash_for

    app, now = idle_kiosk(tmp_path, profile)
    terminal = app.terminal
    terminal.jackpot = replace(terminal.jackpot, value=terminal.jackpot.value + 12_345)  # not the demo's
    drawn = texts_drawn(monkeypatch)
    turns: list[tuple[str, float]] = []
    shown: dict[str, list[str]] = {}
    while len(turns) < len(cycle) and now[0] < 120:
        now[0] += STEP
        app.advance(STEP)
        if app.attract is None:
            drawn.clear()  # the game's own screen, before the attract mode
            continue
        part = app.attract.part
        if not turns:
            assert app.attract.game.jackpot_shown == terminal.jackpot.value, (
                "the cabinet's meter from the first frame, not rolling up from the demo's"
            )
        if not turns or turns[-1][0] != part:
            turns.append((part, now[0]))
        shown.setdefault(part, []).extend(drawn)
        drawn.clear()
    assert [part for part, _at in turns] == cycle
    for (card, began), (_next, ended) in pairwise(turns[1:]):
        assert ended - began == pytest.approx(CARD_SECONDS[card], abs=2 * STEP), f"{card} shows its time"
    call = "INSERT MONEY TO PLAY"
    assert "DEMO CREDIT" in shown["round"]
    assert f"{call}  ·  DEMO" in shown["round"], "the demo round is marked DEMO"
    for card in cycle[1:-1]:
        assert call in shown[card], f"the {card} card calls for money"
        assert not any("DEMO" in words for words in shown[card]), f"the {card} card shows no demo"
    assert not [part for part, words in shown.items() if "CREDIT" in words], (
        "never the cabinet's credit meter"
    )
    assert {"OASIS STUD POKER", terminal.rules["name"]} <= set(shown["title"])
    assert {"PAYTABLE (play bet)", "Royal flush", "100:1", "Ace-King"} <= set(shown["paytable"])
    if "jackpot" in cycle:
        assert {"BONUS", "JACKPOT"} <= set(shown["paytable"]), "the bonus's table beside the play bet's"
        assert "PROGRESSIVE JACKPOT" in shown["jackpot"]
        meter = cash_for(terminal)(terminal.jackpot.value)
        assert meter in "".join(words for words in shown["jackpot"] if len(words) == 1), (
            "the cabinet's own meter, as money"
        )
    else:
        assert "BONUS" not in shown["paytable"]


class HeardChannel:
    """A mixer channel that notes the volume it is given."""

    def __init__(self) -> None:
        self.volume = 1.0

    def set_volume(self, volume: float) -> None:
        self.volume = volume


class HeardSound:
    """A sound that notes each time it plays, and on which channel."""

    def __init__(self) -> None:
        self.channels: list[HeardChannel] = []

    def play(self) -> HeardChannel:
        self.channels.append(HeardChannel())
        return self.channels[-1]


@pytest.mark.parametrize("attract_volume", [2, 0])
def test_the_attract_mode_plays_at_the_attract_volume_and_is_silent_at_0(
    tmp_path: Path, attract_volume: int
) -> None:
    from oasis_kiosk.ui.app import STEP
    from oasis_kiosk.ui.sound import TUNES

    app, now = idle_kiosk(tmp_path, volume=6, attract_volume=attract_volume)
    heard = {name: HeardSound() for name in TUNES}
    app.sounds.sounds = heard  # type: ignore[assignment]
    while not (app.attract and app.attract.terminal.store.rounds(last=1)) and now[0] < 60:
        now[0] += STEP
        app.advance(STEP)
    assert app.attract is not None, "the demo has dealt"
    volumes = [channel.volume for sound in heard.values() for channel in sound.channels]
    if attract_volume:
        assert heard["deal"].channels, "the demo's deal is heard"
        assert volumes == [pytest.approx(2 / 6)] * len(volumes), "at 2 of the game's 6"
    else:
        assert volumes == [], "silent"


def test_free_play_on_a_cabinets_wiring_is_refused_before_any_device_or_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run --demo`` on a wired cabinet had built its devices for the free-play terminal:
    a cash-out of play credits drove the real hopper, and coins went into memory."""
    import oasis_kiosk.ui.app as app_module

    config = tmp_path / "config.toml"
    config.write_text(
        f'[terminal]\ndatabase = "{tmp_path / "kiosk.db"}"\ncashout = "hopper"\n'
        "[devices]\nbuttons = { attendant = 7 }\nhopper = { motor = 23, exit = 24 }\n"
    )
    built: list[object] = []
    monkeypatch.setattr(app_module, "App", lambda *args, **kwargs: built.append(kwargs))
    assert main(["run", "--demo", "--windowed", "--config", str(config)]) == 2
    assert "--demo is free play on memory" in capsys.readouterr().err
    assert built == [], "no window, no devices"
