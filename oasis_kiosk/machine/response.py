"""What an input did: the terminal's reply to it, in the log's English and the screen's
language. Its own module so that the parts of the terminal (``machine/betting.py``) answer a
press as the terminal does without importing it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from oasis_kiosk.i18n import _
from oasis_kiosk.machine.intents import Intent


class Amount(int):
    """An amount of money among a response's details: shown in the currency."""


@dataclass(frozen=True)
class Response:
    """What an intent did: ``ok`` False means it was not live and nothing changed. The
    message is a template (the catalogues' key) with its details: ``message`` is the English
    for the log, ``text()`` the active language for the screen."""

    ok: bool
    template: str
    details: Mapping[str, Any] = field(default_factory=dict)
    reason: str = ""
    """Why, in the core's own words (the log's: the screen says what is possible instead)."""
    notice: bool = False
    """Done, and the screen says so (a handpay paid): most done presses show for themselves."""

    @property
    def message(self) -> str:
        said = self.template.format_map(self.details) if self.details else self.template
        return f"{said}: {self.reason}" if self.reason else said

    def text(self, cash: Callable[[int], str], button: Callable[[str], str] = str) -> str:
        """In the active language: amounts in ``cash``, intents by their ``button`` name."""
        details = {
            key: cash(value)
            if isinstance(value, Amount)
            else button(value)
            if isinstance(value, Intent)
            else value
            for key, value in self.details.items()
        }
        translated = _(self.template)
        return translated.format_map(details) if details else translated

    def logged(self) -> dict[str, Any]:
        """Its words as the event log keeps them, to be said again in any language
        (``from_logged``): the template, the details, which are amounts and intents, and the
        core's reason."""
        return {
            "template": self.template,
            "reason": self.reason,
            "details": dict(self.details),
            "amounts": sorted(key for key, value in self.details.items() if isinstance(value, Amount)),
            "intents": sorted(key for key, value in self.details.items() if isinstance(value, Intent)),
        }

    @classmethod
    def from_logged(cls, logged: Mapping[str, Any]) -> Response:
        """A refusal's words as ``logged`` kept them; an intent no longer known is kept as
        its name (an entry of an earlier release kept no reason)."""
        details = dict(logged["details"])
        for key in logged["amounts"]:
            details[key] = Amount(details[key])
        for key in logged["intents"]:
            if details[key] in set(Intent):
                details[key] = Intent(details[key])
        return cls(False, logged["template"], details, str(logged.get("reason", "")))
