"""The books as a gaming lab attacks them: a second process, lost or replaced files, edited
rows, test hooks on real books, and reading while the kiosk runs."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support import logged_in_menu

from oasis_kiosk.cli import main
from oasis_kiosk.config import Config, ConfigError
from oasis_kiosk.machine import books_money
from oasis_kiosk.machine.audit import audit
from oasis_kiosk.machine.operator import OperatorError
from oasis_kiosk.machine.terminal import Terminal, seeds_from
from oasis_kiosk.store.books import BooksFiles
from oasis_kiosk.store.db import Store, StoreError

PAGE = 4096
SESSION = "bill 5000\nbonus\ndeal\nplay\ncoin 100\n"


def fingerprint(database: Path) -> tuple[str, str]:
    """What the books hold, every row of every table, and their mark: to show that something
    touched nothing (SQLite's own files change with every opening)."""
    mark = BooksFiles(database).mark
    raw = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = "\n".join(raw.iterdump())
    finally:
        raw.close()
    return hashlib.sha256(rows.encode()).hexdigest(), mark.read_text() if mark.exists() else ""


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """Real books with a session played on them (a bill, a round, a coin), closed."""
    database, script = tmp_path / "kiosk.db", tmp_path / "session.txt"
    script.write_text(SESSION)
    assert main(["init", "--db", str(database)]) == 0
    assert main(["run", "--headless", "--script", str(script), "--db", str(database)]) == 0
    return database


def run_script(database: Path, text: str, *extra: str) -> int:
    script = database.with_name("more.txt")
    script.write_text(text)
    return main(["run", "--headless", "--script", str(script), "--db", str(database), *extra])


@pytest.fixture
def holder(played: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process that holds the books open for writing, as a running kiosk does."""
    code = (
        "import sys, time\n"
        "from oasis_kiosk.store.db import Store\n"
        f"store = Store({str(played)!r})\n"
        "print('holding', flush=True)\n"
        "time.sleep(60)\n"
    )
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "holding"
        yield process
        process.kill()


# Two processes.


def test_a_second_process_on_held_books_refuses_to_start_and_touches_nothing(
    played: Path, holder: subprocess.Popen[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = fingerprint(played)
    capsys.readouterr()
    assert run_script(played, "coin 100\ndeal\nplay\n") == 3
    error = capsys.readouterr().err
    assert f"the books are in use by another process (pid {holder.pid})" in error
    assert fingerprint(played) == before


def test_another_path_to_held_books_through_symbolic_links_shares_their_lock(
    played: Path, holder: subprocess.Popen[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Links to the database, key and mark in another folder had a lock of their own: a
    second kiosk credited a note into books a running one held."""
    elsewhere = played.parent / "elsewhere"
    elsewhere.mkdir()
    for name in ("kiosk.db", "kiosk.db.key", "kiosk.db.books"):
        (elsewhere / name).symlink_to(played.parent / name)
    before = fingerprint(played)
    capsys.readouterr()
    assert run_script(elsewhere / "kiosk.db", "bill 5000\n") == 3
    assert f"in use by another process (pid {holder.pid})" in capsys.readouterr().err
    assert fingerprint(played) == before


def test_books_opened_through_a_linked_database_path_keep_their_key_and_mark_beside_it(
    played: Path,
) -> None:
    """A cabinet whose configured database is a symbolic link, with the key and mark beside
    the link, as earlier releases kept them: it opens, and plays, as before."""
    elsewhere = played.parent / "data"
    elsewhere.mkdir()
    (elsewhere / "kiosk.db").symlink_to(played)
    for name in ("kiosk.db.key", "kiosk.db.books"):
        (played.parent / name).rename(elsewhere / name)
    assert run_script(elsewhere / "kiosk.db", "bill 5000\n") == 0
    assert main(["audit", "--db", str(elsewhere / "kiosk.db")]) == 0


def test_a_ram_clear_of_held_books_is_refused_before_anything_is_moved(
    played: Path, holder: subprocess.Popen[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The running kiosk would go on booking into the files moved aside, and the next start
    would find new books under the old ones' mark."""
    before = fingerprint(played)
    capsys.readouterr()
    assert main(["init", "--ram-clear", "--db", str(played)]) == 3
    error = capsys.readouterr().err
    assert f"the books are in use by another process (pid {holder.pid})" in error
    assert fingerprint(played) == before
    assert not list(played.parent.glob("kiosk.db*.cleared-*")), "nothing moved aside"


def test_a_killed_holder_never_blocks_the_restart(played: Path, holder: subprocess.Popen[str]) -> None:
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert run_script(played, "coin 100\n") == 0
    assert Store(played, read_only=True).meters()["coins_in_100"] == 2


def test_the_meters_audit_and_recall_read_while_the_kiosk_holds_the_books(
    played: Path, holder: subprocess.Popen[str], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["meters", "--json", "--db", str(played)]) == 0
    assert json.loads(capsys.readouterr().out)["total_in"] == 5100
    assert main(["audit", "--db", str(played)]) == 0
    assert "audit passed" in capsys.readouterr().out
    assert main(["recall", "--db", str(played)]) == 0
    assert "round 1" in capsys.readouterr().out


def test_the_read_commands_work_on_a_copy_and_write_nothing_to_it(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in (played, BooksFiles(played).key, BooksFiles(played).mark):
        shutil.copy(path, copy / path.name)
    copied = copy / played.name
    before = fingerprint(copied)
    for path in copy.iterdir():
        path.chmod(0o444)
    copy.chmod(0o555)
    try:
        capsys.readouterr()
        assert main(["meters", "--json", "--db", str(copied)]) == 0
        assert json.loads(capsys.readouterr().out)["total_in"] == 5100
        assert main(["audit", "--db", str(copied)]) == 0
    finally:
        copy.chmod(0o755)
    assert fingerprint(copied) == before
    assert not (copy / "kiosk.db.lock").exists()


# Lost books.


def test_missing_books_whose_mark_remains_are_refused_never_started_afresh(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played.unlink()
    capsys.readouterr()
    assert run_script(played, "coin 100\n") == 3
    assert "the database is missing, but its books mark says it held" in capsys.readouterr().err
    assert not played.exists()


def test_an_emptied_database_file_is_refused(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played.write_bytes(b"")
    capsys.readouterr()
    assert run_script(played, "coin 100\n") == 3
    assert "the database file is empty (0 bytes)" in capsys.readouterr().err
    assert played.stat().st_size == 0


def test_books_that_lost_their_write_ahead_log_are_refused(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    Store.create(database, currency="EUR").close()
    store = Store(database)
    with store.transaction():
        store.post("bill_in", 5000, denomination=5000)
    # The commit is in the log until a checkpoint: copy the books as they are on the card
    # without their log, as a deleted -wal file leaves them.
    lost = tmp_path / "lost"
    lost.mkdir()
    for path in (database, BooksFiles(database).key, BooksFiles(database).mark):
        shutil.copy(path, lost / path.name)
    store.close()
    with pytest.raises(StoreError, match="committed transactions were lost"):
        Store(lost / database.name)


def test_books_put_back_from_an_older_copy_are_refused(played: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.db"
    shutil.copy(played, older)
    assert run_script(played, "coin 100\n") == 0
    shutil.copy(older, played)
    with pytest.raises(StoreError, match="committed transactions were lost"):
        Store(played)


def test_a_missing_books_mark_is_refused(played: Path) -> None:
    BooksFiles(played).mark.unlink()
    with pytest.raises(StoreError, match="the books mark is missing"):
        Store(played)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"seq": 5}, "seal 5 is not the one the books mark holds"),
        ({"seal": "0" * 64}, "is not the one the books mark holds"),
        ({"books": "someone-elses"}, "the mark beside them is of books someone-elses"),
    ],
)
def test_an_edited_books_mark_fails_the_audit_as_it_fails_the_start(
    played: Path, capsys: pytest.CaptureFixture[str], edit: dict[str, object], said: str
) -> None:
    """The audit passed books the kiosk would not open: read at every meter reading, it must
    say what the start says."""
    mark = BooksFiles(played).mark
    mark.write_text(json.dumps({**json.loads(mark.read_text()), **edit}) + "\n")
    with pytest.raises(StoreError, match=said):
        Store(played)
    capsys.readouterr()
    assert main(["audit", "--db", str(played)]) == 1
    assert said in capsys.readouterr().out


def test_a_missing_seal_key_is_refused(played: Path) -> None:
    BooksFiles(played).key.unlink()
    with pytest.raises(StoreError, match="the seal key of these books is missing"):
        Store(played)


def test_a_mistyped_database_path_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mistyped = tmp_path / "no" / "such" / "kiosk.db"
    for command in (["meters"], ["audit"], ["recall"], ["set-pin"]):
        assert main([*command, "--db", str(mistyped)]) == 3
    assert run_script(tmp_path / "kiosk.db", "coin 100\n", "--db", str(mistyped)) == 3
    assert "there are no books here" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()
    assert not (tmp_path / "kiosk.db").exists()


def test_only_init_makes_books_and_never_over_books_that_are_there(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = fingerprint(played)
    capsys.readouterr()
    assert main(["init", "--db", str(played)]) == 3
    assert "already there" in capsys.readouterr().err
    assert fingerprint(played) == before
    assert main(["init", "--if-missing", "--db", str(played)]) == 0
    assert fingerprint(played) == before


def test_a_ram_clear_keeps_the_old_books_aside_and_starts_empty_ones(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = Store(played, read_only=True)
    old_books = old.books
    old.close()
    assert main(["init", "--ram-clear", "--db", str(played)]) == 0
    kept = {p.name.split(".cleared-")[0] for p in played.parent.glob("kiosk.db*.cleared-*")}
    assert {"kiosk.db", "kiosk.db.books", "kiosk.db.key"} <= kept
    store = Store(played, read_only=True)
    assert store.credits() == 0
    assert store.books is not None
    assert old_books is not None
    assert store.books.id != old_books.id
    assert [event["kind"] for event in store.events()] == ["books_created"]


def test_make_run_creates_its_books_once_in_the_documented_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    database = tmp_path / "oasis-kiosk" / "kiosk.db"
    assert main(["init", "--if-missing"]) == 0
    first = fingerprint(database)
    assert main(["init", "--if-missing"]) == 0
    assert fingerprint(database) == first
    makefile = (Path(__file__).parent.parent / "Makefile").read_text()
    assert "oasis-kiosk init --if-missing" in makefile


# Sealed books.


def edit(database: Path, *statements: str) -> None:
    """What someone with the file but not the key can do."""
    raw = sqlite3.connect(database)
    for statement in statements:
        raw.execute(statement)
    raw.commit()
    raw.close()


ATTACKS: dict[str, tuple[Callable[[Path], None], str]] = {
    "an edited credit": (
        lambda db: edit(
            db,
            "UPDATE ledger SET credits_after = credits_after + 100000 WHERE id = (SELECT MAX(id) FROM ledger)",
        ),
        "ledger row {last_ledger} was changed after it was sealed",
    ),
    "a forged bill with matching meters": (
        lambda db: edit(
            db,
            "INSERT INTO ledger (at, kind, amount, credits_after, detail) SELECT at, 'bill_in', 5000, "
            "credits_after + 5000, '{\"denomination\": 5000}' FROM ledger ORDER BY id DESC LIMIT 1",
            "UPDATE meters SET value = value + 5000 WHERE name = 'total_in'",
            "UPDATE meters SET value = value + 1 WHERE name = 'bills_in_5000'",
        ),
        "ledger row {next_ledger} has no seal: it was written outside the terminal",
    ),
    "a deleted event": (
        lambda db: edit(db, "DELETE FROM events WHERE id = 2"),
        "events row 2 was deleted after it was sealed",
    ),
    "a cleared tilt": (
        lambda db: edit(
            db,
            "UPDATE state SET value = json_set(value, '$.tilts', json('{}')) WHERE key = 'terminal'",
        ),
        "state row terminal was changed after it was sealed",
    ),
    "a changed seed": (
        lambda db: edit(
            db, "UPDATE rounds SET record = json_set(record, '$.deck.seed', '" + "11" * 32 + "') WHERE id = 1"
        ),
        "rounds row 1 was changed after it was sealed",
    ),
    "zeroed meters": (
        lambda db: edit(db, "UPDATE meters SET value = 0"),
        "meters row total_in was changed after it was sealed",
    ),
    "a deleted seal": (
        lambda db: edit(db, "DELETE FROM seals WHERE seq = 3"),
        "seals 3 to 3 are missing: the chain was cut",
    ),
}


def tilted(database: Path) -> None:
    """A tilt stored in the books (the door open): what 'a cleared tilt' clears."""
    store = Store(database)
    terminal = Terminal(Config(database=database), store)
    terminal.handle("door_open")
    store.close()


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_audit_and_the_start_find_every_edit_of_the_books(
    attack: str, played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tilted(played)
    with sqlite3.connect(played) as raw:
        last_ledger = raw.execute("SELECT MAX(id) FROM ledger").fetchone()[0]
    change, finding = ATTACKS[attack]
    finding = finding.format(last_ledger=last_ledger, next_ledger=last_ledger + 1)
    change(played)
    capsys.readouterr()
    assert main(["audit", "--db", str(played)]) == 1
    assert f"DISCREPANCY: {finding}" in capsys.readouterr().out
    before = fingerprint(played)
    terminal = Terminal(Config(database=played), Store(played))
    assert terminal.books_fault is not None
    assert finding in terminal.books_fault
    assert terminal.live() == set(), "no lamp lit, no money taken"
    assert not terminal.handle("bill", 5000).ok
    assert not terminal.handle("attendant").ok
    assert "books" in terminal.tilts
    terminal.store.close()
    assert fingerprint(played) == before, "books that fail their check are not written to"


def test_sound_books_pass_the_full_check_after_a_session(played: Path) -> None:
    store = Store(played, read_only=True)
    assert store.verify_seals(full=True) == []
    assert store.start_problems() == []
    assert audit(store).ok


# Corrupt data.


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        (
            "UPDATE state SET value = '{not json' WHERE key = 'terminal'",
            "the stored 'terminal' state is damaged",
        ),
        ("UPDATE state SET value = '{\"boxes\": \"two\"}' WHERE key = 'terminal'", "boxes is 'two'"),
        ("UPDATE rounds SET record = 'garbage' WHERE id = 1", "round 1's record is damaged"),
        ("UPDATE profiles SET data = '{' ", "stored profile"),
        ("UPDATE ledger SET detail = 'x' WHERE id = 1", "ledger row 1's detail is damaged"),
    ],
)
def test_corrupt_data_is_a_tilt_with_its_reason_and_an_audit_finding_never_a_traceback(
    statement: str, named: str, played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if "rounds" in statement or "profiles" in statement:
        assert run_script(played, "deal\n") == 0  # leaves a round open: its record is read at start
    edit(played, statement)
    capsys.readouterr()
    assert main(["audit", "--db", str(played)]) == 1
    output = capsys.readouterr().out
    assert "audit FAILED" in output
    assert run_script(played, "coin 100\n") == 3
    assert "TILT (books)" in capsys.readouterr().out


# Test hooks on real books.


def test_known_decks_are_refused_on_books_that_are_not_test_books(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = played.with_name("decks.txt")
    decks.write_text("As Ks Qs Js Ts / 2c 2d 4h 5h 7c\n")
    before = fingerprint(played)
    capsys.readouterr()
    assert run_script(played, "deal\n", "--decks", str(decks)) == 2
    assert "for test books only" in capsys.readouterr().err
    assert run_script(played, "deal\n", "--seed-base", "00" * 32) == 2
    assert fingerprint(played) == before
    with pytest.raises(ConfigError, match="test books only"):
        Terminal(Config(database=played), Store(played), seed_for_round=seeds_from(bytes(32)))


@pytest.mark.parametrize(
    ("edit", "finding"),
    [
        ("DROP TABLE seals", "no such table: seals"),
        ("DROP TABLE books", "no such table: books"),
        ("PRAGMA user_version = 1", "written before sealing"),
    ],
)
def test_books_the_start_refuses_fail_the_audit_with_the_reason_never_a_traceback(
    played: Path, capsys: pytest.CaptureFixture[str], edit: str, finding: str
) -> None:
    """A table of the seals gone, or the schema set back before sealing: the audit had
    ended in a traceback, or passed books the start refuses."""
    with contextlib.closing(sqlite3.connect(played)) as db:
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute(edit)
        db.commit()
    capsys.readouterr()
    assert main(["audit", "--db", str(played)]) == 1
    out = capsys.readouterr().out
    assert "audit FAILED" in out, out
    assert finding in out, out
    assert (
        main(["run", "--headless", "--script", str(played.with_name("session.txt")), "--db", str(played)])
        != 0
    )


def test_a_damaged_page_anywhere_in_the_file_fails_the_audit_and_refuses_every_reader(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bytes of the file itself spoilt, page by page, as a failing card spoils them: the
    audit had ended in a traceback (a read transaction failing to end), or passed a file
    whose index SQLite finds malformed; the meters and the recall had printed from it. Each
    now either reads the books exactly as they were (a page with nothing in use spoilt) or
    fails: the audit with a discrepancy (exit 1), the others with the reason (exit 3)."""
    readers = {"meters": ["meters", "--json"], "recall": ["recall", "--json", "5"]}

    def read_all(database: Path) -> dict[str, tuple[int, str, str]]:
        said = {}
        for name, command in {**readers, "audit": ["audit"]}.items():
            code = main([*command, "--db", str(database)])
            output = capsys.readouterr()
            said[name] = (code, output.out, output.err)
        return said

    whole = read_all(played)
    assert whole["audit"][0] == 0
    pages = played.stat().st_size // PAGE
    assert pages > 10
    failed = 0
    # Each page's last bytes, and the file's header (its first 100 bytes, which SQLite
    # checks before it reads any page: it had failed the audit with a traceback's exit 3).
    spoilt_spans = [("the header", 0, 100)] + [
        (f"page {page + 1}", (page + 1) * PAGE - 300, (page + 1) * PAGE - 100) for page in range(pages)
    ]
    for where, start, end in spoilt_spans:
        damaged = played.parent / where.replace(" ", "-") / played.name
        damaged.parent.mkdir()
        for file in played.parent.iterdir():
            if file.is_file() and file.name.startswith(played.name):
                shutil.copy(file, damaged.parent / file.name)
        spoilt = bytearray(damaged.read_bytes())
        spoilt[start:end] = bytes(byte ^ 0x5A for byte in spoilt[start:end])
        damaged.write_bytes(bytes(spoilt))
        said = read_all(damaged)
        code, out, _err = said["audit"]
        if code == 0:
            assert said == whole, f"{where}: the audit passed books that read otherwise"
            continue
        assert code == 1, f"{where}: audit exit {code}"
        failed += 1
        assert "DISCREPANCY: " in out, f"{where}: {out}"
        assert "audit FAILED" in out, f"{where}: {out}"
        for name in readers:
            code, out, err = said[name]
            assert (code, out) == whole[name][:2] or (code == 3 and "oasis-kiosk: TILT:" in err), (
                f"{where}: {name} exit {code}: {err}"
            )
    assert failed > pages // 2, "most pages hold rows: spoiling them must be found"


def test_the_audit_flags_every_round_of_test_books_dealt_from_a_known_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "kiosk.db"
    assert main(["init", "--test", "--db", str(database)]) == 0
    assert run_script(database, "bill 5000\ndeal\nplay\n", "--seed-base", "00" * 32) == 0
    assert run_script(database, "deal\nfold\n") == 0
    capsys.readouterr()
    assert main(["audit", "--db", str(database)]) == 0
    output = capsys.readouterr().out
    assert "FLAG: round 1 was dealt from a derived deck (test books)" in output
    assert "round 2" not in output


def test_a_headless_demo_plays_on_memory_and_never_touches_the_books(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = fingerprint(played)
    capsys.readouterr()
    assert run_script(played, "deal\nplay\n", "--demo") == 0
    assert "script done" in capsys.readouterr().out
    assert fingerprint(played) == before


# What the operator's key and the menu may not do.


def test_a_game_action_under_the_operator_key_is_refused_with_its_reason(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    Store.create(database, currency="EUR", test=True).close()
    terminal = Terminal(Config(database=database), Store(database), seed_for_round=seeds_from(bytes(32)))
    terminal.handle("bill", 5000)
    assert terminal.handle("deal").ok
    terminal.handle("operator_key_on")
    for intent in ("play", "fold", "exchange", "deal", "cashout", "bill"):
        response = terminal.handle(intent, 5000 if intent == "bill" else None)
        assert not response.ok
        assert "while the operator key is turned" in response.message
    assert "fault" not in terminal.tilts
    terminal.handle("operator_key_off")
    assert terminal.handle("play").ok


def test_the_rules_and_the_denomination_do_not_change_while_credits_are_on(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    Store.create(database, currency="EUR").close()
    terminal = Terminal(Config(database=database), Store(database))
    terminal.handle("bill", 5000)
    terminal.handle("operator_key_off")
    menu = logged_in_menu(terminal)
    with pytest.raises(OperatorError, match="while credits are on"):
        menu.set_rules("golden-oasis")
    assert terminal.profile.id == "standard"


def test_a_profile_in_another_currency_than_the_books_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    Store.create(database, currency="EUR").close()
    terminal = Terminal(Config(database=database), Store(database))
    menu = logged_in_menu(terminal)
    with pytest.raises(OperatorError, match="plays in CZK, but these books are kept in EUR"):
        menu.set_rules("czech")
    terminal.store.close()
    with pytest.raises(ConfigError, match="plays in CZK, but these books are kept in EUR"):
        Terminal(Config(database=database, profile="czech"), Store(database))


@pytest.mark.parametrize("minor_units", [1, 10, 1000])
def test_rules_counting_other_minor_units_than_the_books_are_refused(
    tmp_path: Path, minor_units: int
) -> None:
    """Every amount on the books is an integer of their minor unit: an override of
    ``minor_units`` had started, showing a €50 note as €5,000 and playing 100 times over."""
    database = tmp_path / "kiosk.db"
    Store.create(database, currency="EUR").close()
    terminal = Terminal(Config(database=database), Store(database))
    overrides = {"table": {"minor_units": minor_units}}
    menu = logged_in_menu(terminal)
    with pytest.raises(
        OperatorError, match=f"counts {minor_units} minor units to the EUR, but these books count 100"
    ):
        menu.set_rules("standard", overrides)
    terminal.handle("operator_key_off")
    assert terminal.handle("bill", 5000).ok
    terminal.store.close()
    before = database.read_bytes()
    with pytest.raises(
        ConfigError, match=f"counts {minor_units} minor units to the EUR, but these books count 100"
    ):
        Terminal(Config(database=database, profile_overrides=overrides), Store(database))
    assert database.read_bytes() == before, "nothing written"


def test_books_played_before_their_minor_units_were_recorded_keep_those_of_their_first_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "kiosk.db"
    Store.create(database, currency="EUR").close()
    with monkeypatch.context() as earlier_release:  # which recorded no minor units
        earlier_release.setattr(books_money, "record_minor_units", lambda *_: None)
        terminal = Terminal(Config(database=database), Store(database))
    assert all(
        terminal.handle(intent, value).ok
        for intent, value in [("bill", 5000), ("deal", None), ("fold", None)]
    )
    assert terminal.store.get_state("minor_units") is None
    terminal.store.close()
    with pytest.raises(ConfigError, match="but these books count 100"):
        Terminal(Config(database=database, profile_overrides={"table": {"minor_units": 10}}), Store(database))
    again = Terminal(Config(database=database), Store(database))
    assert again.store.get_state("minor_units") == 100


def test_a_second_store_in_the_process_shares_the_lock_and_gives_it_back(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    first = Store.create(database, currency="EUR")
    second = Store(database)
    second.close()
    code = f"from oasis_kiosk.store.db import Store\nStore({str(database)!r})\n"
    refused = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "in use by another process" in refused.stderr
    first.close()
    deadline = time.monotonic() + 10
    while subprocess.run([sys.executable, "-c", code], capture_output=True).returncode:
        assert time.monotonic() < deadline
    assert os.path.exists(BooksFiles(database).lock)


def test_a_lock_file_that_cannot_be_taken_is_named_with_what_it_is(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    Store.create(database, currency="EUR").close()
    lock = Path(BooksFiles(database).lock)
    lock.unlink()
    lock.mkdir()  # a directory where the lock file is
    with pytest.raises(StoreError, match=r"kiosk\.db\.lock: the books' lock cannot be taken: Is a directory"):
        Store(database)


def test_a_row_that_would_take_the_credits_below_zero_or_a_meter_down_is_refused_and_writes_nothing() -> None:
    """The terminal checks first; the books refuse all the same, with a refusal of the kiosk's
    own (an OasisError), so that a fault in the terminal never books a negative credit."""
    from oasis_kiosk import OasisError
    from oasis_kiosk.store.db import Store

    store = Store.in_memory(currency="EUR", test=True)
    with store.transaction():
        store.post("bill_in", 500)
        store.add_meter("total_in", 500)
    for refused, words in (
        (lambda: store.post("cash_out", -501), "cash_out of -501 would take the credits below zero"),
        (lambda: store.add_meter("total_in", -1), "meter total_in cannot go down by 1"),
    ):
        with pytest.raises(OasisError, match=words) as raised, store.transaction():
            refused()
        assert isinstance(raised.value, ValueError)
    assert (store.credits(), store.meters()["total_in"]) == (500, 500)
    store.close()


def test_the_books_are_readable_by_their_owner_and_group_only(tmp_path: Path) -> None:
    """The database holds the deck of the round in play: its seed gives the dealer's hole
    cards. Whatever the umask, other users of the machine may not read it; the kiosk takes
    that right away from books made before (the link agent reads them through the group)."""
    database = tmp_path / "kiosk.db"
    before = os.umask(0o022)
    try:
        terminal = Terminal(Config(database=database), Store.create(database, currency="EUR"))
        assert terminal.handle("bill", 5000).ok
        assert terminal.handle("deal").ok
    finally:
        os.umask(before)
    books = [database, *BooksFiles(database).journal]
    assert len([path for path in books if path.exists()]) == 3, "the database, its WAL and its shared memory"
    modes = {path.name: oct(path.stat().st_mode & 0o777) for path in books}
    assert set(modes.values()) == {"0o640"}, modes
    terminal.store.close()

    left = [path for path in books if path.exists()]
    for path in left:
        path.chmod(0o644)
    store = Store(database)
    modes = {path.name: oct(path.stat().st_mode & 0o777) for path in left}
    assert set(modes.values()) == {"0o640"}, modes
    store.close()
