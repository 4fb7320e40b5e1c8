"""A shipped profile's digest is its identity in the books: every round records the digest
of the rules it was dealt under, and replaying the round (the audit, a resume after a power
cut) refuses rules of another digest. A change to how a profile is serialised (a new field
written even when it is empty) changes every digest at once and leaves every round played
before the upgrade unreplayable. A new optional field is written only when set
(``#[serde(skip_serializing_if = ...)]``), so that these stay as they are."""

from __future__ import annotations

from oasis_kiosk import load_profile, profile_names

DIGESTS = {
    "caribbean": "6c76b08c89d7f91b",
    "czech": "ed804b59478769f7",
    "czech-buy-card": "57592e548cba0d3a",
    "czech-exchange": "c11ca8f259d47e47",
    "golden-oasis": "48b5a6e7cac9d83d",
    "russian-three-box": "9a6817413fa3afb8",
    "stand-a": "4fc8a100fc2be7da",
    "stand-b": "54f92dd5af566037",
    "stand-c": "eda4833a4c57127f",
    "standard": "5842847a03d2eae8",
}
"""The digests the books of cabinets in the field hold. A new shipped profile is added here;
an existing one changes only with its rules (a new profile id is better: the old rounds keep
theirs)."""


def test_every_shipped_profile_keeps_the_digest_its_rounds_were_recorded_under() -> None:
    digests = {name: load_profile(name).digest for name in profile_names()}
    assert digests == DIGESTS, "a digest changed: rounds recorded under it can no longer be replayed"
