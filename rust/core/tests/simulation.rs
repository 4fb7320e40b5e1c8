//! The simulation against the exact analysis, its determinism, and its strategy against the
//! strategy module's optimum.

use std::sync::Arc;

use oasis_core::analysis::BoxPlay;
use oasis_core::simulation::{simulate, strategy_gap, Simulation, SimulationOptions, Simulator};
use oasis_core::Profile;

fn profile(id: &str) -> Arc<Profile> {
    let path = format!("{}/../../oasis_kiosk/profiles/{id}.toml", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Profile::from_toml(&std::fs::read_to_string(path).unwrap(), id, None).unwrap())
}

fn options(rounds: u64, seed: u8) -> SimulationOptions {
    SimulationOptions { rounds, seed: [seed; 32], ante: None, play: BoxPlay::Standard }
}

/// Caribbean Stud's exact figures (docs/analysis.md). Its play-or-fold game is itself, and the
/// fast strategy plays it optimally, so the control variate's estimate is the exact return
/// with no sampling error; the plain mean of the rounds finds it within three standard errors.
#[test]
fn caribbean_agrees_with_the_exact_analysis() {
    let caribbean = profile("caribbean");
    let result = simulate(&caribbean, &options(2_000_000, 3)).unwrap();
    let exact = oasis_core::analysis::exact_analysis(&caribbean, None).unwrap();
    assert!(
        (result.house_edge - exact.house_edge).abs() < 1e-12,
        "{} against {}",
        result.house_edge,
        exact.house_edge
    );
    assert!(result.house_edge_ci95 < 1e-12);
    assert_eq!(result.control_variate.variance_reduction, None);
    let within = |value: f64, exact: f64, ci95: f64, what: &str| {
        let se = ci95 / 1.96;
        assert!((value - exact).abs() < 3.0 * se, "{what}: {value} against {exact} (se {se})");
        assert!(se > 0.0 && se < 0.002, "{what}: se {se}");
    };
    let plain = &result.monte_carlo_return_per_ante;
    within(-plain.value, exact.house_edge, plain.ci95, "plain house edge");
    within(result.play_fraction, 0.522_255, result.play_fraction_ci95, "play fraction");
    assert!((result.element_of_risk - 0.025_553).abs() < 0.0002, "{}", result.element_of_risk);
    assert_eq!(result.rounds, 2_000_000);
    assert_eq!(result.outcomes.values().sum::<u64>(), 2_000_000);
    let folded = *result.outcomes.get("folded").unwrap() as f64 / 2e6;
    assert!((folded - (1.0 - result.play_fraction)).abs() < 1e-12);
    // The outcomes' returns add up to the plain mean.
    let total: f64 = result.outcome_return.values().sum();
    assert!((total - plain.value).abs() < 1e-9);
}

/// With exchanges, purchases and insurance the control variate's estimate and the plain mean
/// estimate the same return, the first with a far narrower interval.
#[test]
fn the_controlled_estimate_agrees_with_the_plain_mean() {
    for id in ["golden-oasis", "stand-c", "czech-exchange"] {
        let result = simulate(&profile(id), &options(200_000, 4)).unwrap();
        let (plain, controlled) = (&result.monte_carlo_return_per_ante, &result.return_per_ante);
        assert!(
            (plain.value - controlled.value).abs() < plain.ci95 + controlled.ci95,
            "{id}: {controlled:?} against {plain:?}"
        );
        let reduction = result.control_variate.variance_reduction.unwrap();
        assert!(reduction > 20.0, "{id}: {reduction}");
        assert!(controlled.ci95 < plain.ci95 / 4.0, "{id}");
    }
}

fn figures(result: &Simulation) -> String {
    serde_json::to_string(result).unwrap()
}

/// The same seed gives the same figures on one thread and on several, and another seed others.
#[test]
fn a_seed_determines_the_result_whatever_the_threads() {
    let czech = profile("czech-exchange");
    let opts = options(300_000, 9);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let three = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let on_one = one.install(|| simulate(&czech, &opts).unwrap());
    let on_three = three.install(|| simulate(&czech, &opts).unwrap());
    assert_eq!(figures(&on_one), figures(&on_three));
    let simulator = Simulator::new(&czech, opts.clone()).unwrap();
    assert_eq!(figures(&simulator.run(300_000, [9; 32])), figures(&on_one));
    let other = simulator.run(300_000, [10; 32]);
    assert_ne!(other.house_edge, on_one.house_edge);
    assert!(on_one.options.get("buy_dealer_card").unwrap().taken > 0);
}

/// The fast strategy's first decision on random deals, valued by `strategy::advise`: the same
/// choice almost always, and a small mean loss where not.
#[test]
fn the_fast_strategy_is_near_the_strategy_modules_optimum() {
    for id in ["czech-buy-card", "standard"] {
        let gap = strategy_gap(&profile(id), 300, 11);
        assert_eq!(gap.situations, 300);
        assert!(gap.agreed >= 294, "{gap:?}");
        assert!(gap.mean_gap < 0.002, "{gap:?}");
        assert!(gap.max_gap < 0.25, "{gap:?}");
    }
}

#[test]
fn refusals() {
    let caribbean = profile("caribbean");
    assert!(simulate(&caribbean, &options(0, 1)).unwrap_err().to_string().contains("at least one round"));
    let bad = SimulationOptions { ante: Some(1234), ..options(10, 1) };
    assert!(simulate(&caribbean, &bad).unwrap_err().to_string().contains("1234 is not an ante"));
}

#[test]
fn a_blind_box_is_left_to_the_exact_analysis() {
    let blind = SimulationOptions { play: BoxPlay::Blind, ..options(1000, 1) };
    let error = simulate(&profile("standard"), &blind).unwrap_err().to_string();
    assert_eq!(error, "a blind box takes no decision: the exact analysis counts it (exact_analysis)");
}

/// A box without the bonus plays `golden-oasis` at the prices without the privilege fee: no
/// fee is paid, and without its sixth card and buying the game the box exchanges more.
#[test]
fn each_way_of_betting_plays_at_its_own_prices() {
    let golden = profile("golden-oasis");
    let play =
        |play| simulate(&golden, &SimulationOptions { play, ante: Some(600), ..options(20_000, 3) }).unwrap();
    let (standard, without) = (play(BoxPlay::Standard), play(BoxPlay::WithoutBonus));
    assert_eq!((standard.bonus_stake, without.bonus_stake), (60, 0));
    assert_eq!(without.play, "without_bonus");
    let taken = |result: &Simulation, option: &str| result.options.get(option).map(|o| o.taken);
    assert_eq!(taken(&without, "sixth_card"), Some(0));
    assert_eq!(taken(&without, "buy_game"), Some(0));
    assert!(taken(&standard, "sixth_card").unwrap() > 0);
}
