"""The rule profiles shipped with the kiosk (``oasis_kiosk/profiles/*.toml``) and loading them.

A profile is validated by the Rust core when it loads; an operator derives a house variant
by passing TOML overrides, merged over the profile before validation.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from oasis_kiosk._core import Profile, ProfileError

PROFILES = resources.files("oasis_kiosk") / "profiles"


def profile_names() -> list[str]:
    """The ids of the shipped profiles, sorted."""
    return sorted(
        entry.name.removesuffix(".toml") for entry in PROFILES.iterdir() if entry.name.endswith(".toml")
    )


def has_jackpot(rules: Mapping[str, Any]) -> bool:
    """The profile's bonus wins a progressive jackpot (``rules``: ``Profile.to_dict()``)."""
    bonus = rules.get("bonus")
    return bool(bonus and bonus.get("jackpot"))


def load_profile(name_or_path: str | Path, overrides: str | Mapping[str, Any] | None = None) -> Profile:
    """Loads a shipped profile by id (``"standard"``) or a profile file by path.

    ``overrides`` (TOML text, or a table read from a configuration file) is merged over the
    profile before validation. Raises ProfileError naming the file, the field and the reason.
    """
    path = Path(name_or_path)
    if path.suffix == ".toml" or len(path.parts) > 1:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise ProfileError(f"{path}: cannot be read: {error.strerror}") from None
        return Profile.from_toml(text, str(path), overrides)
    name = str(name_or_path)
    if name not in profile_names():
        raise ProfileError(f"no profile {name!r}: the shipped profiles are {', '.join(profile_names())}")
    text = (PROFILES / f"{name}.toml").read_text(encoding="utf-8")
    return Profile.from_toml(text, f"{name}.toml", overrides)
