"""The chart of a PAR sheet: the distribution of a round's net, drawn with pygame into a PNG.

A bar per net amount (in antes), ascending from left to right, its height the probability on a
logarithmic scale (a royal flush's win is a million times rarer than a fold, and both count).
Drawn on a plain ``pygame.Surface``, so it needs no display (SDL's dummy driver will do).
"""

from __future__ import annotations

import math
from pathlib import Path

import pygame

from oasis_kiosk.assets import ASSETS

FONT = ASSETS / "fonts" / "DejaVuSans.ttf"
WIDTH, HEIGHT = 1000, 560
LEFT, RIGHT, TOP, BOTTOM = 86, 24, 56, 96
BACKGROUND = (255, 255, 255)
INK = (30, 30, 30)
GRID = (220, 220, 220)
LOSS = (190, 60, 50)
WIN = (40, 120, 70)
EVEN = (110, 110, 110)


def amount(net: float) -> str:
    """A net in antes as a label: whole where whole, else to two places."""
    if net == int(net):
        return f"{int(net):+d}" if net else "0"
    return f"{net:+.2f}"


def bins(points: list[tuple[float, int]], most: int = 60) -> list[tuple[float, float, int]]:
    """(low, high, count) per bar: every distinct net while there are at most ``most`` of them,
    else nets merged into neighbours by rounding to ever coarser steps (whole antes, then 2, 5...)."""
    distinct = sorted(points)
    for step in (0.0, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0):
        grouped: dict[float, list[float | int]] = {}
        for net, count in distinct:
            key = net if step == 0 else math.floor(net / step) * step
            low_high_count = grouped.setdefault(key, [net, net, 0])
            low_high_count[0] = min(low_high_count[0], net)
            low_high_count[1] = max(low_high_count[1], net)
            low_high_count[2] += count
        if len(grouped) <= most:
            break
    return [(float(v[0]), float(v[1]), int(v[2])) for _, v in sorted(grouped.items())]


def draw_distribution(path: Path, title: str, points: list[tuple[float, int]]) -> None:
    """Writes the chart of ``points`` ((net in antes, rounds or combinations)) to ``path``."""
    pygame.font.init()
    surface = pygame.Surface((WIDTH, HEIGHT))
    surface.fill(BACKGROUND)
    font = pygame.font.Font(FONT, 15)
    small = pygame.font.Font(FONT, 12)
    total = sum(count for _, count in points)
    bars = [(low, high, count / total) for low, high, count in bins(points) if count]
    smallest = min(p for _, _, p in bars)
    floor = 10 ** math.floor(math.log10(smallest))
    decades = -round(math.log10(floor))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y_of(p: float) -> int:
        return TOP + int(plot_h * (1 - (math.log10(p) - math.log10(floor)) / decades))

    surface.blit(font.render(title, True, INK), (LEFT, 16))
    for decade in range(decades + 1):
        p = floor * 10**decade
        y = y_of(p)
        pygame.draw.line(surface, GRID, (LEFT, y), (WIDTH - RIGHT, y))
        label = small.render("1" if decade == decades else f"1e{round(math.log10(p))}", True, INK)
        surface.blit(label, (LEFT - 8 - label.get_width(), y - label.get_height() // 2))
    axis = small.render("probability (log scale)", True, INK)
    surface.blit(pygame.transform.rotate(axis, 90), (12, TOP + plot_h // 2 - axis.get_width() // 2))
    slot = plot_w / len(bars)
    every = max(1, math.ceil(len(bars) * 34 / plot_w))
    for i, (low, high, p) in enumerate(bars):
        x = LEFT + int(i * slot)
        width = max(1, int(slot) - 2)
        colour = LOSS if high < 0 else WIN if low > 0 else EVEN
        top = y_of(p)
        pygame.draw.rect(surface, colour, (x + 1, top, width, TOP + plot_h - top))
        if i % every == 0:
            text = amount(low) if low == high else f"{amount(low)}..{amount(high)}"
            label = pygame.transform.rotate(small.render(text, True, INK), 90)
            surface.blit(label, (x + 1 + width // 2 - label.get_width() // 2, TOP + plot_h + 6))
    pygame.draw.line(surface, INK, (LEFT, TOP + plot_h), (WIDTH - RIGHT, TOP + plot_h))
    pygame.draw.line(surface, INK, (LEFT, TOP), (LEFT, TOP + plot_h))
    caption = small.render("a round's net in antes (red: lost, grey: even, green: won)", True, INK)
    surface.blit(caption, (LEFT + plot_w // 2 - caption.get_width() // 2, HEIGHT - 22))
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
