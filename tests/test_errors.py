"""Every refusal of the kiosk is an OasisError, raised under its own name, with the built-in
base a caller may already catch (ValueError for bad input, OSError for the random source)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

import oasis_kiosk
from oasis_kiosk import (
    AnalysisError,
    BetError,
    CardError,
    EntropyError,
    IllegalAction,
    OasisError,
    ProfileError,
    RecordError,
    Round,
    ShoeError,
    SimulationError,
    evaluate,
    exact_analysis,
    load_profile,
    simulate,
)
from oasis_kiosk.config import ConfigError, load_config
from oasis_kiosk.hardware.script import ScriptError, parse


def test_every_exception_the_package_exports_is_an_oasis_error() -> None:
    exported = [
        value
        for name in oasis_kiosk.__all__
        if isinstance(value := getattr(oasis_kiosk, name), type) and issubclass(value, BaseException)
    ]
    assert len(exported) == 10
    assert all(issubclass(error, OasisError) for error in exported)
    values = {CardError, ShoeError, ProfileError, BetError, RecordError, AnalysisError, SimulationError}
    assert all(issubclass(error, ValueError) for error in values)
    assert issubclass(EntropyError, OSError)
    assert not issubclass(IllegalAction, ValueError), "an illegal action is not bad input"
    assert all(error.__module__ == "oasis_kiosk._core" and error.__doc__ for error in exported)


def _settled_round() -> Round:
    round_ = Round("caribbean", 1000, seed=bytes(32))
    round_.fold()
    return round_


REFUSALS: list[tuple[type[OasisError], Callable[[], object], str]] = [
    (CardError, lambda: evaluate("As As Kd Qc Jh"), "appears twice"),
    (ShoeError, lambda: oasis_kiosk.Shoe(b"short"), "32 bytes"),
    (ProfileError, lambda: load_profile("standard").from_toml("id = 1", "bad.toml"), "bad.toml"),
    (ProfileError, lambda: load_profile("standard").from_toml("", "x.toml", {"nope": 1}), "x.toml"),
    (BetError, lambda: Round("caribbean", 3), "not allowed"),
    (BetError, lambda: load_profile("caribbean").prices(3), "does not allow an ante of 3"),
    (IllegalAction, lambda: _settled_round().play(), "settled"),
    (RecordError, lambda: Round.replay(load_profile("caribbean"), "{}"), "not a round record"),
    (AnalysisError, lambda: exact_analysis("standard"), "standard"),
    (SimulationError, lambda: simulate("standard", 0), "at least one round"),
    (SimulationError, lambda: simulate("standard", 10, ante=3), "ante"),
    (
        AnalysisError,
        lambda: exact_analysis("caribbean", play=cast(Any, "nope")),
        'play: "nope" is not one of',
    ),
    (SimulationError, lambda: simulate("standard", 10, play=cast(Any, "nope")), 'play: "nope" is not one of'),
    (CardError, lambda: oasis_kiosk.HandValue(99_999), "0..7461"),
]


@pytest.mark.parametrize(("error", "action", "words"), REFUSALS)
def test_each_refusal_of_the_core_raises_its_own_class(
    error: type[OasisError], action: Callable[[], object], words: str
) -> None:
    with pytest.raises(error, match=words) as raised:
        action()
    assert isinstance(raised.value, OasisError)


def test_the_kiosks_own_refusals_are_oasis_errors(tmp_path: Path) -> None:
    bad = tmp_path / "kiosk.toml"
    bad.write_text("[rules]\nprofile = 'no-such-house'\n")
    with pytest.raises(ConfigError) as config:
        load_config(bad)
    with pytest.raises(ScriptError) as script:
        parse("jump over the moon")
    for raised in (config.value, script.value):
        assert isinstance(raised, OasisError)
        assert isinstance(raised, ValueError)


SIGNALS = {"oasis_kiosk.ui.scenes.operator.settings.CancelledError"}
"""Exceptions that carry no refusal: a worker told to stop (the operator left the page)."""


def test_every_exception_class_the_package_defines_is_an_oasis_error() -> None:
    """A new exception anywhere in the package (a device's, the hub's, the link's) derives
    from OasisError, so that one ``except OasisError`` catches every refusal of the kiosk."""
    import importlib
    import inspect
    import pkgutil

    defined = {}
    for module_info in pkgutil.walk_packages(oasis_kiosk.__path__, "oasis_kiosk."):
        if module_info.name.endswith("__main__"):
            continue  # running it is the command line
        module = importlib.import_module(module_info.name)
        for name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == module.__name__:
                defined[f"{module.__name__}.{name}"] = value
    assert len(defined) > 10, "the walk found the package's exceptions"
    assert set(SIGNALS) <= set(defined), "a signal named here is still defined"
    outside = sorted(name for name, error in defined.items() if not issubclass(error, OasisError))
    assert set(outside) == SIGNALS, "exceptions that are not OasisErrors"


def _bad_input() -> list[tuple[type[ValueError], Callable[[], object]]]:
    from oasis_kiosk import i18n
    from oasis_kiosk.config import PulseTiming
    from oasis_kiosk.errors import InputError
    from oasis_kiosk.hardware.essp import EsspValidator
    from oasis_kiosk.hardware.hopper import Hopper
    from oasis_kiosk.hardware.money import Paid
    from oasis_kiosk.hardware.panel import Panel
    from oasis_kiosk.hardware.pulses import PulseDecoder
    from oasis_kiosk.machine.betting import Bets
    from oasis_kiosk.ui.layout import layout

    return [
        (InputError, lambda: Bets.from_state({"ante": 100})),
        (InputError, lambda: Paid(0)),
        (InputError, lambda: i18n.money(100, "EUR", 3)),
        (InputError, lambda: layout(10, 10, 1)),
        (ConfigError, lambda: PulseTiming(pulse_min_ms=0)),
        (ConfigError, lambda: PulseDecoder({})),
        (ConfigError, lambda: EsspValidator(cast(Any, None), {})),
        (ConfigError, lambda: Panel({"no_such_button": 5}, {})),
        (ConfigError, lambda: Hopper(5, 6, coin=0)),
    ]


def test_bad_input_to_the_kiosks_own_code_is_an_oasis_error_and_still_a_value_error() -> None:
    """Configuration that cannot drive a device, a device's report that is no money, stored
    bets that are not bets: each is refused under OasisError, as a ValueError as before."""
    for error, action in _bad_input():
        with pytest.raises(error) as raised:
            action()
        assert isinstance(raised.value, OasisError)
        assert isinstance(raised.value, ValueError)


def test_no_module_raises_a_bare_value_error() -> None:
    """Bad input is refused with a class of the kiosk's (``errors.InputError``, ``ConfigError``
    or one of its own), never a ValueError that ``except OasisError`` would miss."""
    package = Path(oasis_kiosk.__file__).parent
    bare = [
        f"{path.relative_to(package)}:{number}"
        for path in sorted(package.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "raise ValueError" in line
    ]
    assert bare == []
