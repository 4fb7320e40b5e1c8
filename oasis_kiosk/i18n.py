"""The kiosk's languages: gettext catalogues (English, Czech, Russian) and numbers and money
formatted the way each language writes them (Babel's locale data).

One language is active at a time (a cabinet has one screen); ``use()`` switches it. Strings
are marked ``_("...")`` where they are shown, or ``N_("...")`` where they are defined ahead
of time (tables of names) and translated with ``_()`` when shown. The catalogues live in
``assets/locale``: ``make translations`` extracts the strings and updates the ``.po`` files,
``make build`` compiles them.
"""

from __future__ import annotations

import copy
import gettext
from datetime import datetime
from decimal import Decimal
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel.numbers import NumberPattern, format_decimal, format_percent, parse_pattern

from oasis_kiosk.assets import ASSETS
from oasis_kiosk.errors import InputError

LANGUAGES = {"en": "English", "cs": "Čeština", "ru": "Русский"}
"""Each language by its own name, as the menu offers it."""
DOMAIN = "oasis_kiosk"
LOCALE_DIR = ASSETS / "locale"

_active = "en"
_translation: gettext.NullTranslations = gettext.NullTranslations()


def catalogue_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def use(language: str) -> None:
    """Makes ``language`` the active one; a missing compiled catalogue is an error, never a
    silent fall back to English."""
    global _active, _translation
    if language not in LANGUAGES:
        raise LookupError(f"the languages are {', '.join(LANGUAGES)}, not {language!r}")
    path = catalogue_path(language)
    if not path.is_file():
        raise LookupError(f"{path}: the {LANGUAGES[language]} catalogue is not compiled (make build)")
    with path.open("rb") as catalogue:
        _translation = gettext.GNUTranslations(catalogue)
    _active = language


def active() -> str:
    return _active


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count`` things: English has two, Czech and Russian three
    (1 karta, 2 karty, 5 karet), as each catalogue's Plural-Forms says."""
    return _translation.ngettext(singular, plural, count)


def N_(message: str) -> str:  # noqa: N802 - the name gettext tools look for
    """Marks a string for the catalogues without translating it yet."""
    return message


def number(value: int) -> str:
    return _number(value, _active)


@lru_cache(maxsize=4096)  # the chips' amounts are written every frame they move
def _number(value: int, language: str) -> str:
    return format_decimal(value, locale=language)


def bare_amount(amount: int, minor_units: int) -> str:
    """An amount without its currency, as a casino's chip writes it (the meters name the
    currency): ``1200`` cents -> ``12``, ``60`` -> ``0.60`` (en) or ``0,60`` (cs). Exact."""
    places = len(str(minor_units)) - 1
    if amount % minor_units == 0:
        return number(amount // minor_units)
    shown: str = format_decimal(
        Decimal(amount).scaleb(-places), format="#,##0." + "0" * places, locale=_active
    )
    return shown


def decimal(value: float) -> str:
    """``3.2`` -> ``3.2`` (en), ``3,2`` (cs, ru): a reading, to at most three places."""
    shown: str = format_decimal(value, format="#,##0.###", locale=_active)
    return shown


def percent(fraction: float) -> str:
    """``0.9478`` -> ``94.78 %`` (en), ``94,78 %`` (cs): a return, to two places."""
    shown: str = format_percent(fraction, format="#,##0.00\u00a0%", locale=_active)
    return shown


def local_time(at: str) -> str:
    """A time the books keep (ISO 8601, in UTC) as the cabinet's clock reads it, to the
    second: ``2026-12-02 11:20:14``."""
    return datetime.fromisoformat(at).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def money(amount: int, currency: str, minor_units: int) -> str:
    """``1234`` EUR cents -> ``€12.34`` (en) or ``12,34 €`` (cs). Exact: the amount goes to
    Babel as a Decimal shifted by the minor units' places, shown with exactly those places."""
    return _money(amount, currency, minor_units, _active, with_code=False)


def money_with_currency_code(amount: int, currency: str, minor_units: int) -> str:
    """``1234`` EUR cents -> ``12.34 EUR`` whatever the active language: money as the PAR
    sheets and the operator's and the command line's messages write it, in English with the
    currency's ISO code. Exact, as ``money``."""
    return _money(amount, currency, minor_units, "en", with_code=True)


CURRENCY_CODE_PATTERN = "#,##0 ¤¤"
"""An amount, then its currency's ISO code (``¤¤``); the decimals are the minor units'."""


def _money(amount: int, currency: str, minor_units: int, language: str, *, with_code: bool) -> str:
    places = len(str(minor_units)) - 1
    if minor_units != 10**places:
        raise InputError(f"minor units per major unit must be a power of ten, not {minor_units}")
    digits = str(abs(amount)).rjust(places + 1, "0")
    pieces = _money_pieces(len(digits), amount < 0, currency, places, language, with_code)
    if pieces is None:
        return _babel_money(amount, currency, places, language, with_code)
    return "".join(piece + digit for piece, digit in zip(pieces, digits, strict=False)) + pieces[-1]


# A meter counting up formats a new amount every frame, and Babel's formatting costs more than
# the frame's drawing: the language writes every amount of the same number of digits and sign
# alike, so Babel writes one amount of all eights per length and sign, and each amount is its
# digits put in the eights' places.
@cache
def _money_pieces(
    length: int, negative: bool, currency: str, places: int, language: str, with_code: bool
) -> list[str] | None:
    """The text round an amount's ``length`` digits, or None where the currency's own sign
    holds an eight (Babel then writes each amount)."""
    eights = int("8" * length) * (-1 if negative else 1)
    pieces = _babel_money(eights, currency, places, language, with_code).split("8")
    return pieces if len(pieces) == length + 1 else None


def _babel_money(amount: int, currency: str, places: int, language: str, with_code: bool) -> str:
    shown: str = _currency_pattern(language, places, with_code).apply(
        Decimal(amount).scaleb(-places), _locale(language), currency=currency, currency_digits=False
    )
    return shown


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


@cache
def _currency_pattern(language: str, places: int, with_code: bool) -> NumberPattern:
    """The language's currency pattern, or the amount then the ISO code, with exactly
    ``places`` decimals: never rounding."""
    pattern: NumberPattern = (
        parse_pattern(CURRENCY_CODE_PATTERN)
        if with_code
        else copy.copy(_locale(language).currency_formats["standard"])
    )
    pattern.frac_prec = (places, places)
    return pattern


def _english(path: str) -> None:
    """English is the language of the code: its catalogue translates each string to itself,
    so that it, too, holds every string (``make translations``)."""
    from babel.messages.pofile import read_po, write_po

    with open(path, "rb") as source:
        catalogue = read_po(source, locale="en")
    catalogue.fuzzy = False
    for message in catalogue:
        if isinstance(message.id, tuple) and isinstance(message.string, tuple) and not any(message.string):
            message.string = message.id  # the singular and the plural
        elif message.id and not message.string:
            message.string = message.id
    with open(path, "wb") as target:
        write_po(target, catalogue, no_location=True, sort_output=True)


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] != ["english"] or len(sys.argv) != 3:
        sys.exit("usage: python -m oasis_kiosk.i18n english PATH.po")
    _english(sys.argv[2])
