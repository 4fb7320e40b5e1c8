"""The cabinet: its devices wired to the terminal.

Each frame the main loop calls ``step()``: button presses and decoded coins become the
terminal's intents, device noise and rejected coins go to the event log, a device fault
tilts the terminal; then the lamps and the acceptor's inhibit line follow what is live.
"""

from __future__ import annotations

from oasis_kiosk.hardware.coin import CoinAcceptor
from oasis_kiosk.hardware.panel import Panel
from oasis_kiosk.hardware.pulses import Credit, Fault, Glitch, Rejected
from oasis_kiosk.machine.terminal import Response, Terminal


class Cabinet:
    def __init__(
        self, terminal: Terminal, panel: Panel | None = None, acceptor: CoinAcceptor | None = None
    ) -> None:
        self.terminal = terminal
        self.panel = panel
        self.acceptor = acceptor
        self.update_outputs()

    def step(self) -> list[Response]:
        responses = []
        if self.acceptor is not None:
            for event in self.acceptor.poll():
                match event:
                    case Credit(value=value):
                        responses.append(self.terminal.handle("coin", value))
                    case Rejected(pulses=pulses):
                        self.terminal.device_event("coin_rejected", pulses=pulses)
                    case Glitch(width=width):
                        self.terminal.device_event("coin_line_noise", width_ms=round(width * 1000, 1))
                    case Fault(reason=reason):
                        self.terminal.device_fault("coin_acceptor", reason)
        if self.panel is not None:
            for press in self.panel.poll():
                responses.append(self.terminal.handle(press.intent, press.value))
        self.update_outputs()
        return responses

    def update_outputs(self) -> None:
        live = self.terminal.live()
        if self.panel is not None:
            self.panel.show(live)
        if self.acceptor is not None:
            self.acceptor.inhibited = "coin" not in live
