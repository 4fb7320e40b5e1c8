"""The rules of the profile as sentences over the table (HELP): sized to fit, and on pages
when they do not fit at the floor size."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import pygame

from oasis_kiosk.ui import render
from oasis_kiosk.ui.layout import Box, Layout

Pages = tuple[tuple[str, ...], ...]


def _height(lines: tuple[str, ...], size: int, width: int) -> int:
    """The pixels the sentences take at this size and width, a third of a line between two."""
    step = render.font(size).get_linesize()
    return sum(len(render.wrap(line, size, width)) * step + size // 3 for line in lines)


@lru_cache(maxsize=64)
def pages(lines: tuple[str, ...], lay: Layout, paytables_beside: bool) -> tuple[int, int, Pages]:
    """The text size, the width and the sentences of each page. On one page where they fit
    at the floor size or above: the text steps down from a little over the rules' size,
    and on a compact screen the paytables beside it (where they fit, ``paytables_beside``)
    give way before the text goes under the rules' size (the paytable stays in the strip
    above). Where they do not, a house with many options (golden-oasis) on a small screen,
    on pages across the table at the rules' own size (paged anyway, they need not shrink),
    a sentence never split, a lead-in never last on its page, the foot of each left for its
    number."""
    table, margin = lay.table, lay.small
    room = table.h - 2 * margin
    for width, size in _tries(lay, paytables_beside):
        if _height(lines, size, width - 2 * margin) <= room:
            return size, width, (lines,)
    size, width = lay.small, table.w
    room -= render.font(size).get_linesize()
    paged: list[tuple[str, ...]] = []
    page: tuple[str, ...] = ()
    for line in lines:
        if page and _height((*page, line), size, width - 2 * margin) > room:
            # A lead-in ("Prices at an ante of €5.00:") goes over with the list it opens.
            carried = page[-1:] if len(page) > 1 and _leads_in(page[-1]) else ()
            paged.append(page[: len(page) - len(carried)])
            page = carried
        page += (line,)
    return size, width, (*paged, page)


def _tries(lay: Layout, paytables_beside: bool) -> Iterator[tuple[int, int]]:
    """The widths and text sizes ``pages`` tries for one page, in its order."""
    table = lay.table
    tries = [(table.w * 3 // 5, lay.small)] if lay.compact and paytables_beside else []
    for width, least in [*tries, (table.w, lay.floor)]:
        for size in range(lay.small + 2, least - 1, -1):
            yield width, size


def paging(lines: tuple[str, ...], lay: Layout, paytables_beside: bool) -> Iterator[None]:
    """``pages`` worked out a step at a time, each step a size tried (its lines wrapped and
    kept, ``render.wrap``), then the pages, then the first page's lines rendered one a step:
    drawn ahead, HELP's first opening blits them."""
    room = lay.table.h - 2 * lay.small
    for width, size in _tries(lay, paytables_beside):
        yield
        if _height(lines, size, width - 2 * lay.small) <= room:
            break
    size, width, paged = pages(lines, lay, paytables_beside)
    for colour, pieces in _wrapped(paged[0], size, width - 2 * lay.small, titled=True):
        yield
        for piece in pieces:
            render.text(piece, size, colour)


def _leads_in(line: str) -> bool:
    """Whether the sentence opens the list under it: it ends with a colon, in every language."""
    return line.rstrip().endswith(":")


def sentences(
    screen: pygame.Surface, area: Box, lines: tuple[str, ...], size: int, margin: int, *, titled: bool
) -> None:
    """The lines wrapped to ``area``; ``titled``: the first is the profile's name, in gold."""
    step = render.font(size).get_linesize()
    y = area.y + margin
    for colour, pieces in _wrapped(lines, size, area.w - 2 * margin, titled=titled):
        for piece in pieces:
            screen.blit(render.text(piece, size, colour), (area.x + margin, y))
            y += step
        y += size // 3


def _wrapped(
    lines: tuple[str, ...], size: int, width: int, *, titled: bool
) -> Iterator[tuple[render.Colour, tuple[str, ...]]]:
    """Each line's colour and its pieces ``width`` wide, as ``sentences`` draws them and
    ``paging`` renders them ahead."""
    for number, line in enumerate(lines):
        yield (render.GOLD if titled and number == 0 else render.WHITE), render.wrap(line, size, width)
