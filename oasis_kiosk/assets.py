"""Where the kiosk's fonts, sounds and language catalogues are: ``assets/`` beside the
package in the checkout the kiosk runs from (``make build`` installs the package from it in
place), or the folder ``OASIS_KIOSK_ASSETS`` names."""

from __future__ import annotations

import os
from pathlib import Path

ASSETS = Path(os.environ.get("OASIS_KIOSK_ASSETS") or Path(__file__).resolve().parent.parent / "assets")
