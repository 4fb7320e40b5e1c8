"""A serial device's port is opened with its own protocol's line, on a real tty."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from oasis_kiosk.hardware.serial_port import LineSettings, SerialPortError, open_serial


@pytest.fixture
def tty() -> Iterator[tuple[int, str]]:
    """A pseudo-terminal: the driver's end by path, the device's end as a descriptor."""
    device, driver = os.openpty()
    yield device, os.ttyname(driver)
    os.close(device)
    os.close(driver)


@pytest.mark.parametrize(
    ("line", "stop_bits"),
    [(LineSettings(9600, 2), serial.STOPBITS_TWO), (LineSettings(9600, 1), serial.STOPBITS_ONE)],
)
def test_a_port_is_opened_with_the_line_its_protocol_names(
    tty: tuple[int, str], line: LineSettings, stop_bits: float
) -> None:
    device, path = tty
    port = open_serial(path, line)
    assert isinstance(port, serial.Serial)
    try:
        assert (port.baudrate, port.bytesize, port.parity, port.stopbits) == (
            line.baud,
            serial.EIGHTBITS,
            serial.PARITY_NONE,
            stop_bits,
        )
        port.write(b"\x7f\x80\x01")
        port.flush()
        assert os.read(device, 3) == b"\x7f\x80\x01", "what the driver writes reaches the device"
        os.write(device, b"\xf0")
        assert port.read(1) == b"\xf0"
        assert port.read(1) == b"", "an idle line gives nothing after the read time-out"
    finally:
        port.close()


def test_an_absent_port_or_a_file_that_is_no_port_is_an_error_that_names_it(tmp_path: Path) -> None:
    absent = tmp_path / "ttyUSB9"
    with pytest.raises(SerialPortError, match=f"serial port {absent}: .*No such file"):
        open_serial(str(absent), LineSettings(9600, 1))
    not_a_port = tmp_path / "hostname"
    not_a_port.write_text("kiosk\n")
    with pytest.raises(SerialPortError, match=f"serial port {not_a_port}: "):
        open_serial(str(not_a_port), LineSettings(9600, 1))
