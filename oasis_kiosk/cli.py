"""The ``oasis-kiosk`` command.

- ``run [--windowed [--size WxH] | --fullscreen] [--demo]``: the game on screen, the keyboard
  and mouse standing in for the cabinet's buttons and money; a window fits the display unless
  ``--size`` says otherwise; ``--demo`` plays for free;
- ``run --headless --script FILE``: the terminal without a screen, fed a script of inputs;
- ``init``: create the terminal's books (the database, its seal key and its mark); nothing
  else ever creates them, and ``--ram-clear`` replaces them on purpose;
- ``meters``, ``audit``, ``recall``: read the terminal's database;
- ``demo``: a text demo of the core that deals a few heads-up hands from the secure
  shuffle and evaluates them;
- ``par PROFILE``: the profile's exact return under optimal play, or its simulated return
  (``--rounds N``), its return table and a PAR sheet (``oasis_kiosk.par``); ``par`` with no
  profile: the return of the configured rules and whether ``[rules]`` accepts it;
- ``returns``: computes the return of the configured rules where it is not known, and keeps
  it in the books (``oasis_kiosk.returns``);
- ``hub …``: the floor's hub on PostgreSQL (``oasis_kiosk.floor.cli``, docs/floor.md);
- ``link``: a linked cabinet's link agent, which pushes its books' outbox to the hub
  (``oasis_kiosk.floor.agent``; the ``oasis-kiosk-link`` service).
"""

from __future__ import annotations

import argparse
import getpass
import json
import logging
import os
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from oasis_kiosk import AnalysisError, EntropyError, Shoe, evaluate, notify, par, returns
from oasis_kiosk.config import Config, ConfigError, load_config
from oasis_kiosk.config.stored import STORED
from oasis_kiosk.errors import InputError
from oasis_kiosk.floor import cli as floor_cli
from oasis_kiosk.hardware.build import build_cabinet
from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.hardware.script import ScriptError, ScriptStoppedError, read, run
from oasis_kiosk.machine import books_money
from oasis_kiosk.machine.audit import AuditReport, audit
from oasis_kiosk.machine.demo import free_play_terminal
from oasis_kiosk.machine.linked import link_state
from oasis_kiosk.machine.meters import every_meter
from oasis_kiosk.machine.operator import OperatorError, forget_setting, store_pin
from oasis_kiosk.machine.recall import disclosed, recalled_hands
from oasis_kiosk.machine.selftest import self_test
from oasis_kiosk.machine.terminal import Terminal, seeds_from, settings_from_store
from oasis_kiosk.store.books import BooksFiles
from oasis_kiosk.store.db import BooksDamagedError, Store, StoreError, books_held
from oasis_kiosk.store.outbox import Outbox
from oasis_kiosk.ui.layout import SMALLEST, TALLEST, too_tall

if TYPE_CHECKING:
    from oasis_kiosk._core import _RecordedAction as RecordedAction
    from oasis_kiosk.store.db.rounds import StoredRound

CARDS_PER_HAND = 5
DEMO_ATTRACT_AFTER = 10  # seconds: a shop window shows the game soon


def seed_argument(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"a seed is 64 hexadecimal digits: {error}") from None
    if len(seed) != 32:
        raise argparse.ArgumentTypeError(f"a seed is 32 bytes (64 hexadecimal digits), not {len(seed)}")
    return seed


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def screen_size(text: str) -> tuple[int, int]:
    """``--size``: WIDTHxHEIGHT in pixels, no smaller than the layout can fill."""
    width, x, height = text.partition("x")
    if not (x and width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"{text}: expected WIDTHxHEIGHT such as 1280x720")
    if int(width) < SMALLEST[0] or int(height) < SMALLEST[1]:
        raise argparse.ArgumentTypeError(f"{text}: the screen is at least {SMALLEST[0]}x{SMALLEST[1]}")
    if too_tall(int(width), int(height)):
        raise argparse.ArgumentTypeError(
            f"{text}: the screen is no taller for its width than {TALLEST[0]}:{TALLEST[1]} (as 1280x1024)"
        )
    return int(width), int(height)


def demo(rounds: int, seed: bytes | None) -> None:
    print("oasis-kiosk text demo: deals and evaluates heads-up hands from the core's secure")
    print("shuffle (one fresh deck per round). The game itself: oasis-kiosk run.\n")
    for number in range(1, rounds + 1):
        shoe = Shoe(seed)
        player, dealer = shoe.deal(CARDS_PER_HAND), shoe.deal(CARDS_PER_HAND)
        player_value, dealer_value = evaluate(player), evaluate(dealer)
        if player_value > dealer_value:
            verdict = "player's hand is higher"
        elif player_value < dealer_value:
            verdict = "dealer's hand is higher"
        else:
            verdict = "stand-off"
        print(f"round {number}  seed {shoe.seed.hex()}")
        print(f"  player  {' '.join(player)}  {player_value.category}")
        print(f"  dealer  {' '.join(dealer)}  {dealer_value.category}  (up card {dealer[-1]})")
        print(f"  {verdict}\n")


def open_books(config: Config, *, to_change: bool = False) -> Store:
    """The books to write, under their lock; with ``[link]``, linked to the floor's hub
    (every change the hub must know goes to the outbox in its own transaction). Books that
    send to a hub, opened without ``[link]``, are refused at once. ``to_change``: for a
    command that changes them (``set-pin``, ``returns``), books that take no write are
    refused at once too: before a PIN is asked for or figures computed that could not be
    kept. The kiosk opens books that fail their check and stands still, saying why."""
    store = Store(config.database, outbox=outbox_of(config))
    refusal = store.write_refusal if to_change else store.floor_refusal
    if refusal is not None:
        store.close()
        raise StoreError(f"{store.path}: cannot write: {refusal}")
    return store


def outbox_of(config: Config) -> Outbox | None:
    """The books' outbox for the floor's hub with ``[link]``; None for a cabinet on its own."""
    link = config.link
    return None if link is None else Outbox(linked_jackpot=link.jackpot == "linked")


@contextmanager
def reading(config: Config) -> Iterator[Store]:
    """The books to read, as one committed state: no lock, nothing written, so they can be
    read while the kiosk runs, or from a read-only copy."""
    store = Store(config.database, read_only=True)
    try:
        with store.snapshot():
            yield store
    finally:
        store.close()


def init_books(config: Config, *, test: bool, ram_clear: bool, seal_existing: bool, if_missing: bool) -> int:
    """``oasis-kiosk init``: the only way new books come to be (and old ones are cleared),
    under the books' lock: books a kiosk holds are refused before anything is touched."""
    path = config.database
    files = BooksFiles(path)
    if if_missing and (path.exists() or files.mark.exists()):
        return 0  # books are there (or their mark says they were: opening will say so)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(f"{path}: cannot create the books' folder: {error}") from None
    with books_held(files):
        return _init_held(config, files, test=test, ram_clear=ram_clear, seal_existing=seal_existing)


def _init_held(config: Config, files: BooksFiles, *, test: bool, ram_clear: bool, seal_existing: bool) -> int:
    path = files.database
    if seal_existing:
        Store.seal_existing(path).close()
        print(f"books at {path} sealed as they stand")
        return 0
    if ram_clear:
        kept = clear_books(files)
        if kept:
            print(f"the old books are kept as {', '.join(str(p) for p in kept)}")
    currency = config.load_profile().to_dict()["table"]["currency"]
    # Made linked, the books' creation reaches the hub as every later event of theirs does.
    store = Store.create(path, currency=currency, test=test, outbox=outbox_of(config))
    with store.transaction():
        store.event("books_created", currency=currency, test=test, ram_clear=ram_clear)
    store.close()
    kind = "test books" if test else "books"
    print(f"new {kind} in {currency} at {path} (seal key {files.key})")
    return 0


def clear_books(files: BooksFiles) -> list[Path]:
    """A RAM clear: the old books' files are moved aside (never deleted), stamped with the time."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    kept = []
    for path in (files.database, *files.journal, files.key, files.mark):
        if path.exists():
            aside = path.with_name(f"{path.name}.cleared-{stamp}")
            path.rename(aside)
            kept.append(aside)
    return kept


def show_meters(config: Config, as_json: bool) -> int:
    with reading(config) as store:
        meters = every_meter({"credits": store.credits(), **store.meters()}, config)
    if as_json:
        print(json.dumps(meters, indent=2))
    else:
        for name, value in meters.items():
            print(f"{name:<28}{value:>14}")
    return 0


def show_audit(config: Config, as_json: bool) -> int:
    try:
        with reading(config) as store:
            report = audit(store)
    except BooksDamagedError as error:  # damaged books fail the audit, with the reason
        report = AuditReport(problems=[f"the books cannot be read: {error}"])
    if as_json:
        print(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        print(f"credits {report.credits}, {report.rounds_checked} settled rounds replayed", end="")
        print(f", round {report.open_round} open and resumable" if report.open_round else "")
        for problem in report.problems:
            print(f"DISCREPANCY: {problem}")
        for flag in report.flags:
            print(f"FLAG: {flag}")
        print("audit passed" if report.ok else f"audit FAILED: {len(report.problems)} discrepancies")
    return 0 if report.ok else 1


def describe_round(round_: StoredRound, dealer_revealed: list[str | None] | None = None) -> list[str]:
    """A round as the console prints it; ``dealer_revealed``: the cards the dealer revealed,
    where a box bought his redraw (``revealed_cards``)."""
    record = round_["record"]
    lines = [f"round {round_['id']}  {round_['started_at']}  {round_['state']}  antes {record['antes']}"]
    actions = ", ".join(action_said(action) for action in record["actions"]) or "none"
    lines.append(f"  actions: {actions}")
    if round_["state"] == "settled":
        settlement = round_["settlement"]
        for box in settlement["boxes"]:
            lines.append(
                f"  box {box['box'] + 1}: {' '.join(box['cards'])}  {box['hand']['category']}  "
                f"{box['outcome']}  net {box['net']:+d}"
            )
        dealer = f"{' '.join(settlement['dealer_cards'])}  {settlement['dealer_hand']['category']}"
        revealed = settlement.get("dealer_revealed")
        if revealed is not None and dealer_revealed is not None:
            # The boxes that declined his redraw settled against the hand he revealed.
            shown = " ".join(card or "--" for card in dealer_revealed)
            dealer = f"revealed {shown}  {revealed['category']}, redraw {dealer}"
        lines.append(f"  dealer: {dealer}  round net {settlement['net']:+d}")
    return lines


def action_said(action: RecordedAction) -> str:
    """A round's action as the console prints it: its name, the cards it exchanged (1 to 5
    from the left, as the screen counts them; the record counts from 0) or the amount it
    insured, and its box."""
    said: list[str] = [action["action"]]
    if action["action"] == "exchange" and action["positions"]:
        said.append(",".join(str(position + 1) for position in action["positions"]))
    if action["action"] == "insure" and action["amount"]:
        said.append(str(action["amount"]))
    return f"{' '.join(said)} (box {action['box'] + 1})"


def show_recall(config: Config, count: int, as_json: bool) -> int:
    with reading(config) as store:
        rounds = store.rounds(last=count)
        revealed = {round_["id"]: revealed_cards(store, round_) for round_ in rounds}
    if as_json:
        print(json.dumps([disclosed(round_) for round_ in rounds], indent=2))
    else:
        for round_ in rounds:
            print("\n".join(describe_round(round_, revealed[round_["id"]])))
    return 0


def revealed_cards(store: Store, round_: StoredRound) -> list[str | None] | None:
    """The cards the dealer revealed in a settled round where a box bought his redraw, as
    its replay shows them; None for any other round, and where the record no longer replays
    (its first step is then the settled redraw)."""
    if round_["state"] != "settled" or not round_["settlement"].get("dealer_revealed"):
        return None
    first = recalled_hands(store, round_)[0].steps[0]
    return None if first.action == "settled" else first.cards


def set_pin(config: Config) -> int:
    """Reads the new operator PIN from standard input (twice on a terminal) and stores its hash."""
    store = open_books(config, to_change=True)  # first: no PIN is asked for books that are not there
    try:
        if sys.stdin.isatty():
            first, second = getpass.getpass("new operator PIN: "), getpass.getpass("again: ")
            if first != second:
                print("oasis-kiosk: the two PINs differ; nothing changed", file=sys.stderr)
                return 2
        else:
            first = sys.stdin.readline().strip()
        try:
            store_pin(store, first, by="command line")
        except OperatorError as error:
            print(f"oasis-kiosk: {error}; nothing changed", file=sys.stderr)
            return 2
    finally:
        store.close()
    print("operator PIN set")
    return 0


def forget_stored(config: Config, setting: str) -> int:
    """``forget-setting``: under the books' lock, as ``set-pin``; the stored setting itself is
    not read, so one that can no longer be used (rules whose profile file is gone) goes too."""
    store = open_books(config, to_change=True)
    try:
        forgotten = forget_setting(store, setting, by="command line")
    finally:
        store.close()
    print(f"the stored {setting} is forgotten" if forgotten else f"no {setting} was stored: nothing changed")
    return 0


def configured_returns(config: Config, *, rounds: int, seed: bytes | None, as_json: bool, book: bool) -> int:
    """The return of the rules as the terminal runs them (the file with the operator menu's
    changes over it) against ``[rules]``: exit 1 if refused. Known figures are shown as they
    are; others are computed. ``book`` (``returns``): under the books' lock, as ``set-pin``,
    and computed figures are kept in them; else (``par``) the books, if any, are only read."""
    if book:
        store: Store | None = open_books(config, to_change=True)
    else:
        store = Store(config.database, read_only=True) if config.database.exists() else None
    try:
        books = store.books if store is not None else None
        if book and seed is not None and not (books is not None and books.test):
            # A chosen seed could be run again until its luck passes: real books keep a fresh one's.
            print(
                "oasis-kiosk: --seed is for test books: real books keep figures from a fresh seed",
                file=sys.stderr,
            )
            return 2
        if store is not None:
            config = settings_from_store(config, store)
        profile = config.load_profile()
        other_money = (
            None if store is None else books_money.refusal(store, profile.id, profile.to_dict()["table"])
        )
        if other_money is not None:  # the start refuses these rules: no figures are kept for them
            template, details = other_money
            print(f"oasis-kiosk: {config.source}: {template.format_map(details)}", file=sys.stderr)
            return 2
        figures = returns.known(profile, store)
        source = "shipped" if returns.shipped(profile) else "from the books"
        if figures is None:
            progress = par.ProgressLine(sys.stderr, unit="steps")
            try:
                figures = returns.compute(profile, rounds=rounds, seed=seed, progress=progress)
            finally:
                progress.close()
            source = "computed now"
            if store is not None and book:
                returns.book(store, figures)
                source += " and kept in the books"
    finally:
        if store is not None:
            store.close()
    text, accepted = returns.report(profile, figures, config.return_bounds, config.jackpot, source)
    unkept = source == "computed now"
    if unkept and accepted:
        # As the self-test sees it: figures that are not shipped nor in the books are not known.
        text += (
            "\n  not kept in the books: the terminal does not start with these rules until "
            "`oasis-kiosk returns` or the operator menu keeps their figures"
        )
        accepted = False
    if as_json:
        rules = profile.to_dict()
        refused = returns.breaches(figures, config.return_bounds, config.jackpot, profile)
        shown = [breach.describe(lambda amount: par.money(amount, rules)) for breach in refused]
        verdict = {"figures": figures.to_json(), "accepted": accepted, "kept": not unkept, "refused": shown}
        print(json.dumps(verdict, indent=2))
    else:
        print(text)
    return 0 if accepted else 1


def stacked_decks(path: Path) -> Callable[[int], str | None]:
    """Round number -> the stacked deck on that line of the file (blank: shuffled as usual)."""
    lines = path.read_text(encoding="utf-8").splitlines()

    def deck(number: int) -> str | None:
        line = lines[number - 1].strip() if number <= len(lines) else ""
        return line or None

    return deck


def run_headless(
    config: Config, script: Path, seed_base: bytes | None, decks: Path | None, demo: bool
) -> int:
    """``demo``: free play on memory, as in the window; the books are never opened."""
    inputs = read(script)  # checked whole before the database is opened: a bad one creates nothing
    if demo:
        terminal = free_play_terminal(config)
    else:
        terminal = Terminal(
            config,
            open_books(config),
            seed_for_round=seeds_from(seed_base) if seed_base else None,
            deck_for_round=stacked_decks(decks) if decks else None,
            link=link_state(config),
        )
    if not demo and terminal.books_fault is None:
        # A script plays on real books as the cabinet does: after the same self-test.
        problems = self_test(terminal.config, terminal.store, None, terminal.profile)
        terminal.record_self_test(problems)
        for problem in problems:
            print(f"oasis-kiosk: self-test: {problem}", file=sys.stderr)
    if terminal.round is not None:
        print(f"resumed round {terminal.round_id} at its {terminal.round.phase} phase")
    for kind, message in terminal.tilts.items():
        print(f"TILT ({kind}): {message}")
    try:
        if terminal.books_fault is not None:
            return 3  # nothing may be booked on these books: the script is not run
        cabinet = MockCabinet(terminal)
        try:
            refused = run(cabinet, inputs)
            cabinet.shut_down()  # the script ran to its end: the devices book what they last did
        finally:
            cabinet.close()  # a power cut (the kill tests') books nothing more
        print(
            f"script done: credits {terminal.credits}, jackpot {_meter(terminal.jackpot_shown)}, "
            f"{refused} input(s) skipped as not live"
        )
        return 0
    finally:
        terminal.store.close()


def _meter(shown: int | None) -> str:
    """The jackpot meter in the headless run's last line: its value, or that the hub has not
    told it yet."""
    return "not known yet" if shown is None else str(shown)


def run_window(config: Config, fullscreen: bool, demo: bool, size: tuple[int, int] | None = None) -> int:
    """The game in a window (or full screen), the keyboard and mouse standing in for the
    cabinet; ``demo``: free play on an in-memory terminal, the attract mode soon after;
    ``size``: the window's, else it fits the display."""
    from oasis_kiosk.ui.app import App, display_problem, screen_problem  # only the screen needs pygame

    if demo and config.devices.wired:
        print(
            "oasis-kiosk: --demo is free play on memory: with the cabinet's wiring ([devices]) its "
            "hopper would pay real coins for play credits, and its acceptors take money no books "
            "keep; run the demo on a desktop, or with a configuration without [devices]",
            file=sys.stderr,
        )
        return 2
    driver, problem = screen_problem()
    if problem is not None:
        print(f"oasis-kiosk: no screen to open: {problem}.", file=sys.stderr)
        print(
            "Start it where a display is (or under Xvfb), or run --headless --script FILE.", file=sys.stderr
        )
        return 2
    shape = display_problem() if fullscreen else None
    if shape is not None:  # said before the books are opened: a restart would book a power-up each time
        print(f"oasis-kiosk: {shape}", file=sys.stderr)
        return 2
    # What the kiosk notes on its way (no sound device, say) goes to the journal on the cabinet.
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    terminal = open_terminal(config, demo=demo, video_driver=driver if fullscreen else None)
    # A configuration with wiring is the cabinet's: its own buttons and money devices.
    # Without, on a desktop, the keyboard and the mouse drive a cabinet on mock pins.
    devices = build_cabinet(terminal.config, terminal) if terminal.config.devices.wired else None
    app = App(terminal, size=size, fullscreen=fullscreen, free_play=demo, devices=devices)

    def stop(signum: int, frame: object) -> None:
        app.running = False  # systemd stops the kiosk: the loop ends and the books close

    signal.signal(signal.SIGTERM, stop)
    print("oasis-kiosk: L shows the keys on screen; F1-F8 insert money, Enter deals, Esc quits.")
    app.run()
    notify.stopping()
    terminal.store.close()
    return 0


def open_terminal(config: Config, *, demo: bool, video_driver: str | None) -> Terminal:
    """The terminal the screen shows, self-tested before the screen builds the devices, so
    that a finding keeps the money devices inhibited from the first frame on.
    ``video_driver``: the SDL driver in use on the cabinet (full screen), None in a window."""
    if demo:
        terminal = free_play_terminal(replace(config, attract_after=DEMO_ATTRACT_AFTER))
    else:
        terminal = Terminal(config, open_books(config), link=link_state(config))
    problems = self_test(terminal.config, terminal.store, video_driver, terminal.profile)
    terminal.record_self_test(problems)
    for problem in problems:
        print(f"oasis-kiosk: self-test: {problem}", file=sys.stderr)
    if problems:
        notify.status(f"out of order: self-test failed: {'; '.join(problems)}")
    return terminal


Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The subcommands' parsers, to which each command adds its own."""


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="oasis-kiosk", description="Oasis Stud Poker kiosk terminal.")
    commands = main.add_subparsers(dest="command", required=True)
    add_demo_command(commands)
    add_run_command(commands)
    add_books_commands(commands)
    add_par_command(commands)
    add_returns_command(commands)
    floor_cli.add_commands(commands.add_parser("hub", help="the floor's hub on PostgreSQL (docs/floor.md)"))
    return main


def add_configured(command: argparse.ArgumentParser) -> None:
    """The options of a command that reads the configuration (and the books it names)."""
    command.add_argument("--config", type=Path, help="configuration file (TOML)")
    command.add_argument("--db", type=Path, help="database file (default: from the configuration)")


def add_demo_command(commands: Commands) -> None:
    command = commands.add_parser("demo", help="deal and evaluate a few hands in the terminal")
    command.add_argument("--rounds", type=positive, default=3, help="rounds to deal (default 3)")
    command.add_argument(
        "--seed", type=seed_argument, help="64 hex digits: replay the deck of a round (the same each round)"
    )


def add_run_command(commands: Commands) -> None:
    command = commands.add_parser("run", help="run the terminal")
    add_configured(command)
    command.add_argument("--headless", action="store_true", help="no screen: take input from --script")
    view = command.add_mutually_exclusive_group()
    view.add_argument("--fullscreen", action="store_true", help="full screen (the cabinet)")
    view.add_argument("--windowed", action="store_true", help="in a window (the default on a desktop)")
    command.add_argument(
        "--size",
        type=screen_size,
        metavar="WxH",
        help="the window's size in pixels, such as 1280x720 (default: the largest that fits the display)",
    )
    command.add_argument(
        "--demo", action="store_true", help="attract mode and free play; the books are never touched"
    )
    command.add_argument("--script", type=Path, help="a file of inputs, one per line")
    command.add_argument(
        "--seed-base", type=seed_argument, help="derive every round's deck from this seed (tests, soak runs)"
    )
    command.add_argument(
        "--decks",
        type=Path,
        help="tests only: line N stacks round N's deck (top card first; blank: shuffled)",
    )


def add_books_commands(commands: Commands) -> None:
    """The commands that read or write the terminal's books, and the link agent's."""
    for name, text in [
        ("meters", "print the meters"),
        ("audit", "check that the ledger, the meters and the rounds add up (exit 1 if not)"),
        ("recall", "print the last rounds"),
    ]:
        command = commands.add_parser(name, help=text)
        add_configured(command)
        command.add_argument("--json", action="store_true", help="print JSON")
    commands.choices["recall"].add_argument("count", nargs="?", type=positive, default=25, help="rounds (25)")
    add_configured(commands.add_parser("set-pin", help="set the operator PIN (read from standard input)"))
    forget = commands.add_parser(
        "forget-setting",
        help="play the configuration file's setting again where the operator menu stored one",
    )
    add_configured(forget)
    forget.add_argument("setting", choices=list(STORED), help="the stored setting to forget")
    init = commands.add_parser("init", help="create the terminal's books (the only command that does)")
    add_configured(init)
    how = init.add_mutually_exclusive_group()
    how.add_argument(
        "--ram-clear",
        action="store_true",
        help="replace books that are there (or lost) with new ones; the old files are kept aside",
    )
    how.add_argument(
        "--seal-existing", action="store_true", help="seal books written before sealing, as they stand"
    )
    how.add_argument("--if-missing", action="store_true", help="do nothing where books are (or were) already")
    init.add_argument(
        "--test", action="store_true", help="test books: rounds may be dealt from stacked or derived decks"
    )
    link = commands.add_parser(
        "link", help="push a linked cabinet's outbox to the floor's hub until stopped (docs/floor.md)"
    )
    add_configured(link)


def add_par_command(commands: Commands) -> None:
    command = commands.add_parser(
        "par",
        help="the return of a rule profile: return table and PAR sheet; "
        "without one, the configured rules' return against [rules]",
    )
    command.add_argument(
        "profile", nargs="?", help="a shipped profile's id or a profile file (none: the configured rules)"
    )
    method = command.add_mutually_exclusive_group()
    method.add_argument(
        "--exact", action="store_true", help="count every deal (the default where the profile allows it)"
    )
    method.add_argument(
        "--rounds",
        type=positive,
        help=f"simulate N rounds (the default, {par.DEFAULT_ROUNDS:,}, for profiles with exchanges or purchases)",
    )
    command.add_argument("--json", action="store_true", help="print JSON")
    command.add_argument("--out", type=Path, help="also write a Markdown PAR sheet and the JSON to DIR")
    command.add_argument("--seed", type=seed_argument, help="64 hex digits: the simulation's seed")
    command.add_argument(
        "--ante", type=positive, help="minor units (default: the table's least and greatest ante)"
    )
    add_configured(command)


def add_returns_command(commands: Commands) -> None:
    command = commands.add_parser(
        "returns", help="compute the configured rules' return where it is not known and keep it in the books"
    )
    command.add_argument(
        "--rounds", type=positive, help=f"rounds simulated per ante (default {returns.ROUNDS:,})"
    )
    command.add_argument("--seed", type=seed_argument, help="64 hex digits: the simulation's seed")
    command.add_argument("--json", action="store_true", help="print JSON")
    add_configured(command)


READER_GONE = 141
"""The exit status of a command whose reader closed its output (``| head``): 128 + SIGPIPE,
as a shell reports a command the signal ended."""


def main(argv: Sequence[str] | None = None) -> int:
    """``oasis-kiosk``: a command, its exit status. A reader that stops reading (``| head``)
    ends it quietly, as it ends any command of the shell's."""
    try:
        return _command(argv)
    except BrokenPipeError:
        if not _stdout_closed():
            raise  # a pipe of the command's own (a socket), not its output
        # Python flushes stdout again as it exits: it writes to nowhere instead.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return READER_GONE


def _stdout_closed() -> bool:
    """The reader of standard output has gone: a pipe whose reading end is closed reports an
    error to a poll of its writing end."""
    try:
        output = sys.stdout.fileno()
    except (OSError, ValueError):  # not a file (captured, or closed): no reader to lose
        return False
    poller = select.poll()
    poller.register(output, select.POLLOUT)
    return any(events & select.POLLERR for _fd, events in poller.poll(0))


def _command(argv: Sequence[str] | None) -> int:
    command_line = parser()
    arguments = command_line.parse_args(argv)
    if arguments.command == "run" and arguments.fullscreen and arguments.size:
        command_line.error("run: --size is for a window; full screen takes the display's own size")
    if arguments.command == "hub":
        return floor_cli.run(arguments)
    try:
        if arguments.command == "demo":
            demo(arguments.rounds, arguments.seed)
            return 0
        if arguments.command == "par" and arguments.profile is None:
            if arguments.exact or arguments.out or arguments.ante:
                print("oasis-kiosk: --exact, --out and --ante need a profile named", file=sys.stderr)
                return 2
        elif arguments.command == "par":
            options = {"as_json": arguments.json, "out": arguments.out, "ante": arguments.ante}
            return par.run(
                arguments.profile,
                rounds=arguments.rounds,
                exact=arguments.exact,
                seed=arguments.seed,
                **options,
            )
        config = load_config(arguments.config, database=arguments.db)
        if arguments.command in {"par", "returns"}:
            return configured_returns(
                config,
                rounds=arguments.rounds or returns.ROUNDS,
                seed=arguments.seed,
                as_json=arguments.json,
                book=arguments.command == "returns",
            )
        if arguments.command == "meters":
            return show_meters(config, arguments.json)
        if arguments.command == "audit":
            return show_audit(config, arguments.json)
        if arguments.command == "recall":
            return show_recall(config, arguments.count, arguments.json)
        if arguments.command == "set-pin":
            return set_pin(config)
        if arguments.command == "forget-setting":
            return forget_stored(config, arguments.setting)
        if arguments.command == "link":
            return floor_cli.run_link(config)
        if arguments.command == "init":
            return init_books(
                config,
                test=arguments.test,
                ram_clear=arguments.ram_clear,
                seal_existing=arguments.seal_existing,
                if_missing=arguments.if_missing,
            )
        if arguments.headless:
            if not arguments.script:
                print("oasis-kiosk: run --headless needs --script FILE", file=sys.stderr)
                return 2
            return run_headless(
                config, arguments.script, arguments.seed_base, arguments.decks, arguments.demo
            )
        return run_window(config, fullscreen=arguments.fullscreen, demo=arguments.demo, size=arguments.size)
    except (ConfigError, ScriptError, InputError, returns.FiguresError, AnalysisError) as error:
        print(f"oasis-kiosk: {error}", file=sys.stderr)
        return 2
    except (StoreError, ScriptStoppedError) as error:
        print(f"oasis-kiosk: TILT: {error}", file=sys.stderr)
        return 3
    except (EntropyError, OSError) as error:
        if isinstance(error, BrokenPipeError) and _stdout_closed():
            raise  # the reader went: ``main`` ends quietly
        print(f"oasis-kiosk: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
