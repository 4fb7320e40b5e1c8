//! The values of a box's choices before the dealer's reveal: folding, playing and insuring
//! against every dealer hand, and an exchange or a sixth card averaged over its replacements.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use rayon::prelude::*;

use crate::eval::HandValue;
use crate::profile::Money;
use crate::round::{self, Action, LegalAction, Outcome, Round, HAND};
use crate::shuffle::bounded;

use super::dealer::DealerTable;
use super::offers::{exchange_work, Offers};
use super::player::{Hand, Player};
use super::redraw::RedrawPrices;
use super::{Choice, Effort, MIN_SAMPLES};

/// An expected value and whether it was enumerated exactly.
#[derive(Clone, Copy, Debug)]
struct ExpectedValue {
    ev: f64,
    exact: bool,
}

impl ExpectedValue {
    fn exact(ev: f64) -> ExpectedValue {
        ExpectedValue { ev, exact: true }
    }

    fn best(self, other: ExpectedValue) -> ExpectedValue {
        let exact = self.exact && other.exact;
        ExpectedValue { ev: if other.ev > self.ev { other.ev } else { self.ev }, exact }
    }

    /// The mean of estimates that are each equally likely.
    fn mean(estimates: &[ExpectedValue], exact: bool) -> ExpectedValue {
        // Summed in order, so the answer does not depend on how the threads shared the work.
        let sum: f64 = estimates.iter().map(|e| e.ev).sum();
        let exact = exact && estimates.iter().all(|e| e.exact);
        ExpectedValue { ev: sum / estimates.len() as f64, exact }
    }
}

/// Values the choices of a box before the dealer's reveal.
pub(super) struct Advisor<'a> {
    player: Player<'a>,
    table: DealerTable,
    effort: Effort,
    /// Every choice of positions to exchange, by card count.
    positions: Vec<Vec<Vec<usize>>>,
}

impl<'a> Advisor<'a> {
    pub(super) fn new(player: Player<'a>, table: DealerTable, effort: Effort) -> Advisor<'a> {
        let positions = (0..=HAND).map(|count| combinations(HAND, count)).collect();
        Advisor { player, table, effort, positions }
    }

    pub(super) fn decisions(&self, round: &Round) -> Vec<Choice> {
        let node = Offers::new(round, self.player.index);
        let hand = self.player.hand;
        let b = self.player.index;
        let mut choices = Vec::new();
        if node.fold {
            let ev = self.fold(&node, &hand);
            choices.push(Choice { action: Action::Fold { box_index: b }, ev, exact: true });
        }
        if node.play {
            let estimate = self.play(&node, &hand);
            choices.push(Choice {
                action: Action::Play { box_index: b },
                ev: estimate.ev,
                exact: estimate.exact,
            });
        }
        for (count, next) in &node.exchanges {
            for positions in &self.positions[*count] {
                let estimate = self.exchange(&hand, positions, next, true);
                let action = Action::Exchange { box_index: b, positions: positions.clone() };
                choices.push(Choice { action, ev: estimate.ev, exact: estimate.exact });
            }
        }
        if let Some(next) = &node.sixth_card {
            let estimate = self.sixth_card(&hand, next, true);
            choices.push(Choice {
                action: Action::BuySixthCard { box_index: b },
                ev: estimate.ev,
                exact: estimate.exact,
            });
        }
        choices
    }

    /// The choices of a box that has just played: insure none, the least or the most.
    pub(super) fn insurance(&self, round: &Round) -> Vec<Choice> {
        let state = round.box_state(self.player.index);
        let hand = self.player.hand;
        let value = hand.value();
        let fixed = self.player.bonus(value, state.bonus_forfeited, false) - state.fees;
        let b = self.player.index;
        let at = |amount: Money| {
            let credit = round.credit().map(|c| c - amount);
            let money = AtReveal { credit, remaining: round.shoe_remaining(), has_bonus: state.has_bonus() };
            self.reveal(value, hand.drawn, amount, money).ev + fixed as f64
        };
        let mut choices = Vec::new();
        for legal in round.legal_actions(b) {
            match legal {
                LegalAction::Insure { min, max } => {
                    for amount in if min == max { vec![min] } else { vec![min, max] } {
                        let action = Action::Insure { box_index: b, amount };
                        choices.push(Choice { action, ev: at(amount), exact: true });
                    }
                }
                LegalAction::Decline => {
                    choices.push(Choice { action: Action::Decline { box_index: b }, ev: at(0), exact: true })
                }
                _ => {}
            }
        }
        choices
    }

    /// The best choice at a decision for an imagined hand.
    fn decide(&self, node: &Offers, hand: &Hand) -> ExpectedValue {
        let mut best: Option<ExpectedValue> = None;
        let mut consider = |estimate: ExpectedValue| {
            best = Some(best.map_or(estimate, |b| b.best(estimate)));
        };
        if node.fold {
            consider(ExpectedValue::exact(self.fold(node, hand)));
        }
        if node.play {
            consider(self.play(node, hand));
        }
        for (count, next) in &node.exchanges {
            for positions in &self.positions[*count] {
                consider(self.exchange(hand, positions, next, false));
            }
        }
        if let Some(next) = &node.sixth_card {
            consider(self.sixth_card(hand, next, false));
        }
        best.expect("a decision always offers fold or play")
    }

    fn fold(&self, node: &Offers, hand: &Hand) -> f64 {
        let value = hand.value();
        let (_, ante, _) = round::main_bets(self.player.profile, value, self.player.ante, 0, Outcome::Folded);
        (ante.net() + self.player.bonus(value, node.bonus_forfeited, true) - node.fees) as f64
    }

    /// Plays, then insures as well as the box may.
    fn play(&self, node: &Offers, hand: &Hand) -> ExpectedValue {
        let player = &self.player;
        let value = hand.value();
        let credit = node.credit.map(|c| c - player.play_bet);
        let fixed = (player.bonus(value, node.bonus_forfeited, false) - node.fees) as f64;
        let money = |amount: Money| AtReveal {
            credit: credit.map(|c| c - amount),
            remaining: node.remaining,
            has_bonus: node.has_bonus,
        };
        let mut best = self.reveal(value, hand.drawn, 0, money(0));
        if let Ok((min, max)) = round::insurance_limits(
            player.profile,
            value,
            player.ante,
            player.play_bet,
            credit,
            node.play_bets_after,
        ) {
            for amount in [min, max] {
                best = best.best(self.reveal(value, hand.drawn, amount, money(amount)));
            }
        }
        ExpectedValue { ev: best.ev + fixed, exact: best.exact }
    }

    /// The expected net of the ante, play bet and insurance from the reveal on, the box
    /// buying the dealer's redraw after the reveal where it pays best. The redraw is valued
    /// against every dealer hand after at most one drawn card, against a sample after more.
    fn reveal(&self, hand: HandValue, drawn: u64, insurance: Money, money: AtReveal) -> ExpectedValue {
        let player = &self.player;
        let profile = player.profile;
        let nets = player.nets(hand);
        let cases = self.table.cases(hand, drawn);
        // Insurance settles on the revealed hand, whatever a box then buys.
        let declined = nets.not_qualified + insurance;
        let sum = cases.qualifying[0] * (nets.won - insurance)
            + cases.qualifying[1] * nets.push
            + cases.qualifying[2] * nets.lost
            + (cases.not_qualifying[0] + cases.not_qualifying[1] + cases.not_qualifying[2]) * declined;
        let redraw =
            round::redraw_fee(profile, hand, player.ante, money.has_bonus, money.remaining, money.credit)
                .ok();
        let exact = drawn.count_ones() <= 1;
        let gain = match (redraw, &self.table.redraw) {
            (Some((_, fee)), Some(table)) => {
                let prices = RedrawPrices { fee, nets };
                ExpectedValue { ev: table.gain(hand, drawn, &prices, &self.table, exact), exact }
            }
            _ => ExpectedValue::exact(0.0),
        };
        ExpectedValue { ev: (sum as f64 + gain.ev) / cases.total as f64, exact: gain.exact }
    }

    /// Exchanges the cards at `positions`, then takes the best next decision (whose values
    /// count the fee: the next node's fees hold it).
    fn exchange(&self, hand: &Hand, positions: &[usize], next: &Offers, parallel: bool) -> ExpectedValue {
        let pool: Vec<u8> = self.table.pool.iter().copied().filter(|&c| hand.drawn & (1 << c) == 0).collect();
        let count = positions.len();
        let work = exchange_work(count, next, pool.len() as u64);
        let outcomes: Vec<Vec<u8>> = if work <= self.effort.exact_work {
            combinations(pool.len(), count)
                .into_iter()
                .map(|picks| picks.iter().map(|&i| pool[i]).collect())
                .collect()
        } else {
            let per_draw = next.work(pool.len().saturating_sub(count) as u64).max(1);
            let draws = (self.effort.exact_work / per_draw).max(MIN_SAMPLES);
            let seed =
                self.effort.seed ^ hand.drawn.rotate_left(17) ^ positions.iter().fold(0, |m, &p| m | 1 << p);
            sample(&pool, count, draws, seed)
        };
        let exact = work <= self.effort.exact_work;
        let value = |new: &Vec<u8>| self.decide(next, &hand.exchanged(positions, new));
        let estimates: Vec<ExpectedValue> = if parallel {
            outcomes.par_iter().map(value).collect()
        } else {
            outcomes.iter().map(value).collect()
        };
        ExpectedValue::mean(&estimates, exact)
    }

    /// Buys a sixth card, then takes the best next decision.
    fn sixth_card(&self, hand: &Hand, next: &Offers, parallel: bool) -> ExpectedValue {
        let pool: Vec<u8> = self.table.pool.iter().copied().filter(|&c| hand.drawn & (1 << c) == 0).collect();
        let value = |&card: &u8| self.decide(next, &hand.with_sixth(card));
        let estimates: Vec<ExpectedValue> =
            if parallel { pool.par_iter().map(value).collect() } else { pool.iter().map(value).collect() };
        ExpectedValue::mean(&estimates, true)
    }
}

/// The box's money and the shoe at the dealer's reveal, which decide what it may buy then.
#[derive(Clone, Copy, Debug)]
struct AtReveal {
    credit: Option<Money>,
    remaining: usize,
    has_bonus: bool,
}

/// Every way to choose `k` of `n` positions, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k > n {
        return all;
    }
    loop {
        all.push(pick.clone());
        let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else {
            return all;
        };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// `draws` random choices of `k` cards of `pool`, each uniform, from a seeded generator.
fn sample(pool: &[u8], k: usize, draws: u64, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut cards = pool.to_vec();
    (0..draws)
        .map(|_| {
            // A partial Fisher–Yates shuffle: the first k places are a uniform choice.
            for i in 0..k {
                let j = i + bounded(&mut rng, (cards.len() - i) as u32) as usize;
                cards.swap(i, j);
            }
            cards[..k].to_vec()
        })
        .collect()
}
