"""The kiosk's screen, drawn with pygame-ce: it draws the terminal of ``oasis_kiosk.machine``
and feeds it input; it holds no rules and no money logic."""
