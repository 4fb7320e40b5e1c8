"""Any device that speaks the money protocol (``hardware/money.py``) is wired into the
cabinet as the acceptors are, with no change to the cabinet: the extension point a ccTalk
acceptor or a ticket reader uses; and a new protocol of a money device is configured and
built through the registries (``config/devices.py``, ``hardware/build.py``) alone."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from support import books

from oasis_kiosk.config import MONEY_DEVICES, Config, ConfigError, load_config
from oasis_kiosk.config.devices import DeviceProtocol
from oasis_kiosk.config.kinds import Counts, Text
from oasis_kiosk.config.schema import REQUIRED, Key, TomlTable
from oasis_kiosk.hardware.build import ACCEPTORS, build_cabinet
from oasis_kiosk.hardware.cabinet import Cabinet
from oasis_kiosk.hardware.money import (
    Credit,
    DeviceError,
    Fault,
    Glitch,
    Held,
    MoneyEvent,
    Rejected,
    Report,
)
from oasis_kiosk.hardware.wires import Wires
from oasis_kiosk.machine.money_kinds import BY_LEDGER_KIND
from oasis_kiosk.machine.terminal import Terminal


class ScriptedDevice:
    """A money device whose events the test sends; it records what the cabinet told it."""

    def __init__(self, largest: int | None = None) -> None:
        self.queue: list[MoneyEvent] = []
        self.accepting: list[bool] = []
        self.refused: list[int] = []
        self._held: Held | None = None
        self._largest = largest
        self.broken = False
        self.closed = False

    def money_events(self, kind: str) -> list[MoneyEvent]:
        events, self.queue = self.queue, []
        for event in events:
            if isinstance(event, Held):
                self._held = event
            elif isinstance(event, Credit):
                self._held = None
        return events

    @property
    def largest(self) -> int | None:
        return self._largest

    @property
    def held(self) -> Held | None:
        return self._held

    def refuse_held(self) -> None:
        if self.broken:
            raise DeviceError("the escrow motor is stuck")
        assert self._held is not None
        self.refused.append(self._held.value)
        self._held = None

    def set_accepting(self, accepting: bool) -> None:
        if self.broken:
            raise DeviceError("no answer")
        self.accepting.append(accepting)

    def fault_tilt(self, kind: str) -> str:
        return f"{kind}_acceptor"

    def close(self) -> None:
        self.closed = True
        if self.broken:
            raise DeviceError("the port is gone")


def wired(tmp_path: Path, **devices: ScriptedDevice) -> tuple[Terminal, Cabinet]:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, credit_limit=5000), books(database))
    return terminal, Cabinet(terminal, **devices)  # type: ignore[arg-type]


def kinds(terminal: Terminal) -> list[str]:
    return [event["kind"] for event in terminal.store.events(50)]


def test_a_new_coin_device_is_credited_logged_and_tilted_through_the_protocol(tmp_path: Path) -> None:
    device = ScriptedDevice(largest=200)
    terminal, cabinet = wired(tmp_path, acceptor=device)
    assert device.accepting == [True], "opened while its largest coin fits"
    device.queue = [
        Credit(200),
        Rejected("coin_rejected", {"reason": "alloy"}),
        Glitch("coin_line_noise", {"width_ms": 2.0}),
        Report("coin_path_clear"),
    ]
    cabinet.step()
    assert terminal.credits == 200
    assert [row.kind for row in terminal.store.ledger()][-1] == "coin_in"
    assert {"coin_rejected", "coin_line_noise", "coin_path_clear"} <= set(kinds(terminal))
    assert terminal.store.meters()["coin_rejected"] == 1
    device.queue = [Fault("coin_acceptor", "the sorter is jammed")]
    cabinet.step()
    assert terminal.tilts["coin_acceptor"] == "the sorter is jammed"
    assert device.accepting[-1] is False, "a tilted terminal takes no money"


def test_an_item_held_in_escrow_that_does_not_fit_is_given_back(tmp_path: Path) -> None:
    device = ScriptedDevice()
    terminal, cabinet = wired(tmp_path, bills=device)
    device.queue = [Held(10000, "note_read", "note", {"value": 10000})]
    cabinet.step()
    assert device.refused == [10000], "over the credit limit of 5000: returned before it is taken"
    assert terminal.credits == 0
    assert "note_returned" in kinds(terminal)
    device.queue = [Held(2000, "note_read", "note"), Credit(2000)]
    cabinet.step()
    assert terminal.credits == 2000


def test_a_device_that_fails_a_command_tilts_once(tmp_path: Path) -> None:
    device = ScriptedDevice()
    terminal, cabinet = wired(tmp_path, bills=device)
    device.broken = True
    device.queue = [Held(10000, "note_read", "note")]
    cabinet.step()
    assert "could not be returned: the escrow motor is stuck" in terminal.tilts["bill_acceptor"]
    tilts = kinds(terminal).count("tilt")
    cabinet.step()
    cabinet.step()
    assert kinds(terminal).count("tilt") == tilts


class ScriptedPayout:
    """A payout device whose events the test sends."""

    running = False

    def __init__(self) -> None:
        self.queue: list[MoneyEvent] = []
        self.closed = 0

    def start(self, amount: int) -> None:
        raise AssertionError("nothing is paid out here")

    def stop(self) -> None:
        """Nothing runs, so nothing stops."""

    def money_events(self) -> list[MoneyEvent]:
        events, self.queue = self.queue, []
        return events

    def close(self) -> None:
        self.closed += 1


def test_money_a_payout_device_says_it_took_in_is_never_credited_and_tilts_the_terminal(
    tmp_path: Path,
) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, cashout="hopper"), books(database))
    payout = ScriptedPayout()
    cabinet = Cabinet(terminal, hopper=payout)
    payout.queue.append(Credit(500))
    cabinet.step()
    assert terminal.credits == 0
    assert "fault" in terminal.tilts, (
        "a payout device that reports money in is a fault, not money lost in silence"
    )
    assert not [row for row in terminal.store.ledger() if row.kind in BY_LEDGER_KIND], "nothing booked in"


def test_a_cabinet_closed_closes_every_device_whatever_one_raises_and_only_once(
    tmp_path: Path,
) -> None:
    database = tmp_path / "kiosk.db"
    terminal = Terminal(Config(database=database, cashout="hopper"), books(database))
    coins, bills, payout = ScriptedDevice(), ScriptedDevice(), ScriptedPayout()
    cabinet = Cabinet(terminal, acceptor=coins, bills=bills, hopper=payout)
    bills.broken = True  # its USB port unplugged, say
    with pytest.raises(DeviceError, match="the port is gone"):
        cabinet.close()
    assert payout.closed == 1, "the payout device is closed"
    assert coins.closed
    assert bills.closed
    cabinet.close()
    assert payout.closed == 1, "closing again does nothing"


@dataclass(frozen=True)
class SerialCoinSettings:
    """A serial coin acceptor's settings, as a protocol's table builds them."""

    port: str
    channels: dict[int, int]


SERIAL_COINS = DeviceProtocol(
    TomlTable(
        {
            "port": Key(Text("a serial port"), REQUIRED, "the acceptor's serial port"),
            "channels": Key(Counts("channel", 16), REQUIRED, "channel n -> its coin's value"),
        },
        build=lambda v: SerialCoinSettings(**v),
    ),
    values="channels",
)


def test_a_new_protocol_is_one_table_and_one_builder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[tuple[SerialCoinSettings, str]] = []
    device = ScriptedDevice(largest=100)

    def build_serial_coins(settings: SerialCoinSettings, wires: Wires) -> ScriptedDevice:
        built.append((settings, wires.key))
        return device

    monkeypatch.setitem(MONEY_DEVICES["coin_acceptor"].protocols, "serial", SERIAL_COINS)
    monkeypatch.setitem(ACCEPTORS, "serial", build_serial_coins)
    path = tmp_path / "config.toml"
    wiring = (
        "[devices]\nbuttons = { attendant = 7 }\n"
        "coin_acceptor = { protocol = 'serial', port = '/dev/ttyUSB1', channels = { 1 = 50, 2 = 70 } }"
    )
    path.write_text(wiring)
    with pytest.raises(
        ConfigError, match=r"devices\.coin_acceptor\.channels\.2: 70 is not one of money\.coins"
    ):
        load_config(path)
    path.write_text(wiring.replace("2 = 70", "2 = 100"))
    config = load_config(path, database=tmp_path / "kiosk.db")
    terminal = Terminal(config, books(config.database))
    cabinet = build_cabinet(config, terminal)
    assert built == [(SerialCoinSettings("/dev/ttyUSB1", {1: 50, 2: 100}), "coin_acceptor")]
    assert cabinet.acceptor is device
    device.queue = [Credit(100)]
    cabinet.step()
    assert terminal.credits == 100
    path.write_text(wiring.replace("'serial'", "'smoke'"))
    with pytest.raises(
        ConfigError, match=r"devices\.coin_acceptor\.protocol: 'pulse' or 'serial', not 'smoke'"
    ):
        load_config(path)
