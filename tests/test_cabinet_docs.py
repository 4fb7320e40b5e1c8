"""The shipped example configuration loads and wires a cabinet on mock pins, and the build
guide's pin table says what it says."""

from __future__ import annotations

import re
from pathlib import Path

from fake_essp import FakeValidator
from gpiozero.pins.mock import MockFactory
from support import books

from oasis_kiosk.config import Config, load_config
from oasis_kiosk.hardware.build import build_cabinet
from oasis_kiosk.machine.terminal import Terminal

REPOSITORY = Path(__file__).parents[1]
EXAMPLE = REPOSITORY / "systemd" / "config.example.toml"
GUIDE = REPOSITORY / "docs" / "cabinet.md"
# BCM GPIO -> the physical pin of the 40-pin header.
HEADER = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37,
    20: 38, 21: 40,
}  # fmt: skip


def example_pins(config: Config) -> dict[str, int]:
    """Configuration key -> BCM pin, for every wired line."""
    devices = config.devices
    pins = {f"buttons.{name}": pin for name, pin in devices.buttons.items()}
    pins |= {f"lamps.{name}": pin for name, pin in devices.lamps.items()}
    coin = devices.settings("coin_acceptor")
    if coin is not None:
        pins["coin_acceptor.pulse"] = coin.pulse
        pins["coin_acceptor.inhibit"] = coin.inhibit
    if devices.power_fail is not None:
        pins["power_fail"] = devices.power_fail
    return pins


def test_the_example_configuration_wires_a_cabinet(tmp_path: Path) -> None:
    config = load_config(EXAMPLE, database=tmp_path / "kiosk.db")
    assert load_config(EXAMPLE).database == Path("/var/lib/oasis-kiosk/kiosk.db")
    assert config.devices.settings("bill_validator").port == "/dev/ttyUSB0"
    assert config.devices.power_fail == 26
    assert not {0, 1, 2, 3, 14, 15} & set(example_pins(config).values()), "ID EEPROM, I2C and UART left free"
    factory = MockFactory()
    cabinet = build_cabinet(
        config,
        Terminal(config, books(config.database)),
        pin_factory=factory,
        serial_opener=lambda port, line: FakeValidator(),
    )
    assert cabinet.panel is not None
    assert cabinet.acceptor is not None
    assert cabinet.power is not None
    cabinet.step()
    assert not factory.pin(20).state, "no credit: the coin acceptor takes coins"


def test_the_build_guide_pin_table_matches_the_example() -> None:
    rows = re.findall(r"^\| (\d+) \| (\d+) \| `([a-z_.0-9]+)` \| [^|]+\|$", GUIDE.read_text(), re.MULTILINE)
    table = {key: int(bcm) for bcm, _, key in rows}
    assert table == example_pins(load_config(EXAMPLE))
    for bcm, header, key in rows:
        assert HEADER[int(bcm)] == int(header), f"{key}: GPIO {bcm} is header pin {HEADER[int(bcm)]}"
