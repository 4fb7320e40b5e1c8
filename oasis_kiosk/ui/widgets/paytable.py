"""The paytables: the column beside the table (its row of the hand lit), the strip of a
compact screen, and both tables under HELP. A row is (category, name, what it pays)."""

from __future__ import annotations

import pygame

from oasis_kiosk.i18n import _
from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout

Row = tuple[str, str, str]


def row(screen: pygame.Surface, area: Box, left: str, right: str, size: int, colour: render.Colour) -> None:
    """A name at the left of ``area`` and what it pays at the right."""
    pad = size // 2
    words = render.text(right, size, colour)
    screen.blit(words, (area.right - words.get_width() - pad, area.y + (area.h - words.get_height()) // 2))
    name = render.fitted(left, size, colour, area.w - words.get_width() - pad * 3)
    screen.blit(name, (area.x + pad, area.y + (area.h - name.get_height()) // 2))


def lit_row(
    screen: pygame.Surface, area: Box, words: tuple[str, str], size: int, *, lit: bool, pulse: bool
) -> None:
    """A row of a paytable, framed in gold when lit (filled on the pulse)."""
    if lit:
        pygame.draw.rect(screen, render.GOLD, render.rect(area), width=0 if pulse else 2, border_radius=4)
    colour = render.INK if lit and pulse else render.GOLD if lit else render.WHITE
    row(screen, area, *words, size, colour)


def column(
    screen: pygame.Surface,
    lay: Layout,
    rows: list[Row],
    bonus: list[Row],
    lit: tuple[str | None, str | None],
    pulse: bool,
) -> None:
    """The paytable column and the bonus's below it; ``lit``: the play bet's and the
    bonus's category of the hand."""
    area = lay.paytable
    lines = len(rows) + 1 + (len(bonus) + 2 if bonus else 0)
    height = min(area.h // (lines + 1), lay.small * 2)
    y = area.y + height // 2
    size = min(lay.small + 2, height * 8 // 10)
    sections = [(_("PAYTABLE (play bet)"), rows, lit[0])]
    if bonus:
        sections.append((_("BONUS"), bonus, lit[1]))
    for title, section, lit_category in sections:
        row(screen, Box(area.x, y, area.w, height), title, "", size, render.GOLD)
        for category, name, pays in section:
            y += height
            lit_row(
                screen,
                Box(area.x + 4, y, area.w - 8, height),
                (name, pays),
                size,
                lit=category == lit_category,
                pulse=pulse,
            )
        y += height * 2  # a blank line between the sections


def strip(screen: pygame.Surface, lay: Layout, rows: list[Row], lit: str | None, pulse: bool) -> None:
    """The compact paytable: the current hand's row and its neighbours."""
    categories = [category for category, _name, _pays in rows]
    middle = categories.index(lit) if lit in categories else len(rows) - 1
    first = min(max(middle - 1, 0), max(len(rows) - 3, 0))
    for cell, (category, name, pays) in zip(lay.paytable.split(3), rows[first : first + 3], strict=False):
        inner = cell.shrink(2)
        lit_row(
            screen,
            inner,
            (name, pays),
            min(lay.small + 2, inner.h * 7 // 10),
            lit=category == lit,
            pulse=pulse,
        )


def both(screen: pygame.Surface, area: Box, rows: list[Row], bonus: list[Row], size: int) -> None:
    """Both paytables, one under the other, filling ``area`` (under HELP)."""
    lines: list[Row] = [("", _("PAYTABLE (play bet)"), ""), *rows]
    if bonus:
        lines += [("", "", ""), ("", _("BONUS"), ""), *bonus]
    height = area.h // (len(lines) + 1)
    for i, (_category, name, pays) in enumerate(lines):
        colour = render.GOLD if not pays else render.WHITE
        row(
            screen,
            Box(area.x, area.y + i * height, area.w, height),
            name,
            pays,
            min(size, height * 8 // 10),
            colour,
        )
