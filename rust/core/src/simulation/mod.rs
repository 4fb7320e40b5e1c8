//! Monte Carlo simulation of whole rounds of a profile, with its exchanges and purchases,
//! played by a fast near-optimal strategy (docs/simulation.md).
//!
//! **Deals.** The rounds are stratified by the dealer's up card: each of the 13 ranks gets an
//! equal share of the rounds (each has probability 1/13), with that rank's club as the up card
//! (the suits are symmetric). The other cards come from a Fisher–Yates shuffle of the other 51,
//! drawn as needed, from ChaCha8 streams: stream `(rank, chunk)` of the seed for every chunk of
//! [`CHUNK`] rounds, so the result depends on the seed and the round count only, never on the
//! number of threads. Every figure is summed as integers (minor units) and then divided.
//!
//! **Settlement.** A round is played on a fast path that deals, prices and settles with the
//! round engine's own functions (`round::exchange_fee`, `purchase_fee`, `redraw_fee`,
//! `dealer_discard`, and `box_result`, which settles the round's boxes too); a test
//! replays rounds of every profile file at its least and greatest ante on the engine
//! (`Round::act` from a stacked deck) and finds the same actions legal and the same settlement.
//!
//! **Estimate.** The main game's return is not the plain mean of the rounds' nets but, per up
//! card rank, the mean of a difference whose expectation is the same, plus an exact figure:
//! - each round's *conditional net*: its ante, play bet and insurance replaced by their mean
//!   over the dealer's hole cards given every card the player saw (counted, as the strategy
//!   counts them), less what the cards an exchange, a sixth card or the dealer's bought card
//!   brought beyond their mean in the strategy's tables (which has mean zero given what was
//!   seen before them);
//! - less the same conditional net of the profile's play-or-fold game on the dealt hand
//!   (`analysis::base_game`), whose exact mean the exact analysis counts: the anchor.
//!
//! Every expectation is exact, so the estimate is unbiased; most of the round's luck (the
//! dealer's cards, the replacements) is gone from it, and its variance is 60 to 300 times
//! smaller than the plain mean's (`control_variate.variance_reduction`). A profile that is its
//! own play-or-fold game played optimally (caribbean, czech) gets its exact return. The side
//! bet is estimated likewise against the bonus its dealt hand would win, whose mean the
//! hand-category counts give. The return table, the options and the distribution are the
//! plain counts of the rounds.
//!
//! **Strategy.** Per up card, the value of a final hand is computed from the dealer's hands
//! that hold the up card (counted, 249 900 of them, without removing the player's cards), with
//! the best insurance; the value of every exchange is the mean of that
//! value (and, with a second exchange round, of the best next exchange) over every replacement,
//! from sums over the hands holding each set of up to five cards with inclusion–exclusion over
//! the dead cards (the up card and the discards). Where playing and the best other choice are
//! within [`EXACT_MARGIN`] of each other, playing is valued exactly with card removal of every
//! card seen, by the exact analysis's counting tables; insurance and the dealer's redraw
//! (buying his card or the game) are decided exactly. `strategy_gap` measures the distance to the strategy
//! module's optimum.

mod fast;
mod gap;
mod play;
mod report;
mod stratum;
mod tables;
mod tally;
#[cfg(test)]
mod tests;

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use rayon::prelude::*;

use crate::analysis::BoxPlay;
use crate::profile::{Money, Profile};
use crate::progress::Progress;
use crate::shuffle::Seed;

use fast::{Anchors, FastPlayer};
use play::Deck;
use report::report;
use stratum::Stratum;
use tally::Tally;

pub use gap::{strategy_gap, StrategyGap};
pub use report::{BonusFigures, BonusHit, ControlVariate, Estimate, OptionFigures, Ordered, Simulation};

/// Rounds per chunk: one ChaCha stream each.
pub const CHUNK: u64 = 1 << 12;
/// Strata: one per rank of the up card.
const STRATA: usize = 13;
/// The least rounds a simulation plays: two per stratum, for the variance of each.
pub const MIN_ROUNDS: u64 = 2 * STRATA as u64;
/// Where playing and the best other choice are closer than this (in antes), playing is valued
/// exactly, with card removal, instead of from the per-up-card table.
pub const EXACT_MARGIN: f64 = 0.05;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimulationOptions {
    pub rounds: u64,
    pub seed: Seed,
    /// The ante (default: the table's maximum, as the exact analysis).
    pub ante: Option<Money>,
    /// How the box is bet and played (not blind: that is the exact analysis's).
    pub play: BoxPlay,
}

/// Why a simulation did not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimulationError {
    Ante {
        profile: String,
        ante: Money,
    },
    NoRounds,
    /// Fewer than two rounds for some up-card rank: no interval could be estimated.
    TooFewRounds {
        rounds: u64,
    },
    /// A blind box takes no decision: the exact analysis counts it.
    Blind,
    Cancelled,
}

impl fmt::Display for SimulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimulationError::Ante { profile, ante } => {
                write!(f, "{profile}: {ante} is not an ante the table allows")
            }
            SimulationError::NoRounds => f.write_str("a simulation needs at least one round"),
            SimulationError::TooFewRounds { rounds } => write!(
                f,
                "{rounds} rounds are too few: a simulation needs at least {} (two per rank of the up card) \
                 to estimate its interval",
                MIN_ROUNDS
            ),
            SimulationError::Blind => {
                f.write_str("a blind box takes no decision: the exact analysis counts it (exact_analysis)")
            }
            SimulationError::Cancelled => f.write_str("the simulation was cancelled"),
        }
    }
}

impl std::error::Error for SimulationError {}

/// The ante a simulation plays, if the table allows it and the rounds are enough.
fn checked_ante(profile: &Profile, options: &SimulationOptions) -> Result<Money, SimulationError> {
    let ante = options.ante.unwrap_or(profile.table.ante_max);
    if !profile.allows_ante(ante) {
        return Err(SimulationError::Ante { profile: profile.id.clone(), ante });
    }
    if options.rounds < MIN_ROUNDS {
        return Err(SimulationError::TooFewRounds { rounds: options.rounds });
    }
    if options.play == BoxPlay::Blind {
        return Err(SimulationError::Blind);
    }
    Ok(ante)
}

/// The rounds of stratum `rank` (up card: that rank's club) of a simulation of `rounds`.
fn stratum_share(rounds: u64, rank: usize) -> u64 {
    rounds / STRATA as u64 + u64::from((rank as u64) < rounds % STRATA as u64)
}

/// Plays `share` rounds with the stratum's up card, chunk by chunk on every core.
fn run_stratum(
    player: &FastPlayer<'_>,
    stratum: &Stratum,
    rank: usize,
    share: u64,
    seed: &Seed,
    progress: &Progress,
) -> Tally {
    (0..share.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut t = Tally::default();
            if progress.is_cancelled() {
                return t;
            }
            let size = CHUNK.min(share - chunk * CHUNK);
            let mut rng = ChaCha8Rng::from_seed(*seed);
            rng.set_stream((rank as u64) << 40 | chunk);
            let mut deck = Deck::new(stratum.up);
            for _ in 0..size {
                t.add(
                    &player.play_round(stratum, &mut deck, &mut rng, None),
                    rank,
                    (player.ante, player.bonus_stake),
                );
            }
            progress.advance(size);
            t
        })
        .reduce(Tally::default, Tally::merge)
}

/// Simulates `options.rounds` rounds of one box (see the module's documentation).
pub fn simulate(profile: &Profile, options: &SimulationOptions) -> Result<Simulation, SimulationError> {
    simulate_with_progress(profile, options, &Progress::new())
}

/// [`simulate`], reporting to `progress` and stopping when it is cancelled. The strategy's
/// tables are built for one up card at a time and dropped after its rounds.
pub fn simulate_with_progress(
    profile: &Profile,
    options: &SimulationOptions,
    progress: &Progress,
) -> Result<Simulation, SimulationError> {
    if options.rounds == 0 {
        return Err(SimulationError::NoRounds);
    }
    let ante = checked_ante(profile, options)?;
    progress.start(options.rounds);
    let player = FastPlayer::new(profile, ante, options.play);
    let anchors = player.anchors();
    let mut tally = Tally::default();
    for rank in 0..STRATA {
        let share = stratum_share(options.rounds, rank);
        if share == 0 || progress.is_cancelled() {
            continue;
        }
        let stratum = player.stratum((4 * rank) as u8);
        tally = tally.merge(run_stratum(&player, &stratum, rank, share, &options.seed, progress));
    }
    if progress.is_cancelled() {
        return Err(SimulationError::Cancelled);
    }
    Ok(report(&player, options, anchors, tally))
}

/// A profile ready to simulate, with the strategy's tables for every up card built once (for
/// benchmarks and repeated runs; up to about 25 MB per up card with exchanges).
pub struct Simulator<'a> {
    player: FastPlayer<'a>,
    strata: Vec<Stratum>,
    options: SimulationOptions,
    anchors: Anchors,
}

impl<'a> Simulator<'a> {
    /// `options.rounds` and `options.seed` are those `run` uses unless it is given others.
    pub fn new(profile: &'a Profile, options: SimulationOptions) -> Result<Simulator<'a>, SimulationError> {
        let ante = checked_ante(profile, &options)?;
        let player = FastPlayer::new(profile, ante, options.play);
        let strata = (0..STRATA).map(|rank| player.stratum((4 * rank) as u8)).collect();
        let anchors = player.anchors();
        Ok(Simulator { player, strata, options, anchors })
    }

    /// Simulates `rounds` rounds from `seed`: the same figures as [`simulate`].
    pub fn run(&self, rounds: u64, seed: Seed) -> Simulation {
        assert!(rounds >= MIN_ROUNDS, "a simulation plays at least {MIN_ROUNDS} rounds");
        let progress = Progress::new();
        let tally = (0..STRATA)
            .map(|rank| {
                let share = stratum_share(rounds, rank);
                run_stratum(&self.player, &self.strata[rank], rank, share, &seed, &progress)
            })
            .fold(Tally::default(), Tally::merge);
        let options = SimulationOptions { rounds, seed, ..self.options.clone() };
        report(&self.player, &options, self.anchors, tally)
    }
}
