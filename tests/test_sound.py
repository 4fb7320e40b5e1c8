"""Sound: played at the set volume where there is audio, silence without complaint where
there is none."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from oasis_kiosk.ui.sound import TUNES, Sounds, samples


@pytest.fixture(autouse=True)
def _no_mixer_after() -> Iterator[None]:
    yield
    pygame.mixer.quit()


def test_with_an_audio_device_every_effect_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    sounds = Sounds(volume=5)
    assert sounds.available
    assert set(sounds.sounds) == set(TUNES)
    for name in TUNES:
        sounds.play(name)
        assert sounds.sounds[name].get_volume() == pytest.approx(0.5, abs=0.01)
    sounds.set_volume(0)
    assert all(sound.get_volume() == 0 for sound in sounds.sounds.values())
    with pytest.raises(ValueError, match="0 to 10"):
        sounds.set_volume(11)


def test_without_an_audio_device_the_kiosk_is_silent_not_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    sounds = Sounds(volume=7)
    assert not sounds.available
    for name in TUNES:
        sounds.play(name)  # nothing happens, nothing raises
    sounds.set_volume(3)


def test_the_effects_are_short_and_soft() -> None:
    for notes in TUNES.values():
        wave = samples(notes)
        assert 0 < len(wave) <= 22050, "at most a second"
        assert max(abs(value) for value in wave) <= 12000, "well under full scale"
        assert wave[0] == 0, "no click at the start"
