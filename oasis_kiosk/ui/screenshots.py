"""Every screen of the kiosk at the four sizes and in the three languages, reached the way a
player, the attendant and the operator reach them: by pressing the cabinet's buttons (the
desktop's keys) on a terminal of test books in memory, its deck stacked for a win.

``make screenshots`` (``python -m oasis_kiosk.ui.screenshots [OUT]``) writes them as PNGs
into ``docs/screenshots`` or OUT; ``tests/test_screen.py`` walks the same screens and checks
their text (size, clipping, overlaps), so what is looked at is what is tested.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from oasis_kiosk import i18n
from oasis_kiosk.config import Config
from oasis_kiosk.machine.operator import store_pin
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store
from oasis_kiosk.ui.app import STEP, App
from oasis_kiosk.ui.layout import SIZES

LANGUAGES = tuple(i18n.LANGUAGES)
DECK = "As Ad Ac Kd 2h / Ks Kh 4c 5c 9d"
"""Three aces against the dealer's pair of kings: the rounds are won."""
ROYAL = "As Ks Qs Js Ts / 2h 3d 7c 8c 9d"
"""A royal flush with the bonus bet: the jackpot, over the handpay limit."""
JACKPOT_ROUND = 2
"""The walk's round dealt from ROYAL."""
BOXES_DECK = " ".join(
    ["As Ad Ac Kd 2h", "Qs Qh 7d 7c 3s", "9h 8h 6h 4h 2c", "Ks Kh 4c 5c 9d", "Jd Jc 6s 5d 3h"]
)
"""The boxes' hands and the dealer's for the other tables' walk (``table_screens``)."""
OTHER_TABLES = ("russian-three-box", "golden-oasis", "caribbean")
"""Tables unlike the standard one: three boxes, one of them blind; two boxes at one ante,
with insurance; and a game with neither a bonus nor a jackpot."""
CELEBRATING = 4.0
"""Seconds after PLAY at which the jackpot's banner shows over the count of its win."""
PIN = "243512"
LONG_ENOUGH = 30.0
"""Seconds after which every deal, reveal and count has ended."""
OUT = Path("docs/screenshots")


class Clock:
    """The screen's time, moved on by the walk instead of waited for."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def kiosk(size: tuple[int, int], language: str, profile: str = "standard") -> tuple[App, Clock]:
    """The game on a terminal of test books in memory, its rounds dealt from DECK (ROYAL for
    the jackpot's; the other tables' from BOXES_DECK)."""
    config = Config(database=Path(":memory:"), profile=profile, language=language)
    currency = config.load_profile().to_dict()["table"]["currency"]
    terminal = Terminal(
        config,
        Store.in_memory(currency=currency, test=True),
        deck_for_round=lambda number: (
            BOXES_DECK if profile != "standard" else ROYAL if number == JACKPOT_ROUND else DECK
        ),
    )
    clock = Clock()
    return App(terminal, size=size, clock=clock), clock


def pressed(app: App, clock: Clock, *names: str) -> None:
    """The keys pressed in turn, then every deal, reveal and count they started ended."""
    for name in names:
        app.key(name)
    clock.now += LONG_ENOUGH


def screens(app: App, clock: Clock) -> Iterator[str]:
    """Takes the kiosk through every screen, yielding each one's name while it shows: the
    table before the deal, in a round (a card selected to exchange), settled and with a new
    bet after it, a jackpot's celebration and its handpay lock-up, HELP page by page, a tilt,
    the operator's menu page by page, a cash-out's handpay and the attract mode: its demo
    round, then each of its cards."""
    terminal = app.terminal

    def keys(*names: str) -> None:
        pressed(app, clock, *names)

    keys("f8", "n")
    yield "ready"
    keys("return")  # the cards land: a press before would only have landed them
    keys("5")
    assert terminal.selected == {4}, "the fifth card selected: the prompt prices its exchange"
    yield "round"
    keys("5", "p")
    yield "settled"
    keys("b")  # a new ante: REPEAT BET beside DEAL, the most buttons of the betting bar
    yield "repeat-bet"
    keys("return")
    app.key("p")
    clock.now += CELEBRATING
    assert app.game.showing(clock.now).jackpot_won, "the royal flush wins the jackpot"
    yield "jackpot"
    clock.now += LONG_ENOUGH
    assert terminal.handpay is not None, "the jackpot is over the handpay limit"
    yield "jackpot-handpay"
    keys("a")  # the attendant pays it
    keys("h")
    page = 1
    while app.game.showing_help:
        yield f"help-{page}"
        keys("h")
        page += 1
    keys("d")
    yield "tilt"
    keys("d")
    store_pin(terminal.store, PIN, by="screenshots")
    keys("m", *PIN[:3])
    yield "operator-pin"
    keys(*PIN[3:], "return")
    yield f"operator-{app.operator.page_name}"
    for _page in range(6):
        keys("b")
        if app.operator.page_name == "test":
            keys("return", "p", "3", "f3")  # the test started, two buttons pressed, a coin inserted
            app.update(STEP)
        yield f"operator-{app.operator.page_name}"
    keys("m", "o")
    yield "handpay"
    keys("a")  # the attendant pays: no credits are left, so the attract mode may start
    app.idle = terminal.config.attract_after
    app.update(STEP)
    assert app.attract is not None, "the attract mode starts"
    yield "attract"
    app.attract.turn(clock.now)  # as when the demo's round is over: its cards follow
    while app.attract.part != "round":
        yield f"attract-{app.attract.part}"
        clock.now = app.attract.part_ends
        app.update(STEP)


def table_screens(app: App, clock: Clock) -> Iterator[str]:
    """Another table's screens: every box it deals bet on before the deal, the round, a box
    folded in it after the first played, insurance where the table offers it on the first
    box's hand, and settled with the others played."""
    terminal = app.terminal

    def keys(*names: str) -> None:
        pressed(app, clock, *names)

    keys("f8", "f8", "f8")  # enough for the first box's insurance beside the others' play bets
    most = int(terminal.rules["boxes"]["max"])
    for _press in range(most - 1):
        keys("x")
    assert len(terminal.bets.antes) == most, "every box the table deals is bet on"
    yield "boxes-ready"
    keys("return")
    yield "boxes-round"
    keys("p")  # the first box plays its hand
    if terminal.round is not None and "fold" in terminal.round.legal_actions():
        keys("f")
        yield "boxes-folded"
    for _box in range(most):
        if terminal.round is not None and terminal.round.phase == "insurance":
            yield "boxes-insurance"  # the first box's three of a kind may be insured
            keys("c")  # declined
        if terminal.round is not None:
            keys("p")
    assert terminal.round is None, "every box decided, the round settled"
    yield "boxes-settled"


def every_screen(size: tuple[int, int], language: str) -> Iterator[tuple[App, str]]:
    """Each screen of the walks (``screens`` on the standard table, ``table_screens`` on
    OTHER_TABLES) while it shows, with its name and the kiosk showing it."""
    app, clock = kiosk(size, language)
    for name in screens(app, clock):
        yield app, name
    app.close()
    for profile in OTHER_TABLES:
        app, clock = kiosk(size, language, profile)
        for name in table_screens(app, clock):
            yield app, f"{profile}-{name}"
        app.close()


def main(arguments: list[str]) -> int:
    command_line = argparse.ArgumentParser(
        prog="python -m oasis_kiosk.ui.screenshots",
        description="Every screen of the kiosk at the four sizes and in the three languages, as PNGs.",
    )
    command_line.add_argument(
        "out", nargs="?", type=Path, default=OUT, help=f"the folder to write (default: {OUT})"
    )
    out: Path = command_line.parse_args(arguments).out
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # pictures, not windows
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for width, height in SIZES:
        for language in LANGUAGES:
            for app, name in every_screen((width, height), language):
                app.screenshot(out / f"{width}x{height}-{language}-{name}.png")
                written += 1
    print(f"{written} screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
