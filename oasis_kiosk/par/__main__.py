"""``python -m oasis_kiosk.par index DIR``: writes DIR/README.md, the index of the PAR sheets
in DIR (``make par``)."""

import sys
from pathlib import Path

from oasis_kiosk.par.index import index

if sys.argv[1:2] != ["index"] or len(sys.argv) != 3:
    sys.exit("usage: python -m oasis_kiosk.par index DIR")
(Path(sys.argv[2]) / "README.md").write_text(index(Path(sys.argv[2])), encoding="utf-8")
