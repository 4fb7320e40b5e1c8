//! How near the fast strategy plays to the optimum: its first decision on random deals,
//! valued by the strategy module.

use std::collections::HashMap;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::Serialize;

use crate::analysis::BoxPlay;
use crate::card::Card;
use crate::profile::{Money, Profile};
use crate::round::{Action, Phase, Round};
use crate::strategy;

use super::fast::FastPlayer;
use super::stratum::{BoxView, Move, Stratum};

/// The fast strategy's first decision against the strategy module's advice on random deals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategyGap {
    pub profile: String,
    pub situations: usize,
    /// Situations where the fast strategy took advise's best choice.
    pub agreed: usize,
    /// The mean and largest expected loss against advise's best choice, in antes.
    pub mean_gap: f64,
    pub max_gap: f64,
    /// Situations where every choice advise valued was exact (not sampled).
    pub exact: usize,
}

/// Deals `situations` random rounds (from `seed`) at the table's maximum ante with the standard
/// bonus stake, and values the fast strategy's first decision by `strategy::advise`.
pub fn strategy_gap(profile: &Arc<Profile>, situations: usize, seed: u64) -> StrategyGap {
    let ante = profile.table.ante_max;
    let stake = BoxPlay::Standard.stake(profile, ante);
    let player = FastPlayer::new(profile, ante, BoxPlay::Standard);
    let mut strata: HashMap<u8, Stratum> = HashMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut agreed, mut exact, mut sum, mut max) = (0, 0, 0.0f64, 0.0f64);
    for _ in 0..situations {
        let mut deal_seed = [0u8; 32];
        rng.fill_bytes(&mut deal_seed);
        let bonus: Vec<Money> = if stake > 0 { vec![stake] } else { vec![] };
        let round =
            Round::new(profile.clone(), &[ante], &bonus, Some(deal_seed), None).expect("a round deals");
        let up = round.dealer_cards()[4];
        // Suits are symmetric: relabel so that the up card is a club.
        let swap = |c: Card| {
            let suit = match c.suit() {
                s if s == up.suit() => 0,
                0 => up.suit(),
                s => s,
            };
            Card::new(c.rank(), suit).code()
        };
        let cards: Vec<Card> = round.visible_box_cards(0).expect("box 1 is looked at").to_vec();
        let hand = [swap(cards[0]), swap(cards[1]), swap(cards[2]), swap(cards[3]), swap(cards[4])];
        let up_code = swap(up);
        let stratum = strata.entry(up_code).or_insert_with(|| player.stratum(up_code));
        let decision = player.decide(stratum, &BoxView::dealt(hand, up_code));
        let action = match decision {
            Move::Fold => Action::Fold { box_index: 0 },
            Move::Play => Action::Play { box_index: 0 },
            Move::Exchange(mask) => {
                Action::Exchange { box_index: 0, positions: (0..5).filter(|i| mask >> i & 1 == 1).collect() }
            }
            Move::SixthCard => Action::BuySixthCard { box_index: 0 },
        };
        let advice = strategy::advise(&round, 0).expect("box 1 decides");
        let best = advice.best().ev;
        let ours = advice.choices.iter().find(|c| c.action == action).expect("the fast choice is legal").ev;
        let gap = (best - ours) / ante as f64;
        sum += gap;
        max = max.max(gap);
        agreed += usize::from(gap <= 1e-9);
        exact += usize::from(advice.choices.iter().all(|c| c.exact));
        debug_assert!(matches!(round.phase(), Phase::Decision { .. }));
    }
    StrategyGap {
        profile: profile.id.clone(),
        situations,
        agreed,
        mean_gap: sum / situations.max(1) as f64,
        max_gap: max,
        exact,
    }
}

/// `GAP_SITUATIONS=400 cargo test -p oasis-core --release --lib every_gap -- --ignored --nocapture`
/// (`GAP_PROFILES=a,b` for some): the figures of docs/simulation.md.
#[cfg(test)]
mod gap_report {
    #[test]
    #[ignore = "prints the strategy gap of every exchange profile (minutes)"]
    fn every_gap() {
        let n: usize = std::env::var("GAP_SITUATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
        let only = std::env::var("GAP_PROFILES").unwrap_or_default();
        for id in [
            "czech-buy-card",
            "czech-exchange",
            "standard",
            "russian-three-box",
            "golden-oasis",
            "stand-a",
            "stand-b",
            "stand-c",
        ] {
            if !only.is_empty() && !only.split(',').any(|p| p == id) {
                continue;
            }
            let profile = crate::simulation::tests::load(id);
            let started = std::time::Instant::now();
            let gap = super::strategy_gap(&profile, if id == "stand-c" { n / 4 } else { n }, 2024);
            println!("{id:20} {:?} {}", started.elapsed(), serde_json::to_string(&gap).unwrap());
        }
    }
}
