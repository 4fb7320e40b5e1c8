"""Short, soft sound effects: deal, chip, a win (longer for a big one), jackpot. Synthesised at start-up (no files to
lose), played at the configured volume (the attract mode's at its own, no louder), and
silent without complaint where the machine has no audio device: silence is never an error."""

from __future__ import annotations

import logging
import math
from array import array

import pygame

from oasis_kiosk.config import MAX_VOLUME
from oasis_kiosk.errors import InputError

RATE = 22050
log = logging.getLogger(__name__)

# name -> notes of (frequency Hz, seconds); a soft attack and decay on each.
TUNES = {
    "deal": [(1800.0, 0.025)],
    "chip": [(900.0, 0.03), (1300.0, 0.03)],
    "win": [(523.25, 0.09), (659.25, 0.09), (783.99, 0.16)],
    "big_win": [
        (523.25, 0.09),
        (659.25, 0.09),
        (783.99, 0.09),
        (1046.5, 0.09),
        (783.99, 0.09),
        (1046.5, 0.22),
    ],
    "jackpot": [(523.25, 0.1), (659.25, 0.1), (783.99, 0.1), (1046.5, 0.1), (783.99, 0.1), (1046.5, 0.35)],
}
BIG_WIN = 10
"""A win of this many antes or more plays the big win's tune."""


def win_tune(gain: int, ante: int, jackpot: bool) -> str | None:
    """The tune that greets a round's net gain: none for a round that won nothing."""
    if gain <= 0:
        return None
    if jackpot:
        return "jackpot"
    return "big_win" if gain >= BIG_WIN * max(ante, 1) else "win"


def samples(notes: list[tuple[float, float]]) -> array[int]:
    """16-bit mono samples of the notes one after another."""
    out = array("h")
    for frequency, seconds in notes:
        count = int(RATE * seconds)
        for n in range(count):
            envelope = min(n / (RATE * 0.004), 1.0) * (1 - n / count) ** 2
            out.append(int(12000 * envelope * math.sin(2 * math.pi * frequency * n / RATE)))
    return out


class Sounds:
    def __init__(self, volume: int) -> None:
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.volume = volume
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
        except pygame.error as error:
            log.info("no audio device (%s): the kiosk plays silently", error)
            return
        for name, notes in TUNES.items():
            self.sounds[name] = pygame.mixer.Sound(buffer=samples(notes).tobytes())
        self.set_volume(volume)

    @property
    def available(self) -> bool:
        return bool(self.sounds)

    def set_volume(self, volume: int) -> None:
        if not 0 <= volume <= MAX_VOLUME:
            raise InputError(f"the volume is 0 to {MAX_VOLUME}, not {volume}")
        self.volume = volume
        for sound in self.sounds.values():
            sound.set_volume(volume / MAX_VOLUME)

    def play(self, name: str, volume: int | None = None) -> None:
        """Plays ``name`` at the game's volume, or at ``volume`` (the attract mode's) where that
        is softer: never louder than the game, silent at 0."""
        sound = self.sounds.get(name)
        loudness = self.volume if volume is None else min(volume, self.volume)
        if sound is None or not loudness:
            return
        channel = sound.play()
        if channel is not None:  # None: every channel is busy, and the effect is dropped
            # The sound itself is set to the game's volume; its channel scales it down.
            channel.set_volume(loudness / self.volume)
