"""The credit, bet and win meters along the bottom of the screen."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout

Meters = tuple[tuple[str, int], ...]
"""Each meter's name and amount, the win last."""


@cache
def _cells(lay: Layout, count: int) -> tuple[tuple[Box, Box, pygame.Rect], ...]:
    """Each meter's cell, inside it where its words go (a gap between neighbouring amounts),
    and the cell as a rectangle. Kept: a counting meter asks every frame."""
    return tuple(
        (cell, cell.shrink(max(lay.small // 2, 2)), render.rect(cell)) for cell in lay.meters.split(count)
    )


Glyphs = tuple[tuple[pygame.Surface, ...], tuple[int, ...]]
"""A meter's amount as glyphs, and where each starts from the left of its words (one more:
where the last ends)."""


# Kept: a meter's amount is asked for again the next frame, to see which glyphs changed.
@lru_cache(maxsize=64)
def _glyphs(words: str, size: int, colour: render.Colour, width: int, least: int) -> Glyphs:
    glyphs = render.amount(words, size, colour, width, True, least)
    starts = [0]
    for glyph in glyphs:
        starts.append(starts[-1] + glyph.get_width())
    return glyphs, tuple(starts)


def _amount(
    lay: Layout, inner: Box, number: int, values: Meters, cash: Callable[[int], str], size: int
) -> Glyphs:
    """A meter's amount as glyphs at the row's ``size`` (on a compact screen, its name too);
    the last, the win, in gold while it is not zero."""
    name, amount = values[number]
    colour = render.GOLD if number == len(values) - 1 and amount else render.WHITE
    return _glyphs(_words(lay, name, amount, cash), size, colour, inner.w, lay.floor)


def row_size(lay: Layout, values: Meters, cash: Callable[[int], str], most: int) -> int:
    """The one size of the meters' amounts: the largest, up to ``lay.large``, at which each
    meter's amount fits its cell, and would fit were it ``most`` (the credit limit: the most
    money alone may bring). A meter then keeps its size as its digits grow, and the three
    read alike; only an amount past ``most`` makes all three smaller together."""
    return min(
        (
            _row_size(lay, tuple(name for name, _amount in values), cash, most),
            *(
                render.amount_size(_words(lay, name, amount, cash), lay.large, inner.w, True, lay.floor)
                for (name, amount), (_cell, inner, _whole) in zip(
                    values, _cells(lay, len(values)), strict=True
                )
                if amount > most
            ),
        )
    )


@lru_cache(maxsize=16)
def _row_size(lay: Layout, names: tuple[str, ...], cash: Callable[[int], str], most: int) -> int:
    return min(
        render.amount_size(_words(lay, name, most, cash), lay.large, inner.w, True, lay.floor)
        for name, (_cell, inner, _whole) in zip(names, _cells(lay, len(names)), strict=True)
    )


def glyph_sizes(lay: Layout, values: Meters, cash: Callable[[int], str], most: int) -> tuple[int, ...]:
    """The size each meter's amount is written at now (``row_size``)."""
    return (row_size(lay, values, cash, most),) * len(values)


def render_ahead(
    lay: Layout, names: tuple[str, ...], sizes: tuple[int, ...], cash: Callable[[int], str]
) -> None:
    """Renders every glyph a meter may count through at its ``sizes`` (the digits, the
    currency's signs and separators, on a compact screen its name; the win's in gold too): a
    count or a bet's first new digit then costs a blit, not a render."""
    amounts = set(cash(1234567890)) | set("0123456789")
    for number, (name, size) in enumerate(zip(names, sizes, strict=True)):
        characters = sorted(amounts | set(name)) if lay.compact else sorted(amounts)
        for colour in (render.WHITE, render.GOLD) if number == len(names) - 1 else (render.WHITE,):
            for character in characters:
                render.text(character, size, colour, True)


def _words(lay: Layout, name: str, amount: int, cash: Callable[[int], str]) -> str:
    """What a meter writes as its amount (on a compact screen, its name too)."""
    return f"{name} {cash(amount)}" if lay.compact else cash(amount)


def draw(
    screen: pygame.Surface,
    lay: Layout,
    values: Meters,
    cash: Callable[[int], str],
    most: int,
    only: pygame.Rect | None = None,
) -> None:
    """Each (name, amount) in its cell, the amounts at one size (``row_size``); with
    ``only``, just the cells, and in them the name and the glyphs, that reach into it."""
    size = row_size(lay, values, cash, most)
    for number, (_cell, inner, whole) in enumerate(_cells(lay, len(values))):
        if only is not None and not only.colliderect(whole):
            continue
        glyphs, starts = _amount(lay, inner, number, values, cash, size)
        height = glyphs[0].get_height()
        if lay.compact:
            x = inner.x + (inner.w - starts[-1]) // 2
            _row(screen, glyphs, starts, x, inner.y + (inner.h - height) // 2, only)
            continue
        title = render.fitted(values[number][0], lay.small, render.DIM, inner.w, bold=True, least=lay.floor)
        if only is None or only.colliderect((inner.x, inner.y, *title.get_size())):
            screen.blit(title, (inner.x, inner.y))
        _row(screen, glyphs, starts, inner.x, inner.bottom - height, only)


def _row(
    screen: pygame.Surface,
    glyphs: tuple[pygame.Surface, ...],
    starts: tuple[int, ...],
    x: int,
    y: int,
    only: pygame.Rect | None,
) -> None:
    """``render.row``; with ``only``, just the glyphs that reach into it (those beyond it
    would be clipped away whole)."""
    if only is None:
        render.row(screen, glyphs, x, y)
        return
    height = glyphs[0].get_height()
    if y >= only.bottom or y + height <= only.y:
        return
    for glyph, start, end in zip(glyphs, starts, starts[1:], strict=False):
        if x + start < only.right and x + end > only.x and end > start:
            screen.blit(glyph, (x + start, y))


def changed(
    lay: Layout, before: Meters, now: Meters, cash: Callable[[int], str], most: int
) -> list[tuple[pygame.Rect, pygame.Rect]]:
    """Where the meters' picture changed from ``before``, each with its meter's cell: of a
    meter whose amount changed but not its glyphs' size or colour, from its first changed
    glyph to the end of the longer amount (a count changes the last few digits of CREDIT
    and WIN each frame); of any other changed meter, its cell; of every meter, its cell,
    when the row's size changed."""
    areas = []
    sizes = (row_size(lay, before, cash, most), row_size(lay, now, cash, most))
    for number, (cell, inner, _whole) in enumerate(_cells(lay, len(now))):
        whole = render.rect(cell)
        if sizes[0] != sizes[1]:
            areas.append((whole, whole))
            continue
        if before[number] == now[number]:
            continue
        (was, was_starts), (glyphs, starts) = (
            _amount(lay, inner, number, values, cash, sizes[0]) for values in (before, now)
        )
        if (
            lay.compact
            or before[number][0] != now[number][0]
            or was[0].get_height() != glyphs[0].get_height()
        ):
            areas.append((whole, whole))
            continue
        same = 0  # a glyph of the same character, size and colour is the same surface (render.text)
        while same < min(len(was), len(glyphs)) and was[same] is glyphs[same]:
            same += 1
        left = inner.x + starts[same]
        right = inner.x + max(was_starts[-1], starts[-1])
        height = glyphs[0].get_height()
        areas.append((pygame.Rect(left, inner.bottom - height, right - left, height), whole))
    return areas
