"""``python -m oasis_kiosk`` runs the ``oasis-kiosk`` command."""

import sys

from oasis_kiosk.cli import main

sys.exit(main())
