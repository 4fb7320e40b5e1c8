"""The theoretical return of a configuration: known before it is played (shipped for every
profile, kept in the books for the operator's own), computed where it is not, and held to
the configuration's ``[rules]`` bounds at start and on the console (the operator menu:
test_operator_returns.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from support import books

from oasis_kiosk import load_profile, profile_names, returns
from oasis_kiosk.cli import main, open_terminal
from oasis_kiosk.config import Config, JackpotConfig, ReturnBounds
from oasis_kiosk.machine.selftest import return_problems, self_test
from oasis_kiosk.machine.terminal import Terminal
from oasis_kiosk.store.db import Store

STRICT = ReturnBounds(return_max=0.95)
"""A lab that approves no more than 95 %: `standard` returns more."""
PLAYERS_GAME = {"paytable": {"AceKing": 10, "OnePair": 10, "TwoPair": 20}}
"""`standard` with its low rows raised far past what the house can pay."""
FEW_ROUNDS = 3000
JACKPOT = JackpotConfig()


def breaches(figures: returns.Figures, bounds: ReturnBounds, jackpot: JackpotConfig) -> list[returns.Breach]:
    """The figures' breaches, the jackpot held to the greatest bonus stake of their profile."""
    return returns.breaches(figures, bounds, jackpot, load_profile(figures.profile))


def figures_of(profile: str = "standard") -> returns.Figures:
    figures = returns.shipped(load_profile(profile))
    assert figures is not None
    return figures


def test_every_shipped_profile_has_shipped_figures_for_its_current_digest() -> None:
    """A profile changed without `python -m oasis_kiosk.returns write` fails here."""
    for name in profile_names():
        profile = load_profile(name)
        figures = returns.shipped(profile)
        assert figures is not None, (
            f"{name} ({profile.digest}) has no shipped return: regenerate returns.json"
        )
        assert (figures.profile, figures.digest) == (name, profile.digest)
        antes = profile.allowed_antes()
        assert (figures.at_min_ante.ante, figures.at_max_ante.ante) == (antes[0], antes[-1])
        bonus = profile.to_dict().get("bonus")
        if bonus is not None and bonus["kind"] in returns.SIDE_BETS:
            assert figures.side is not None
            assert (figures.side.kind, figures.side.stake) == (bonus["kind"], bonus["stake_min"])
        else:
            assert figures.side is None, "a privilege fee is the main game's"


def test_the_shipped_file_is_installed_with_the_package() -> None:
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    assert '{ path = "oasis_kiosk/returns.json", format = "wheel" }' in pyproject
    assert returns.SHIPPED.is_file()


def test_the_exact_figures_are_the_published_caribbean_stud_return() -> None:
    figures = figures_of("caribbean")
    assert figures.method == "exact"
    for figure in (figures.at_min_ante, figures.at_max_ante):
        assert figure.exact
        assert figure.ci95 == 0
        assert figure.value == pytest.approx(1 - 0.052243, abs=1e-6)
    czech = figures_of("czech")
    assert czech.at_min_ante.exact
    assert czech.method == "exact"
    assert czech.side is not None
    # The fixed bonus at its 20 Kč stake, counted over every deal: about 53 % (RULES.md §3.6).
    assert czech.side.ci95 == 0
    assert czech.side.value == pytest.approx(0.5289, abs=1e-4)


def test_the_shipped_file_is_written_from_the_par_sheets_and_refuses_stale_ones(tmp_path: Path) -> None:
    sheets = Path(__file__).resolve().parent.parent / "docs" / "par"
    written = returns.write_shipped(tmp_path / "returns.json", sheets)
    assert json.loads((tmp_path / "returns.json").read_text()) == json.loads(returns.SHIPPED.read_text())
    assert {figures.profile for figures in written.values()} == set(profile_names())
    stale = tmp_path / "stale"
    stale.mkdir()
    for sheet in sheets.glob("*.json"):
        (stale / sheet.name).write_text(sheet.read_text())
    standard = json.loads((stale / "standard.json").read_text())
    (stale / "standard.json").write_text(json.dumps(standard | {"profile_digest": "0" * 16}))
    with pytest.raises(returns.FiguresError, match=r"standard\.json: of rules with digest 0000000000000000"):
        returns.write_shipped(tmp_path / "again.json", stale)
    assert not (tmp_path / "again.json").exists()


def test_every_shipped_bonus_meets_the_default_side_bounds() -> None:
    bounds = ReturnBounds()
    for name in profile_names():
        side = figures_of(name).side
        if side is not None:
            assert bounds.side_return_min <= side.value
            assert side.value + side.ci95 <= bounds.side_return_max


def test_figures_round_trip_through_json() -> None:
    for name in ("standard", "caribbean", "stand-a"):
        figures = figures_of(name)
        again = returns.Figures.from_json(json.loads(json.dumps(figures.to_json())), "test")
        assert again == figures


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda entry: entry.pop("digest"), "entry: missing digest"),
        (lambda entry: entry.update(colour=1), "entry: unknown colour"),
        (
            lambda entry: entry["at_min_ante"].update(value="94 %"),
            "entry.at_min_ante.value: a number, 0 or more, not '94 %'",
        ),
        (lambda entry: entry["at_max_ante"].update(exact=1), "entry.at_max_ante.exact: true or false, not 1"),
        (
            lambda entry: entry["at_max_ante"].update(ante=-5),
            "entry.at_max_ante.ante: a whole number, 0 or more, not -5",
        ),
        (
            lambda entry: entry.update(side=5),
            "entry.side: a table of kind, stake, value, ci95, greatest, jackpot_frequency, not 5",
        ),
        (
            lambda entry: entry["other_bets"][0].update(play="twice"),
            "play: one of standard, without_bonus, for_main, blind, not 'twice'",
        ),
        (lambda entry: entry.update(rounds=True), "entry.rounds: a whole number, 0 or more, not True"),
    ],
)
def test_a_malformed_entry_is_named_with_its_field(change: object, reason: str) -> None:
    entry = figures_of("standard").to_json()
    change(entry)  # type: ignore[operator]
    with pytest.raises(returns.FiguresError) as refused:
        returns.Figures.from_json(entry, "entry")
    assert str(refused.value) == reason


def test_compute_simulates_both_antes_and_the_side_bet_with_one_monotone_progress() -> None:
    profile = load_profile("standard")
    seen: list[tuple[int, int]] = []
    figures = returns.compute(
        profile, rounds=FEW_ROUNDS, seed=bytes(32), progress=lambda d, t: seen.append((d, t))
    )
    assert (figures.profile, figures.digest, figures.method, figures.rounds) == (
        "standard",
        profile.digest,
        "simulation",
        FEW_ROUNDS,
    )
    antes = profile.allowed_antes()
    assert (figures.at_min_ante.ante, figures.at_max_ante.ante) == (antes[0], antes[-1])
    assert not figures.at_min_ante.exact
    assert 0.5 < figures.at_min_ante.value < 1.5
    assert figures.at_min_ante.ci95 > 0
    assert figures.side is not None
    assert (figures.side.kind, figures.side.stake) == ("odds", 200)
    assert seen[-1] == (returns.PROGRESS_STEPS, returns.PROGRESS_STEPS)
    assert all(total == returns.PROGRESS_STEPS for _, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen), "one monotone fraction"
    assert any(0 < done < returns.PROGRESS_STEPS // 2 for done, _ in seen), "the first ante is half the work"


def test_the_bounds_refuse_a_return_above_the_maximum_and_below_the_minimum() -> None:
    figures = figures_of("standard")
    assert breaches(figures, ReturnBounds(), JACKPOT) == []
    strict = breaches(figures, STRICT, JACKPOT)
    (low, high) = [breach for breach in strict if breach.bet == "standard"]
    # Every other way of playing a box is refused too, each named.
    assert {(breach.bet, breach.amount) for breach in strict if breach.bet != "standard"} == {
        (play, ante) for play in ("without_bonus", "for_main") for ante in (1000, 10000)
    }
    assert (low.amount, high.amount) == (1000, 10000)
    assert low.above
    assert low.bound == 0.95
    assert not low.side
    said = low.describe(lambda amount: f"{amount / 100:.2f} EUR")
    assert said.startswith("standard at an ante of 10.00 EUR returns 9")
    assert " ± " in said
    assert said.endswith("above the maximum of 95.00 %")
    (side,) = breaches(figures, ReturnBounds(side_return_min=0.7), JACKPOT)
    assert side.side
    assert not side.above
    assert "side bet at a stake of" in side.describe(str)
    assert side.describe(str).endswith("below the minimum of 70.00 %")
    # A simulated figure whose interval reaches past the maximum is refused too.
    main = figures.at_min_ante
    edge = replace(figures, at_min_ante=replace(main, value=0.99, ci95=0.02))
    assert [breach.amount for breach in breaches(edge, ReturnBounds(), JACKPOT)] == [1000]
    # And one whose interval reaches below the minimum: a lucky short run passes neither way.
    low_edge = replace(figures, at_min_ante=replace(main, value=0.76, ci95=0.02))
    (below,) = breaches(low_edge, ReturnBounds(), JACKPOT)
    assert (below.amount, below.above) == (1000, False)


def test_at_start_a_return_above_the_bounds_tilts_the_terminal(tmp_path: Path) -> None:
    config = Config(database=tmp_path / "kiosk.db", return_bounds=STRICT)
    books(config.database).close()
    terminal = open_terminal(config, demo=False, video_driver=None)
    assert "standard at an ante of 10.00 EUR returns" in terminal.tilts["self_test"]
    assert "above the maximum of 95.00 %" in terminal.tilts["self_test"]
    assert "coin" not in terminal.live()
    assert return_problems(replace(terminal.config, return_bounds=ReturnBounds()), terminal.store) == []


def test_at_start_an_unknown_return_is_a_finding_that_says_how_to_get_it(tmp_path: Path) -> None:
    config = Config(database=tmp_path / "kiosk.db", profile_overrides={"table": {"max_payout": 400000}})
    terminal = Terminal(config, books(config.database))
    (finding,) = self_test(terminal.config, terminal.store)
    assert finding.startswith("configuration: the return of standard (digest ")
    assert "is not known" in finding
    assert "operator menu" in finding
    assert "`oasis-kiosk returns`" in finding


@pytest.mark.parametrize("command", ["par", "returns"])
def test_the_console_refuses_the_return_of_rules_the_books_cannot_count_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Rules counting other minor units than the books: ``returns`` had computed and kept
    figures for them in the books, and ``par`` had called them accepted, though the start
    refuses them."""
    config, database = tmp_path / "config.toml", tmp_path / "kiosk.db"
    config.write_text("[terminal]\nprofile = 'standard'\n[profile_overrides.table]\nminor_units = 1\n")
    Terminal(Config(database=database), books(database)).store.close()  # started: counting in cents
    before = database.read_bytes()
    capsys.readouterr()
    assert main([command, "--config", str(config), "--db", str(database), "--rounds", str(FEW_ROUNDS)]) == 2
    assert "counts 1 minor units to the EUR, but these books count 100" in capsys.readouterr().err
    assert database.read_bytes() == before, "nothing kept"


def test_the_console_prints_the_configured_return_and_books_what_it_computes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    database = tmp_path / "kiosk.db"
    config.write_text("[terminal]\nprofile = 'stand-a'\n[rules]\nreturn_max = 2.0\n")
    books(database, "stand-a").close()
    assert main(["par", "--config", str(config), "--db", str(database)]) == 0
    out = capsys.readouterr().out
    assert "stand-a" in out
    assert "main game at an ante of 100.00 RUB" in out
    assert "figures shipped" in out
    assert "accepted" in out
    config.write_text(config.read_text() + "[profile_overrides.table]\nmax_payout = 3000000\n")
    assert main(["returns", "--config", str(config), "--db", str(database), "--rounds", str(FEW_ROUNDS)]) == 0
    out = capsys.readouterr().out
    assert "computed now and kept in the books" in out
    assert main(["par", "--config", str(config), "--db", str(database), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["accepted"]
    assert shown["figures"]["rounds"] == FEW_ROUNDS, "from the books, not computed again"
    config.write_text("[terminal]\nprofile = 'stand-a'\n[rules]\nreturn_max = 0.9\n")
    assert main(["par", "--config", str(config), "--db", str(database)]) == 1
    assert "REFUSED: stand-a at an ante of 100.00 RUB returns" in capsys.readouterr().out


def test_the_self_test_checks_the_rules_in_play_not_the_file_read_again(tmp_path: Path) -> None:
    """A profile file changed on disk after the terminal read it is not what is played."""
    config = Config(database=tmp_path / "kiosk.db")
    books(config.database).close()
    store = Store(config.database)
    try:
        assert return_problems(config, store) == []
        (finding,) = return_problems(config, store, load_profile("stand-c"))
        assert finding.startswith("configuration: stand-c at an ante of")
        assert "above the maximum of 100.00 %" in finding
    finally:
        store.close()


def test_a_headless_script_on_real_books_plays_only_after_the_self_test(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A configuration outside the bounds takes no money from a script either."""
    config = tmp_path / "kiosk.toml"
    config.write_text("[rules]\nreturn_max = 0.95\n")
    database = tmp_path / "kiosk.db"
    books(database).close()
    script = tmp_path / "session.txt"
    script.write_text("bill 50000\ndeal\nplay\n")
    assert (
        main(["run", "--headless", "--script", str(script), "--config", str(config), "--db", str(database)])
        == 0
    )
    captured = capsys.readouterr()
    assert "self-test: configuration: standard at an ante of" in captured.err
    assert "TILT (self_test)" in captured.out
    assert "script done: credits 0," in captured.out


def test_figures_are_of_every_way_of_betting_the_bonus_and_its_greatest_return() -> None:
    standard = figures_of("standard")
    antes = [main.ante for main in standard.every_ante]
    assert [(main.play, main.ante) for main in standard.other_bets] == [
        (play, ante) for play in ("without_bonus", "for_main", "blind") for ante in antes
    ]
    blind = [main for main in standard.other_bets if main.play == "blind"]
    assert all(main.exact and main.value < standard.at_min_ante.value - 0.1 for main in blind)
    assert standard.side is not None
    # The bonus judged as dealt is kept on every hand at best: exact, and at least the standard bet's.
    assert standard.side.greatest is not None
    assert standard.side.greatest >= standard.side.value
    assert standard.side.jackpot_frequency == pytest.approx(4 / 2_598_960)
    golden = figures_of("golden-oasis")
    assert {main.play for main in golden.other_bets} == {"without_bonus"}, "a privilege fee is paid or not"
    assert figures_of("stand-a").other_bets == ()


def test_a_profile_that_prices_options_cheaper_without_the_bonus_is_refused_for_that_box() -> None:
    """The standard bet's figure is a house game; a box without the bonus exchanges for almost
    nothing and is not."""
    cheap = {
        "exchange": {
            "rounds": [
                {
                    "fees": {"1": "0.01", "2": "0.01", "3": "0.01", "4": "0.01", "5": "0.01"},
                    "with_bonus": {"1": "1", "2": "2", "3": "2", "4": "2", "5": "2"},
                }
            ]
        }
    }
    profile = load_profile("standard", cheap)
    figures = returns.compute(profile, rounds=FEW_ROUNDS, seed=bytes(32))
    assert all(main.value < 1 for main in figures.every_ante), "the standard bet's figures are a house game"
    found = breaches(figures, ReturnBounds(), JACKPOT)
    assert found, "without the bonus the box exchanges five cards for a hundredth of an ante"
    assert {breach.bet for breach in found} >= {"without_bonus"}
    assert all(breach.above and not breach.side for breach in found)
    assert "(without the bonus bet) returns" in found[0].describe(str)


def test_the_side_bets_greatest_return_counts_every_jackpot_award_at_the_meters_maximum() -> None:
    figures = figures_of("standard")
    assert figures.side is not None
    assert figures.side.greatest is not None
    assert breaches(figures, ReturnBounds(), JACKPOT) == []
    # A royal flush is dealt once in 649 740 rounds, and an award is a share of the meter
    # whatever the stake: with the meter up to 1 000 000 EUR, a 2 EUR box gets 77 % of its
    # stake back from awards alone, however the other boxes fed it.
    rich = JackpotConfig(base=1_000_000, maximum=100_000_000)
    most = returns.jackpot_most(figures.side, rich)
    assert most == pytest.approx(100_000_000 * 4 / 2_598_960 / 200)
    (breach,) = breaches(figures, ReturnBounds(), rich)
    assert (breach.side, breach.bet, breach.above) == (True, "greatest_with_jackpot", True)
    assert breach.value == pytest.approx(figures.side.greatest + most)
    assert "kept on every hand, each jackpot award at the meter's maximum" in breach.describe(str)
    # At its stake the side bet is held to the bounds by its own wins: how much of the meter
    # comes back to a box depends on the meter and on the other boxes' stakes.
    (low,) = breaches(figures, ReturnBounds(side_return_min=0.55), JACKPOT)
    assert (low.bet, low.above, low.value) == ("standard", False, figures.side.value)
    # A bonus without jackpot awards: its greatest is its own.
    czech = figures_of("czech")
    found = breaches(czech, ReturnBounds(side_return_max=0.5), JACKPOT)
    assert [(breach.bet, breach.above) for breach in found] == [("standard", True), ("greatest", True)]
    assert (
        found[1].describe(str).startswith("czech's side bet at a stake of 2000 (kept on every hand) returns")
    )


def test_a_jackpot_fed_more_than_its_meter_can_pay_back_is_refused() -> None:
    """With 10 % of a 5-euro bonus stake, a royal flush's 649 740 deals feed the meter about
    325 000 EUR, of which a meter from 10 000 to 60 000 can pay 50 000: the rest would pile
    up above its maximum, taken from players and never paid."""
    figures = figures_of("standard")
    assert figures.side is not None
    greedy = JackpotConfig(base=1_000_000, rate=Fraction(1, 10), maximum=6_000_000)
    (fed,) = breaches(figures, ReturnBounds(), greedy)
    payable = returns.jackpot_payable(figures.side, greedy, 500, Fraction(1))
    assert payable == pytest.approx(5_000_000 * 4 / 2_598_960 / 500)
    assert (fed.bet, fed.amount, fed.above, fed.bound) == (returns.JACKPOT_FED, 500, True, float(payable))
    assert fed.describe(lambda amount: f"{amount / 100:.2f} EUR") == (
        "standard's jackpot takes 10.000 % of a bonus stake of 5.00 EUR, more than 1.385 % (90.00 % "
        "of the 1.539 % its meter can pay back between its base and its maximum): the rest would "
        "pile up above the maximum, never paid"
    )
    # A meter with room for what the greatest stake brings, or a smaller share, is not refused.
    assert breaches(figures, ReturnBounds(), replace(greedy, maximum=40_000_000)) == []
    assert breaches(figures, ReturnBounds(), replace(greedy, rate=Fraction(1, 80))) == []
    # Fed exactly what it can pay back, its overflow would still drift up with the hits' luck.
    at_the_bound = replace(greedy, rate=payable)
    assert [b.bet for b in breaches(figures, ReturnBounds(), at_the_bound)] == [returns.JACKPOT_FED]
    # A bonus without jackpot awards is fed nothing to pay back.
    assert breaches(figures_of("czech"), ReturnBounds(), greedy) == []


def test_the_jackpot_is_held_to_the_greatest_stake_the_core_takes() -> None:
    """A greatest stake off the profile's steps (2 to 4.50 in steps of 1) is not one a box may
    make: the jackpot is held to the greatest the core takes (4), not to the profile's 4.50."""
    profile = load_profile("standard", {"bonus": {"stake_max": 450}})
    assert returns.largest_side_stake(profile) == 400
    assert returns.largest_side_stake(load_profile("golden-oasis")) == 0, "a privilege is no side bet"
    greedy = JackpotConfig(base=1_000_000, rate=Fraction(1, 10), maximum=6_000_000)
    (fed,) = returns.breaches(figures_of("standard"), ReturnBounds(), greedy, profile)
    assert (fed.bet, fed.amount) == (returns.JACKPOT_FED, 400)


def test_a_jackpot_whose_award_is_a_share_of_the_meter_pays_back_at_most_that_share() -> None:
    """An award of half the meter leaves the other half on it: the meter pays back at most
    half its maximum a hit (30 000 of a 60 000 meter), not all it rose above its base
    (50 000). At 1.25 % of a 5-euro stake (about 40 600 a hit) a whole-meter award is
    accepted and a half-meter one is not: 37 % of what it took had piled up unpaid."""
    figures = figures_of("standard")
    assert figures.side is not None
    halved = load_profile("standard", {"bonus": {"jackpot": [{"category": "RoyalFlush", "share": "0.5"}]}})
    meter = JackpotConfig(base=1_000_000, rate=Fraction(1, 80), maximum=6_000_000)
    assert returns.breaches(figures, ReturnBounds(), meter, load_profile("standard")) == []
    (fed,) = returns.breaches(figures, ReturnBounds(), meter, halved)
    assert fed.bet == returns.JACKPOT_FED
    assert fed.bound == pytest.approx(3_000_000 * 4 / 2_598_960 / 500)


def test_the_shipped_jackpot_setting_pays_back_what_it_takes_on_every_shipped_profile() -> None:
    for name in profile_names():
        figures = figures_of(name)
        assert [
            b.bet for b in breaches(figures, ReturnBounds(), JACKPOT) if b.bet == returns.JACKPOT_FED
        ] == []


def test_the_side_bet_is_figured_at_its_least_return_over_the_antes(tmp_path: Path) -> None:
    sheet = json.loads((Path(__file__).resolve().parents[1] / "docs" / "par" / "standard.json").read_text())
    sheet["by_ante"][-1]["side"] = sheet["by_ante"][-1]["side"] | {"return": 0.3, "ci95": 0.01}
    figures = returns.from_sheet(sheet, "sheet")
    assert figures.side is not None
    assert (figures.side.value, figures.side.ci95) == (0.3, 0.01)
    (low,) = [breach for breach in breaches(figures, ReturnBounds(), JACKPOT) if breach.side]
    assert (low.value, low.above) == (0.3, False)


def test_a_bonus_an_exchange_improves_without_forfeiting_has_no_known_bound() -> None:
    profile = load_profile("czech-exchange", {"exchange": {"forfeits_bonus": False}})
    figures = returns.compute(profile, rounds=FEW_ROUNDS, seed=bytes(32))
    assert figures.side is not None
    assert figures.side.greatest is None
    (breach,) = [breach for breach in breaches(figures, ReturnBounds(), JACKPOT) if breach.value is None]
    assert (breach.side, breach.bet) == (True, "greatest")
    assert breach.value is None
    assert breach.describe(str).endswith(
        "the most it returns is not known (an option improves the hand it is judged on)"
    )


def test_booked_figures_that_cannot_be_used_are_not_known_and_computed_again(tmp_path: Path) -> None:
    """Figures of an older release, or not of the profile's table, never pass: the self-test
    says why they are not known, and computing them again replaces them."""
    profile = load_profile("stand-a", {"table": {"max_payout": 3_000_000}})
    figures = returns.compute(profile, rounds=FEW_ROUNDS, seed=bytes(32))
    store = books(tmp_path / "kiosk.db", "stand-a")
    try:
        wrong = replace(
            figures, at_max_ante=replace(figures.at_max_ante, ante=figures.at_max_ante.ante - 100)
        )
        returns.book(store, wrong)
        assert returns.known(profile, store) is None
        (finding,) = returns.problems(profile, store, ReturnBounds(), JACKPOT)
        assert finding.startswith("the return of stand-a (digest ")
        assert "the figures are of the antes and bets" in finding
        assert finding.endswith("then restart")
        older = figures.to_json()
        del older["other_bets"]
        with store.transaction():
            store.set_state(returns.books_key(profile), older)
        assert returns.known(profile, store) is None
        (finding,) = returns.problems(profile, store, ReturnBounds(), JACKPOT)
        assert "missing other_bets" in finding
        returns.book(store, figures)
        assert returns.known(profile, store) == figures
    finally:
        store.close()


def test_real_books_keep_no_short_or_seeded_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A short run's interval is itself a guess, and a chosen seed could be tried until its
    luck passes: real books keep neither (test books do, for the tests)."""
    profile = load_profile("stand-a", {"table": {"max_payout": 3_000_000}})
    figures = returns.compute(profile, rounds=FEW_ROUNDS, seed=bytes(32))
    database = tmp_path / "kiosk.db"
    store = Store.create(database, currency="RUB")
    try:
        with pytest.raises(
            returns.FiguresError, match="3,000 simulated rounds per ante are not kept in real books"
        ):
            returns.book(store, figures)
        assert store.get_state(returns.books_key(profile)) is None
    finally:
        store.close()
    config = tmp_path / "config.toml"
    config.write_text("[terminal]\nprofile = 'stand-a'\n[profile_overrides.table]\nmax_payout = 3000000\n")
    command = ["returns", "--config", str(config), "--db", str(database), "--seed", "00" * 32]
    assert main(command) == 2
    assert "--seed is for test books" in capsys.readouterr().err


def test_a_change_of_the_approved_range_or_the_jackpot_is_logged_at_start(tmp_path: Path) -> None:
    database = tmp_path / "kiosk.db"
    books(database).close()

    def start(config: Config) -> list[dict[str, object]]:
        terminal = open_terminal(config, demo=False, video_driver=None)
        try:
            return [e["detail"] for e in terminal.store.events() if e["kind"] == "configuration_changed"]
        finally:
            terminal.store.close()

    first = start(Config(database=database))
    assert {e["setting"] for e in first} >= {"return_bounds", "jackpot"}
    assert start(Config(database=database)) == first, "nothing changed: nothing more logged"
    changed = start(Config(database=database, return_bounds=ReturnBounds(return_min=0.8)))
    (logged,) = [e for e in changed if e not in first]
    assert logged["setting"] == "return_bounds"
    assert logged["before"]["return_min"] == 0.75  # type: ignore[index]
    assert logged["after"]["return_min"] == 0.8  # type: ignore[index]


def test_a_blind_box_the_exact_analysis_cannot_count_is_refused_before_any_simulation() -> None:
    profile = load_profile("golden-oasis", {"boxes": {"max": 3}})
    seen: list[tuple[int, int]] = []
    with pytest.raises(
        returns.FiguresError, match=r"a blind box of golden-oasis cannot be counted: .*protection"
    ):
        returns.compute(profile, rounds=FEW_ROUNDS, seed=bytes(32), progress=lambda d, t: seen.append((d, t)))
    assert all(done == 0 for done, _ in seen), "nothing was simulated"


def test_a_share_of_lost_antes_counts_in_the_main_games_return_as_if_every_ante_were_lost() -> None:
    """The house's share of lost antes comes back to the players through the meter: the bounds
    count it in full (every ante lost, an upper bound), so that no share lifts a game past the
    approved maximum unseen."""
    figures = figures_of("standard")
    main = figures.at_min_ante
    room = 1.0 - (main.value + main.ci95)  # what the default maximum (100 %) leaves
    assert room > 0
    fed = replace(JACKPOT, lost_ante_rate=Fraction(room + 0.01).limit_denominator(10_000))
    assert 1000 in [
        breach.amount for breach in breaches(figures, ReturnBounds(), fed) if breach.bet == "standard"
    ]
    below = replace(JACKPOT, lost_ante_rate=Fraction(room / 2).limit_denominator(10_000))
    assert not [breach for breach in breaches(figures, ReturnBounds(), below) if breach.amount == 1000]


def test_a_share_of_lost_antes_never_lifts_a_return_over_the_minimum() -> None:
    """It comes back to few (a bonus that hits the jackpot): counted against the maximum, as
    if every ante were lost, it would have passed a blind box returning 83 % as 85 %."""
    figures = figures_of("standard")
    bounds = ReturnBounds(return_min=0.85, return_max=1.02)
    unfed = {(breach.bet, breach.amount) for breach in breaches(figures, bounds, JACKPOT) if not breach.above}
    assert unfed, "the blind box returns less than 85 %"
    fed = replace(JACKPOT, lost_ante_rate=Fraction(2, 100))
    assert {
        (breach.bet, breach.amount) for breach in breaches(figures, bounds, fed) if not breach.above
    } == unfed
    said = [
        breach.describe(str)
        for breach in breaches(figures, ReturnBounds(return_max=0.99), fed)
        if breach.above and breach.bet == "standard"
    ]
    assert said
    assert all("with up to 2.00 % of lost antes on the jackpot" in line for line in said)
