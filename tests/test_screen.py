"""The game screen on SDL's dummy video driver: the keyboard plays through the cabinet's
mock pins and the screen draws what the terminal holds."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from oasis_kiosk.config import Config
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.store.db import Store
from oasis_kiosk.ui.app import App, last_settlement


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (800, 480)])
def test_the_keyboard_plays_a_round_and_the_screen_shows_it(tmp_path: Path, size: tuple[int, int]) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), Store(database), seed_for_round=seeds_from(bytes(32)))
    app = App(terminal, size=size)
    app.frame()
    assert app_prompt(app) == "Insert coins or notes to play."
    blank = pygame.surfarray.array3d(app.screen).copy()
    app.key("f8")
    assert app.message == "bill 5000 credited"
    app.key("return")
    assert terminal.round is not None
    app.key("1")
    app.frame()
    dealt = pygame.surfarray.array3d(app.screen)
    assert (dealt != blank).any(), "the dealt cards are drawn"
    app.screenshot(tmp_path / "screen.png")
    assert (tmp_path / "screen.png").stat().st_size > 1000
    assert app_prompt(app).startswith("Box 1: PLAY for EUR 20.00, select cards and EXCHANGE or FOLD")
    app.key("f")
    assert terminal.round is None
    shown = last_settlement(terminal)
    assert shown is not None, "the settled round stays on the table until the next deal"
    assert shown["boxes"][0]["outcome"] == "folded"
    app.frame()
    assert (pygame.surfarray.array3d(app.screen) != blank).any()
    assert app_prompt(app) == "Press DEAL to play for EUR 10.00, or BET to change the ante."
    app.key("h")
    assert app.showing_help
    app.frame()
    app.screenshot(tmp_path / "help.png")
    app.key("h")
    assert not app.showing_help
    app.key("escape")
    assert not app.running
    pygame.quit()


def test_without_a_display_the_kiosk_says_so_instead_of_drawing_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from oasis_kiosk.cli import main

    pygame.display.quit()
    for variable in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(variable, raising=False)
    assert main(["run", "--windowed", "--db", str(tmp_path / "kiosk.db")]) == 2
    assert "no screen to open" in capsys.readouterr().err
    pygame.display.quit()


def app_prompt(app: App) -> str:
    from oasis_kiosk.ui.app import prompt
    from oasis_kiosk.ui.render import money

    return prompt(app.terminal, app.terminal.live(), lambda amount: money(amount, "EUR", 100))
