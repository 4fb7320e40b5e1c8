"""Where everything goes on the screen, in fractions of its size, so that one layout serves
1920x1080, 1280x720, the 800x480 touchscreen and any size between (SCREEN.md). Pure
arithmetic: no pygame."""

from __future__ import annotations

from dataclasses import astuple, dataclass
from functools import cache, cached_property

from oasis_kiosk.errors import InputError

TOUCH_PANEL_MM = 154
"""The width of the 7-inch 800x480 touchscreen's picture."""
COMPACT_HEIGHT = 600
"""Below this height (the 800x480 touchscreen) the paytable becomes a strip above the table."""
SIZES = ((1920, 1080), (1280, 720), (1024, 768), (800, 480))
"""The screens the kiosk is drawn and checked at (16:9, 4:3 and the 5:3 touchscreen),
largest first."""
SMALLEST = (320, 240)
TALLEST = (5, 4)
"""The tallest shape a layout fills, width to height (a 1280x1024 monitor's): a screen taller
than it for its width (a display turned on end) is refused."""
MIN_TEXT_SIZE = 14
"""Pixels: no text on any screen is smaller (the 7-inch panel is read from a stool)."""
WINDOW_MARGIN = (48, 96)
"""Pixels of a desktop a window leaves to its frame, title bar and the desktop's panel."""
BUTTON_PAD = 4
"""Pixels between a button's edge and its label: its border (2) and as much again clear."""
ONE_LINE_BAR = 40
"""Text sizes (ems, roughly) of the button bar's width along which a bar's labels fit on
one line each: on a narrower bar beside the meters they need two lines."""


@dataclass(frozen=True)
class Box:
    """A rectangle in pixels."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def inside(self, other: Box) -> bool:
        return (
            other.x <= self.x
            and other.y <= self.y
            and self.right <= other.right
            and self.bottom <= other.bottom
        )

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right and other.x < self.right and self.y < other.bottom and other.y < self.bottom
        )

    def split(self, parts: int) -> list[Box]:
        """Side by side, equal widths."""
        width = self.w // parts
        return [Box(self.x + i * width, self.y, width, self.h) for i in range(parts)]

    def shrink(self, by: int) -> Box:
        return Box(self.x + by, self.y + by, max(self.w - 2 * by, 0), max(self.h - 2 * by, 0))


@dataclass(frozen=True)
class Layout:
    screen: Box
    jackpot: Box
    table: Box
    """The felt: the dealer and the boxes."""
    dealer: Box
    boxes: tuple[Box, ...]
    paytable: Box
    """The full paytable column, or on a compact screen the strip of neighbouring rows."""
    message: Box
    meters: Box
    buttons: Box
    """The on-screen buttons (mouse and touch), mirroring the cabinet's lamps."""
    card_w: int
    card_h: int
    large: int
    """Font sizes in pixels: meters, labels, rules."""
    medium: int
    small: int
    floor: int
    """The least size any text on this screen is drawn at (``text_floor``)."""
    compact: bool

    def __hash__(self) -> int:
        # The layout keys the caches of what is drawn at its size, several times a frame; a
        # dataclass would hash its dozen boxes anew each time.
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash(astuple(self))

    def regions(self) -> list[Box]:
        return [
            self.jackpot,
            self.dealer,
            *self.boxes,
            self.paytable,
            self.message,
            self.meters,
            self.buttons,
        ]

    def cards(self, area: Box, count: int = 5, lift: int = 0) -> tuple[Box, ...]:
        """Where ``count`` cards go in a hand's area: centred, a little above the middle so
        the bet spots fit below."""
        return _card_places(self, area, count, lift)

    def label(self, area: Box) -> Box:
        """Where a hand's label (the dealer's with its verdict, a box's) lies: along its top."""
        return Box(area.x, area.y, area.w, self.small * 2)

    def spots(self, area: Box) -> list[Box]:
        """The ante, play and bonus (or insurance) bet spots under a box's cards."""
        size = min(self.card_w * 3 // 5, max(area.bottom - self.cards(area)[0].bottom - self.medium * 2, 8))
        y = self.cards(area)[0].bottom + self.small // 2
        middle = area.x + area.w // 2
        step = size * 2
        return [Box(middle + (i - 1) * step - size // 2, y, size, size) for i in range(3)]

    def button_areas(self, count: int, needs: tuple[int, ...] = (), rows: int | None = None) -> list[Box]:
        """The on-screen buttons, side by side on their bar, with a little space between; in
        two rows beside the meters when one row would leave a button too narrow for a word
        at the floor size (a touchscreen keeps one row: its buttons must be 10 mm tall).
        Without ``needs``, of equal widths; with them (each button's least width, its
        label's), each as wide as it needs, and no narrower than 10 mm on a touchscreen, the
        room left over shared out equally along its row and the space between narrower.
        ``rows``: as many rows as that, instead."""
        if not count:
            return []
        if rows is None:
            rows = 2 if not self.compact and self.buttons.w // count < self.floor * 7 else 1
        per_row = -(-count // rows)
        bar = self.buttons
        lines = [Box(bar.x, bar.y + row * bar.h // rows, bar.w, bar.h // rows) for row in range(rows)]
        if not needs:
            gap = max(self.small // 4, 2)
            cells = [cell for line in lines for cell in line.split(per_row)]
            return [Box(c.x + gap, c.y + gap, c.w - 2 * gap, c.h - 2 * gap) for c in cells[:count]]
        gap = max(self.small // 7, 2)
        least = self.minimum_touch() if self.compact else 0
        areas = []
        for row, line in enumerate(lines):
            wanted = [max(need, least) + 2 * gap for need in needs[row * per_row : (row + 1) * per_row]]
            spare = line.w - sum(wanted)
            if spare < 0:  # more than fits: each in proportion (its label runs over)
                wanted = [width * line.w // sum(wanted) for width in wanted]
                spare = line.w - sum(wanted)
            x = line.x
            for number, width in enumerate(wanted):
                width += spare // len(wanted) + (1 if number < spare % len(wanted) else 0)
                areas.append(Box(x + gap, line.y + gap, width - 2 * gap, line.h - 2 * gap))
                x += width
        return areas

    def minimum_touch(self) -> int:
        """10 mm in pixels on a touchscreen this wide, if it is the 154 mm wide 7-inch panel."""
        return self.screen.w * 10 // TOUCH_PANEL_MM


def text_floor(height: int) -> int:
    """The least size of text on a screen ``height`` pixels tall: about 2 % of it, never
    under MIN_TEXT_SIZE."""
    return max(height // 50, MIN_TEXT_SIZE)


def too_tall(width: int, height: int) -> bool:
    """A screen taller for its width than TALLEST: a display on end, which no layout fills."""
    return height * TALLEST[0] > width * TALLEST[1]


def window_size(display: tuple[int, int]) -> tuple[int, int]:
    """A window for a desktop of ``display``: all the room the desktop's bars leave (the
    largest of SIZES that fitted had left a 1366x768 laptop an 800x480 window), no taller
    than TALLEST (a portrait display's room is wider than it is tall no more), never smaller
    than a layout can fill."""
    width = max(display[0] - WINDOW_MARGIN[0], SMALLEST[0])
    height = min(max(display[1] - WINDOW_MARGIN[1], SMALLEST[1]), width * TALLEST[1] // TALLEST[0])
    return width, height


@cache
def layout(width: int, height: int, boxes: int, hand: int = 5) -> Layout:
    """The screen for ``boxes`` player boxes of up to ``hand`` cards (6 with a sixth card)."""
    if width < SMALLEST[0] or height < SMALLEST[1] or not 1 <= boxes <= 7:
        raise InputError(f"a screen of {width}x{height} with {boxes} box(es) cannot be laid out")
    if too_tall(width, height):
        raise InputError(
            f"a screen of {width}x{height} is taller for its width than {TALLEST[0]}:{TALLEST[1]}: "
            "the table is laid out on its side, not on end"
        )
    compact = height < COMPACT_HEIGHT
    wide = width / height >= 1.7
    top = round(height * (0.075 if compact else 0.08 if wide else 0.09))
    message = round(height * (0.07 if compact else 0.06))
    # The meters and the buttons: on two rows on the touchscreen; beside each other above it,
    # taller at 4:3 where eight buttons take two rows of two lines each.
    bottom = round(height * (0.2 if compact else 0.12 if wide else 0.14))
    floor = text_floor(height)
    small = max(height // 45, floor)
    if not compact and width // 2 < floor * ONE_LINE_BAR:
        bottom = max(bottom, _two_rows_of_two_lines(floor, small))
    screen = Box(0, 0, width, height)
    if compact:
        jackpot = Box(0, 0, width, top)
        paytable = Box(0, top, width, round(height * 0.06))
        table = Box(0, paytable.bottom, width, height - paytable.bottom - bottom - message)
    else:
        table_w = round(width * (2 / 3 if wide else 0.7))
        jackpot = Box(0, 0, table_w, top)
        table = Box(0, top, table_w, height - top - bottom - message)
        paytable = Box(table_w, 0, width - table_w, top + table.h)
    dealer = Box(table.x, table.y, table.w, table.h * 2 // 5)
    row = Box(table.x, dealer.bottom, table.w, table.h - dealer.h)
    player = tuple(row.split(boxes))
    box_w = player[0].w
    # A hand and its gaps (an eighth of a card each) fill 93 % of one box at most, keep a
    # card's 5:7 shape, and leave room above for the label and below for the spots and caption.
    card_w = min(
        box_w * 93 * 8 // (100 * (8 * hand + hand - 1)),
        dealer.w // 9,
        (dealer.h - small * 5 // 2) * 5 // 7,
        (row.h * 52 // 100) * 5 // 7,
    )
    card_h = card_w * 7 // 5
    bar = Box(0, height - bottom, width, bottom)
    if compact:
        meters = Box(0, bar.y, width, bottom * 2 // 5)
        buttons = Box(0, meters.bottom, width, bar.h - meters.h)
    else:
        meters = Box(0, bar.y, width // 2, bottom)  # half: the buttons' longest words fit a 4:3 screen
        buttons = Box(meters.right, bar.y, width - meters.w, bottom)
    return Layout(
        screen=screen,
        jackpot=jackpot,
        table=table,
        dealer=dealer,
        boxes=player,
        paytable=paytable,
        message=Box(0, bar.y - message, width, message),
        meters=meters,
        buttons=buttons,
        card_w=card_w,
        card_h=card_h,
        large=max(meters.h * 65 // 100 if compact else bottom * 36 // 100, 14),
        medium=max(message * 50 // 100, floor),
        small=small,
        floor=floor,
        compact=compact,
    )


def _two_rows_of_two_lines(floor: int, small: int) -> int:
    """The height of two rows of buttons whose labels take two lines at the floor size (a
    bold line is about 1.2 of its size tall), with the space ``button_areas`` leaves between:
    at 800x600 and 1024x600 a bar of a few per cent of the screen left room for one line only,
    too narrow for the labels beside the meters."""
    line = (floor * 6 + 4) // 5
    gap = max(small // 7, 2)
    return 2 * (2 * line + 2 * BUTTON_PAD + 2 * gap)


@cache  # asked for every hand several times a frame
def _card_places(lay: Layout, area: Box, count: int, lift: int) -> tuple[Box, ...]:
    gap = lay.card_w // 8
    total = count * lay.card_w + (count - 1) * gap
    x = area.x + (area.w - total) // 2
    y = area.y + lay.small * 2
    return tuple(Box(x + i * (lay.card_w + gap), y - lift, lay.card_w, lay.card_h) for i in range(count))
