"""The cabinet on mock pins that desktops, tests and headless scripts drive."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

from support import books
from test_screen import kiosk

from oasis_kiosk.config import Config
from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.hardware.script import run
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.money_kinds import BILL, COIN
from oasis_kiosk.machine.terminal import Response, Terminal, seeds_from


def cabinet(tmp_path: Path, **config: Any) -> MockCabinet:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(
        Config(database=database, **config), books(database), seed_for_round=seeds_from(bytes(32))
    )
    return MockCabinet(terminal)


def test_money_goes_through_the_acceptors_and_the_inhibit_hands_it_back(tmp_path: Path) -> None:
    cab = cabinet(tmp_path, credit_limit=1000, bills=(500,))  # the largest note fits the limit
    assert said(cab.insert(COIN, 500)) == (True, "coin 500 credited")
    assert said(cab.insert(BILL, 500)) == (True, "bill 500 credited")
    assert cab.terminal.credits == 1000
    assert said(cab.insert(COIN, 50)) == (False, "the coin acceptor is inhibited: the coin comes back")
    assert said(cab.insert(COIN, 7)) == (False, "a coin of 7 is not accepted: it comes back")
    assert cab.terminal.credits == 1000


def test_buttons_press_through_the_panel_and_the_lamps_follow(tmp_path: Path) -> None:
    cab = cabinet(tmp_path)
    assert not cab.lamp("deal")
    cab.insert(BILL, 5000)
    assert cab.lamp("deal")
    (dealt,) = cab.press("deal")
    assert dealt.ok
    assert cab.lamp("fold")
    assert not cab.lamp("deal")
    cab.press("card1")
    assert cab.terminal.selected == {0}
    (folded,) = cab.press("fold")
    assert folded.ok
    assert cab.switch("door", closed=True)[0].message == "door open"
    assert "door" in cab.terminal.tilts
    assert audit(cab.terminal.store).ok


def test_a_script_plays_on_the_devices(tmp_path: Path) -> None:
    cab = cabinet(tmp_path)
    script = tmp_path / "s.txt"
    script.write_text(
        "coin 200\nbill 1000\nbill 2000\ndeal\nselect 2\nexchange\nplay\nfold\ndoor open\ndoor close\n"
        "key operator\ndeal\nkey operator\nhelp\n"
    )
    lines: list[str] = []
    skipped = run(cab, script, report=lines.append, sleep=lambda seconds: None)
    assert lines[0] == "line 1: coin 200: coin 200 credited"
    assert lines[3] == "line 4: deal: round 1 dealt"
    assert lines[10] == "line 11: operator_key: operator key turned: the game stands still"
    assert lines[11] == "line 12: deal: skipped: deal is not possible while the operator key is turned"
    assert lines[13] == "line 14: help: help"
    assert skipped == sum("skipped" in line for line in lines)
    assert cab.terminal.store.meters()["coins_in_200"] == 1
    assert audit(cab.terminal.store).ok


def test_the_keyboard_presses_the_cabinet(tmp_path: Path) -> None:
    from oasis_kiosk.hardware.keyboard import Keyboard

    keyboard = Keyboard(cabinet(tmp_path))
    assert message_of(keyboard.key("F8")) == "bill 5000 credited"
    assert message_of(keyboard.key("Return")) == "round 1 dealt"
    assert message_of(keyboard.key("1")) == "cards selected: 1"
    assert message_of(keyboard.key("f")) == "fold"
    assert message_of(keyboard.key("d")) == "door open"
    assert message_of(keyboard.key("d")) == "door closed"
    assert message_of(keyboard.key("m")) == "operator key turned: the game stands still"
    assert message_of(keyboard.key("F1")) == "the coin acceptor is inhibited: the coin comes back"
    assert message_of(keyboard.key("m")) == "operator key back: the game goes on"
    assert message_of(keyboard.key("h")) == "help"
    assert keyboard.key("z") is None
    assert ("f1", "coin", 50) in keyboard.legend()
    assert ("return", "deal", None) in keyboard.legend()
    assert keyboard.cabinet.terminal.credits == 4000


def test_the_window_closed_lets_its_cabinet_terminal_and_books_go(tmp_path: Path) -> None:
    app, _clock = kiosk(tmp_path, (800, 480))
    terminal = weakref.ref(app.terminal)
    app.close()
    app.terminal.store.close()
    del app
    gc.collect()
    assert terminal() is None, "the cabinet's devices let go of what their callbacks reached"


def said(response: Response) -> tuple[bool, str]:
    return response.ok, response.message


def message_of(response: Response | None) -> str:
    assert response is not None
    return response.message


def test_every_button_of_the_intents_registry_has_one_desktop_key_and_every_key_a_button() -> None:
    from oasis_kiosk.hardware.keyboard import BUTTON_KEYS
    from oasis_kiosk.machine.intents import BUTTON_LABELS

    pressed = [button for button in BUTTON_KEYS.values() if not button.startswith("card")]
    assert sorted(pressed) == sorted(BUTTON_LABELS), "a button without a key, a key without a button, or two"
    assert sorted(button for button in BUTTON_KEYS.values() if button.startswith("card")) == [
        f"card{position}" for position in range(1, 6)
    ]
