//! The counting checked against dealing every hand, the payments against the round engine
//! and the decisions against the strategy module.

use std::collections::HashSet;

use super::exact::Payments;
use super::holding::{for_each_combination, player_classes};
use super::*;
use crate::card::for_each_hand;
use crate::eval::{evaluator, Category};
use crate::profile::shipped_profile_text;

#[test]
fn subsets_are_ranked_densely() {
    let mut seen = vec![false; BINOMIAL[DECK_SIZE][3] as usize];
    for_each_hand::<3>(|set| {
        let rank = subset_rank(&set);
        assert!(!seen[rank], "{set:?} shares rank {rank}");
        seen[rank] = true;
    });
    assert!(seen.iter().all(|&s| s));
    assert_eq!(BINOMIAL[52][5], PLAYER_HANDS);
    assert_eq!(BINOMIAL[46][4], HOLE_CARD_SETS);
    for k in 1..=5 {
        assert_eq!(HANDS_HOLDING[k] as u64, BINOMIAL[52 - k][5 - k]);
    }
    let mut count = 0;
    for_each_combination::<2>(5, |pair| {
        assert!(pair[0] < pair[1] && pair[1] < 5);
        count += 1;
    });
    assert_eq!(count, 10);
}

/// The classes of hands up to suits, found the slow way: each hand's smallest image under
/// the 24 suit permutations, as a sorted list of codes.
#[test]
fn player_classes_cover_every_hand_once() {
    let classes = player_classes();
    assert_eq!(classes.iter().map(|&(_, w)| u64::from(w)).sum::<u64>(), PLAYER_HANDS);
    let mut naive = HashSet::new();
    let permutations: Vec<[u8; 4]> = (0..256u32)
        .map(|c| [c as u8 & 3, (c >> 2) as u8 & 3, (c >> 4) as u8 & 3, (c >> 6) as u8 & 3])
        .filter(|p| p.iter().collect::<HashSet<_>>().len() == 4)
        .collect();
    assert_eq!(permutations.len(), 24);
    for_each_hand::<5>(|hand| {
        let smallest = permutations
            .iter()
            .map(|p| {
                let mut image = hand.map(|c| c & !3 | p[usize::from(c & 3)]);
                image.sort_unstable();
                image
            })
            .min()
            .unwrap();
        naive.insert(smallest);
    });
    // 134 459: the number of five-card hands up to suit isomorphism.
    assert_eq!(naive.len(), 134_459);
    assert_eq!(classes.len(), naive.len());
}

/// The dealer's counts for one player hand and up card, dealing all C(46, 4) hole-card sets.
fn brute_force(player: [u8; 5], up: u8, qualifier: u16) -> DealerCounts {
    let strength = evaluator().eval5(player).strength();
    let rest: Vec<u8> = (0..52).filter(|c| !player.contains(c) && *c != up).collect();
    let mut counts = DealerCounts::default();
    for_each_combination::<4>(rest.len(), |hole| {
        let dealer = [
            up,
            rest[hole[0] as usize],
            rest[hole[1] as usize],
            rest[hole[2] as usize],
            rest[hole[3] as usize],
        ];
        let dealer = evaluator().eval5(dealer).strength();
        if dealer < qualifier {
            counts.not_qualified += 1;
        } else if dealer < strength {
            counts.lower += 1;
        } else if dealer == strength {
            counts.equal += 1;
        } else {
            counts.higher += 1;
        }
    });
    counts
}

/// Pseudo-random player hands (sorted) and up cards, from a fixed linear congruential sequence.
fn deals() -> impl Iterator<Item = ([u8; 5], u8)> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    std::iter::repeat_with(move || {
        let mut deck: Vec<u8> = (0..52).collect();
        for i in 0..6 {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let j = i + (state >> 33) as usize % (52 - i);
            deck.swap(i, j);
        }
        let mut player: [u8; 5] = deck[..5].try_into().unwrap();
        player.sort_unstable();
        (player, deck[5])
    })
}

#[test]
fn counting_by_inclusion_exclusion_equals_dealing_every_hole_card_set() {
    let cards = |text: &str| {
        let mut codes: [u8; 5] = crate::card::parse_cards(text)
            .unwrap()
            .iter()
            .map(|c| c.code())
            .collect::<Vec<_>>()
            .try_into()
            .unwrap();
        codes.sort_unstable();
        codes
    };
    let card = |text: &str| text.parse::<crate::card::Card>().unwrap().code();
    let mut cases = vec![
        (cards("As Ks Qs Js Ts"), card("Ah")), // royal flush, up card of its rank
        (cards("Ah Kd 9c 7s 4h"), card("2c")), // ace-king, the lowest up card
        (cards("Ah Kd 9c 7s 4h"), card("As")), // ace-king, up card pairing the ace
        (cards("Qh Qd 8c 5s 3d"), card("Qs")), // a pair matched by the up card
        (cards("9h 7d 6c 4s 2h"), card("Kd")), // a high card that never beats a qualifier
        (cards("2c 3c 4c 5c 7d"), card("6c")), // up card completing what the player lacks
        (cards("5h 5d 5c 9s 9d"), card("9h")),
    ];
    // And pseudo-random deals (a fixed linear congruential sequence).
    let mut deals = deals();
    while cases.len() < 40 {
        cases.push(deals.next().unwrap());
    }
    for qualifier in [Category::AceKing, Category::OnePair, Category::HighCard] {
        let tables = HoldingTables::build(qualifier);
        let q = qualifier.lowest().strength();
        for &(player, up) in &cases {
            let strength = evaluator().eval5(player).strength();
            let counted = tables.dealer_counts(&player, up, strength);
            assert_eq!(counted, brute_force(player, up, q), "{player:?} up {up}, {qualifier:?}");
            let sum = counted.not_qualified + counted.lower + counted.equal + counted.higher;
            assert_eq!(sum, HOLE_CARD_SETS);
        }
    }
}

fn shipped(id: &str, overrides: &str) -> Profile {
    Profile::from_toml(&shipped_profile_text(id), id, Some(overrides)).unwrap()
}

#[test]
fn payments_are_the_round_engines_with_the_cap() {
    let free = shipped("caribbean", "");
    let payments = Payments::new(&free, 10_000);
    assert_eq!(payments.won[Category::RoyalFlush as usize], 10_000 + 20_000 * 100);
    assert_eq!(payments.won[Category::AceKing as usize], 30_000);
    assert_eq!(payments.not_qualified, 10_000);
    assert_eq!((payments.push, payments.folded, payments.lost), (0, -10_000, -30_000));
    assert!(payments.cut_by_cap(&free).is_empty());

    // A 2 000.00 cap on ante and play-bet wins cuts quads (4 100.00) and above, not a full house.
    let capped = shipped("caribbean", "[table]\nmax_payout = 200000\n[game]\nno_qualify_ante = \"returned\"");
    let payments = Payments::new(&capped, 10_000);
    assert_eq!(payments.won[Category::RoyalFlush as usize], 200_000);
    assert_eq!(payments.won[Category::FullHouse as usize], 10_000 + 20_000 * 7);
    assert_eq!(payments.not_qualified, 0);
    let cut = vec![Category::FourOfAKind, Category::StraightFlush, Category::RoyalFlush];
    assert_eq!(payments.cut_by_cap(&capped), cut);
    // A cap on the play bet alone leaves the ante's win whole.
    let play_cap = shipped("caribbean", "[table]\nmax_payout = 200000\n[game]\ncap = \"play\"");
    assert_eq!(Payments::new(&play_cap, 10_000).won[Category::RoyalFlush as usize], 210_000);
}

/// Folding costs one ante; playing is exact integer arithmetic on the counts, so a hand
/// exactly as good to play as to fold plays.
#[test]
fn the_player_plays_when_playing_is_worth_at_least_folding() {
    let payments = Payments::new(&shipped("caribbean", ""), 1_000);
    // Playing a hand no qualifying dealer loses to: +1 ante per dealer who does not
    // qualify, −3 per dealer who does; worth folding's −163 185 from 81 593 such dealers.
    let short = DealerCounts { not_qualified: 81_592, lower: 0, equal: 0, higher: 81_593 };
    assert!(!payments.plays(short, Category::HighCard, 0), "81 592 − 3 × 81 593 = −163 187");
    let enough = DealerCounts { not_qualified: 81_593, lower: 0, equal: 0, higher: 81_592 };
    assert!(payments.plays(enough, Category::HighCard, 0), "81 593 − 3 × 81 592 = −163 183");
    let ace_king = DealerCounts { not_qualified: 40_797, lower: 40_796, equal: 0, higher: 81_592 };
    // 40 797 + 3 × 40 796 − 3 × 81 592 = −81 591: plays.
    assert!(payments.plays(ace_king, Category::AceKing, 0));
    let tie = DealerCounts { not_qualified: 0, lower: 0, equal: 108_790, higher: 54_395 };
    // −3 × 54 395 = −163 185 = folding: a tie of expectations plays.
    assert!(payments.plays(tie, Category::OnePair, 0));
    let worse = DealerCounts { not_qualified: 0, lower: 0, equal: 108_789, higher: 54_396 };
    assert!(!payments.plays(worse, Category::OnePair, 0));
}

/// The strategy module (`strategy::advise`) values the same decisions its own way, from a
/// dealt round: both must agree on every expected value and so on every decision.
#[test]
fn the_decisions_agree_with_the_strategy_modules_advice() {
    use crate::card::Card;
    use crate::round::{Action, Round};
    let profile = std::sync::Arc::new(shipped("caribbean", ""));
    let tables = HoldingTables::build(profile.game.qualifier);
    let ante = 1_000;
    let payments = Payments::new(&profile, ante);
    // Ace-king hands are where the decision turns on the up card; some others beside them.
    let (mut ace_king, mut others) = (0, 0);
    let mut played = 0;
    for (player, up) in deals() {
        let value = evaluator().eval5(player);
        let category = value.category();
        if category == Category::AceKing && ace_king < 40 {
            ace_king += 1;
        } else if category != Category::AceKing && others < 20 {
            others += 1;
        } else if ace_king == 40 && others == 20 {
            break;
        } else {
            continue;
        }
        let dealer = tables.dealer_counts(&player, up, value.strength());
        let play_ev = payments.play_total(dealer, category) as f64 / HOLE_CARD_SETS as f64;
        let hidden = (0..52u8).filter(|c| !player.contains(c) && *c != up).take(4);
        let top: Vec<Card> =
            player.into_iter().chain(hidden).chain([up]).map(|code| Card::from_code(code).unwrap()).collect();
        let round = Round::stacked(profile.clone(), &[ante], &[], &top, None).unwrap();
        let advice = crate::strategy::advise(&round, 0).unwrap();
        let ev = |wanted: Action| advice.choices.iter().find(|c| c.action == wanted).unwrap().ev;
        assert!((ev(Action::Play { box_index: 0 }) - play_ev).abs() < 1e-6, "{player:?} up {up}");
        assert_eq!(ev(Action::Fold { box_index: 0 }), payments.folded as f64);
        let plays = payments.plays(dealer, category, 0);
        assert_eq!(advice.best().action == (Action::Play { box_index: 0 }), plays, "{player:?} up {up}");
        played += usize::from(plays && category == Category::AceKing);
    }
    assert!(0 < played && played < 40, "some ace-king hands play and some fold: {played}");
}

#[test]
fn profiles_with_more_decisions_are_refused() {
    let profile = shipped("standard", "");
    let error = exact_analysis(&profile, None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "standard: the exact analysis covers profiles whose only decision is to play or fold; \
         this one also has card exchange"
    );
    let profile = shipped("caribbean", "");
    assert_eq!(
        exact_analysis(&profile, Some(1050)).unwrap_err(),
        AnalysisError::Ante { profile: "caribbean".into(), ante: 1050 }
    );
}

/// The fixed bonus of `czech` at 20 Kč, from the published category counts: what the
/// bound gives, and what the exact analysis's player (who never folds a paying bonus) gets.
#[test]
fn a_bonus_kept_on_every_hand_bounds_what_any_player_gets() {
    let czech = shipped("czech", "");
    let bound = side_bet_bound(&czech, 2000).unwrap();
    let paid: [(i128, i128); 7] = [
        (54_912, 10_000),
        (10_200, 50_000),
        (5_108, 100_000),
        (3_744, 200_000),
        (624, 600_000),
        (36, 1_000_000),
        (4, 5_000_000),
    ];
    let hands = i128::from(PLAYER_HANDS as u32);
    let net: i128 = paid.iter().map(|(count, pays)| count * pays).sum::<i128>() - hands * 2000;
    assert_eq!(bound.return_per_stake, net as f64 / (hands * 2000) as f64);
    assert_eq!(bound.jackpot_frequency, 0.0);
    let analysed = exact_analysis(&czech, None).unwrap();
    assert!((analysed.bonus_return_per_stake.unwrap() - bound.return_per_stake).abs() < 1e-12);
    // The royal flush wins the standard profile's jackpot: four hands in 2 598 960.
    let standard = shipped("standard", "");
    assert_eq!(side_bet_bound(&standard, 200).unwrap().jackpot_frequency, 4.0 / 2_598_960.0);
    // Judged on the final hand, which an exchange may now improve without forfeiting it.
    assert_eq!(side_bet_bound(&shipped("czech-exchange", "[exchange]\nforfeits_bonus = false"), 2000), None);
    assert!(side_bet_bound(&shipped("czech-exchange", ""), 2000).is_some(), "exchanging forfeits it");
    assert_eq!(side_bet_bound(&shipped("golden-oasis", ""), 60), None, "a privilege fee is no side bet");
}

/// A blind box (RULES.md §3.7) plays every hand it is dealt; a box that weighs the bonus
/// gives up some of the main game for it, one that decides for the main game does not.
#[test]
fn a_blind_box_plays_every_hand_and_each_way_of_betting_is_counted() {
    let progress = Progress::new();
    let czech = shipped("czech", "");
    let analysed =
        |profile: &Profile, play| exact_analysis_with_progress(profile, Some(2000), play, &progress);
    let blind = analysed(&czech, BoxPlay::Blind).unwrap();
    assert_eq!((blind.combinations("folded"), blind.play_fraction), (0, 1.0));
    let standard = analysed(&czech, BoxPlay::Standard).unwrap();
    assert!(blind.house_edge > standard.house_edge + 0.05, "folding nothing costs the player");
    let for_main = analysed(&czech, BoxPlay::ForMain).unwrap();
    assert_eq!(for_main.bonus_stake, 2000);
    assert!(for_main.player_net >= standard.player_net, "weighing the bonus only costs the main game");
    // A bonus worth keeping at any price: every hand that wins it plays.
    let rich = shipped("czech", "[bonus.pays]\nAceKing = 100000000");
    let weighed = analysed(&rich, BoxPlay::Standard).unwrap();
    assert!(weighed.player_net < analysed(&rich, BoxPlay::ForMain).unwrap().player_net);
    // A blind box of a profile with exchanges is counted without them (and without the
    // purchases and insurance the round never offers it).
    let exchange = shipped("standard", "");
    assert!(exact_analysis_with_progress(&exchange, None, BoxPlay::Standard, &progress).is_err());
    assert_eq!(
        exact_analysis_with_progress(&exchange, None, BoxPlay::Blind, &progress).unwrap().play_fraction,
        1.0
    );
}
