"""``make bench``: the evaluator and shuffle benchmarks, side by side, as JSON.

Runs the Rust criterion benches (``rust/core/benches``), then times in this one process, on
the same random hands, ``oasis_kiosk.evaluate_many`` against the public Python evaluators
that install here (phevaluator's C extension and eval7 called hand by hand, treys in pure
Python), the game screen's frames against a full-screen blit, and the exact analysis of the
``caribbean`` profile (wall time and peak memory, in fresh processes), and the floor's hub
taking in the outboxes of 50 cabinets at once, then 50 terminals playing through their own
link agents (``--floor`` alone: a PostgreSQL server of its own, docs/floor.md). Writes ``bench/results.json`` and prints a table; ``--json`` prints the JSON instead.
Figures are medians over repeated runs; ratios compare figures from the same run.
"""

from __future__ import annotations

import argparse
import bisect
import importlib
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from oasis_kiosk import evaluate_many

ROOT = Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target" / "criterion"
RESULTS = ROOT / "bench" / "results.json"
HANDS = 1_000_000
REPEATS = 7
FLOOR_CABINETS = 50
FLOOR_BATCH = 100
FLOOR_ROUND_EVERY = 2.0
"""Seconds between one cabinet's rounds when real terminals play through their link agents:
a quick player's pace (a folded round with its animations takes about 5 s on the screen)."""
FLOOR_SECONDS = 10.0
# The outbox rows of a folded round of a linked cabinet, in proportion (docs/floor.md): one
# feeds the pool, the others the hub only keeps.
ROUND_ROWS = [
    "ledger",
    "jackpot_contribution",
    "ledger",
    "meter",
    "meter",
    "meter",
    "meter",
    "meter",
    "round",
]


def run_criterion() -> dict[str, dict[str, float]]:
    """Runs the criterion benches and reads their median times and element counts (only those
    this run wrote: criterion's folder keeps results of benches since removed)."""
    started = time.time()
    subprocess.run(
        [
            "cargo",
            "bench",
            "-p",
            "oasis-core",
            "--benches",
            "--",
            "--warm-up-time",
            "1",
            "--measurement-time",
            "3",
        ],
        cwd=ROOT,
        check=True,
        stdout=sys.stderr,
    )
    figures: dict[str, dict[str, float]] = {}
    for estimates in sorted(CRITERION.glob("**/new/estimates.json")):
        if estimates.stat().st_mtime < started:
            continue
        benchmark = json.loads((estimates.parent / "benchmark.json").read_text())
        median_ns = json.loads(estimates.read_text())["median"]["point_estimate"]
        elements = (benchmark.get("throughput") or {}).get("Elements", 1)
        figures[benchmark["full_id"]] = {
            "median_ms": median_ns / 1e6,
            "elements": elements,
            "per_second": elements / (median_ns / 1e9),
        }
    return figures


def median_seconds(work: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def python_evaluators(hands: np.ndarray) -> dict[str, dict[str, Any]]:
    """Evaluations per second of each evaluator on (a prefix of) the same hands."""
    flat = hands.tobytes()
    rows = hands.tolist()
    results: dict[str, dict[str, Any]] = {}

    def record(name: str, kind: str, count: int, work: Callable[[], object], repeats: int = REPEATS) -> None:
        seconds = median_seconds(work, repeats)
        results[name] = {"kind": kind, "hands": count, "median_s": seconds, "per_second": count / seconds}

    record("oasis_kiosk.evaluate_many", "Rust, batch", len(rows), lambda: evaluate_many(flat))

    def optional(module: str) -> Any:
        try:
            return importlib.import_module(module)
        except ImportError:
            print(f"{module} is not installed; left out", file=sys.stderr)
            return None

    if pheval := optional("phevaluator._pheval"):
        five = pheval.evaluate_5cards
        record("phevaluator (C)", "C extension, per hand", len(rows), lambda: [five(*h) for h in rows])
    if eval7 := optional("eval7"):
        deck = [eval7.Card(card) for card in (r + s for r in "23456789TJQKA" for s in "cdhs")]
        eval7_hands = [[deck[c] for c in h] for h in rows]
        record("eval7", "Cython, per hand", len(rows), lambda: [eval7.evaluate(h) for h in eval7_hands])
    if treys := optional("treys"):
        deck = [treys.Card.new(r + s) for r in "23456789TJQKA" for s in "cdhs"]
        subset = [[deck[c] for c in h] for h in rows[:100_000]]
        evaluator = treys.Evaluator()
        record(
            "treys",
            "pure Python, per hand",
            len(subset),
            lambda: [evaluator.evaluate(h[:2], h[2:]) for h in subset],
            repeats=3,
        )
    return results


FRAME_SIZES = ((1920, 1080), (1280, 720), (800, 480))
FRAMES = 240  # frames timed in each state
FRAME_STATES = ("idle", "press", "press_input", "dealing", "revealing", "win_count", "jackpot")
DRAWN_STATES = ("idle", "press", "dealing", "revealing", "win_count", "jackpot")
"""The frames the budget holds. A press's frames (HELP's page drawn over the table, then
the table again: the frame after the press, and the one after it, which paints what the
first left over its budget) are timed apart from the input's handling before them
("press_input": the press through the cabinet's pins, the terminal's transaction with its
durable commit, the screen reading the terminal again), which is the books' time, not
drawing's: it is reported beside, in the same yardstick."""
BUDGET_SIZE = "1920x1080"
BUSIEST_BLITS = 3.0
"""The busiest frame (the 99th percentile of every state, so that one preemption by the OS
does not count) costs at most this many full-screen blits at BUDGET_SIZE (issue 14)."""
IDLE_BLITS = 0.2
"""A frame where nothing moves (the median idle frame), in full-screen blits at BUDGET_SIZE."""
FRAME_CLOCK = time.thread_time
"""Frames and the yardstick blit are timed in the drawing thread's CPU time: the work a frame
costs, without the time the OS gives the other core's work (on a shared machine, one
preemption made a frame look ten times its cost)."""


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": statistics.median(ordered) * 1e3,
        "p99_ms": ordered[min(int(len(ordered) * 0.99), len(ordered) - 1)] * 1e3,
        "max_ms": ordered[-1] * 1e3,
    }


def frame_figures(tmp: Path) -> dict[str, Any]:
    """The game screen on SDL's dummy driver, at each size: one frame's work (input,
    updates, drawing, the display update) while idle, while cards are dealt and while a win
    counts up, median and 99th percentile, each against one full-screen blit at that size
    (the design's yardstick); the CPU an idle second takes at 60 frames per second; and,
    in a fresh process, the time from start to the first frame of the attract screen and
    the memory of a running kiosk at 1920x1080."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    import pygame

    figures: dict[str, Any] = {}
    for width, height in FRAME_SIZES:
        app, figures[f"{width}x{height}"] = size_figures(tmp, width, height)
    cpu, wall = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall < 2.0:
        app.frame()
    figures["idle_60fps"] = {"cpu_share": (time.process_time() - cpu) / (time.perf_counter() - wall)}
    pygame.quit()
    figures["start"] = start_figures(tmp)
    return figures


WINNING_DECK = "As Ad Ac Kd 2h / Ks Kh 4c 5c 9d"
"""Trips against a qualifying pair, so that each settled round counts a win up."""
JACKPOT_DECK = "As Ks Qs Js Ts / 2c 2d 4h 5h 7c"
"""A royal flush with the bonus bet on: the jackpot's count and its celebration."""


# Long: the frames of one size are measured in one sequence of play (idle, presses, deals,
# counts), each scene taking the table as the one before left it.
def size_figures(tmp: Path, width: int, height: int) -> tuple[Any, dict[str, Any]]:
    """One size's frames: idle, dealing, counting a win, against a full-screen blit."""
    from oasis_kiosk.config import Config
    from oasis_kiosk.machine.terminal import Terminal
    from oasis_kiosk.store.db import Store
    from oasis_kiosk.ui.app import STEP, App

    database = tmp / f"frames-{width}.db"
    deck = [WINNING_DECK]
    terminal = Terminal(
        Config(database=database),
        Store.create(database, currency="EUR", test=True),
        deck_for_round=lambda number: deck[0],
    )
    now = [0.0]
    app = App(terminal, size=(width, height), clock=lambda: now[0])
    yardstick: list[float] = []

    def blits() -> None:
        """The yardstick: full-screen blits of the screen's picture back to back, in the
        drawing thread's time, taken before the frames and after them so that both see the
        machine's load of the moment."""
        picture = app.screen.copy()
        for _ in range(25):
            start = FRAME_CLOCK()
            app.screen.blit(picture, (0, 0))
            yardstick.append(FRAME_CLOCK() - start)

    def frames(count: int) -> list[float]:
        samples = []
        for _ in range(count):
            now[0] += STEP
            start = FRAME_CLOCK()
            app.advance(STEP)
            samples.append(FRAME_CLOCK() - start)
        return samples

    for _ in range(10):
        app.key("f8")
    frames(30)
    blits()
    idle = frames(FRAMES)
    pressed: list[float] = []  # the frames that show a press (HELP: the rules over the table, and back)
    handled: list[float] = []  # the press's handling before them
    for _ in range(60):
        start = FRAME_CLOCK()
        app.key("h")
        handled.append(FRAME_CLOCK() - start)
        pressed += frames(2)
        frames(10)  # a player's presses are a sixth of a second apart at the quickest
    dealing: list[float] = []
    for _ in range(FRAMES // 20):  # each deal animates for about a third of a second
        app.key("return")
        while app.game.motions.busy(now[0]):
            dealing += frames(1)
        app.key("f")
        frames(5)
    counting: list[float] = []
    revealing: list[float] = []  # the dealer's cards turning, the outcome drawn ahead meanwhile

    def dealt() -> None:
        """A deal, and its frames until its cards lie face up (a press before only lands them)."""
        app.key("return")
        frames(30)
        while app.game.telling(now[0]):
            frames(1)

    while len(counting) < FRAMES:  # a count is about 70 frames: several rounds' worth
        dealt()
        app.key("p")
        while app.game.revealing(now[0]) or app.game.counting(now[0]):
            drawn = frames(1)  # a frame of the state at the moment it drew
            (counting if app.game.counting(now[0]) else revealing).extend(drawn)
        frames(int(1 / STEP))
    frames(int(5 / STEP))  # the count and everything after it ends
    deck[0] = JACKPOT_DECK
    app.key("n")  # the bonus bet, which wins the jackpot
    dealt()
    app.key("p")
    celebrating: list[float] = []
    while app.game.revealing(now[0]) or app.game.celebrating(now[0]):
        drawn = frames(1)
        (celebrating if app.game.celebrating(now[0]) else revealing).extend(drawn)
    blits()
    blit = statistics.median(yardstick)
    size: dict[str, Any] = {"blit_ms": blit * 1e3}
    states = (
        ("idle", idle),
        ("press", pressed),
        ("press_input", handled),
        ("dealing", dealing),
        ("revealing", revealing),
        ("win_count", counting),
        ("jackpot", celebrating),
    )
    for name, samples in states:
        measured = percentiles(samples)
        size[name] = {
            **measured,
            "frames": len(samples),
            **{f"{stat}_blits": measured[f"{stat}_ms"] / (blit * 1e3) for stat in ("median", "p99", "max")},
        }
    return app, size


def budget_breaches(frames: dict[str, Any]) -> list[str]:
    """The frame budgets at BUDGET_SIZE that a run broke; none: they hold."""
    figures = frames[BUDGET_SIZE]
    breaches = [
        f"{state}: its 99th percentile frame is {figures[state]['p99_blits']:.2f} full-screen blits,"
        f" over {BUSIEST_BLITS}"
        for state in DRAWN_STATES
        if figures[state]["p99_blits"] > BUSIEST_BLITS
    ]
    if figures["idle"]["median_blits"] > IDLE_BLITS:
        breaches.append(f"idle: {figures['idle']['median_blits']:.2f} full-screen blits, over {IDLE_BLITS}")
    return breaches


PEAK_RESIDENT = """
from pathlib import Path

def peak_resident():
    # This process's own high-water mark (getrusage's ru_maxrss keeps the parent's across exec).
    line = next(l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024
"""

START = (
    PEAK_RESIDENT
    + """
import sys, time
from oasis_kiosk.config import Config
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store
from oasis_kiosk.ui.app import App
database = Path(sys.argv[1])
app = App(Terminal(Config(database=database, attract_after=1), Store.create(database, currency="EUR")), size=(1920, 1080))
app.idle = 1.0
app.advance(1 / 60)
assert app.attract is not None, "the attract screen is up"
print(time.time())
for _ in range(300):
    app.advance(1 / 60)
print(peak_resident())
"""
)


def start_figures(tmp: Path) -> dict[str, float]:
    """Process start to the first attract frame (median of 5 fresh processes), and the
    peak resident memory of the kiosk after five seconds of attract mode at 1920x1080."""
    starts, memory = [], []
    for run in range(5):
        began = time.time()
        out = subprocess.run(
            [sys.executable, "-c", START, str(tmp / f"start-{run}.db")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        starts.append(float(out[0]) - began)
        memory.append(int(out[1]))
    return {"to_attract_s": statistics.median(starts), "peak_rss_mb": max(memory) / 2**20}


EXACT = (
    PEAK_RESIDENT
    + """
import json, os, time
from oasis_kiosk import exact_analysis, load_profile

profile = load_profile("caribbean")
before = peak_resident()
started = time.perf_counter()
analysis = exact_analysis(profile)
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "peak": peak_resident(), "before": before, "tables": analysis["table_bytes"],
                  "combinations": analysis["total_combinations"], "cores": os.cpu_count()}))
"""
)
EXACT_RUNS = 3


def exact_figures() -> dict[str, Any]:
    """The exact analysis of the caribbean profile, each run in a fresh process: its wall time
    (median of the runs) and the process's peak resident memory, beside what the process held
    before the analysis began and what its counting tables take."""
    runs = [
        json.loads(
            subprocess.run([sys.executable, "-c", EXACT], capture_output=True, text=True, check=True).stdout
        )
        for _ in range(EXACT_RUNS)
    ]
    return {
        "profile": "caribbean",
        "combinations": runs[0]["combinations"],
        "cores": runs[0]["cores"],
        "runs": EXACT_RUNS,
        "wall_s": statistics.median(run["seconds"] for run in runs),
        "wall_s_each": [run["seconds"] for run in runs],
        "peak_rss_mb": max(run["peak"] for run in runs) / 2**20,
        "rss_before_mb": max(run["before"] for run in runs) / 2**20,
        "tables_mb": runs[0]["tables"] / 2**20,
    }


# Long: one run of the floor (its server, its cabinets' threads and their timings) from
# start to stop, with the server's clean-up in its finally.
def floor_figures(
    seconds: float = FLOOR_SECONDS,
    cabinets: int = FLOOR_CABINETS,
    batch: int = FLOOR_BATCH,
    durable: bool = True,
    mix: bool = False,
) -> dict[str, Any]:
    """The hub's sustained intake: ``cabinets`` (FLOOR_CABINETS) threads in this process, each logged in as
    a cabinet of its own (``hub add-cabinet``: its own role, row-level security and all),
    send batches of ``batch`` (FLOOR_BATCH) outbox rows back to back through ``hub.ingest``
    (one transaction each, as the link agent sends them) for ``seconds``: every row a jackpot
    contribution, or with ``mix`` the rows of folded rounds (ROUND_ROWS), against a
    throwaway PostgreSQL server started here (tests/postgres.py) that syncs its commits to
    disk as a production hub does. Each row's ``committed_at`` is the moment its batch was
    made (the cabinet's commit); the delay is from then to the hub's ``received_at`` (the
    start of the transaction that took it in), and, measured by the cabinet, to the hub's
    acknowledgement of its commit."""
    sys.path.insert(0, str(ROOT / "tests"))
    import psycopg
    from postgres import Postgres

    from oasis_kiosk.floor import access, agent, hub

    server = Postgres.start(durable=durable)
    try:
        with tempfile.TemporaryDirectory() as tmp, server.connect(autocommit=True) as admin:
            owner, names = _bench_hub(server, admin, Path(tmp), cabinets)
            # As a link agent connects: its own statement timeout, for a batch that waits for
            # the pool behind fifty others (a cabinet's login alone ends a statement after 10 s).
            connections = [
                access.connect(Path(tmp) / f"{name}.toml", **agent.CONNECTION_OPTIONS) for name in names
            ]
            start = threading.Barrier(cabinets + 1)
            stop = threading.Event()
            acknowledged: list[list[float]] = [[] for _ in names]
            failures: list[BaseException] = []

            def made_row(number: int, seq: int) -> tuple[str, dict[str, Any]]:
                kind = ROUND_ROWS[seq % len(ROUND_ROWS)] if mix else "jackpot_contribution"
                if kind == "jackpot_contribution":
                    return kind, {"stake": 200, "round_id": f"{number}:{seq}"}
                if kind == "meter":
                    return kind, {"name": "coin_in", "value": seq}
                return kind, {"id": seq, "kind": "wager", "amount": -200, "credits_after": 10_000}

            def cabinet(number: int, connection: psycopg.Connection[Any]) -> None:
                seq = 0
                start.wait()
                try:
                    while not stop.is_set():
                        made = time.perf_counter()
                        at = datetime.now(UTC)
                        events = [
                            hub.Event(seq + i, *made_row(number, seq + i), at) for i in range(1, batch + 1)
                        ]
                        seq = hub.ingest(connection, events)
                        acknowledged[number].append(time.perf_counter() - made)
                except BaseException as error:
                    failures.append(error)

            threads = [threading.Thread(target=cabinet, args=pair) for pair in enumerate(connections)]
            for thread in threads:
                thread.start()
            start.wait()
            began = time.perf_counter()
            time.sleep(seconds)
            stop.set()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - began
            for connection in connections:
                connection.close()
            if failures:
                raise failures[0]
            row = owner.execute(
                """SELECT count(*),
                          percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
                              (ORDER BY extract(epoch FROM received_at - committed_at)),
                          max(extract(epoch FROM received_at - committed_at)),
                          (SELECT count(*) FROM hub.contributions),
                          count(*) FILTER (WHERE kind = 'jackpot_contribution'),
                          pg_relation_size('hub.pool') / current_setting('block_size')::int,
                          pg_relation_size('hub.cabinets') / current_setting('block_size')::int
                   FROM hub.events"""
            ).fetchone()
            assert row is not None
            rows, (median, p99), worst, contributions, sent, pool_pages, cabinet_pages = (
                int(row[0]),
                row[1],
                float(row[2]),
                int(row[3]),
                int(row[4]),
                int(row[5]),
                int(row[6]),
            )
            pool = hub.pool(owner).value
            owner.close()
    finally:
        server.stop()
    assert contributions == sent, "every contribution applied once"
    batches = [delay for delays in acknowledged for delay in delays]
    return {
        "cabinets": cabinets,
        "how": "threads, each logged in as its own cabinet, calling hub.ingest back to back",
        "batch": batch,
        "seconds": elapsed,
        "rows": rows,
        "rows_per_second": rows / elapsed,
        "mix": "a folded round's rows (1 in 9 a contribution)" if mix else "contributions only",
        "contributions_per_second": contributions / elapsed,
        "batches_per_second": len(batches) / elapsed,
        "received_delay": {"median_ms": median * 1e3, "p99_ms": p99 * 1e3, "max_ms": worst * 1e3},
        "acknowledged_delay": percentiles(batches),
        "pool": pool,
        # The pool's one row, in pages: each contribution updates it, and dead versions
        # pile up while the other cabinets' transactions wait on its lock.
        "pool_pages": pool_pages,
        # The cabinets' rows (one each, updated twice by every row received), in pages.
        "cabinet_pages": cabinet_pages,
        "server": "durable (fsync and synchronous_commit on)"
        if durable
        else "fsync and synchronous_commit off",
    }


def _bench_hub(server: Any, admin: Any, directory: Path, cabinets: int) -> tuple[Any, list[str]]:
    """A migrated hub in the database ``bench`` of ``server``, with ``cabinets`` cabinets
    whose credentials are ``directory/NAME.toml``: its owner's connection and the names."""
    from psycopg import sql

    from oasis_kiosk.floor import access, hub, migrate

    admin.execute(sql.SQL("CREATE ROLE bench_owner LOGIN CREATEROLE PASSWORD 'bench'"))
    admin.execute(sql.SQL("CREATE DATABASE bench OWNER bench_owner"))
    owner = access.connect(server.conninfo("bench", "bench_owner", "bench"))
    migrate.migrate(owner)
    hub.set_parameters(owner, "bench", reset=1000, rate_ppm=20_000, maximum=10**12, reserve_rate_ppm=5000)
    names = [f"b{number:02d}" for number in range(cabinets)]
    for name in names:
        access.add_cabinet(owner, name, directory / f"{name}.toml")
    return owner, names


def _hold_timed_agent() -> type:
    from oasis_kiosk.floor import agent
    from oasis_kiosk.store.db import Store

    class HoldTimedAgent(agent.Agent):
        """A link agent that notes when the hub confirmed it holds each row: the hub's commit
        is done by then, so a row's delay to it is the delay to the hub holding it."""

        def __init__(self, *arguments: Any, **options: Any) -> None:
            super().__init__(*arguments, **options)
            self.held_at: list[tuple[int, float]] = []

        def _record(self, held: int) -> None:
            super()._record(held)
            self.held_at.append((held, time.time()))

        def delays_since(self, since: datetime) -> list[float]:
            """Seconds from each row's commit (at ``since`` or later) to the hub's answer."""
            store = Store(self.database, read_only=True)
            try:
                rows = store.outbox_rows(0, 10**9)
            finally:
                store.close()
            helds = [held for held, _ in self.held_at]
            delays = []
            for row in rows:
                committed = datetime.fromisoformat(row.committed_at)
                if committed >= since:
                    answered = self.held_at[bisect.bisect_left(helds, row.seq)][1]
                    delays.append(answered - committed.timestamp())
            return delays

    return HoldTimedAgent


# Long: one run of the floor through its agents (its server, the terminals' pace, the
# agents' threads, the catching up and the hub's timings), read top to bottom.
def floor_agents_figures(
    seconds: float = FLOOR_SECONDS,
    cabinets: int = FLOOR_CABINETS,
    round_every: float = FLOOR_ROUND_EVERY,
) -> dict[str, Any]:
    """The floor end to end: ``cabinets`` real terminals, each on books of its own (SQLite,
    linked, with the linked jackpot), play folded rounds with the bonus bet, together a
    round every ``round_every / cabinets`` seconds, for ``seconds``; each cabinet's own link
    agent (``floor/agent.py``, as ``oasis-kiosk link`` runs it, default batch and polling)
    pushes its outbox to a durable PostgreSQL started here and follows the pool; play begins
    once every agent has reached the hub. Terminals
    and agents are threads of this one process: on a floor each cabinet has its own
    computer, so the figures are a bound from below. The delay is from the cabinet's commit
    (the outbox row's ``committed_at``) to the hub's ``received_at`` (the start of the
    transaction that took it in) for the rows of the rounds played (not the money put in
    before the agents started); every row is checked to reach the hub exactly once."""
    sys.path.insert(0, str(ROOT / "tests"))
    from floor import linked_terminal, play
    from postgres import Postgres

    from oasis_kiosk.floor import agent

    hold_timed_agent = _hold_timed_agent()
    server = Postgres.start(durable=True)
    try:
        with tempfile.TemporaryDirectory() as tmp, server.connect(autocommit=True) as admin:
            directory = Path(tmp)
            owner, names = _bench_hub(server, admin, directory, cabinets)
            terminals = [linked_terminal(directory / f"{name}.db") for name in names]
            for terminal in terminals:
                play(terminal, 0)  # money in and the bonus bet on
            agents = [
                hold_timed_agent(directory / f"{name}.db", directory / f"{name}.toml") for name in names
            ]
            threads = [threading.Thread(target=link.run) for link in agents]
            for thread in threads:
                thread.start()
            try:
                # Steady play, not 50 logins at once: every agent has reached the hub first.
                deadline = time.monotonic() + 60
                while not all(link.status.connected for link in agents):
                    assert time.monotonic() < deadline, "the agents never all reached the hub"
                    time.sleep(0.05)
                gap = round_every / cabinets
                play_began = datetime.now(UTC)
                began = time.perf_counter()
                rounds = 0
                while (now := time.perf_counter()) - began < seconds:
                    play(terminals[rounds % cabinets], 1)
                    rounds += 1
                    time.sleep(max(0.0, began + rounds * gap - time.perf_counter()))
                played = now - began
                deadline = time.monotonic() + 120
                while (
                    any(link.status.held < agent.outbox_last(link.database) for link in agents)
                    and time.monotonic() < deadline
                ):
                    time.sleep(0.05)
                caught_up = time.perf_counter() - began - played
            finally:
                for link in agents:
                    link.stop()
                for thread in threads:
                    thread.join()
                for terminal in terminals:
                    terminal.store.close()
            written = sum(agent.outbox_last(directory / f"{name}.db") for name in names)
            held_after = [delay for link in agents for delay in link.delays_since(play_began)]
            row = owner.execute(
                """SELECT count(*),
                          percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
                              (ORDER BY extract(epoch FROM received_at - committed_at)),
                          max(extract(epoch FROM received_at - committed_at)),
                          count(*) FILTER (WHERE kind = 'jackpot_contribution')
                   FROM hub.events WHERE committed_at >= %s""",
                [play_began],
            ).fetchone()
            everything = owner.execute("SELECT count(*) FROM hub.events").fetchone()
            owner.close()
    finally:
        server.stop()
    assert row is not None
    assert everything is not None
    held, (median, p99), worst, contributions = int(row[0]), row[1], float(row[2]), int(row[3])
    assert everything[0] == written, f"the hub holds {everything[0]} rows of the {written} the cabinets wrote"
    return {
        "cabinets": cabinets,
        "how": "real terminals on their own books, each with its own link agent; threads of one process",
        "seconds": played,
        "rounds": rounds,
        "rounds_per_second": rounds / played,
        "rows": held,
        "rows_per_second": held / played,
        "contributions_per_second": contributions / played,
        "caught_up_after_s": caught_up,
        "received_delay": {"median_ms": median * 1e3, "p99_ms": p99 * 1e3, "max_ms": worst * 1e3},
        "held_delay": percentiles(held_after),
    }


def floor_scenarios() -> dict[str, dict[str, Any]]:
    """The hub's intake from FLOOR_CABINETS cabinets: every row a contribution (the pool's
    lock taken by each), then the rows of whole rounds; then the floor end to end, real
    terminals playing through their own link agents."""
    return {
        "contributions": floor_figures(),
        "rounds": floor_figures(mix=True),
        "agents": floor_agents_figures(),
    }


def print_floor(floor: dict[str, Any]) -> None:
    if "rounds_per_second" in floor:
        print_floor_agents(floor)
        return
    received, acknowledged = floor["received_delay"], floor["acknowledged_delay"]
    print(
        f"\nthe hub ({floor['cabinets']} cabinets as threads, batches of {floor['batch']} rows: {floor['mix']}, "
        f"{floor['seconds']:.1f} s)\n"
        f"  sustained intake {floor['rows_per_second']:,.0f} rows/s, {floor['contributions_per_second']:,.0f} "
        f"contributions/s ({floor['batches_per_second']:,.1f} batches/s, {floor['rows']:,} rows)\n"
        f"  cabinet's commit to the hub's received_at: median {received['median_ms']:.1f} ms, "
        f"p99 {received['p99_ms']:.1f} ms, max {received['max_ms']:.1f} ms\n"
        f"  cabinet's commit to the hub's acknowledged commit: median {acknowledged['median_ms']:.1f} ms, "
        f"p99 {acknowledged['p99_ms']:.1f} ms, max {acknowledged['max_ms']:.1f} ms\n"
        f"  server {floor['server']}; the pool's one row left {floor['pool_pages']} pages "
        f"behind, the cabinets' {floor['cabinets']} rows {floor['cabinet_pages']}"
    )


def print_floor_agents(floor: dict[str, Any]) -> None:
    received, held = floor["received_delay"], floor["held_delay"]
    print(
        f"\nthe floor through its link agents ({floor['cabinets']} {floor['how']}, {floor['seconds']:.1f} s)\n"
        f"  {floor['rounds_per_second']:,.1f} rounds/s played, {floor['rows_per_second']:,.0f} rows/s and "
        f"{floor['contributions_per_second']:,.1f} contributions/s taken in ({floor['rows']:,} rows, "
        f"all held once; caught up {floor['caught_up_after_s']:.1f} s after the last round)\n"
        f"  cabinet's commit to the hub's received_at: median {received['median_ms']:.1f} ms, "
        f"p99 {received['p99_ms']:.1f} ms, max {received['max_ms']:.1f} ms\n"
        f"  cabinet's commit to the hub holding it (its answer to the agent): median {held['median_ms']:.1f} ms, "
        f"p99 {held['p99_ms']:.1f} ms, max {held['max_ms']:.1f} ms"
    )


def summary(rust: dict[str, dict[str, float]], python: dict[str, dict[str, Any]]) -> dict[str, Any]:
    ours = python["oasis_kiosk.evaluate_many"]["per_second"]
    ratios: dict[str, float] = {}
    if "random/eval/5" in rust:
        ratios["rust_eval5_over_python_batch"] = rust["random/eval/5"]["per_second"] / ours
    for name, figures in python.items():
        if name != "oasis_kiosk.evaluate_many":
            ratios[f"python_batch_over_{name.split()[0]}"] = ours / figures["per_second"]
    pure = [f["per_second"] for f in python.values() if f["kind"].startswith("pure Python")]
    if pure:
        ratios["python_batch_over_fastest_pure_python"] = ours / max(pure)
    return ratios


def rate(per_second: float, unit: str) -> str:
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= scale:
            return f"{per_second / scale:.1f} {prefix}{unit}/s"
    return f"{per_second:.3g} {unit}/s"


def duration(seconds: float) -> str:
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def print_frames(frames: dict[str, Any]) -> None:
    print("\nframes (SDL dummy driver)      median    p99   in full-screen blits: median    p99    max")
    for size, figures in frames.items():
        if "blit_ms" not in figures:
            continue
        print(f"  {size} (one full blit {figures['blit_ms']:.3f} ms)")
        for state in FRAME_STATES:
            f = figures[state]
            print(
                f"    {state:<24}{f['median_ms']:>7.3f} ms{f['p99_ms']:>7.3f} ms"
                f"{f['median_blits']:>26.2f}x{f['p99_blits']:>6.2f}x{f['max_blits']:>6.2f}x"
            )
    breaches = budget_breaches(frames)
    print(
        f"  budgets at {BUDGET_SIZE} (busiest frame ≤ {BUSIEST_BLITS} blits, idle ≤ {IDLE_BLITS}): "
        + ("held" if not breaches else "NOT held: " + "; ".join(breaches))
    )


def print_table(report: dict[str, Any]) -> None:
    print(f"\n{'Rust (criterion, median)':<42}{'throughput':>18}{'median per run':>16}")
    for name, figures in report["rust"].items():
        unit = "hands" if "eval" in name or "batch" in name else "rounds" if "simulation" in name else "runs"
        seconds = figures["median_ms"] / 1e3
        print(f"{name:<42}{rate(figures['per_second'], unit):>18}{duration(seconds):>16}")
    print(f"\n{'Python, same 1M random 5-card hands':<42}{'hands/s':>16}  kind")
    for name, figures in report["python"].items():
        print(f"{name:<42}{figures['per_second'] / 1e6:>14.2f} M  {figures['kind']}")
    print_frames(report["frames"])
    print(f"  idle at 60 fps: {report['frames']['idle_60fps']['cpu_share'] * 100:.1f} % of one core")
    start = report["frames"]["start"]
    print(
        f"  start to attract screen {start['to_attract_s']:.2f} s, peak memory {start['peak_rss_mb']:.0f} MB"
    )
    exact = report["exact_analysis"]
    print(
        f"\nexact analysis ({exact['profile']}, {exact['combinations']:,} combinations, {exact['cores']} cores)\n"
        f"  wall time {exact['wall_s']:.2f} s (median of {exact['runs']} fresh processes), "
        f"peak memory {exact['peak_rss_mb']:.0f} MB "
        f"({exact['rss_before_mb']:.0f} MB before it began, counting tables {exact['tables_mb']:.0f} MB)"
    )
    for figures in report["floor"].values():
        print_floor(figures)
    print("\nratios")
    for name, ratio in report["ratios"].items():
        print(f"  {name:<52}{ratio:>10.1f}x")


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--json", action="store_true", help="print the JSON report instead of the table")
    options.add_argument("--no-rust", action="store_true", help="skip the criterion benches")
    options.add_argument("--frames", action="store_true", help="only the screen's frames and their budgets")
    options.add_argument(
        "--floor",
        action="store_true",
        help="only the hub's intake from 50 cabinets, and 50 through their agents (starts its own PostgreSQL)",
    )
    arguments = options.parse_args()
    if arguments.floor:
        floor = floor_scenarios()
        if arguments.json:
            print(json.dumps(floor, indent=2))
        else:
            for figures in floor.values():
                print_floor(figures)
        return 0
    if arguments.frames:
        with tempfile.TemporaryDirectory() as tmp:
            frames = frame_figures(Path(tmp))
        print_frames(frames)
        return 1 if budget_breaches(frames) else 0

    rust = {} if arguments.no_rust else run_criterion()
    rng = np.random.default_rng(2026)
    hands = np.argpartition(rng.random((HANDS, 52)), 5, axis=1)[:, :5].astype(np.uint8)
    python = python_evaluators(hands)
    with tempfile.TemporaryDirectory() as tmp:
        frames = frame_figures(Path(tmp))
    exact = exact_figures()
    floor = floor_scenarios()
    report = {
        "machine": {"platform": platform.platform(), "python": platform.python_version()},
        "rust": rust,
        "python": python,
        "ratios": summary(rust, python),
        "frames": frames,
        "exact_analysis": exact,
        "floor": floor,
    }
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
        print(f"\nwritten to {RESULTS.relative_to(ROOT)}")
    return 1 if budget_breaches(frames) else 0


if __name__ == "__main__":
    sys.exit(main())
