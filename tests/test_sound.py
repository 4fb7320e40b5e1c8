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


def playing(sounds: Sounds, name: str) -> list[pygame.mixer.Channel]:
    """The channels playing ``name`` now."""
    return [
        channel
        for channel in map(pygame.mixer.Channel, range(pygame.mixer.get_num_channels()))
        if channel.get_busy() and channel.get_sound() == sounds.sounds[name]
    ]


def test_a_softer_volume_plays_softer_and_never_louder_than_the_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The attract mode plays at its own volume: half the game's 6 at 3; at 8 no louder than
    the game's 4; silent at 0."""
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    sounds = Sounds(volume=6)
    sounds.play("jackpot", volume=3)  # the longest tune: still playing when looked at
    (channel,) = playing(sounds, "jackpot")
    assert sounds.sounds["jackpot"].get_volume() * channel.get_volume() == pytest.approx(0.3, abs=0.01)
    pygame.mixer.stop()
    sounds.play("jackpot")
    (channel,) = playing(sounds, "jackpot")
    assert channel.get_volume() == pytest.approx(1.0), "the game's own sounds at the game's volume"
    pygame.mixer.stop()
    sounds.set_volume(4)
    sounds.play("jackpot", volume=8)
    (channel,) = playing(sounds, "jackpot")
    assert sounds.sounds["jackpot"].get_volume() * channel.get_volume() == pytest.approx(0.4, abs=0.01)
    pygame.mixer.stop()
    sounds.play("jackpot", volume=0)
    assert playing(sounds, "jackpot") == []


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
