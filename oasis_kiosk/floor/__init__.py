"""A floor of cabinets (docs/floor.md): the hub on PostgreSQL that receives every cabinet's
events and keeps the linked jackpot.

- ``migrate``: the hub's schema by numbered migrations (``migrations/NNNN_name.sql``);
- ``access``: the hub's roles, the cabinets' and dashboards' logins and their credentials
  files, and connecting with them;
- ``hub``: what a cabinet does at the hub (send its events, claim the jackpot) and what the
  owner does to the pool (its parameters);
- ``tls``: the TLS settings of a login, by libpq's names;
- ``cli``: ``oasis-kiosk hub …``.

Nothing here touches the screen or the cabinet's devices, and importing this package needs
no database driver: ``psycopg`` (the ``floor`` extra) is imported by the modules that talk
to the hub.
"""
