"""Where everything goes on the screen, in fractions of its size, so that one layout serves
1920x1080, 1280x720 and the 800x480 touchscreen (SCREEN.md). Pure arithmetic: no pygame."""

from __future__ import annotations

from dataclasses import dataclass


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


@dataclass(frozen=True)
class Layout:
    screen: Box
    jackpot: Box
    dealer: Box
    boxes: tuple[Box, ...]
    paytable: Box
    message: Box
    meters: Box
    card_w: int
    card_h: int
    large: int
    """Font sizes in pixels: meters, labels, rules."""
    medium: int
    small: int

    def regions(self) -> list[Box]:
        return [self.jackpot, self.dealer, *self.boxes, self.paytable, self.message, self.meters]


def layout(width: int, height: int, boxes: int) -> Layout:
    """The screen for ``boxes`` player boxes."""
    if width < 320 or height < 240 or not 1 <= boxes <= 7:
        raise ValueError(f"a screen of {width}x{height} with {boxes} box(es) cannot be laid out")
    wide = width / height >= 1.7
    top = round(height * (0.08 if wide else 0.1))
    bottom = round(height * 0.1)
    message = round(height * 0.06)
    table_w = round(width * (2 / 3 if wide else 0.7))
    table_h = height - top - bottom - message
    screen = Box(0, 0, width, height)
    jackpot = Box(0, 0, table_w, top)
    paytable = Box(table_w, 0, width - table_w, top + table_h)
    dealer = Box(0, top, table_w, table_h * 2 // 5)
    row = Box(0, dealer.bottom, table_w, table_h - dealer.h)
    box_w = row.w // boxes
    player = tuple(Box(row.x + i * box_w, row.y, box_w, row.h) for i in range(boxes))
    # Five cards and their gaps fill most of one box, and keep a card's 5:7 shape.
    card_w = min(box_w * 17 // 100, dealer.w // 9, (row.h * 55 // 100) * 5 // 7)
    card_h = card_w * 7 // 5
    meters = Box(0, height - bottom, width, bottom)
    line = Box(0, meters.y - message, width, message)
    return Layout(
        screen=screen,
        jackpot=jackpot,
        dealer=dealer,
        boxes=player,
        paytable=paytable,
        message=line,
        meters=meters,
        card_w=card_w,
        card_h=card_h,
        large=max(bottom * 45 // 100, 14),
        medium=max(message * 55 // 100, 12),
        small=max(height // 45, 10),
    )
