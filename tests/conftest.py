"""The tests draw on SDL's dummy video driver, play sound to its dummy audio driver and
drive gpiozero's mock pins, wherever they run (``make test`` sets the same)."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
