//! The sums a simulation keeps of its rounds, exact and independent of the order the threads
//! add them in, and the estimates made from them.

use rustc_hash::FxHashMap;

use crate::profile::Money;

use super::play::{RoundResult, SLOTS};
use super::report::Estimate;
use super::STRATA;

/// The units of [`Moments`]: a figure is summed as a whole number of 2⁻⁴⁰ parts, so that
/// sums are exact and the same in whatever order the threads add them.
const FIXED_POINT: f64 = (1u64 << 40) as f64;

/// 1.96: the two-sided 95 % quantile of the normal distribution.
pub(super) const Z95: f64 = 1.959_963_984_540_054;

/// The count, sum and sum of squares of a per-round figure (of a few hundred at most).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Moments {
    n: u64,
    sum: i128,
    sum_sq: i128,
}

impl Moments {
    fn add(&mut self, x: f64) {
        let units = (x * FIXED_POINT).round() as i128;
        self.n += 1;
        self.sum += units;
        self.sum_sq += units * units;
    }

    fn merge(self, other: Moments) -> Moments {
        Moments { n: self.n + other.n, sum: self.sum + other.sum, sum_sq: self.sum_sq + other.sum_sq }
    }

    fn mean(&self) -> f64 {
        self.sum as f64 / FIXED_POINT / self.n as f64
    }

    /// The variance of the mean (the sample variance over n).
    fn variance_of_mean(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as i128;
        let squares = (n * self.sum_sq - self.sum * self.sum) as f64 / (FIXED_POINT * FIXED_POINT);
        (squares / (n * (n - 1)) as f64).max(0.0) / self.n as f64
    }
}

/// The stratified mean of a figure, each up-card rank weighted 1/13 as it is dealt, and its
/// 95 % half-interval (every stratum has [`MIN_ROUNDS`](super::MIN_ROUNDS) / 13 rounds or more).
pub(super) fn stratified(strata: &[Moments; STRATA]) -> Estimate {
    let weight = 1.0 / STRATA as f64;
    let value = strata.iter().map(|m| weight * m.mean()).sum();
    let variance: f64 = strata.iter().map(|m| weight * weight * m.variance_of_mean()).sum();
    Estimate { value, ci95: Z95 * variance.sqrt() }
}

/// The mean of a per-round amount and its 95 % interval, in units of `unit`.
pub(super) fn mean_estimate(sum: i128, sum_sq: i128, n: u64, unit: f64) -> Estimate {
    let n_f = n as f64;
    let mean = sum as f64 / n_f;
    let variance = if n > 1 { ((sum_sq as f64) - (sum as f64) * mean) / (n_f - 1.0) } else { 0.0 };
    Estimate { value: mean / unit, ci95: Z95 * (variance.max(0.0) / n_f).sqrt() / unit }
}

/// Every figure of the report, summed over rounds.
#[derive(Clone, Debug, Default)]
pub(super) struct Tally {
    /// Per up-card rank: the main game's conditional net less the control variate's, in
    /// antes, and the side bet's net less its control variate's, in stakes.
    pub(super) controlled: [Moments; STRATA],
    pub(super) side_controlled: [Moments; STRATA],
    pub(super) rounds: u64,
    pub(super) net: i128,
    pub(super) net_sq: i128,
    pub(super) wager: i128,
    pub(super) wager_sq: i128,
    pub(super) played: u64,
    pub(super) outcomes: [u64; SLOTS],
    pub(super) outcome_net: [i128; SLOTS],
    pub(super) bonus_hits: [u64; 11],
    pub(super) jackpot_hits: [u64; 11],
    pub(super) exchanges: [[u64; 6]; 2],
    pub(super) exchanged_rounds: u64,
    pub(super) exchange_fees: i128,
    pub(super) exchange_gain: i128,
    pub(super) sixth: u64,
    pub(super) sixth_fees: i128,
    pub(super) sixth_gain: i128,
    pub(super) insurance: u64,
    pub(super) insurance_staked: i128,
    pub(super) insurance_net: i128,
    pub(super) redraw: u64,
    pub(super) redraw_gain: i128,
    pub(super) histogram: FxHashMap<Money, u64>,
}

impl Tally {
    pub(super) fn add(&mut self, r: &RoundResult, rank: usize, (ante, stake): (Money, Money)) {
        self.controlled[rank].add((r.conditional_net - r.base_conditional_net) / ante as f64);
        if stake > 0 {
            self.side_controlled[rank].add((r.side - r.base_side) as f64 / stake as f64);
        }
        let main = i128::from(r.net - r.side);
        let wager = i128::from(r.wager);
        self.rounds += 1;
        self.net += main;
        self.net_sq += main * main;
        self.wager += wager;
        self.wager_sq += wager * wager;
        self.played += u64::from(r.played);
        self.outcomes[r.outcome_slot] += 1;
        self.outcome_net[r.outcome_slot] += main;
        if let Some(c) = r.bonus_hit {
            self.bonus_hits[c as usize] += 1;
        }
        if let Some(c) = r.jackpot_hit {
            self.jackpot_hits[c as usize] += 1;
        }
        for (round, &k) in r.exchanged.iter().enumerate() {
            self.exchanges[round][k] += u64::from(k > 0);
        }
        if r.exchanged[0] > 0 {
            self.exchanged_rounds += 1;
            self.exchange_fees += i128::from(r.exchange_fees);
            self.exchange_gain += i128::from(r.exchange_gain);
        }
        if let Some(fee) = r.sixth {
            self.sixth += 1;
            self.sixth_fees += i128::from(fee);
            self.sixth_gain += i128::from(r.sixth_gain);
        }
        if let Some((staked, net)) = r.insurance {
            self.insurance += 1;
            self.insurance_staked += i128::from(staked);
            self.insurance_net += i128::from(net);
        }
        if let Some(gain) = r.redraw_gain {
            self.redraw += 1;
            self.redraw_gain += i128::from(gain);
        }
        *self.histogram.entry(r.net - r.side).or_default() += 1;
    }

    pub(super) fn merge(mut self, other: Tally) -> Tally {
        for rank in 0..STRATA {
            self.controlled[rank] = self.controlled[rank].merge(other.controlled[rank]);
            self.side_controlled[rank] = self.side_controlled[rank].merge(other.side_controlled[rank]);
        }
        self.rounds += other.rounds;
        self.net += other.net;
        self.net_sq += other.net_sq;
        self.wager += other.wager;
        self.wager_sq += other.wager_sq;
        self.played += other.played;
        for i in 0..SLOTS {
            self.outcomes[i] += other.outcomes[i];
            self.outcome_net[i] += other.outcome_net[i];
        }
        for i in 0..11 {
            self.bonus_hits[i] += other.bonus_hits[i];
            self.jackpot_hits[i] += other.jackpot_hits[i];
        }
        for round in 0..2 {
            for k in 0..6 {
                self.exchanges[round][k] += other.exchanges[round][k];
            }
        }
        self.exchanged_rounds += other.exchanged_rounds;
        self.exchange_fees += other.exchange_fees;
        self.exchange_gain += other.exchange_gain;
        self.sixth += other.sixth;
        self.sixth_fees += other.sixth_fees;
        self.sixth_gain += other.sixth_gain;
        self.insurance += other.insurance;
        self.insurance_staked += other.insurance_staked;
        self.insurance_net += other.insurance_net;
        self.redraw += other.redraw;
        self.redraw_gain += other.redraw_gain;
        for (net, count) in other.histogram {
            *self.histogram.entry(net).or_default() += count;
        }
        self
    }
}
