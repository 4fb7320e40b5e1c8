"""Scripted input for headless runs (tests, soak runs): one input per line, played on the
cabinet's own devices over mock pins (buttons pressed, coins and notes sent as pulse
trains, the door switch thrown), so a script exercises the whole input path.

    coin 100        bill 500        bet        bonus        boxes        deal
    select 2        exchange        play       fold         sixth        insure 6000
    decline         buy card        buy game   cashout      key attendant
    door open       door close      wait 0.2   # a comment

An input that is not live at that moment is reported and skipped, as a dead button would
be; a coin or note while the acceptor is inhibited comes back. ``insure 6000`` sets the
amount as the screen's chooser would. The line reached is saved in the same transaction as
the input's effect, so a run killed at any instant and started again on the same database
goes on after the last input that took effect, never repeating one.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from oasis_kiosk._core import OasisError
from oasis_kiosk.hardware.desktop import MockCabinet
from oasis_kiosk.machine.intents import BUTTON_LABELS, INTENTS, Intent
from oasis_kiosk.machine.money_kinds import MONEY_KINDS

# Script words and the intent each sends: a button's intent with its underscores as spaces
# (``buy card``, ``repeat bet``), money, a card, the keys and the door. ``key operator`` turns
# the switch; a number after a word is the intent's value, for an intent that takes one
# (machine/intents.py).
WORDS: dict[str, str] = {
    **{kind: kind for kind in MONEY_KINDS},
    "select": Intent.CARD,
    **{name.replace("_", " "): name for name in BUTTON_LABELS if name != Intent.ATTENDANT},
    "key attendant": Intent.ATTENDANT,
    "key operator": "operator_key",
    "door open": Intent.DOOR_OPEN,
    "door close": Intent.DOOR_CLOSE,
}


CARDS = 5


class ScriptError(ValueError, OasisError):
    """A script that cannot be read, or a line of it that is not an input."""


class ScriptStoppedError(OasisError, RuntimeError):
    """The terminal could not commit an input: the run stops at that line."""


@dataclass(frozen=True)
class ScriptStep:
    """One line of a script: the intent it sends (``wait``: none, it waits) and its value."""

    line: int
    intent: str
    value: int | None
    wait: float = 0.0


def parse(text: str, source: str = "<script>") -> list[ScriptStep]:
    """Every step of a script, or a ScriptError naming the first bad line."""
    steps: list[ScriptStep] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip().lower()
        if not line:
            continue
        words = line.split()
        if words[0] == "wait":
            try:
                seconds = float(words[1]) if len(words) == 2 else -1.0
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds <= 3600:
                raise ScriptError(f"{source}:{number}: wait takes seconds, 0 to 3600: {raw.strip()!r}")
            steps.append(ScriptStep(number, "wait", None, seconds))
            continue
        numbers = [w for w in words if w.isascii() and w.isdigit()]
        phrase = " ".join(w for w in words if w not in numbers)
        if phrase not in WORDS:
            raise ScriptError(
                f"{source}:{number}: {raw.strip()!r} is not an input (inputs: {', '.join(WORDS)})"
            )
        intent = WORDS[phrase]
        takes_value = intent in INTENTS and INTENTS[Intent(intent)].takes_value
        if len(numbers) > int(takes_value) or (takes_value and intent != Intent.INSURE and not numbers):
            wanted = "an amount" if takes_value else "no number"
            raise ScriptError(f"{source}:{number}: {phrase} takes {wanted}: {raw.strip()!r}")
        if numbers and int(numbers[0]) > 10**12:
            raise ScriptError(f"{source}:{number}: {numbers[0]} is more than any amount: {raw.strip()!r}")
        if intent == Intent.CARD and not 1 <= int(numbers[0]) <= CARDS:
            raise ScriptError(f"{source}:{number}: select takes a card 1 to {CARDS}: {raw.strip()!r}")
        steps.append(ScriptStep(number, intent, int(numbers[0]) if numbers else None))
    return steps


@dataclass(frozen=True)
class Script:
    path: Path
    steps: list[ScriptStep]
    digest: str
    """Of the file's text: a run resumes only the same script."""


def read(path: Path) -> Script:
    """A script file, read and checked whole (before anything runs), or a ScriptError
    naming the file, the line and the reason."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ScriptError(f"{path}: cannot be read: {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ScriptError(f"{path}:{line}: not UTF-8 text") from None
    return Script(path, parse(text, str(path)), hashlib.sha256(data).hexdigest())


def run(
    cabinet: MockCabinet,
    script: Script | Path,
    report: Callable[[str], None] = print,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Runs a script on the cabinet, from after the last line a previous run of the same
    script committed. Returns the number of inputs that did nothing."""
    terminal = cabinet.terminal
    if isinstance(script, Path):
        script = read(script)
    path, steps, digest = script.path, script.steps, script.digest
    saved = terminal.store.get_state("script", {})
    done = saved.get("line", 0) if saved.get("digest") == digest else 0
    if done:
        report(f"resuming {path} after line {done}")
    refused = 0
    for step in steps:
        if step.line <= done:
            continue
        if step.intent == "wait":
            sleep(step.wait)
            cabinet.advance(step.wait)
            continue
        terminal.note = ("script", {"digest": digest, "line": step.line})
        ok, message = play(cabinet, step)
        terminal.note = None  # an input that committed nothing leaves no position
        shown = step.intent if step.value is None else f"{step.intent} {step.value}"
        if not ok and message.startswith(("database error:", "fault:")):
            # Nothing of this line was committed: stop here, so that a restart runs it again.
            raise ScriptStoppedError(f"line {step.line}: {shown}: {message}")
        if ok:
            report(f"line {step.line}: {shown}: {message}")
        else:
            refused += 1
            report(f"line {step.line}: {shown}: skipped: {message}")
    return refused


def play(cabinet: MockCabinet, step: ScriptStep) -> tuple[bool, str]:
    """One input on the cabinet's devices; what it did."""
    if step.intent in MONEY_KINDS:
        assert step.value is not None
        response = cabinet.insert(MONEY_KINDS[step.intent], step.value)
        return response.ok, response.message
    if step.intent == Intent.INSURE and step.value is not None:
        response = cabinet.terminal.handle(Intent.INSURE, step.value)
        return response.ok, response.message
    if step.intent in {Intent.DOOR_OPEN, Intent.DOOR_CLOSE}:
        responses = cabinet.switch("door", closed=step.intent == Intent.DOOR_OPEN)
    elif step.intent == "operator_key":  # the key turns one way, then back
        responses = cabinet.switch("operator_key", closed=not cabinet.closed("operator_key"))
    else:
        button = f"card{step.value}" if step.intent == Intent.CARD else step.intent
        if button not in cabinet.wiring.buttons:
            return False, f"there is no button {button}"
        responses = cabinet.press(button)
    if not responses:
        return False, "no effect"
    return responses[0].ok, responses[0].message
