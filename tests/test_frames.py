"""The screen is drawn by parts: only the regions whose content changed, only the damage of
the pieces in motion (under a panel too), a winning hand's glow by itself, and a region left
to a later frame when a frame has painted a third of the screen already (the boxes' side of a
new deal, the paytable and meters beside a repainted table). Whatever the parts, the picture
is the one a full repaint draws, MOST_FRAMES_WAITED frames later at most."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from test_screen import ENDS, Clock, _texts_are_known, kiosk, settle

from oasis_kiosk.ui.app import App
from oasis_kiosk.ui.table import MOST_FRAMES_WAITED

__all__ = ["_texts_are_known"]  # every text drawn is checked to lie inside its region

FLUSH = "As Ks 9s 7s 4s / Kd Kc 4h 5h 9c"  # every bet won: chips move, the win counts and glows
ROYAL = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"  # the jackpot over the handpay limit: a panel over moving chips


def pictures_agree(app: App, clock: Clock) -> None:
    """The screen as the frames left it, once frames at the same moment have painted what
    waited, against the screen drawn afresh. The jackpot meter rolls a step each frame: the
    repaint's frame rolls the same step."""
    for _ in range(MOST_FRAMES_WAITED + 1):
        rolled_from = app.table.jackpot_shown
        app.draw()
    painted = pygame.image.tobytes(app.screen, "RGB")
    app.table.jackpot_shown = rolled_from
    app.repaint()
    assert painted == pygame.image.tobytes(app.screen, "RGB"), f"at {clock.now:.3f} s"


@pytest.mark.parametrize("size", ENDS)
@pytest.mark.parametrize("deck", [FLUSH, ROYAL])
def test_a_round_drawn_by_parts_is_the_picture_a_full_repaint_draws(
    tmp_path: Path, size: tuple[int, int], deck: str
) -> None:
    app, clock = kiosk(tmp_path, size, deck=deck)
    app.key("f8")
    app.key("n")
    app.key("return")
    frames = 0
    compared = set()
    while frames < 60 * 30:
        clock.now += 1 / 60
        app.draw()
        frames += 1
        if frames == 90:
            app.key("p")
        table = app.table
        moment = (
            "count" if table.counting(clock.now) else "reveal" if table.revealing(clock.now) else "moving"
        )
        if frames % 7 == 0 and table.busy(clock.now):
            pictures_agree(app, clock)
            compared.add(moment)
        if frames > 90 and not table.busy(clock.now):
            break
    settle(app, clock, 1)
    pictures_agree(app, clock)
    assert {"reveal", "moving"} <= compared
    if deck == FLUSH:
        assert "count" in compared, "the glow turned on and off while the win counted"
    else:
        assert app.table.showing(clock.now).overlay[0] == "handpay"
