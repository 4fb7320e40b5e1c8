"""The front end: pygame-ce scenes drawn from the machine layer (no rules, no money here)."""
