"""The operator's screens drawn at the cabinet's sizes: the meters, the event log and the
recall as a lab reads them, and the PIN page. Each drawing is saved into
``test-artifacts/screens`` and checked: every text and card on the screen, none over
another."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import ClassVar

import pygame
import pytest
from pygame.typing import Point, RectLike
from support import books, logged_in_menu, settled
from test_screen import ARTIFACTS, blitted_at

from oasis_kiosk import i18n
from oasis_kiosk.config import Config
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.panel import Press
from oasis_kiosk.machine.events import sentence
from oasis_kiosk.machine.meters import every_meter
from oasis_kiosk.machine.operator import OperatorError, hash_pin
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.ui import cards, render
from oasis_kiosk.ui.rules_text import hand_name
from oasis_kiosk.ui.scenes.operator.meters import meter_row
from oasis_kiosk.ui.scenes.operator.recall import _box_pages, _next_page_said
from oasis_kiosk.ui.scenes.operator.screen import PAGES, OperatorScreen
from oasis_kiosk.ui.view import box_result, cash_for, jackpot_awards

SIZES = [(1280, 720), (800, 480)]


class Drawn(pygame.Surface):
    """Draws like the screen and keeps where each text and card went."""

    made: ClassVar[dict[int, tuple[pygame.Surface, str]]] = {}
    """Each text and card surface made, by id, with what it shows (kept alive, so that no
    other surface takes its id)."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.placed: list[tuple[str, pygame.Rect]] = []

    def blit(
        self,
        source: pygame.Surface,
        dest: Point | RectLike = (0, 0),
        area: RectLike | None = None,
        special_flags: int = 0,
    ) -> pygame.Rect:
        made = self.made.get(id(source))
        if made is not None and made[0] is source:
            self.placed.append((made[1], source.get_rect(topleft=blitted_at(dest))))
        return super().blit(source, dest, area, special_flags)


@pytest.fixture(autouse=True)
def _drawings_are_known(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    pygame.font.init()
    render.forget()  # fonts kept from before another test's pygame.quit() are dead
    text, card = render.text, cards.card

    def remembered_text(content: str, size: int, colour: render.Colour, bold: bool = False) -> pygame.Surface:
        surface = text(content, size, colour, bold)
        Drawn.made[id(surface)] = (surface, content)
        return surface

    def remembered_card(name: str | None, width: int, height: int) -> pygame.Surface:
        surface = card(name, width, height)
        Drawn.made[id(surface)] = (surface, f"card {name}")
        return surface

    remembered_text.cache_clear = text.cache_clear  # type: ignore[attr-defined]
    monkeypatch.setattr(render, "text", remembered_text)
    monkeypatch.setattr(cards, "card", remembered_card)
    i18n.use("en")
    yield
    render.forget()  # nor are they alive for the next test
    pygame.quit()


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The cabinet's clock nine hours ahead of UTC, as in Tokyo."""
    monkeypatch.setenv("TZ", "JST-9")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def in_tokyo(at: str) -> str:
    """A time the books keep (UTC), as the cabinet's clock in Tokyo reads it."""
    return (datetime.fromisoformat(at) + timedelta(hours=9)).strftime("%Y-%m-%d %H:%M:%S")


def shown(screen: OperatorScreen, name: str) -> list[str]:
    """Draws the screen afresh, saves it, checks that everything drawn is on the screen and
    clear of everything else, and gives the texts and cards in the order drawn."""
    surface = screen.screen
    assert isinstance(surface, Drawn)
    surface.placed.clear()
    screen.dirty = True
    screen.draw()
    width, height = surface.get_size()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(ARTIFACTS / f"{name}-{width}x{height}.png"))
    for what, where in surface.placed:
        assert surface.get_rect().contains(where), f"{name}: {what!r} leaves the screen at {where}"
    for (first, one), (second, other) in combinations(surface.placed, 2):
        assert not one.colliderect(other), f"{name}: {first!r} {one} overlaps {second!r} {other}"
    return [what for what, _where in surface.placed]


def operator_screen(terminal: Terminal, size: tuple[int, int]) -> OperatorScreen:
    """The menu on a screen of this size, the operator logged in."""
    screen = OperatorScreen(terminal, Cabinet(terminal), Drawn(size))
    screen.menu = logged_in_menu(terminal)
    return screen


def page(screen: OperatorScreen, name: str) -> None:
    screen._go(list(PAGES).index(name))


def played(tmp_path: Path, profile: str = "standard", boxes: int = 1) -> Terminal:
    """A terminal that took a coin and notes, played a round on ``boxes`` boxes, exchanging
    the first and third cards of each box that may exchange two, and had its door opened."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(
        Config(database=database, profile=profile),
        books(database, profile),
        seed_for_round=seeds_from(bytes(32)),
    )
    for money in (("coin", 100), ("bill", 2000), ("bill", 5000), ("bill", 5000)):
        terminal.handle(*money)
    while terminal.boxes < boxes:
        terminal.handle("boxes")
    terminal.handle("deal")
    exchanged = set()
    while (round_ := terminal.round) is not None:
        if round_.current_box not in exchanged and 2 in round_.legal_actions().get("exchange", {}):
            exchanged.add(round_.current_box)
            for card in (1, 3):
                terminal.handle("card", card)
            terminal.handle("exchange")
        else:
            terminal.handle("play" if "play" in terminal.live() else "fold")
    terminal.handle("door_open")
    terminal.handle("door_close")
    return terminal


@pytest.mark.parametrize("size", SIZES)
def test_the_meters_page_lists_every_meter_in_the_labs_order_in_both_columns(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    terminal = played(tmp_path)
    screen = operator_screen(terminal, size)
    screen.menu.reset_period()
    cash = cash_for(terminal)
    config = terminal.config
    lifetime = every_meter(screen.menu.meters(), config)
    rows = [meter_row(name, value, cash)[0] for name, value in lifetime.items()]
    screen.press(Press("deal"))  # asks to confirm a new period: a notice under the meters
    assert screen.notice
    seen: list[str] = []
    for _ in rows:  # PLAY scrolls on, a line at a time
        texts = shown(screen, "operator-meters-scrolled")
        seen += [text for text in texts if text in rows and text not in seen]
        screen.press(Press("play"))
    assert seen == rows, "every meter, in the registry's order, on one page or another"
    screen.scroll = 0
    texts = shown(screen, "operator-meters-table")
    played_row = texts.index(meter_row("coin_in", 0, cash)[0])
    assert texts[played_row + 1 : played_row + 3] == [cash(lifetime["coin_in"]), cash(0)], (
        "lifetime, then this period's"
    )
    jackpots_row = texts.index(meter_row("jackpots_paid", 0, cash)[0])
    assert texts[jackpots_row + 1 : jackpots_row + 3] == [cash(0), cash(0)], "an untouched meter is 0 in both"


@pytest.mark.usefixtures("tokyo")
@pytest.mark.parametrize("size", SIZES)
def test_the_event_log_reads_in_sentences_in_local_time(tmp_path: Path, size: tuple[int, int]) -> None:
    terminal = played(tmp_path)
    screen = operator_screen(terminal, size)
    page(screen, "events")
    texts = shown(screen, "operator-events")
    for said in ("Coin of €1.00 credited", "Note of €20.00 credited", "Door opened", "Operator logged in"):
        assert said in texts
    assert [text for text in texts if text.startswith("Round 1 settled: staked ")]
    assert not [text for text in texts if re.search(r"[{}=]|\w_\w", text)], "no raw detail"
    logged_in = terminal.store.events(1)[0]
    assert texts.index(in_tokyo(logged_in["at"])) == texts.index("Operator logged in") - 1


TIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


def log_entries(screen: OperatorScreen, name: str) -> tuple[list[tuple[str, list[pygame.Rect]]], int]:
    """The event log's entries on the page, newest first: each sentence as its lines read
    on (joined at their breaks) and where each line lies; and how many the page says are
    below."""
    surface = screen.screen
    assert isinstance(surface, Drawn)
    shown(screen, name)
    entries: list[tuple[list[str], list[pygame.Rect]]] = []
    below = 0
    for what, where in surface.placed:
        more = re.fullmatch(r"▼ (\d+) more \(PLAY\)", what)
        if more:
            below = int(more[1])
        elif TIME.fullmatch(what):
            entries.append(([], []))
        elif entries:
            entries[-1][0].append(what)
            entries[-1][1].append(where)
    return [(" ".join(pieces), places) for pieces, places in entries], below


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_long_event_reads_whole_on_lines_of_the_menus_size(tmp_path: Path, size: tuple[int, int]) -> None:
    """A line too long for the page had been cut with "…" (at 800x480 a refused press could
    not be read whole) or drawn smaller than the others (at 1920x1080): it goes on to the
    next line at the menu's size, and PLAY pages through every entry of the log."""
    terminal = played(tmp_path)
    terminal.handle("deal")
    terminal.handle("exchange")  # no card selected: refused, with the round's reason
    with terminal.store.transaction():
        terminal.store.event(
            "operator_credit", amount=500, reason="a coin jammed in the hopper's exit, " * 4 + "cleared"
        )
    terminal.handle("fold")
    screen = operator_screen(terminal, size)
    page(screen, "events")
    said = [sentence(event, cash_for(terminal)) for event in reversed(screen.menu.events(200))]
    assert any(line.startswith("Input refused: EXCHANGE") for line in said)
    seen: list[str] = []
    wrapped = 0
    for _ in said:
        entries, below = log_entries(screen, "operator-events-long")
        heights = {place.height for _line, places in entries for place in places}
        assert len(heights) == 1, "every line at the menu's one size"
        lines = [line for line, _places in entries]
        assert lines == said[screen.scroll : screen.scroll + len(lines)], "whole, newest first"
        assert below == len(said) - screen.scroll - len(lines)
        wrapped = max(wrapped, *(len(places) for _line, places in entries))
        seen += [line for line in lines if line not in seen]
        if not below:
            break
        screen.press(Press("play"))
    assert seen == said, "every entry, on one page or another"
    assert wrapped > 1, "the long credit goes on to a second line"


def boxes_on(texts: list[str]) -> set[str]:
    return {text for text in texts if re.fullmatch(r"Box \d", text)}


@pytest.mark.usefixtures("tokyo")
@pytest.mark.parametrize("size", SIZES)
def test_the_recall_shows_each_exchange_in_positions_1_to_5_and_local_time_paging_the_boxes(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    terminal = played(tmp_path, "russian-three-box", boxes=3)
    (recalled,) = terminal.store.rounds()
    screen = operator_screen(terminal, size)
    page(screen, "recall")
    texts = shown(screen, "operator-recall-boxes-1")
    assert any(in_tokyo(recalled["started_at"]) in text for text in texts), "the local time"
    assert [text for text in texts if text in {"1", "2", "3", "4", "5"}][:5] == ["1", "2", "3", "4", "5"], (
        "the card positions are numbered over their columns"
    )
    assert "Cards 1, 3 exchanged" in texts
    assert not [text for text in texts if re.search(r"\[|\bexchange 1\b", text)], "no record's words"
    dealt, exchanged = screen.menu.recalled_hands(recalled)[1].steps
    cards = [text for text in texts if text.startswith("card ")]
    first = cards.index(f"card {dealt.cards[0]}")
    assert cards[first : first + 10] == [f"card {card}" for card in (*dealt.cards, *exchanged.cards)]
    assert hand_name(settled(recalled)["dealer_hand"]["category"]) in texts
    seen, pages, every = boxes_on(texts), 1, set(texts)
    for _ in range(3):  # EXCHANGE shows the next boxes, and the first after the last
        screen.press(Press("exchange"))
        texts = shown(screen, f"operator-recall-boxes-{pages + 1}")
        if "Box 1" in texts:
            break
        seen, pages, every = seen | boxes_on(texts), pages + 1, every | set(texts)
    assert seen == {"Box 1", "Box 2", "Box 3"}
    results = [box_result(box, 0, cash_for(terminal)) for box in settled(recalled)["boxes"]]
    assert "Two pair: won, +$25.00" in results
    assert set(results) <= every, "each box's hand, outcome and net as the table says them"
    assert pages > 1 or size[1] > 480, "three boxes do not fit the small screen at once"


@pytest.mark.parametrize(("dealer", "boxes"), [(1, [1]), (1, [2, 2, 1]), (2, [5, 1]), (1, [9])])
def test_the_recalls_ranks_keep_the_floor_and_a_hand_too_long_for_a_page_goes_on_over_the_next(
    dealer: int, boxes: list[int]
) -> None:
    """At 800x480 the recall's cards were 60 pixels tall, their ranks 12, under the floor
    of 14: they are tall enough for the floor now, and fewer steps go on a page."""
    room, size, floor = 245, 14, 14  # the 800x480 screen's
    pages, card_w, card_h = _box_pages(dealer, boxes, room, size, floor, 800, 480)
    assert cards.rank_size(card_h) >= floor
    assert card_w * 7 // 5 <= card_h
    for shown in pages:
        rows = dealer + sum(len(steps) for _box, steps in shown)
        assert rows * (card_h + size // 2) <= room, "the page's steps fit above the actions"
    steps = [(box, step) for shown in pages for box, steps in shown for step in steps]
    assert steps == [(box, step) for box, count in enumerate(boxes) for step in range(count)], (
        "every step of every box once, in order"
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_missing_pin_is_said_as_the_menu_opens(tmp_path: Path, size: tuple[int, int]) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    terminal.handle("operator_key_on")
    screen = OperatorScreen(terminal, Cabinet(terminal), Drawn(size))
    texts = shown(screen, "operator-no-pin")
    assert "No PIN is set: stop the kiosk and set one with oasis-kiosk set-pin." in texts
    assert not [text for text in texts if text.startswith("Enter the PIN")], "no PIN to enter"
    assert not [text for text in texts if "pages" in text], "no pages to turn before the menu opens"
    assert "Turn the key back to leave the menu." in texts
    screen.press(Press("card", 1))
    screen.press(Press("deal"))
    assert screen.notice == "", "the page says it already, in the screen's language"
    assert not screen.menu.logged_in


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_a_refusal_is_said_in_the_screens_language(tmp_path: Path, language: str) -> None:
    """A wrong PIN, and an action the machine refuses, say why in the screen's language,
    money as that language writes it: not in the English the log and the command line keep."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    with terminal.store.transaction():
        terminal.store.set_state("operator_pin", hash_pin("243512"))
    terminal.handle("operator_key_on")
    screen = OperatorScreen(terminal, Cabinet(terminal), Drawn((1280, 720)))
    i18n.use(language)
    try:
        for key in (*"111111", "enter"):
            screen.type(key)
        assert not screen.menu.logged_in
        said = i18n._("wrong PIN: wait {seconds} s before the next PIN").format(seconds=2)
        assert screen.notice == said[0].upper() + said[1:], "a sentence on the menu starts with a capital"
        screen.type("enter")  # at once: the wait
        assert screen.notice[0].isupper(), screen.notice
        assert "wrong PIN" not in screen.notice
        assert not [text for text in shown(screen, f"operator-wrong-pin-{language}") if "wrong" in text]

        screen.menu.clock = lambda: 1e12  # past the wait
        for key in (*"243512", "enter"):
            screen.type(key)
        assert screen.menu.logged_in
        page(screen, "jackpot")
        screen.press(Press("deal"))
        screen.press(Press("deal"))  # the meter is at its base already: refused
        cash = cash_for(terminal)
        base = terminal.config.jackpot.base
        said = i18n._("the meter ({meter}) is not below its base ({base}): only a hit lowers it")
        said = said.format(meter=cash(terminal.jackpot.value), base=cash(base))
        assert screen.notice == said[0].upper() + said[1:]
        assert cash(base) in screen.notice, "money as the language writes it"
        assert "only a hit lowers it" not in screen.notice
        assert not [text for text in shown(screen, f"operator-refused-{language}") if "a hit" in text]
    finally:
        i18n.use("en")
    with pytest.raises(OperatorError, match=r"^the meter \(\d+\) is not below its base"):
        screen.menu.reset_jackpot()  # the log's and the command line's English, whatever is shown


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_service_page_types_any_credit_on_its_keypad_or_the_cabinets_buttons(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """An operator credit is typed in minor units, but the page drew no keypad and the card
    buttons type only 1 to 5: 1000 (€10.00) could not be typed on a cabinet without a
    keyboard. The page draws a keypad of all ten digits, and FOLD types 0 there."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    screen = operator_screen(terminal, size)
    page(screen, "service")
    shown(screen, "operator-service")
    keys = {label: area for area, label in screen.hotspots if not label.startswith("page:")}
    assert set(keys) == {*"0123456789", "clear", "enter"}, "every digit, CLEAR and OK"
    assert all(area.bottom <= screen.foot for area in keys.values()), "the keypad stays above the notice"
    assert not [(one, two) for one, two in combinations(keys.values(), 2) if one.colliderect(two)]
    for digit in "1000":
        screen.click(*keys[digit].center)
        shown(screen, "operator-service-typed")
        keys = {label: area for area, label in screen.hotspots if not label.startswith("page:")}
    assert screen.amount == "1000"
    screen.click(*keys["clear"].center)
    assert screen.amount == "", "CLEAR on the keypad clears the credit, it types no 0"
    screen.press(Press("card", 1))
    for _ in range(3):
        screen.press(Press("fold"))
    assert screen.amount == "1000", "FOLD types 0 on the cabinet's buttons"
    screen.press(Press("deal"))
    asked = screen.confirming
    assert asked == "service"
    screen.press(Press("fold"))
    assert (screen.amount, screen.confirming) == ("1000", None), "FOLD cancels a credit asked to confirm"
    credits = terminal.credits
    screen.press(Press("deal"))
    screen.click(*keys["enter"].center)
    assert terminal.credits == credits + 1000


def test_a_cancelled_confirmation_leaves_no_notice_asking_for_it(tmp_path: Path) -> None:
    """FOLD cancelled a credit asked to confirm, but "Press DEAL again to confirm, FOLD to
    cancel" stayed: a second FOLD, as it invited, typed a 0, and the credit credited was ten
    times the one typed. The void, confirmed by PLAY, asked for DEAL."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    screen = operator_screen(terminal, (800, 480))
    page(screen, "service")
    for digit in "1000":
        screen.type(digit)
    screen.press(Press("deal"))
    assert "FOLD" in screen.notice
    screen.press(Press("fold"))
    assert (screen.confirming, screen.notice) == (None, ""), "the cancelled question is gone"
    screen.press(Press("deal"))
    screen.press(Press("card", 2))  # a digit typed also drops the question
    assert (screen.confirming, screen.notice, screen.amount) == (None, "", "10002")
    screen.press(Press("exchange"))
    screen.press(Press("play"))
    assert screen.notice.startswith("Press PLAY again"), screen.notice


def page_button(texts: list[str]) -> str:
    """The recall's paging button's words (on one line or two)."""
    start = next(number for number, text in enumerate(texts) if text.startswith("Page "))
    return " ".join(texts[start : start + 2]) if not texts[start].endswith(")") else texts[start]


@pytest.mark.usefixtures("tokyo")
def test_the_recalls_page_button_names_what_exchange_shows_next(tmp_path: Path) -> None:
    """The button said "EXCHANGE: more boxes" on every page, the last one too (EXCHANGE
    goes back to the first there), and when the next page only goes on with the same box."""
    terminal = played(tmp_path, "russian-three-box", boxes=3)
    screen = operator_screen(terminal, (800, 480))
    page(screen, "recall")
    texts = shown(screen, "operator-recall-paging")
    for _ in range(4):
        said = page_button(texts)
        screen.press(Press("exchange"))
        texts = shown(screen, "operator-recall-paging")
        named = re.search(r"EXCHANGE: box(?:es)? (\d)(?: to (\d))?", said)
        if screen.box_page == 0:
            assert named is None, f"the last page promises no more boxes: {said!r}"
            assert "page 1" in said, said
            break
        assert named, said
        first, last = int(named[1]), int(named[2] or named[1])
        assert boxes_on(texts) == {f"Box {box}" for box in range(first, last + 1)}, said
    assert screen.box_page == 0, "EXCHANGE came back to the first page"


@pytest.mark.parametrize(("dealer", "boxes"), [(1, [9]), (2, [5, 1]), (1, [2, 2, 1])])
def test_a_box_going_on_over_the_next_page_is_named_so(dealer: int, boxes: list[int]) -> None:
    pages, _card_w, _card_h = _box_pages(dealer, boxes, 245, 14, 14, 800, 480)
    assert len(pages) > 1
    i18n.use("en")
    for number, parts in enumerate(pages[1:], 1):
        said = _next_page_said(pages, number - 1)
        box, steps = parts[0]
        if len(parts) == 1 and steps.start > 0:
            assert said == f"EXCHANGE: box {box + 1} continued"
        assert "more boxes" not in said
    assert _next_page_said(pages, len(pages) - 1) == "EXCHANGE: back to page 1"


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_the_recalls_page_button_keeps_its_words_inside(tmp_path: Path, language: str) -> None:
    terminal = played(tmp_path, "russian-three-box", boxes=3)
    screen = operator_screen(terminal, (800, 480))
    page(screen, "recall")
    surface = screen.screen
    assert isinstance(surface, Drawn)
    i18n.use(language)
    try:
        for _ in range(3):
            shown(screen, f"operator-recall-paging-{language}")
            (button,) = [area for area, name in screen.hotspots if name == "boxes"]
            words = [where for _what, where in surface.placed if where.colliderect(button)]
            assert words, "the button says something"
            assert all(button.contains(where) for where in words), (button, words)
            screen.press(Press("exchange"))
    finally:
        i18n.use("en")


def test_the_menu_never_asks_to_confirm_what_it_would_refuse(tmp_path: Path) -> None:
    """The jackpot page offered "DEAL twice: bring the meter up to its base" with the meter at
    its base, asked for the second DEAL, then refused it; the settings page asked to confirm
    a change of rules with credits on, then refused it, and priced rules in another currency
    in the books' own. Each refusal is said at once, and nothing waits for a confirmation."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    terminal.handle("bill", 5000)
    screen = operator_screen(terminal, (1280, 720))
    page(screen, "jackpot")
    assert not [text for text in shown(screen, "operator-jackpot-at-base") if text.startswith("DEAL twice")]
    screen.press(Press("deal"))
    assert screen.confirming is None
    assert screen.notice.startswith("The meter ("), screen.notice
    page(screen, "settings")
    screen.press(Press("card", 1))  # the next rules: credits are on
    assert screen.notice == "The rules cannot change while credits are on: cash them out first"
    screen.press(Press("deal"))
    assert screen.confirming is None
    assert screen.notice == "The rules cannot change while credits are on: cash them out first"
    empty = tmp_path / "empty.db"
    terminal = Terminal(Config(database=empty), books(empty))
    screen = operator_screen(terminal, (1280, 720))
    page(screen, "settings")
    screen.press(Press("card", 1))
    while screen.rules_choice[0] != "czech":
        screen.press(Press("card", 1))
    assert "CZK" in screen.notice, screen.notice
    texts = shown(screen, "operator-settings-other-currency")
    assert not [text for text in texts if "Return at an ante" in text], "no amounts in the books' money"
    screen.press(Press("deal"))
    assert screen.confirming is None


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_the_recall_says_a_long_result_whole_its_amount_kept(tmp_path: Path, language: str) -> None:
    """At 800x480 a jackpot's result had been cut short beside its cards ("Royal Flush:
    krupiér se nekvalifikoval, vyplácí jackpot, …"): the amount the box won was lost. It
    goes on over the next lines, whole."""
    database = tmp_path / "kiosk.db"
    terminal = Terminal(
        Config(database=database, language=language),
        books(database),
        deck_for_round=lambda number: "As Ks Qs Js Ts / 2h 3d 7c 8c 9d",
    )
    terminal.handle("bill", 5000)
    terminal.handle("bonus")
    terminal.handle("deal")
    terminal.handle("play")
    i18n.use(language)
    try:
        recall_said_whole(terminal, language)
    finally:
        i18n.use("en")


def recall_said_whole(terminal: Terminal, language: str) -> None:
    (recalled,) = terminal.store.rounds()
    (box,) = settled(recalled)["boxes"]
    result = box_result(box, jackpot_awards(settled(recalled)).get(box["box"], 0), cash_for(terminal))
    screen = operator_screen(terminal, (800, 480))
    page(screen, "recall")
    texts = shown(screen, f"operator-recall-jackpot-{language}")
    assert not [text for text in texts if "…" in text]
    joined = " ".join(texts)
    assert result in joined, (result, texts)
