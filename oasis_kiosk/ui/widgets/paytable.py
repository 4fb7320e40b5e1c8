"""The paytables: the column beside the table (its row of the hand lit), the strip of a
compact screen, and both tables under HELP."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout

PaytableRow = tuple[str, str, str]
"""A row of a paytable: (category, its name, what it pays)."""


Lit = tuple[str | None, str | None]
"""The play bet's and the bonus's lit hands (None: none)."""


def row(
    screen: pygame.Surface, area: Box, left: str, right: str, size: int, colour: render.Colour, least: int
) -> None:
    """A name at the left of ``area`` and what it pays at the right; the name shrinks to
    fit, not under ``least``."""
    pad = size // 2
    words = render.text(right, size, colour)
    screen.blit(words, (area.right - words.get_width() - pad, area.y + (area.h - words.get_height()) // 2))
    name = render.fitted(left, size, colour, area.w - words.get_width() - pad * 3, least=least)
    screen.blit(name, (area.x + pad, area.y + (area.h - name.get_height()) // 2))


def lit_row(
    screen: pygame.Surface,
    area: Box,
    words: tuple[str, str],
    size: int,
    least: int,
    *,
    lit: bool,
    pulse: bool,
) -> None:
    """A row of a paytable, framed in gold when lit (filled on the pulse)."""
    if lit:
        pygame.draw.rect(screen, render.GOLD, render.rect(area), width=0 if pulse else 2, border_radius=4)
    colour = render.INK if lit and pulse else render.GOLD if lit else render.WHITE
    row(screen, area, *words, size, colour, least)


@dataclass(frozen=True)
class ColumnLine:
    """A line of the paytable column: a section's title, or a row of it."""

    area: Box
    words: tuple[str, str]
    section: int
    """0: the play bet's paytable, 1: the bonus's."""
    category: str | None
    """The row's hand; None for a title."""

    def look(self, lit: Lit, pulse: bool) -> tuple[bool, bool]:
        """Whether the line is lit, and on the pulse: what its picture depends on."""
        shown = self.category is not None and self.category == lit[self.section]
        return shown, shown and pulse


def changed_lines(
    lines: list[ColumnLine], before: tuple[Lit, bool], now: tuple[Lit, bool]
) -> Iterator[tuple[int, ColumnLine, tuple[bool, bool]]]:
    """The column's lines whose look changed from ``before`` to ``now`` (each its lit hands
    and whether the glow is on), with their number and new look: a hand lit or dark, the
    glow on or off. A title never changes, nor a row dark before and now."""
    for number, line in enumerate(lines):
        if line.category is None or line.category not in (before[0][line.section], now[0][line.section]):
            continue
        look = line.look(*now)
        if line.look(*before) != look:
            yield number, line, look


def column_lines(lay: Layout, rows: list[PaytableRow], bonus: list[PaytableRow]) -> list[ColumnLine]:
    """Where each line of the paytable column (and the bonus's below it) stands. A title too
    wide for the column at the floor size (Russian on a narrow column) takes as many lines as
    it needs at the rows' size: cut off at the screen's edge, it read as half a title."""
    area = lay.paytable
    sections = [(_("PAYTABLE (play bet)"), rows)]
    if bonus:
        sections.append((_("BONUS"), bonus))
    count = len(rows) + 1 + (len(bonus) + 2 if bonus else 0)
    titles: list[tuple[str, ...]] = []
    extra = 0
    for _attempt in range(3):  # a smaller line may wrap a title onto one more line: tried again
        height = min(area.h // (count + extra + 1), lay.small * 2)
        size = _size(lay, height)
        titles = [
            _title_lines(title, _padded_room(lay.paytable.w, size), size, lay.floor) for title, _ in sections
        ]
        if sum(len(lines) - 1 for lines in titles) <= extra:
            break
        extra = sum(len(lines) - 1 for lines in titles)
    y = area.y + height // 2
    lines = []
    for section, ((_title, section_rows), title_lines) in enumerate(zip(sections, titles, strict=True)):
        for number, piece in enumerate(title_lines):
            y += height if number else 0
            lines.append(ColumnLine(Box(area.x, y, area.w, height), (piece, ""), section, None))
        for category, name, pays in section_rows:
            y += height
            lines.append(ColumnLine(Box(area.x + 4, y, area.w - 8, height), (name, pays), section, category))
        y += height * 2  # a blank line between the sections
    return lines


def _size(lay: Layout, height: int) -> int:
    """The size of the column's text on lines ``height`` tall."""
    return max(min(lay.small + 2, height * 8 // 10), lay.floor)


def _padded_room(width: int, size: int) -> int:
    """The room a line ``width`` wide leaves its text at ``size``, as ``row`` pads it."""
    return width - size // 2 * 3


def _title_lines(title: str, room: int, size: int, least: int) -> tuple[str, ...]:
    """A paytable's title on one line, shrunk as far as ``least`` (``row``), or else wrapped
    at the rows' ``size``: cut off at the screen's edge, it read as half a title."""
    if render.text_width(title, least) <= room:
        return (title,)
    return render.wrap(title, size, room)


def column_size(lay: Layout, lines: list[ColumnLine]) -> int:
    return _size(lay, lines[0].area.h)


def column(
    screen: pygame.Surface,
    lay: Layout,
    rows: list[PaytableRow],
    bonus: list[PaytableRow],
    lit: Lit,
    pulse: bool,
) -> None:
    """The paytable column and the bonus's below it; ``lit``: the play bet's and the
    bonus's category of the hand."""
    lines = column_lines(lay, rows, bonus)
    size = column_size(lay, lines)
    for line in lines:
        column_line(screen, lay, line, size, lit, pulse)


def column_line(
    screen: pygame.Surface,
    lay: Layout,
    line: ColumnLine,
    size: int,
    lit: Lit,
    pulse: bool,
) -> None:
    if line.category is None:
        row(screen, line.area, *line.words, size, render.GOLD, lay.floor)
    else:
        shown, on_pulse = line.look(lit, pulse)
        lit_row(screen, line.area, line.words, size, lay.floor, lit=shown, pulse=on_pulse)


def strip(
    screen: pygame.Surface,
    lay: Layout,
    rows: list[PaytableRow],
    bonus: list[PaytableRow],
    lit: Lit,
    pulse: bool,
) -> None:
    """The compact paytable: the current hand's row and its neighbours; before a hand is
    lit, the top rows (what a hand can win draws a player in). While a bonus win is shown,
    its bonus-table row lit under the bonus's heading, after the play bet's row if that won
    too, else beside a neighbour."""
    play, won = lit
    cells: list[tuple[PaytableRow, bool]]
    categories = [category for category, _name, _pays in bonus]
    if won is not None and won in categories:
        heading = (("", _("BONUS"), ""), False)
        middle = categories.index(won)
        if play is not None:
            cells = [*((line, True) for line in rows if line[0] == play), heading, (bonus[middle], True)]
        else:
            first = min(middle, max(len(bonus) - 2, 0))
            cells = [heading, *((line, line[0] == won) for line in bonus[first : first + 2])]
    else:
        categories = [category for category, _name, _pays in rows]
        middle = categories.index(play) if play in categories else 0
        first = min(max(middle - 1, 0), max(len(rows) - 3, 0))
        cells = [(line, line[0] == play) for line in rows[first : first + 3]]
    for cell, ((category, name, pays), shown) in zip(lay.paytable.split(3), cells, strict=False):
        inner = cell.shrink(2)
        size = max(min(lay.small + 2, inner.h * 7 // 10), lay.floor)
        if not category:  # the bonus's heading, at the right: beside the row it heads
            row(screen, inner, "", name, size, render.GOLD, lay.floor)
            continue
        lit_row(screen, inner, (name, pays), size, lay.floor, lit=shown, pulse=pulse)


def both_lines(rows: list[PaytableRow], bonus: list[PaytableRow]) -> list[PaytableRow]:
    """The lines of both paytables one under the other: titles, rows and a blank between."""
    lines: list[PaytableRow] = [("", _("PAYTABLE (play bet)"), ""), *rows]
    if bonus:
        lines += [("", "", ""), ("", _("BONUS"), ""), *bonus]
    return lines


def both_fit(height: int, rows: list[PaytableRow], bonus: list[PaytableRow], least: int) -> bool:
    """Both paytables fit ``height`` pixels with their text at ``least`` or larger."""
    return height // (len(both_lines(rows, bonus)) + 1) * 8 // 10 >= least


def both(
    screen: pygame.Surface,
    area: Box,
    rows: list[PaytableRow],
    bonus: list[PaytableRow],
    size: int,
    least: int,
) -> None:
    """Both paytables, one under the other, filling ``area`` (under HELP); no text under
    ``least``."""
    lines = both_lines(rows, bonus)
    wrapped = lines
    for _attempt in range(3):  # a smaller line may wrap a title onto one more line: tried again
        height = area.h // (len(wrapped) + 1)
        text_size = max(min(size, height * 8 // 10), least)
        titled = _titles_wrapped(lines, _padded_room(area.w, text_size), text_size, least)
        if len(titled) <= len(wrapped):
            break
        wrapped = titled
    for i, (_category, name, pays) in enumerate(titled):
        colour = render.GOLD if not pays else render.WHITE
        row(
            screen,
            Box(area.x, area.y + i * height, area.w, height),
            name,
            pays,
            text_size,
            colour,
            least,
        )


def _titles_wrapped(lines: list[PaytableRow], room: int, size: int, least: int) -> list[PaytableRow]:
    """``lines`` with each title (a line with no odds) on the lines ``_title_lines`` gives."""
    return [
        (category, piece, pays)
        for category, name, pays in lines
        for piece in (_title_lines(name, room, size, least) if name and not pays else (name,))
    ]


def _room(area: Box, columns: int, size: int) -> int:
    """The most a column may take of ``area`` beside the others, two ems apart."""
    return (area.w - size * 2 * (columns - 1)) // columns


def _widest(rows: list[PaytableRow], size: int) -> int:
    """The width the widest row takes at ``size``, its name and odds padded as ``row`` does."""
    font = render.font(size)
    return max(font.size(name)[0] + font.size(pays)[0] + size // 2 * 3 for _c, name, pays in rows)


def side_by_side(
    screen: pygame.Surface,
    area: Box,
    rows: list[PaytableRow],
    bonus: list[PaytableRow],
    size: int,
    least: int,
) -> None:
    """The play bet's paytable and the bonus's, if any, in columns side by side, centred in
    ``area`` (the attract mode's card); every row at one size, ``size`` or as much smaller as
    the longest name needs, never under ``least``. A heading too wide for its column (Russian)
    takes two lines rather than shrink beside its rows."""
    tables = [(_("PAYTABLE (play bet)"), rows)]
    if bonus:
        tables.append((_("BONUS"), bonus))
    longest = max(len(table) for _title, table in tables)
    for heading_lines in (1, 2):
        height = area.h // (longest + heading_lines)
        text_size = max(min(size, height * 8 // 10), least)
        while text_size > least and _widest(rows + bonus, text_size) > _room(area, len(tables), text_size):
            text_size -= 1
        # A column no wider than its rows need, with some air between a hand and its odds:
        # rows stretched over a whole screen leave the eye to cross a gulf.
        width = min(_room(area, len(tables), text_size), _widest(rows + bonus, text_size) + text_size * 4)
        heading_room = width - text_size // 2 * 3  # as ``row`` pads it
        if all(render.font(text_size).size(title)[0] <= heading_room for title, _table in tables):
            break
    heading_size = min(
        render.lines_that_fit(
            title, text_size, heading_room, height * heading_lines, least, most=heading_lines
        )[0]
        for title, _table in tables
    )
    gap = text_size * 2
    x = area.x + (area.w - width * len(tables) - gap * (len(tables) - 1)) // 2
    for title, table in tables:
        for line, piece in enumerate(render.wrap(title, heading_size, heading_room)):
            row(
                screen,
                Box(x, area.y + line * height, width, height),
                piece,
                "",
                heading_size,
                render.GOLD,
                least,
            )
        top = area.y + heading_lines * height
        for number, (_category, name, pays) in enumerate(table):
            row(
                screen,
                Box(x, top + number * height, width, height),
                name,
                pays,
                text_size,
                render.WHITE,
                least,
            )
        x += width + gap
