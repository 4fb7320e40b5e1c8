//! The fast player checked against exact counts, every replacement and the round engine.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::analysis::{subset_rank, BoxPlay, HoldingTables};
use crate::card::{for_each_hand, Card, DECK_SIZE};
use crate::eval::{evaluator, Category};
use crate::profile::{shipped_profile_text, Money, Profile, SHIPPED_PROFILES};
use crate::round::Round;

use super::fast::{FastPlayer, ShowdownCounts};
use super::play::{outcome_slot, side_net, Deck, Trace};
use super::EXACT_MARGIN;

pub(super) fn load(id: &str) -> Arc<Profile> {
    Arc::new(Profile::from_toml(&shipped_profile_text(id), id, None).expect("a valid profile"))
}

/// The per-rank-key counts of the dealer's hands against exact card removal, where a hand's
/// value is near folding's (at most one ante): within a fifth of the margin at which the
/// decision is made exactly.
#[test]
fn rank_key_counts_are_near_exact_where_decisions_are_close() {
    let profile = load("caribbean");
    let player = FastPlayer::new(&profile, profile.table.ante_max, BoxPlay::WithoutBonus);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut worst, mut close) = (0.0f64, 0);
    for up in [0u8, 48, 45, 22] {
        let stratum = player.stratum(up);
        for _ in 0..20_000 {
            let mut deck = Deck::new(up);
            let mut hand: [u8; 5] = std::array::from_fn(|_| deck.draw(&mut rng));
            hand.sort_unstable();
            let s = evaluator().eval5(hand).strength();
            let approximate = stratum.counts[stratum.hand_counts[subset_rank(&hand)] as usize];
            let exact = player.exact_counts(&hand, up, s);
            let value = |c: ShowdownCounts| player.play_total(s, c) as f64 / c.total() as f64 / 10_000.0;
            if value(exact) <= 1.0 {
                close += 1;
                worst = worst.max((value(approximate) - value(exact)).abs());
            }
        }
    }
    assert!(close > 40_000, "{close}");
    assert!(worst < EXACT_MARGIN / 4.0, "{worst}");
    assert!(worst > 0.0, "the rank keys ignore suits: some error is expected");
}

/// The cards not in `seen`, in order.
fn unseen(seen: &[u8]) -> Vec<u8> {
    (0..DECK_SIZE as u8).filter(|c| !seen.contains(c)).collect()
}

/// The conditional net is unbiased: the expected ante, play bet and insurance equal their
/// mean over every set of the dealer's hole cards, for hands that win, push, lose, are
/// protected and are insured.
#[test]
fn expected_bets_are_the_mean_over_every_hole_card_set() {
    let profile = load("golden-oasis");
    let ante = 5_000;
    let player = FastPlayer::new(&profile, ante, BoxPlay::Standard);
    let cards = |text: &str| -> Vec<u8> {
        text.split_whitespace().map(|t| t.parse::<Card>().expect("a card").code()).collect()
    };
    for (hand, discards, insurance) in [
        ("9h 10h Jh Qh Kh", "", 20_000),
        ("7c 7d 7s 2h 9d", "3c Kd", 5_000),
        ("Ac Kd 4s 6h 9c", "", 0),
        ("2c 3d 5s 8h 9c", "", 0),
        ("Qc Qd 5s 5h 9c 2d", "", 0),
    ] {
        let hand = cards(hand);
        let mut known = hand.clone();
        known.extend(cards(discards));
        let up = 51; // the ace of spades
        let value = evaluator()
            .evaluate_unchecked(&hand.iter().map(|&c| Card::from_code(c).unwrap()).collect::<Vec<_>>());
        let mut seen = known.clone();
        seen.push(up);
        let pool = unseen(&seen);
        let (mut sum, mut n) = (0i128, 0i128);
        for_each_hand::<4>(|set| {
            if set.iter().all(|&i| usize::from(i) < pool.len()) {
                let [a, b, c, d] = set.map(|i| pool[usize::from(i)]);
                let dealer = evaluator().eval5([a, b, c, d, up]);
                sum += i128::from(player.bets_against(value, insurance, dealer));
                n += 1;
            }
        });
        let mean = sum as f64 / n as f64;
        let expected = player.expected_bets(value, insurance, &known, up);
        assert!((mean - expected).abs() < 1e-6, "{hand:?}: {mean} against {expected}");
    }
}

/// What an exchange's cards gave beyond their mean (taken out of the conditional net) has
/// mean zero: the table's mean over every replacement is the one inclusion–exclusion gives.
#[test]
fn an_exchange_tables_mean_is_the_mean_over_every_replacement() {
    let profile = load("stand-b");
    let player = FastPlayer::new(&profile, profile.table.ante_min, BoxPlay::WithoutBonus);
    let up = 22; // a seven
    let stratum = player.stratum(up);
    let held = [3u8, 17, 40];
    let dead = [up, 5, 30];
    let mut seen = held.to_vec();
    seen.extend(dead);
    let pool = unseen(&seen);
    let (mut sum, mut n) = (0.0, 0u32);
    for_each_hand::<2>(|pair| {
        if pair.iter().all(|&i| usize::from(i) < pool.len()) {
            let mut hand =
                [held[0], held[1], held[2], pool[usize::from(pair[0])], pool[usize::from(pair[1])]];
            hand.sort_unstable();
            sum += stratum.sums[0].get(&hand);
            n += 1;
        }
    });
    let mean = stratum.sums[0].mean(&held, &dead);
    assert!(
        (sum / f64::from(n) - mean).abs() < 1e-6 * mean.abs().max(1.0),
        "{} against {mean}",
        sum / f64::from(n)
    );
}

/// Plays rounds of every shipped profile at its least and its greatest ante on the fast path
/// with a trace, replays each on the round engine from a stacked deck with the same
/// actions (each one the engine must find legal), and compares the settlements.
#[test]
fn fast_path_settles_as_the_engine() {
    let mut actions_seen = std::collections::BTreeSet::new();
    let tables = Arc::new(HoldingTables::build(Category::AceKing));
    let profiles: Vec<Arc<Profile>> = SHIPPED_PROFILES.iter().map(|id| load(id)).collect();
    // The standard bonus at both antes; without it, and bet but not weighed, at one each.
    let plays = |p: &Profile| {
        let (least, greatest) = (p.table.ante_min, p.table.ante_max);
        [
            (least, BoxPlay::Standard),
            (greatest, BoxPlay::Standard),
            (least, BoxPlay::WithoutBonus),
            (greatest, BoxPlay::ForMain),
        ]
    };
    for (profile, (ante, bonus)) in profiles.iter().flat_map(|p| plays(p).map(|play| (p, play))) {
        let (id, profile) = (profile.id.as_str(), profile.clone());
        let stake = bonus.stake(&profile, ante);
        let player = FastPlayer::with_tables(&profile, ante, bonus, tables.clone());
        for (i, up) in [48u8, 20, 1].into_iter().enumerate() {
            let stratum = player.stratum(up);
            let mut rng = ChaCha8Rng::seed_from_u64(i as u64 + 99);
            let mut deck = Deck::new(up);
            for _ in 0..if id == "czech-exchange" || id == "golden-oasis" { 3000 } else { 400 } {
                let mut trace = Trace::default();
                let result = player.play_round(&stratum, &mut deck, &mut rng, Some(&mut trace));
                let mut top: Vec<Card> =
                    trace.drawn[..9].iter().map(|&c| Card::from_code(c).unwrap()).collect();
                top.push(Card::from_code(up).unwrap());
                top.extend(trace.drawn[9..].iter().map(|&c| Card::from_code(c).unwrap()));
                let bonus: Vec<Money> = if stake > 0 { vec![stake] } else { vec![] };
                let mut engine = Round::stacked(profile.clone(), &[ante], &bonus, &top, None).unwrap();
                for action in &trace.actions {
                    actions_seen.insert(format!("{id} {}", serde_json::to_value(action).unwrap()["action"]));
                    engine.act(action.clone()).unwrap_or_else(|e| panic!("{id}: {action:?}: {e} {trace:?}"));
                }
                let settlement = engine.settlement().unwrap_or_else(|| panic!("{id}: not settled {trace:?}"));
                let settled = &settlement.boxes[0];
                assert_eq!(settled.net, result.net, "{id}: {trace:?} {settled:?}");
                let side = side_net(&profile, settled.bonus.net());
                assert_eq!(side, result.side, "{id}");
                assert_eq!(settled.jackpot.map(|j| j.category), result.jackpot_hit, "{id}");
                assert_eq!(
                    outcome_slot(settled.outcome, settled.hand),
                    result.outcome_slot,
                    "{id}: {trace:?}"
                );
                assert_eq!(
                    settlement.collected - settled.bonus.stake + i64::from(stake > 0 && side == 0) * stake,
                    result.wager,
                    "{id}"
                );
            }
        }
    }
    // Every kind of decision was taken somewhere.
    for expected in [
        "czech-exchange \"buy_dealer_card\"",
        "czech-exchange \"exchange\"",
        "golden-oasis \"buy_sixth_card\"",
        "golden-oasis \"buy_game\"",
        "golden-oasis \"insure\"",
        "golden-oasis \"decline\"",
        "stand-c \"exchange\"",
        "caribbean \"fold\"",
        "caribbean \"play\"",
    ] {
        assert!(actions_seen.contains(expected), "{expected} not in {actions_seen:?}");
    }
}
