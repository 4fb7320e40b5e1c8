"""Helpers shared by the round tests."""

from __future__ import annotations

import json
from typing import Any

from oasis_kiosk import Round


def snapshot(round_: Round) -> tuple[Any, ...]:
    """Everything an action could change, to show that a refused one changed nothing."""
    return (
        json.dumps(round_.record()),
        round_.phase,
        round_.current_box,
        round_.credit,
        round_.collected,
        [round_.box_cards(i) for i in range(round_.box_count)],
        round_.dealer_cards,
        round_.legal_actions(),
    )
