"""``oasis-kiosk par``: the return of a rule profile, for the operator and the regulator.

The exact analysis (``oasis_kiosk.exact_analysis``, Rust) counts every deal of a profile whose
only decision is to play or fold and plays each hand optimally; profiles with exchanges or
purchases are simulated instead (``oasis_kiosk.simulate``, ``--rounds N``). This package
prints either's figures, writes them as JSON and as a Markdown PAR sheet with the chart of the
distribution of a round's net, and indexes a folder of sheets:

- ``words``: the names, antes, percents and money both kinds of sheet write;
- ``figures``: the return at each ante a sheet gives, for the other ways of betting a box,
  and the side bet's bound (the books compute the same: ``oasis_kiosk.returns``);
- ``sheet``: the sections both kinds share, and the writing of a sheet with its JSON and chart;
- ``exact`` and ``simulated``: each kind's report, as text and as a sheet;
- ``chart``: the chart of the distribution, drawn with pygame;
- ``command``: the ``par`` command itself;
- ``index``: the index of a folder of sheets (``python -m oasis_kiosk.par index DIR``).
"""

from oasis_kiosk.par.command import DEFAULT_ROUNDS, ProgressLine, run
from oasis_kiosk.par.figures import (
    BoxPlay,
    by_ante,
    figures_at,
    other_bet,
    other_plays,
    side_bound,
    table_antes,
)
from oasis_kiosk.par.words import money, play_words

__all__ = [
    "DEFAULT_ROUNDS",
    "BoxPlay",
    "ProgressLine",
    "by_ante",
    "figures_at",
    "money",
    "other_bet",
    "other_plays",
    "play_words",
    "run",
    "side_bound",
    "table_antes",
]
