"""The cabinet's wiring from the configuration, built on mock pins."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_essp import FakeValidator
from gpiozero.pins.mock import MockFactory
from support import books

from oasis_kiosk.config import MONEY_DEVICES, ConfigError, load_config
from oasis_kiosk.hardware.build import ACCEPTORS, PAYOUTS, build_cabinet
from oasis_kiosk.hardware.hopper import Hopper
from oasis_kiosk.hardware.serial_port import LineSettings, SerialPortError
from oasis_kiosk.machine.terminal import Terminal

WIRING = """
[devices]
buttons = { deal = 5, fold = 6, card1 = 16, door = 26, attendant = 12 }
lamps = { deal = 20, fold = 21 }
coin_acceptor = { pulse = 17, inhibit = 27, pulses = { 1 = 50, 2 = 100, 4 = 200, 10 = 500 } }
bill_validator = { protocol = "essp", port = "/dev/ttyUSB0", channels = { 1 = 500, 2 = 1000 } }
hopper = { motor = 23, exit = 24, timeout = 1.5, exit_min_ms = 8, exit_max_ms = 400 }
"""


def test_a_wired_cabinet_is_built_from_the_configuration(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(WIRING)
    config = load_config(path, database=tmp_path / "kiosk.db")
    assert config.devices.settings("coin_acceptor").pulses == {1: 50, 2: 100, 4: 200, 10: 500}
    assert config.devices.settings("bill_validator").channels == {1: 500, 2: 1000}
    opened: list[tuple[str, LineSettings]] = []
    peer = FakeValidator()

    def opener(port: str, line: LineSettings) -> FakeValidator:
        opened.append((port, line))
        return peer

    factory = MockFactory()
    terminal = Terminal(config, books(config.database))
    cabinet = build_cabinet(config, terminal, pin_factory=factory, serial_opener=opener)
    assert opened == [("/dev/ttyUSB0", LineSettings(baud=9600, stop_bits=2))], "SSP's 8N2 at 9600 baud"
    assert peer.synced
    assert peer.enabled, "bills are live with no credit"
    assert isinstance(cabinet.hopper, Hopper)
    assert cabinet.hopper.timeout == 1.5
    assert (cabinet.hopper.exit_min, cabinet.hopper.exit_max) == (0.008, 0.4)
    factory.pin(5).drive_low()
    factory.pin(5).drive_high()
    responses = cabinet.step()
    assert [r.message for r in responses] == ["deal needs 3000, its play bets included; the credit is 0"]


@pytest.mark.parametrize(
    ("wiring", "message"),
    [
        (
            "[devices]\nbuttons = { deal = 5, play = 5 }",
            "devices.buttons.play: pin 5 is already buttons.deal",
        ),
        ("[devices]\nbuttons = { jackpot = 5 }", "devices.buttons: no such button: jackpot"),
        ("[devices]\nlamps = { deal = 99 }", "devices.lamps.deal: a BCM pin number 0 to 53, not 99"),
        (
            "[devices]\ncoin_acceptor = { pulse = 1, inhibit = 2, pulses = { 0 = 50 } }",
            "coin_acceptor.pulses.0",
        ),
        ("[devices]\nbill_validator = { protocol = 'ccnet' }", "'essp' or 'pulse', not 'ccnet'"),
        (
            "[devices]\nhopper = { motor = 1, exit = 2, timeout = 0 }",
            "devices.hopper.timeout: 0.1 to 30 seconds",
        ),
        ("[devices]\nsound = 1", "unknown key devices.sound"),
    ],
)
def test_wiring_errors_name_the_key(tmp_path: Path, wiring: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(wiring)
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_config(path)


def test_a_validators_port_that_cannot_be_opened_is_named_with_its_key(tmp_path: Path) -> None:
    not_a_port = tmp_path / "hostname"
    not_a_port.write_text("kiosk\n")
    path = tmp_path / "config.toml"
    path.write_text(
        "[devices]\nbuttons = { attendant = 7 }\n"
        f"bill_validator = {{ protocol = 'essp', port = '{not_a_port}', channels = {{ 1 = 500 }} }}\n"
    )
    config = load_config(path, database=tmp_path / "kiosk.db")
    terminal = Terminal(config, books(config.database))
    with pytest.raises(SerialPortError, match=f"^devices.bill_validator.port: serial port {not_a_port}: "):
        build_cabinet(config, terminal, pin_factory=MockFactory())


def test_every_protocol_a_money_device_may_be_configured_in_has_its_builder() -> None:
    for key, slot in MONEY_DEVICES.items():
        builders = ACCEPTORS if slot.takes else PAYOUTS
        assert set(slot.protocols) <= set(builders), (
            f"{key}: a protocol without its builder in hardware/build.py"
        )
