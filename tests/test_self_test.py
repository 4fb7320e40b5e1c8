"""The start-up self-test: each check finds what it is for, a finding tilts the terminal with
the money devices inhibited, and only a start that passes clears it."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from support import books

from oasis_kiosk.cli import open_terminal
from oasis_kiosk.config import Config, ConfigError, load_config
from oasis_kiosk.config.devices import DevicesConfig, HopperDevice, MoneyDevice
from oasis_kiosk.machine.selftest import (
    configuration_problems,
    database_problems,
    self_test,
    video_problems,
    wiring_problems,
)
from oasis_kiosk.machine.terminal import Terminal


def fed_terminal(database: Path, **config: object) -> Terminal:
    terminal = Terminal(Config(database=database, **config), books(database))  # type: ignore[arg-type]
    terminal.handle("coin", 100)
    terminal.handle("bill", 500)
    return terminal


def test_a_sound_cabinet_passes(tmp_path: Path) -> None:
    terminal = fed_terminal(tmp_path / "kiosk.db")
    assert self_test(terminal.config, terminal.store, "kmsdrm") == []
    assert self_test(replace(terminal.config, expected_video_driver="kmsdrm"), terminal.store, "kmsdrm") == []


def test_an_index_that_no_longer_matches_its_table_is_found(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    fed_terminal(database).store.close()
    raw = sqlite3.connect(database)
    raw.execute("PRAGMA writable_schema = ON")
    raw.execute(
        "UPDATE sqlite_master SET sql = 'CREATE INDEX ledger_round ON ledger (kind)' WHERE name = 'ledger_round'"
    )
    raw.commit()
    raw.close()
    store = books(database)  # the quick check at opening does not compare indexes with tables
    problems = database_problems(store)
    assert problems
    assert all(problem.startswith("database: ") for problem in problems)
    assert any("ledger_round" in problem for problem in problems)


def test_a_row_that_refers_to_a_missing_round_is_found(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    fed_terminal(database).store.close()
    # Rows 1 to 3: the jackpot's reset at the first start, the coin, the bill. Foreign keys
    # are not enforced on this connection.
    raw = sqlite3.connect(database)
    raw.execute(
        "INSERT INTO ledger (at, kind, amount, credits_after, round_id) VALUES ('2025-01-01', 'win', 0, 600, 99)"
    )
    raw.commit()
    raw.close()
    assert database_problems(books(database)) == [
        "database: ledger row 4 refers to a rounds row that is not there"
    ]


@pytest.mark.parametrize(
    "wiring",
    [
        DevicesConfig(buttons={"deal": 5, "door": 26}),
        DevicesConfig(money={"hopper": MoneyDevice("pulse", HopperDevice(23, 24))}),
        DevicesConfig(power_fail=25),
    ],
)
def test_a_wiring_without_the_attendants_key_is_found_and_one_with_it_passes(
    tmp_path: Path, wiring: DevicesConfig
) -> None:
    """A touch of the screen's ATTENDANT only names the key: a cabinet wired without it (or
    with money devices alone, a touchscreen's) could never pay a handpay. The file still
    loads, so that the meters and the audit read with it."""
    terminal = fed_terminal(tmp_path / "kiosk.db")
    config = replace(terminal.config, devices=wiring)
    found = ["configuration: devices.buttons: a cabinet's wiring needs the attendant's key: attendant"]
    assert wiring_problems(config) == found
    assert [problem for problem in self_test(config, terminal.store) if "wiring" in problem] == found
    keyed = replace(wiring, buttons={**wiring.buttons, "attendant": 7})
    assert wiring_problems(replace(config, devices=keyed)) == []
    assert wiring_problems(replace(config, devices=DevicesConfig())) == [], "a desktop wires nothing"


def test_a_configuration_the_operator_menu_broke_is_found(tmp_path: Path) -> None:
    terminal = fed_terminal(tmp_path / "kiosk.db")
    assert configuration_problems(terminal.config) == []
    (problem,) = configuration_problems(replace(terminal.config, profile="no-such-house"))
    assert problem.startswith("configuration: <defaults>: terminal.profile:")
    (problem,) = configuration_problems(replace(terminal.config, language="de"))
    assert "terminal.language: 'en', 'cs' or 'ru', not 'de'" in problem


def test_limits_under_which_nothing_could_be_played_are_found(tmp_path: Path) -> None:
    terminal = fed_terminal(tmp_path / "kiosk.db")
    assert configuration_problems(replace(terminal.config, credit_limit=40)) == [
        "configuration: <defaults>: terminal.credit_limit: 40 is below the smallest coin or note (50): "
        "no money could be taken"
    ]
    # The smallest ante fits, but a round needs more up front: its play bet kept in reserve.
    assert configuration_problems(replace(terminal.config, profile="standard", credit_limit=2000)) == [
        "configuration: <defaults>: terminal.credit_limit: 2000 is below the least a round of standard "
        "needs (3000): no round could be dealt"
    ]


def test_a_cabinet_drawing_through_the_wrong_video_driver_is_found() -> None:
    assert video_problems("kmsdrm", "kmsdrm") == []
    assert video_problems("", "offscreen") == [], "empty: any driver"
    assert video_problems("kmsdrm", "offscreen") == [
        "video: SDL runs the offscreen video driver, the cabinet expects kmsdrm"
    ]
    assert video_problems("kmsdrm", "") == ["video: SDL runs the no video driver, the cabinet expects kmsdrm"]


def test_a_finding_tilts_the_terminal_until_a_start_passes(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    terminal = fed_terminal(database)
    assert "coin" in terminal.live()
    response = terminal.record_self_test(
        ["video: SDL runs the dummy video driver, the cabinet expects kmsdrm"]
    )
    assert not response.ok
    assert terminal.tilts["self_test"] == (
        "self-test failed: video: SDL runs the dummy video driver, the cabinet expects kmsdrm"
    )
    assert "coin" not in terminal.live()
    assert "bill" not in terminal.live()
    assert not terminal.handle("attendant").ok, "the attendant's key does not clear it"
    assert "self_test" in terminal.tilts
    terminal.store.close()

    again = Terminal(Config(database=database), books(database))
    assert "self_test" in again.tilts, "a restart does not forget it"
    assert again.record_self_test([]).ok
    assert not again.tilts
    assert "coin" in again.live()
    kinds = [event["kind"] for event in again.store.events()]
    assert kinds[-2:] == ["self_test", "tilt_cleared"]


def test_the_run_path_checks_the_video_driver_only_on_the_cabinet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = Config(database=tmp_path / "kiosk.db", expected_video_driver="kmsdrm")
    books(config.database).close()
    windowed = open_terminal(config, demo=False, video_driver=None)
    assert not windowed.tilts
    windowed.store.close()
    cabinet = open_terminal(config, demo=False, video_driver="dummy")
    assert "kmsdrm" in cabinet.tilts["self_test"]
    assert "coin" not in cabinet.live()
    assert "self-test: video: SDL runs the dummy video driver" in capsys.readouterr().err


def test_under_systemd_the_kiosk_says_ready_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    """The command the unit runs, in a process of its own: READY=1 once a frame is up,
    STOPPING=1 and a closed, checkpointed database after SIGTERM."""
    database = tmp_path / "kiosk.db"
    config = tmp_path / "config.toml"
    config.write_text(f'[terminal]\ndatabase = "{database}"\nexpected_video_driver = "kmsdrm"\n')
    load_config(config)
    books(database).close()
    with tempfile.TemporaryDirectory(prefix="notify-") as directory:
        address = str(Path(directory) / "notify")
        manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        manager.bind(address)
        manager.settimeout(60)
        environment = {
            **os.environ,
            "NOTIFY_SOCKET": address,
            "WATCHDOG_USEC": "2000000",
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
        }
        environment.pop("WATCHDOG_PID", None)
        kiosk = subprocess.Popen(
            [sys.executable, "-m", "oasis_kiosk.cli", "run", "--fullscreen", "--config", str(config)],
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            messages = [said_or_why_not(manager, kiosk)]
            while "READY=1" not in messages[-1]:
                messages.append(said_or_why_not(manager, kiosk))
            assert any(m.startswith("STATUS=out of order: self-test failed: video") for m in messages)
            assert manager.recv(4096) == b"WATCHDOG=1", "the frame loop feeds the watchdog"
            kiosk.send_signal(signal.SIGTERM)
            _, errors = kiosk.communicate(timeout=30)
            while (message := manager.recv(4096)) == b"WATCHDOG=1":
                pass
        finally:
            if kiosk.poll() is None:
                kiosk.kill()
                kiosk.wait()
            for stream in (kiosk.stdout, kiosk.stderr):  # a kiosk that died had them left open
                if stream is not None:
                    stream.close()
            manager.close()
    assert message == b"STOPPING=1"
    assert kiosk.returncode == 0, errors
    assert "self-test: video: SDL runs the dummy video driver, the cabinet expects kmsdrm" in errors
    assert not database.with_name("kiosk.db-wal").exists(), "the books were checkpointed and closed"
    store = books(database)
    assert "self_test" in store.get_state("terminal")["tilts"]


def said_or_why_not(manager: socket.socket, kiosk: subprocess.Popen[str]) -> str:
    """The next message the kiosk sends the service manager; if none comes, the kiosk's own
    last words (a kiosk that failed to start had only timed the test out)."""
    try:
        return manager.recv(4096).decode()
    except TimeoutError:
        kiosk.kill()
        _, errors = kiosk.communicate()
        pytest.fail(f"the kiosk said nothing to the service manager; it printed: {errors[-3000:]}")


@pytest.mark.parametrize("driver", ["KMSDRM", "kms drm", 5])
def test_an_expected_video_driver_that_is_no_driver_name_is_refused(tmp_path: Path, driver: object) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[terminal]\nexpected_video_driver = {driver!r}\n".replace("'", '"'))
    with pytest.raises(
        ConfigError, match=r"terminal\.expected_video_driver: an SDL driver name such as 'kmsdrm'"
    ):
        load_config(path)
