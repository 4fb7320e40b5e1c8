"""The front end: pygame-ce scenes drawn from the machine layer (no rules, no money here)."""

import os

# pygame greets on stdout when imported; the kiosk's output is for the operator.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
