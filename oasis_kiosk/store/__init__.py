"""Persistence: the SQLite database of the ledger, meters, rounds and events."""
