"""Every wrong configuration file, script and stored setting gives one clear line naming
the file, the key (or line, or stored setting) and the reason, exits with code 2 and
changes nothing; every good one loads as before."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path

import pytest
from support import books

from oasis_kiosk.cli import main
from oasis_kiosk.config import SCHEMA, Config, ConfigError, PulseTiming, load_config
from oasis_kiosk.machine.terminal import Terminal

COIN = "pulse = 17, inhibit = 27, pulses = { 1 = 50, 2 = 100 }"

# (configuration text, the key named, a piece of the reason)
BAD_FILES: list[tuple[str, str, str]] = [
    # wrong types
    ("[terminal]\ncredit_limit = '100'", "terminal.credit_limit", "not '100'"),
    ("[terminal]\ncredit_limit = 1000.0", "terminal.credit_limit", "not 1000.0"),
    ("[terminal]\ncredit_limit = true", "terminal.credit_limit", "not True"),
    ("[money]\ncoins = [50, 100.5]", "money.coins", "not [50, 100.5]"),
    ("[money]\ncoins = 50", "money.coins", "a list of amounts"),
    ("[money]\nhopper_coin = true", "money.hopper_coin", "not True"),
    ("[money]\nhandpay_limit = 2.5", "money.handpay_limit", "not 2.5"),
    ("[terminal]\nvolume = 2.5", "terminal.volume", "0 to 10, not 2.5"),
    ("[terminal]\nvolume = true", "terminal.volume", "not True"),
    ("[terminal]\nattract_volume = 2.5", "terminal.attract_volume", "0 to 10, not 2.5"),
    ("[terminal]\nattract_volume = true", "terminal.attract_volume", "not True"),
    ("[terminal]\nattract_after = '60'", "terminal.attract_after", "not '60'"),
    ("[terminal]\ndatabase = 5", "terminal.database", "a file path, not 5"),
    ("[terminal]\ndatabase = ''", "terminal.database", "a file path, not ''"),
    ('[terminal]\ndatabase = "kiosk\\u0000.db"', "terminal.database", "a file path, not 'kiosk\\x00.db'"),
    ("[terminal]\nprofile = 5", "terminal.profile", "not 5"),
    ("[terminal]\ncashout = 1", "terminal.cashout", "'handpay' or 'hopper', not 1"),
    ("terminal = 5", "terminal", "a table of keys, not 5"),
    ("profile_overrides = 5", "profile_overrides", "a table of profile fields, not 5"),
    (
        "[devices]\nbuttons = 5",
        "devices.buttons",
        "a table of button = pin, such as { deal = 5, play = 6 }, not 5",
    ),
    ("[devices]\nbuttons = { deal = '5' }", "devices.buttons.deal", "a BCM pin number 0 to 53, not '5'"),
    ("[devices]\ncoin_acceptor = 17", "devices.coin_acceptor", "a table of keys, not 17"),
    (
        "[devices]\nhopper = { motor = 1, exit = 2, timeout = true }",
        "devices.hopper.timeout",
        "0.1 to 30 seconds, not True",
    ),
    ("[devices]\npower_fail = 'GPIO26'", "devices.power_fail", "a BCM pin number 0 to 53, not 'GPIO26'"),
    (f"[devices]\ncoin_acceptor = {{ {COIN}, quiet_ms = 250.5 }}", "devices.coin_acceptor.quiet_ms", "250.5"),
    (f"[devices]\ncoin_acceptor = {{ {COIN}, dropout_ms = '5' }}", "devices.coin_acceptor.dropout_ms", "'5'"),
    # pins out of range, missing or shared
    ("[devices]\nlamps = { deal = 54 }", "devices.lamps.deal", "a BCM pin number 0 to 53, not 54"),
    ("[devices]\nbuttons = { deal = -1 }", "devices.buttons.deal", "not -1"),
    (
        "[devices]\ncoin_acceptor = { inhibit = 27, pulses = { 1 = 50 } }",
        "devices.coin_acceptor.pulse",
        "missing",
    ),
    (
        "[devices]\nbuttons = { deal = 17 }\ncoin_acceptor = { " + COIN + " }",
        "devices.coin_acceptor.pulse",
        "pin 17 is already buttons.deal",
    ),
    (
        "[devices]\ncoin_acceptor = { pulse = 17, inhibit = 17, pulses = { 1 = 50 } }",
        "devices.coin_acceptor.inhibit",
        "pin 17 is already coin_acceptor.pulse",
    ),
    # unknown sections and keys, at every depth
    ("[sound]\nvolume = 3", "[sound]", "unknown section"),
    ("database = '/tmp/kiosk.db'", "database is not in a section", "known: terminal"),
    ("[terminal]\ncolour = 1", "terminal.colour", "unknown key"),
    ("[money]\ncredit_limit = 1", "money.credit_limit", "unknown key"),
    (
        "[devices.coin_acceptor]\npulse = 17\ninhibit = 27\npulses = { 1 = 50 }\ncolour = 1",
        "devices.coin_acceptor.colour",
        "(known: protocol, pulse, inhibit, pulses, ",
    ),
    (
        f"[devices]\ncoin_acceptor = {{ {COIN}, protocol = 'smoke-signals' }}",
        "devices.coin_acceptor.protocol",
        "'pulse', not 'smoke-signals'",
    ),
    ("[devices]\nhopper = { motor = 1, exit = 2, speed = 3 }", "devices.hopper.speed", "unknown key"),
    (
        "[devices]\nhopper = { motor = 1, exit = 2, exit_min_ms = 40, exit_max_ms = 40 }",
        "devices.hopper.exit_max_ms",
        "40 is not above devices.hopper.exit_min_ms 40",
    ),
    ("[devices]\nhopper = { motor = 1, exit = 2, exit_min_ms = 0 }", "devices.hopper.exit_min_ms", "not 0"),
    ("[devices]\npower_fail = { pin = 25, edge = 'low' }", "devices.power_fail.edge", "unknown key"),
    (
        "[devices]\nbill_validator = { protocol = 'essp', port = '/dev/ttyUSB0', channels = { 1 = 500 }, "
        "pulse = 5 }",
        "devices.bill_validator.pulse",
        "unknown key",
    ),
    ("[devices]\nbuttons = { jackpot = 5 }", "devices.buttons", "no such button: jackpot"),
    # zero, negative or absent amounts
    ("[terminal]\ncredit_limit = 0", "terminal.credit_limit", "more than 0"),
    ("[money]\ncoins = [0, 100]", "money.coins", "not [0, 100]"),
    ("[money]\nbills = [-500]", "money.bills", "not [-500]"),
    ("[money]\ncoins = []", "money.coins", "not []"),
    ("[money]\nhopper_coin = 0", "money.hopper_coin", "more than 0"),
    ("[money]\nhandpay_limit = 0", "money.handpay_limit", "more than 0"),
    ("[money]\nhandpay_limit = -1000", "money.handpay_limit", "not -1000"),
    ("[jackpot]\nbase = 0", "jackpot.base", "more than 0"),
    ("[jackpot]\nmaximum = 0", "jackpot.maximum", "more than 0"),
    ("[jackpot]\nmaximum = -5", "jackpot.maximum", "not -5"),
    ("[jackpot]\nbase = 10\nmaximum = 5", "jackpot.maximum", "5 is below jackpot.base 10"),
    # the approved range of the return: fractions from 0 to 2, the least not above the greatest
    ("[rules]\nreturn_max = '95 %'", "rules.return_max", "a return as a fraction of the stake"),
    ("[rules]\nreturn_min = -0.1", "rules.return_min", "from 0 to 2, not -0.1"),
    ("[rules]\nside_return_max = true", "rules.side_return_max", "not True"),
    ("[rules]\nreturn_max = 95", "rules.return_max", "not 95"),
    (
        "[rules]\nreturn_min = 0.96\nreturn_max = 0.95",
        "rules.return_max",
        "0.95 is below rules.return_min 0.96",
    ),
    ("[rules]\nside_return_max = 0.3", "rules.side_return_max", "0.3 is below rules.side_return_min 0.4"),
    ("[rules]\nhouse_edge = 0.05", "rules.house_edge", "unknown key"),
    (f"[devices]\ncoin_acceptor = {{ {COIN[:-3]}, 4 = 0 }} }}", "devices.coin_acceptor.pulses.4", "not 0"),
    # values that are not money the terminal takes
    ("[money]\nhopper_coin = 250", "money.hopper_coin", "250 is not one of money.coins"),
    (
        "[devices]\ncoin_acceptor = { pulse = 17, inhibit = 27, pulses = { 1 = 50, 2 = 75 } }",
        "devices.coin_acceptor.pulses.2",
        "75 is not one of money.coins",
    ),
    (
        "[devices]\nbill_validator = { protocol = 'essp', port = '/dev/ttyUSB0', channels = { 1 = 700 } }",
        "devices.bill_validator.channels.1",
        "700 is not one of money.bills",
    ),
    (
        "[devices]\nbill_validator = { protocol = 'pulse', pulse = 5, inhibit = 6, pulses = { 1 = 100 } }",
        "devices.bill_validator.pulses.1",
        "100 is not one of money.bills",
    ),
    (
        "[devices]\ncoin_acceptor = { pulse = 17, inhibit = 27, pulses = { 0 = 50 } }",
        "devices.coin_acceptor.pulses.0",
        "a pulse count 1 to 100",
    ),
    (
        "[devices]\ncoin_acceptor = { pulse = 17, inhibit = 27, pulses = { 01 = 50 } }",
        "devices.coin_acceptor.pulses.01",
        "a pulse count 1 to 100",
    ),
    (
        "[devices]\ncoin_acceptor = { pulse = 17, inhibit = 27, pulses = {} }",
        "devices.coin_acceptor.pulses",
        "not {}",
    ),
    ("[devices]\nbill_validator = { protocol = 'ccnet' }", "devices.bill_validator.protocol", "not 'ccnet'"),
    ("[devices]\nbill_validator = { port = 'x' }", "devices.bill_validator.protocol", "missing"),
    # settings out of range
    ("[terminal]\nvolume = 11", "terminal.volume", "0 to 10, not 11"),
    ("[terminal]\nvolume = -1", "terminal.volume", "0 to 10, not -1"),
    ("[terminal]\nattract_volume = 11", "terminal.attract_volume", "0 to 10, not 11"),
    ("[terminal]\nattract_volume = -1", "terminal.attract_volume", "0 to 10, not -1"),
    ("[terminal]\nlanguage = 'de'", "terminal.language", "'en', 'cs' or 'ru', not 'de'"),
    ("[terminal]\nlanguage = 1", "terminal.language", "not 1"),
    ("[terminal]\nattract_after = -1", "terminal.attract_after", "not -1"),
    ("[terminal]\nexpected_video_driver = 'KMS'", "terminal.expected_video_driver", "not 'KMS'"),
    ("[jackpot]\nrate = '2'", "jackpot.rate", "not a share between 0 and 1"),
    ("[jackpot]\nrate = '-0.1'", "jackpot.rate", "not a share between 0 and 1"),
    ("[jackpot]\nrate = '1/0'", "jackpot.rate", "'1/0' is not a number"),
    ("[jackpot]\nrate = 'nan'", "jackpot.rate", "'nan' is not a number"),
    ("[jackpot]\nrate = true", "jackpot.rate", "True is not a number"),
    ("[jackpot]\nlost_ante_rate = '1.5'", "jackpot.lost_ante_rate", "not a share between 0 and 1"),
    (
        "[jackpot]\nlost_ante_rate = '0.01'\n[link]\ncredentials = 'hub.toml'\njackpot = 'linked'",
        "jackpot.lost_ante_rate",
        "a linked pool is fed by the hub from bonus stakes only",
    ),
    ("[terminal]\ncashout = 'hopper'", "terminal.cashout", "'hopper' needs a hopper in [devices]"),
    ("[terminal]\nprofile = 'holdem'", "terminal.profile", "no profile 'holdem'"),
    # a credit limit under which the cabinet could take no money, or deal no round
    (
        "[terminal]\ncredit_limit = 10",
        "terminal.credit_limit",
        "10 is below the smallest coin or note (50): no money could be taken",
    ),
    (
        "[terminal]\nprofile = 'standard'\ncredit_limit = 2000",
        "terminal.credit_limit",
        "2000 is below the least a round of standard needs (3000): no round could be dealt",
    ),
    (
        "[terminal]\nprofile = 'standard'\ncredit_limit = 3000\n"
        "[money]\ncoins = [2000]\nhopper_coin = 2000\nbills = [5000]",
        "terminal.credit_limit",
        "3000 can be reached only up to 2000 with money.coins and money.bills, below the least a "
        "round of standard needs (3000): no round could be dealt",
    ),
    # the pulse window must make sense
    (
        f"[devices]\ncoin_acceptor = {{ {COIN}, pulse_min_ms = 200 }}",
        "devices.coin_acceptor",
        "pulse_min_ms 200 < pulse_max_ms 150",
    ),
    (
        f"[devices]\ncoin_acceptor = {{ {COIN}, quiet_ms = 100 }}",
        "devices.coin_acceptor",
        "gap_max_ms 150 < quiet_ms 100",
    ),
    (
        f"[devices]\ncoin_acceptor = {{ {COIN}, pulse_max_ms = 0 }}",
        "devices.coin_acceptor.pulse_max_ms",
        "not 0",
    ),
    (
        "[devices]\nbill_validator = { protocol = 'pulse', pulse = 5, inhibit = 6, pulses = { 1 = 500 }, "
        "dropout_ms = 20 }",
        "devices.bill_validator",
        "dropout_ms 20 < gap_min_ms 10",
    ),
]


def run_command(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.err


def assert_one_clear_line(error: str, *pieces: str) -> None:
    assert error.endswith("\n"), f"one line: {error!r}"
    assert error.count("\n") == 1, f"one line: {error!r}"
    assert "Traceback" not in error
    assert error.startswith("oasis-kiosk: ")
    for piece in pieces:
        assert piece in error, f"{piece!r} not in {error!r}"


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "script.txt"
    path.write_text("coin 100\n")
    return path


@pytest.mark.parametrize(("text", "key", "reason"), BAD_FILES)
def test_a_bad_configuration_is_one_line_naming_file_key_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], script: Path, text: str, key: str, reason: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text + "\n")
    database = tmp_path / "data" / "kiosk.db"
    code, error = run_command(
        capsys, "run", "--headless", "--script", str(script), "--config", str(path), "--db", str(database)
    )
    assert code == 2, error
    assert_one_clear_line(error, f"{path}: ", key, reason)
    assert not database.parent.exists(), "nothing was created"


def test_a_file_that_is_not_utf8_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"[terminal]\nlanguage = 'cs'\nprofile = 'caf\xe9'\n")
    code, error = run_command(capsys, "meters", "--config", str(path))
    assert code == 2
    assert_one_clear_line(error, f"{path}: line 3: not UTF-8 text")


def test_a_missing_configuration_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, error = run_command(capsys, "meters", "--config", str(tmp_path / "none.toml"))
    assert code == 2
    assert_one_clear_line(error, f"{tmp_path / 'none.toml'}: cannot be read: No such file or directory")


def test_bad_files_in_a_process_of_their_own_exit_2_without_a_traceback(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(b"[money]\ncoins = [50, 100]\n# \xff\n")
    script = tmp_path / "script.txt"
    script.write_text("coin 100\n")
    database = tmp_path / "kiosk.db"
    for configuration, script_text in [(config, "coin 100\n"), (None, "coin 100\ncoin ²\n")]:
        script.write_text(script_text)
        command = [sys.executable, "-m", "oasis_kiosk.cli", "run", "--headless", "--script", str(script)]
        command += ["--db", str(database)] + (["--config", str(configuration)] if configuration else [])
        finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert finished.returncode == 2, finished.stderr
        assert finished.stderr.count("\n") == 1, finished.stderr
        assert "Traceback" not in finished.stderr
        assert not database.exists()
    assert f"{script}:2: " in finished.stderr


BAD_SCRIPTS: list[tuple[str, str, str]] = [
    ("coin 100\ncoin 2.5\n", ":2: ", "'coin 2.5'"),
    ("coin ²\n", ":1: ", "'coin ²'"),
    ("coin ١٠٠\n", ":1: ", "'coin ١٠٠'"),
    ("bet\nselect 9\n", ":2: ", "select takes a card 1 to 5"),
    ("select 0\n", ":1: ", "select takes a card 1 to 5"),
    ("deal 3\n", ":1: ", "deal takes no number"),
    ("coin\n", ":1: ", "coin takes an amount"),
    ("coin 100 200\n", ":1: ", "coin takes an amount"),
    ("wait\n", ":1: ", "wait takes seconds"),
    ("wait nan\n", ":1: ", "wait takes seconds"),
    ("wait -1\n", ":1: ", "wait takes seconds"),
    ("jump\n", ":1: ", "'jump' is not an input"),
    ("coin 10000000000000\n", ":1: ", "more than any amount"),
]


@pytest.mark.parametrize(("text", "line", "reason"), BAD_SCRIPTS)
def test_a_bad_script_line_is_named_before_anything_is_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: str, reason: str
) -> None:
    path = tmp_path / "script.txt"
    path.write_text(text)
    database = tmp_path / "kiosk.db"
    code, error = run_command(capsys, "run", "--headless", "--script", str(path), "--db", str(database))
    assert code == 2
    assert_one_clear_line(error, f"{path}{line}", reason)
    assert not database.exists(), "nothing was created"


def test_a_script_that_cannot_be_read_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "kiosk.db"
    missing = tmp_path / "none.txt"
    code, error = run_command(capsys, "run", "--headless", "--script", str(missing), "--db", str(database))
    assert code == 2
    assert_one_clear_line(error, f"{missing}: cannot be read: No such file or directory")
    binary = tmp_path / "script.bin"
    binary.write_bytes(b"coin 100\nbet\n\x89PNG\n")
    code, error = run_command(capsys, "run", "--headless", "--script", str(binary), "--db", str(database))
    assert code == 2
    assert_one_clear_line(error, f"{binary}:3: not UTF-8 text")
    assert not database.exists()


# (stored setting, its stored value, a piece of the reason)
BAD_STORED: list[tuple[str, object, str]] = [
    ("jackpot_config", 5, "a table of base, rate and maximum, not 5"),
    ("jackpot_config", {"base": 100, "rate": "0.1"}, "maximum: missing"),
    (
        "jackpot_config",
        {"base": "100", "rate": "0.1", "maximum": 1000},
        "base: a whole amount in minor units",
    ),
    ("jackpot_config", {"base": 0, "rate": "0.1", "maximum": 1000}, "base: a whole amount in minor units"),
    ("jackpot_config", {"base": 100, "rate": "lots", "maximum": 1000}, "rate: 'lots' is not a number"),
    ("jackpot_config", {"base": 100, "rate": "0.1", "maximum": 1000, "x": 1}, "unknown key x"),
    ("jackpot_config", {"base": 2000, "rate": "0.1", "maximum": 1000}, "maximum 1000 is below base 2000"),
    ("rules", {"profile": "holdem", "overrides": None}, "no profile 'holdem'"),
    ("rules", {"profile": 5, "overrides": None}, "profile: a shipped profile's id or a profile file"),
    ("rules", {"overrides": None}, "profile: missing"),
    ("rules", {"profile": "standard", "overrides": 5}, "overrides: a table of profile fields, not 5"),
    ("rules", {"profile": "standard", "overrides": {"table": {"ante_min": 20000}}}, "table.ante_min"),
    ("rules", [], "a table of profile and overrides, not []"),
    ("language", "de", "'en', 'cs' or 'ru', not 'de'"),
    ("language", 5, "not 5"),
    ("volume", 11, "0 to 10, not 11"),
    ("volume", "6", "0 to 10, not '6'"),
    ("volume", True, "not True"),
    ("attract_volume", 11, "0 to 10, not 11"),
    ("attract_volume", "3", "0 to 10, not '3'"),
    ("attract_volume", True, "not True"),
    ("speed", "turbo", "'normal' or 'fast', not 'turbo'"),
]


@pytest.mark.parametrize(("setting", "value", "reason"), BAD_STORED)
def test_a_bad_stored_setting_is_a_clear_configuration_error(
    tmp_path: Path, setting: str, value: object, reason: str
) -> None:
    database = tmp_path / "kiosk.db"
    store = books(database)
    with store.transaction():
        store.set_state(setting, value)
    with pytest.raises(ConfigError) as raised:
        Terminal(Config(database=database), store)
    message = str(raised.value)
    assert message.startswith(f"{database}: the stored setting {setting}: "), message
    assert reason in message, message
    assert "\n" not in message
    assert store.get_state("terminal") is None, "the terminal did not start"


def test_the_command_line_names_a_bad_stored_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "kiosk.db"
    store = books(database)
    with store.transaction():
        store.set_state("volume", "loud")
    store.close()
    script = tmp_path / "script.txt"
    script.write_text("coin 100\n")
    code, error = run_command(capsys, "run", "--headless", "--script", str(script), "--db", str(database))
    assert code == 2
    assert_one_clear_line(error, f"{database}: the stored setting volume: 0 to 10, not 'loud'")


def test_good_stored_settings_still_apply(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    store = books(database)
    with store.transaction():
        store.set_state("jackpot_config", {"base": 500, "rate": "3/20", "maximum": 5000})
        store.set_state("rules", {"profile": "caribbean", "overrides": None})
        store.set_state("language", "cs")
        store.set_state("volume", 0)
        store.set_state("attract_volume", 1)
    config = Terminal(Config(database=database), store).config
    assert (config.jackpot.base, str(config.jackpot.rate), config.jackpot.maximum) == (500, "3/20", 5000)
    assert (config.profile, config.language, config.volume, config.attract_volume) == (
        "caribbean",
        "cs",
        0,
        1,
    )


def test_good_files_load_with_every_key_and_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        "[terminal]\nprofile = 'caribbean'\ncredit_limit = 200000\nvolume = 0\nattract_after = 0\n"
        "attract_volume = 5\n"
        "[money]\ncoins = [200, 100]\nhopper_coin = 200\nhandpay_limit = 250000\n"
        "[jackpot]\nrate = 0.25\nlost_ante_rate = '1/200'\n"
        "[devices]\nbuttons = { attendant = 7 }\n"
        "[devices.coin_acceptor]\npulse = 17\ninhibit = 27\npulses = { 1 = 100, 3 = 200 }\n"
        "pulse_min_ms = 15\npulse_max_ms = 120\ndropout_ms = 3\ngap_min_ms = 12\ngap_max_ms = 110\n"
        "quiet_ms = 250\n"
        "[devices.bill_validator]\nprotocol = 'pulse'\npulse = 5\ninhibit = 6\npulses = { 1 = 500 }\n"
    )
    config = load_config(path, database=tmp_path / "kiosk.db")
    assert (config.profile, config.credit_limit, config.volume, config.attract_after) == (
        "caribbean",
        200000,
        0,
        0,
    )
    assert config.attract_volume == 5
    assert (config.coins, config.hopper_coin, config.handpay_limit) == ((100, 200), 200, 250000)
    assert (str(config.jackpot.rate), config.jackpot.base) == ("1/4", 1_000_000)
    assert config.jackpot.lost_ante_rate == Fraction(1, 200)
    coin = config.devices.settings("coin_acceptor")
    assert coin.pulses == {1: 100, 3: 200}
    assert coin.timing == PulseTiming(
        pulse_min_ms=15, pulse_max_ms=120, dropout_ms=3, gap_min_ms=12, gap_max_ms=110, quiet_ms=250
    )
    bill = config.devices.money["bill_validator"]
    assert bill.protocol == "pulse"
    assert bill.settings.timing == PulseTiming()
    defaults = load_config(None)
    assert defaults == Config(source="<defaults>", database=defaults.database)
    assert defaults.handpay_limit == 1_000_000


def test_the_schema_describes_every_key_with_its_default() -> None:
    """One table, sections -> keys, each key with what it takes and a description; the
    defaults it gives are the Config's own."""
    defaults = Config()
    terminal, money, jackpot = SCHEMA["terminal"], SCHEMA["money"], SCHEMA["jackpot"]
    assert money["handpay_limit"].default == defaults.handpay_limit == 1_000_000
    assert terminal["credit_limit"].default == defaults.credit_limit
    assert terminal["attract_volume"].default == defaults.attract_volume == 3
    assert jackpot["base"].default == defaults.jackpot.base
    for section in SCHEMA.values():
        for key in section.values():
            assert key.description
            assert key.kind.describe


def test_command_line_fields_are_checked_too(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="credit_limit"):
        load_config(None, credit_limit=0)


def test_the_build_guide_gives_the_pulse_window_defaults_and_the_example_loads_them() -> None:
    guide = (Path(__file__).parents[1] / "docs" / "cabinet.md").read_text()
    documented = {key: int(value) for key, value in re.findall(r"^\| `(\w+_ms)` \| (\d+) \|", guide, re.M)}
    assert documented == asdict(PulseTiming())
    example = load_config(Path(__file__).parents[1] / "systemd" / "config.example.toml")
    assert example.devices.settings("coin_acceptor").timing == PulseTiming()


@pytest.mark.parametrize("protocol", ["", ", protocol = 'pulse'"])
def test_a_coin_acceptor_is_in_pulse_mode_whether_or_not_it_says_so(tmp_path: Path, protocol: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[devices]\nbuttons = {{ attendant = 7 }}\ncoin_acceptor = {{ {COIN}{protocol} }}\n")
    acceptor = load_config(path).devices.money["coin_acceptor"]
    assert acceptor.protocol == "pulse"
    acceptor = acceptor.settings
    assert (acceptor.pulse, acceptor.inhibit, acceptor.pulses) == (17, 27, {1: 50, 2: 100})
