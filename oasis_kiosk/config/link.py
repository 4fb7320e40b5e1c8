"""``[link]``: a cabinet linked to a floor's hub (docs/floor.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from oasis_kiosk.config.kinds import OneOf, Seconds, Unset, Whole, path_text
from oasis_kiosk.config.schema import REQUIRED, Key, TomlTable

LINK_JACKPOTS = ("local", "linked")
LINK_OFFLINE = ("bonus", "stop")


@dataclass(frozen=True)
class LinkConfig:
    """``[link]``: the cabinet is one of a floor's, linked to its hub (docs/floor.md). Its
    books then keep an outbox of every change the hub must know, which the link agent
    (``oasis-kiosk link``) pushes to the hub; with no ``[link]`` there is no outbox."""

    credentials: Path
    """The cabinet's credentials file (``hub add-cabinet``), readable by its owner only."""
    jackpot: str = "local"
    """``local``: the cabinet's own progressive meter; ``linked``: its bonus stakes and hits
    go to the hub's pool (the outbox's ``jackpot_contribution`` and ``jackpot_hit``)."""
    batch: int = 500
    """The most outbox rows the agent sends in one transaction."""
    retry_max: float = 30.0
    """The longest wait between the agent's attempts while the hub cannot be reached (the
    wait doubles from a tenth of a second up to this)."""
    offline_after: float = 5.0
    """With the jackpot linked: seconds without the agent's contact with the hub before the
    link counts as down and the linked jackpot is not offered."""
    offline: str = "bonus"
    """With the jackpot linked and the link down: ``bonus``, the bonus bet that feeds the
    jackpot is refused and the rest plays on; ``stop``, the cabinet takes no play."""
    agent_file: Path | None = None
    """The link agent's own file (what the hub confirmed, the pool, the awards), which the
    kiosk reads; None: beside the books (``kiosk.db.link``). A directory of the agent's own
    when the agent runs as a user of its own, who may only read the books."""


LINK_DEFAULTS = LinkConfig(Path())
LINK: dict[str, Key] = {
    "credentials": Key(
        path_text("a credentials file's path"),
        REQUIRED,
        "the cabinet's credentials file from `hub add-cabinet` (mode 0600)",
    ),
    "jackpot": Key(
        OneOf(LINK_JACKPOTS),
        LINK_DEFAULTS.jackpot,
        "'local': the cabinet's own meter; 'linked': stakes and hits go to the hub's pool",
    ),
    "batch": Key(
        Whole("a whole number of rows, 1 to 10000", 1, 10_000),
        LINK_DEFAULTS.batch,
        "the most outbox rows the link agent sends at once",
    ),
    "retry_max": Key(
        Seconds(1, 3600), LINK_DEFAULTS.retry_max, "the longest wait between attempts to reach the hub"
    ),
    "offline_after": Key(
        Seconds(1, 3600),
        LINK_DEFAULTS.offline_after,
        "seconds without contact with the hub before the linked jackpot is offline",
    ),
    "offline": Key(
        OneOf(LINK_OFFLINE),
        LINK_DEFAULTS.offline,
        "the linked jackpot offline: 'bonus', the bonus bet is closed; 'stop', no play at all",
    ),
    "agent_file": Key(
        Unset(path_text("a file's path")),
        LINK_DEFAULTS.agent_file,
        "the link agent's own file, read by the kiosk (default: beside the books, kiosk.db.link)",
    ),
}

LINK_SECTION = TomlTable(
    LINK,
    describe="a table of credentials, jackpot, batch, retry_max, offline_after, offline and agent_file",
    build=lambda v: LinkConfig(**v),
)
