"""What every page of the operator's menu stands on: the terminal, the cabinet and the
machine's menu it works through, the surface, the scroll and the notice, and the text
drawn at the menu's size (measured by each frame, ``OperatorScreen.draw``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.i18n import _
from oasis_kiosk.machine.intents import Intent, intent_name
from oasis_kiosk.machine.operator import OperatorError, OperatorMenu
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import StoreError
from oasis_kiosk.ui import render
from oasis_kiosk.ui.view import cash_for

KEY_GAP = 8
"""Pixels between the keys of the touch keypad."""


class OperatorPage:
    """The ground of each page's part of the operator's screen: ``OperatorScreen`` is all
    of them together, each page's class adding its state, buttons and drawing."""

    size: int
    """The menu's text size on the screen drawn last."""
    floor: int
    """The least text size the screen allows (``layout.text_floor``)."""
    line_height: int
    foot: int
    """Where the notice begins: each page is drawn above it."""

    def __init__(self, terminal: Terminal, cabinet: Cabinet, screen: pygame.Surface) -> None:
        self.terminal = terminal
        self.cabinet = cabinet
        self.screen = screen
        self.menu = OperatorMenu(terminal)
        self.scroll = 0
        self.notice = ""
        self.confirming: str | None = None
        """An action waiting for a second press (``_confirmed``): a page's DEAL (a new
        period, the jackpot at its base, new rules, a credit) or the service page's "void"."""
        self.hotspots: list[tuple[pygame.Rect, str]] = []
        self.dirty = True

    def _confirmed(
        self, action: str, button: Intent = Intent.DEAL, refusal: Callable[[], str | None] | None = None
    ) -> bool:
        """Whether this press of ``button`` confirms ``action``: the second in a row does, the
        first asks for it (FOLD, a digit or another page cancels it: ``_cancel``), unless the
        machine would refuse it (``refusal``: why, or None): then the first says why, and
        asks nothing."""
        if self.confirming != action:
            refused = refusal() if refusal is not None else None
            if refused is not None:
                self.confirming, self.notice = None, refused
                return False
            self.confirming = action
            self.notice = _("Press {button} again to confirm, FOLD to cancel.").format(
                button=intent_name(button)
            )
            return False
        self.confirming = None
        return True

    def _cancel(self) -> None:
        """Drops the action waiting for its second press, and the notice that asked for it
        (left standing, it invited a FOLD that no longer cancels anything)."""
        if self.confirming is not None:
            self.confirming, self.notice = None, ""

    def _refusal_of(self, check: Callable[[], object]) -> str | None:
        """Why the machine refuses what ``check`` checks (None: it does not)."""
        try:
            check()
        except OperatorError as error:
            return self._refused(error)
        return None

    def _refused(self, error: OperatorError | StoreError) -> str:
        """Why the machine refused, in the screen's language (the books' own errors are
        the store's words), as a sentence of the menu: its first letter a capital (the log
        keeps the words as they are)."""
        said = error.text(cash_for(self.terminal)) if isinstance(error, OperatorError) else str(error)
        return said[:1].upper() + said[1:]

    def _paragraph(self, said: str, colour: render.Colour, top: int, width: int | None = None) -> int:
        """A sentence across the page (or ``width``) at the menu's size, on as many lines as
        it needs; the y under it."""
        width = self.screen.get_width() - self.size * 2 if width is None else width
        for piece in render.wrap(said, self.size, width):
            self.screen.blit(render.text(piece, self.size, colour), (self.size, top))
            top += self.line_height
        return top

    def _lines(self, top: int, lines: list[tuple[str, str]], width: int | None = None) -> None:
        """Names with their values at the right of ``width``, as many as fit; a name without
        a value is a heading (gold) across the width."""
        size = self.size
        width = self.screen.get_width() // 2 - size * 2 if width is None else width
        for name, value in lines[: self._rows_fit(top)]:
            if not value:
                self.screen.blit(self._fitted(name, render.GOLD, width), (size, top))
                top += self.line_height
                continue
            # The name gives way to its value, down to half the width.
            room = width - render.font(size).size(value)[0] - size
            label = self._fitted(name, render.WHITE, max(room, width // 2))
            self.screen.blit(label, (size, top))
            words = self._fitted(value, render.WHITE, width - label.get_width() - size)
            self.screen.blit(words, (size + width - words.get_width(), top))
            top += self.line_height

    def _fitted(self, said: str, colour: render.Colour, width: int, bold: bool = False) -> pygame.Surface:
        """The text at the menu's size, or smaller to fit ``width``, never under the floor."""
        return render.fitted(said, self.size, colour, width, bold, least=self.floor)

    def _wrapped(self, said: str, colour: render.Colour, width: int, most: int) -> list[pygame.Surface]:
        """The text on at most ``most`` lines of ``width``: at the menu's size, or at the
        floor where it needs more; the last line cut short with "…" only where even that is
        not enough (a box's result keeps its amount)."""
        for size in (self.size, self.floor):
            pieces = render.wrap(said, size, width)
            if len(pieces) <= most:
                return [render.text(piece, size, colour) for piece in pieces]
        kept = list(pieces[: most - 1])
        rest = " ".join(pieces[most - 1 :])
        return [render.text(piece, self.floor, colour) for piece in kept] + [
            self._shortened(rest, colour, width)
        ]

    def _shortened(self, said: str, colour: render.Colour, width: int) -> pygame.Surface:
        """The text fitted to ``width``, cut short with "…" where even at the floor it is wider."""
        shown = self._fitted(said, colour, width)
        while shown.get_width() > width and len(said) > 1:
            said = said[:-2] + "…"
            shown = self._fitted(said, colour, width)
        return shown

    def _keypad(
        self, keys: Sequence[str], columns: int, key: int, corner: tuple[int, int], right: bool = False
    ) -> int:
        """The touch keypad: ``keys`` (digits, "clear" and "enter") in that order, ``columns``
        a row, each ``key`` tall and as wide as its widest word asks; ``corner`` its top left
        (its top right if ``right``). A key touched types its name (``OperatorScreen.type``).
        The x of its left edge."""
        words = {"clear": _("CLEAR"), "enter": _("OK")}
        labels = {name: words.get(name, name) for name in keys}
        widest = max(render.font(self.size, True).size(said)[0] for said in labels.values())
        key_w = max(key, widest + 2 * render.BUTTON_PAD)  # a word on a key stays inside it
        left = corner[0] - columns * (key_w + KEY_GAP) + KEY_GAP if right else corner[0]
        for number, (label, said) in enumerate(labels.items()):
            row, column = divmod(number, columns)
            area = pygame.Rect(
                left + column * (key_w + KEY_GAP), corner[1] + row * (key + KEY_GAP), key_w, key
            )
            render.button(self.screen, area, said, True, self.size)
            self.hotspots.append((area, label))
        return left

    def _rows_fit(self, top: int) -> int:
        """How many lines fit from ``top`` down to the notice."""
        return max((self.foot - top) // self.line_height, 1)

    def _more(self, y: int, count: int) -> None:
        """Says how many lines PLAY scrolls to, below the last one shown."""
        if count > 0:
            said = _("▼ {count} more (PLAY)").format(count=count)
            self.screen.blit(render.text(said, self.size, render.DIM), (self.size, y))
