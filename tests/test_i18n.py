"""Every string the kiosk shows is in all three catalogues, translated, with the same
placeholders; the compiled catalogues are the ones in use; money and numbers follow the
language."""

from __future__ import annotations

import copy
import gettext
import re
import string
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from oasis_kiosk import i18n
from oasis_kiosk.machine.intents import BUTTON_LABELS, intent_name
from oasis_kiosk.machine.meters import METERS

PACKAGE = Path(i18n.__file__).parent
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")


def shown_strings() -> set[str | tuple[str, ...]]:
    """What `make translations` extracts from the package: a message, or the singular and
    plural of one that has forms for a count."""
    found: set[str | tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        found.add(message)
    return found


def fields(text: str) -> set[str]:
    return {name for _literal, name, _spec, _conversion in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_every_shown_string_is_translated_with_its_placeholders(language: str) -> None:
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as source:
        catalogue = read_po(source, locale=language)
    messages = {message.id: message for message in catalogue if message.id}
    shown = shown_strings()
    assert len(shown) > 100
    missing = sorted(shown - set(messages))
    assert not missing, f"{language}: not in the catalogue (make translations): {missing[:5]}"
    untranslated = [text for text in shown if messages[text].fuzzy or not all(forms(messages[text].string))]
    assert not untranslated, f"{language}: not translated: {untranslated[:5]}"
    plurals = [text for text in shown if isinstance(text, tuple)]
    assert plurals, "a count's messages have their forms"
    for text in shown:
        translated = forms(messages[text].string)
        assert len(translated) == (catalogue.num_plurals if isinstance(text, tuple) else 1), text
        assert all(fields(form) == fields(forms(text)[-1]) for form in translated), (
            f"{language}: placeholders of {text!r}"
        )
    i18n.use(language)
    form_for = gettext.c2py(catalogue.plural_expr)
    for text in shown:
        if isinstance(text, tuple):
            for count in (0, 1, 2, 5, 21, 101):
                singular, plural = text
                assert i18n.ngettext(singular, plural, count) == forms(messages[text].string)[form_for(count)]
        else:
            assert i18n._(text) == messages[text].string, f"{language}: the compiled catalogue is stale"


def forms(message: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A message's text, or its forms for a count."""
    return (message,) if isinstance(message, str) else tuple(message or ())


def test_the_languages_differ_where_they_should() -> None:
    i18n.use("cs")
    czech = i18n._("Insert coins or notes to play.")
    i18n.use("ru")
    russian = i18n._("Insert coins or notes to play.")
    assert len({czech, russian, "Insert coins or notes to play."}) == 3


@pytest.mark.parametrize(
    ("language", "house_term"),
    [("ru", "ТАБЛИЦА ВЫИГРЫШЕЙ"), ("cs", "TABULKA VÝHER")],
)
def test_the_paytable_is_named_in_the_houses_term_and_not_like_a_button(
    language: str, house_term: str
) -> None:
    """Seed 003 pays the play bet "по таблице выигрышей"; a heading that reads like CASH OUT
    (ВЫПЛАТА) or any other button misleads the player."""
    i18n.use(language)
    try:
        heading = i18n._("PAYTABLE (play bet)")
        labels = {i18n._(label) for label in BUTTON_LABELS.values()}
    finally:
        i18n.use("en")
    assert heading.startswith(house_term), heading
    stems = {label.split()[0][:5] for label in labels}
    assert heading.split()[0][:5] not in stems, (heading, labels)


def test_the_russian_play_bet_is_the_houses_bet_and_a_button_is_not_put_after_a_preposition() -> None:
    """Seed 003 calls the play bet "ставка бет": every Russian sentence that names it says so,
    never the English PLAY beside the table's Russian."""
    path = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as source:
        catalogue = read_po(source, locale="ru")
    naming = [message for message in catalogue if message.id and "play bet" in str(message.id)]
    assert naming
    english = [message.string for message in naming if "PLAY" in str(message.string)]
    assert not english, english
    assert all("бет" in str(message.string) for message in naming), [m.string for m in naming]
    # A button's name is a verb (СДАТЬ): "для СДАТЬ" is not Russian; the name leads instead.
    after_for = [message.string for message in catalogue if "Для {" in str(message.string)]
    assert not after_for, after_for


def test_the_czech_screen_calls_the_dealer_krupier_as_the_house_does() -> None:
    """Seed 000 says krupiér; the screen had said DEALER in its labels and captions."""
    path = i18n.LOCALE_DIR / "cs" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as source:
        catalogue = read_po(source, locale="cs")
    english = [str(message.string) for message in catalogue if "dealer" in str(message.string).lower()]
    assert not english, english


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_a_sentence_led_by_a_buttons_name_sets_it_apart_so_nothing_agrees_with_its_gender(
    language: str,
) -> None:
    """A button's name (СТРАХОВКА, VÝMĚNA, СДАТЬ) has a gender of its own, or none: "СТРАХОВКА
    сейчас невозможно" was wrong. A sentence it leads sets it apart with a colon, or goes on
    with a verb of no gender or the value it names."""
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as source:
        catalogue = read_po(source, locale=language)
    led = [str(message.string) for message in catalogue if str(message.string).startswith("{intent}")]
    assert led
    agreeing = [
        sentence
        for sentence in led
        if not sentence.startswith(("{intent}:", "{intent} {value}:", "{intent} potřebuje"))
    ]
    assert not agreeing, agreeing


def test_money_and_numbers_follow_the_language() -> None:
    i18n.use("en")
    assert i18n.money(1_234_567, "EUR", 100) == "€12,345.67"
    assert i18n.money(-5, "EUR", 100) == "-€0.05"
    assert i18n.number(1234567) == "1,234,567"
    i18n.use("cs")
    assert i18n.money(1_234_567, "CZK", 100) == "12\xa0345,67\xa0Kč"
    i18n.use("ru")
    assert i18n.money(1_234_567, "RUB", 100).startswith("12\xa0345,67")
    assert i18n.money(250, "EUR", 1) == "250\xa0€"
    assert i18n.money(-5, "CZK", 1000) == "-0,005\xa0CZK"


def test_money_with_its_currency_code_is_english_in_every_language() -> None:
    """As the PAR sheets and the operator's messages write it."""
    i18n.use("cs")
    assert i18n.money_with_currency_code(20_000_000, "RUB", 100) == "200,000.00 RUB"
    assert i18n.money_with_currency_code(-5, "EUR", 100) == "-0.05 EUR"
    assert i18n.money_with_currency_code(250, "CZK", 1) == "250 CZK"
    assert i18n.money_with_currency_code(10**12 + 1, "EUR", 100) == "10,000,000,000.01 EUR"
    with pytest.raises(ValueError, match="power of ten"):
        i18n.money_with_currency_code(1, "EUR", 12)
    assert i18n.money(500, "EUR", 100) == "5,00\xa0€", "the language's own format is untouched"


def test_a_chip_writes_its_amount_without_the_currency_in_the_languages_digits() -> None:
    """A chip's words must fit a small chip: whole units bare, others to the minor unit."""
    i18n.use("en")
    assert i18n.bare_amount(1200, 100) == "12"
    assert i18n.bare_amount(60, 100) == "0.60"
    assert i18n.bare_amount(10**12 + 1, 100) == "10,000,000,000.01"
    i18n.use("cs")
    assert i18n.bare_amount(123_456, 100) == "1\xa0234,56"
    assert i18n.bare_amount(5, 1000) == "0,005"
    assert i18n.bare_amount(250, 1) == "250"


def test_an_amount_is_never_rounded() -> None:
    i18n.use("en")
    assert i18n.money(10**12 + 1, "EUR", 100) == "€10,000,000,000.01"
    assert i18n.money(1234, "EUR", 1000) == "€1.234"
    with pytest.raises(ValueError, match="power of ten"):
        i18n.money(1, "EUR", 12)


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_money_is_written_as_babel_writes_it_at_every_length_and_sign(language: str) -> None:
    """The meters format a new amount every frame, from a kept pattern per number of digits:
    each amount reads exactly as Babel's own formatting of it."""
    amounts = [0, 1, 9, 10, 99, 100, 999, 1000, 1005, 99_999, 100_000, 123_456_789, 10**15 + 7]
    amounts += [-amount for amount in amounts if amount]
    locale = Locale.parse(language)
    for currency, minor_units in (("EUR", 100), ("CZK", 100), ("RUB", 100), ("JPY", 1), ("CZK", 1000)):
        places = len(str(minor_units)) - 1
        pattern = copy.copy(locale.currency_formats["standard"])
        pattern.frac_prec = (places, places)
        for amount in amounts:
            expected = pattern.apply(
                Decimal(amount).scaleb(-places), locale, currency=currency, currency_digits=False
            )
            i18n.use(language)
            try:
                assert i18n.money(amount, currency, minor_units) == expected, (amount, currency)
            finally:
                i18n.use("en")


def test_an_unknown_or_uncompiled_language_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(LookupError, match="not 'de'"):
        i18n.use("de")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    with pytest.raises(LookupError, match="not compiled"):
        i18n.use("cs")
    assert i18n.active() == "en", "a failed switch changes nothing"


def test_no_shown_string_hides_where_extraction_cannot_see_it() -> None:
    """Babel does not look inside f-strings: a literal in ``_()`` there would never be
    extracted, so never translated."""
    import re

    hidden = re.compile(r"""\bf(["'])(?:(?!\1).)*\{[^}]*\b_\(\s*["']""")
    found = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in PACKAGE.rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if hidden.search(line)
    ]
    assert not found, f"a string to translate inside an f-string: {found}"


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_every_tilt_tells_the_player_what_it_is_in_the_players_language_and_nothing_in_english(
    language: str,
) -> None:
    """Each tilt's panel says its meaning, translated; the terminal's own detail (in English,
    written for the attendant and the log) follows only on an English screen, where it says
    more: a Czech panel had read "(the hopper stopped with coins still owed: 3)"."""
    from oasis_kiosk.machine.tilts import TILTS
    from oasis_kiosk.ui.prompt import tilt_reason

    english_detail = "the hopper stopped with coins still owed: 3"
    for kind, tilt in TILTS.items():
        i18n.use("en")
        in_english = tilt_reason(kind, english_detail)
        assert in_english.startswith(tilt.label), f"{kind}: {in_english}"
        assert (english_detail in in_english) is tilt.detail_shown, f"{kind}: {in_english}"
        i18n.use(language)
        said = tilt_reason(kind, english_detail)
        assert said == i18n._(tilt.label) != tilt.label, f"{kind}: {said}"


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_a_press_refused_while_tilted_names_no_tilt_by_its_kind_on_the_screen(
    tmp_path: Path, language: str
) -> None:
    """The screen's refusal says the terminal is out of order in the player's words; the
    tilts' kinds (``hopper_empty``) are the log's."""
    from support import books

    from oasis_kiosk.config import Config
    from oasis_kiosk.machine.intents import Intent
    from oasis_kiosk.machine.terminal import Terminal
    from oasis_kiosk.machine.tilts import TiltKind
    from oasis_kiosk.ui import view

    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database), books(database))
    with terminal.store.transaction():
        terminal._tilt(TiltKind.HOPPER_EMPTY, "the hopper stopped with coins still owed: 3")
    refused = terminal.handle(Intent.DEAL)
    assert "hopper_empty" in refused.message, "the log names the tilt"
    i18n.use(language)
    shown = refused.text(view.cash_for(terminal), intent_name)
    assert "hopper_empty" not in shown
    assert "(" not in shown


def test_the_russian_catalogue_leaves_no_english_word_but_names_and_keys() -> None:
    """Russian is written in Cyrillic: a Latin word in it is English left behind (the meters
    had read «Поставлено (coin in)»), except the game's name, the keys and the command the
    operator types."""
    allowed = {
        "EN",
        "CS",
        "RU",
        "ENTER",
        "OK",
        "PIN",
        "Oasis",
        "Stud",
        "Poker",
        "oasis",
        "kiosk",
        "set",
        "pin",
    }
    with (PACKAGE.parent / "assets/locale/ru/LC_MESSAGES/oasis_kiosk.po").open("rb") as catalogue:
        messages = [message for message in read_po(catalogue) if message.id]
    left = {
        word
        for message in messages
        for translated in forms(message.string)
        for word in re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", "", translated))
    } - allowed
    assert not left, left


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_a_meter_qualified_in_english_is_qualified_in_every_language(language: str) -> None:
    """ "Won (coin out)" had been given its qualifier ("Vyplaceno hráči (vč. sázek)") and
    "Played (coin in)" was still a bare "Vsazeno"/"Поставлено": the two read as a pair."""
    i18n.use(language)
    bare = [
        (meter.label, i18n._(meter.label))
        for meter in METERS.values()
        if "(" in meter.label and "(" not in i18n._(meter.label)
    ]
    assert not bare, bare


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_the_insurance_prompt_names_both_its_buttons(language: str) -> None:
    """The Czech prompt paired a noun ("Pojištění 30,00 €") with a button's verb ("nebo
    ODMÍTNOUT"): it names INSURE as the other prompts name their buttons."""
    i18n.use(language)
    said = i18n._("INSURE {amount} (BET changes it) against a dealer who does not qualify, or DECLINE.")
    for intent in ("insure", "decline", "bet"):
        assert intent_name(intent) in said, (intent_name(intent), said)
