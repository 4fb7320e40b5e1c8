"""Looks of the screen's regions kept painted, so that showing one again is one blit.

Each region keeps up to its number of looks, in surfaces made (and every byte of them
written) the first time the region keeps one, then reused oldest first. Keeping a look thus
copies into memory already mapped: a fresh surface for the paytable's look cost four
full-screen blits in the frame that kept it, most of it the first touch of its new pages.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Mapping

import pygame


class KeptLooks:
    def __init__(self, looks: Mapping[str, int]) -> None:
        """``looks``: each region that keeps its looks, and how many it keeps."""
        self.looks = dict(looks)
        self._kept: dict[str, OrderedDict[Hashable, pygame.Surface]] = {}
        self._spare: dict[str, list[pygame.Surface]] = {}
        self._size: dict[str, tuple[int, int]] = {}

    def __contains__(self, region: str) -> bool:
        return region in self.looks

    def clear(self) -> None:
        """Forgets every look (a new language, an overlay underneath), keeping the surfaces
        for the next: a region of the same size reuses them, so the full repaint after a
        LANGUAGE press does not make and fill them all again."""
        for region, kept in self._kept.items():
            self._spare[region] += kept.values()
            kept.clear()

    def get(self, region: str, key: Hashable) -> pygame.Surface | None:
        kept = self._kept.get(region)
        return None if kept is None else kept.get(key)

    def prepare(self, region: str, screen: pygame.Surface, size: tuple[int, int]) -> None:
        """Makes ``region``'s surfaces for looks of ``size`` now, unless it has them: a region
        first kept in a busy frame (a winning hand's glow) would pay for them there."""
        if region not in self._kept or self._size[region] != size:
            self._kept[region] = OrderedDict()
            self._size[region] = size
            self._spare[region] = [self._surface(screen, size) for _ in range(self.looks[region])]

    def keep(self, region: str, key: Hashable, screen: pygame.Surface, area: pygame.Rect) -> None:
        """Keeps what ``screen`` shows in ``area`` as ``region``'s look ``key``."""
        self.prepare(region, screen, area.size)
        kept = self._kept[region]
        spare = self._spare[region]
        if key in kept:
            surface = kept.pop(key)
        elif spare:
            surface = spare.pop()
        else:
            surface = kept.popitem(last=False)[1]
        surface.blit(screen, (0, 0), area)
        kept[key] = surface

    @staticmethod
    def _surface(screen: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
        surface = pygame.Surface(size, 0, screen)
        surface.fill(0)  # written now, so that its pages are mapped before a frame needs them
        return surface
