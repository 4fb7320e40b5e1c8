"""The TLS settings a hub login's credentials file may carry, by libpq's names. Needs no
database driver: the command line offers them before ``psycopg`` is imported (``cli``), and
``access`` writes and reads them."""

from __future__ import annotations

TLS_KEYS = ("sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl")
SSLMODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
"""libpq's sslmode values: any other makes every connection of the login fail."""
