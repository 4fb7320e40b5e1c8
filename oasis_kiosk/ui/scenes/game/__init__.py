"""The game: the table with its hands and bets, the paytable, the jackpot meter, the
prompt, the meters and the buttons, and HELP (``scenes/help.py``) over the table."""

from oasis_kiosk.ui.scenes.game.scene import GameScene

__all__ = ["GameScene"]
