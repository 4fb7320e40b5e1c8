//! The worked examples of RULES.md §4, each played from a stacked deck under its profile.
//!
//! The examples speak of an ante of 10 and a play bet of 20 in currency units; the
//! profiles count minor units, so 10 is 1 000 here and every net is scaled by 100.

use std::sync::Arc;

use oasis_core::round::{Action, Outcome, Phase};
use oasis_core::{parse_cards, Money, Profile, Round};

const UNIT: Money = 100;
const ANTE: Money = 10 * UNIT;

fn profile(id: &str, overrides: &str) -> Arc<Profile> {
    let path = format!("{}/../../oasis_kiosk/profiles/{id}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    Arc::new(Profile::from_toml(&text, id, Some(overrides)).unwrap_or_else(|e| panic!("{e}")))
}

/// A round dealt from a stacked deck written as the box's cards, then the dealer's, then
/// the replacement cards ("/" separates them for the reader).
fn stacked(profile: &Arc<Profile>, antes: &[Money], bonus: &[Money], deck: &str) -> Round {
    let top = parse_cards(&deck.replace('/', " ")).unwrap();
    Round::stacked(profile.clone(), antes, bonus, &top, Some(1_000_000 * UNIT)).unwrap()
}

fn act(round: &mut Round, action: Action) {
    round.act(action.clone()).unwrap_or_else(|e| panic!("{action:?}: {e}"));
}

/// Plays box 0 and returns the round's net, after checking that the credit moved by it.
fn net(round: &Round) -> Money {
    let settlement = round.settlement().expect("the round is settled");
    assert_eq!(round.phase(), Phase::Settled);
    assert_eq!(settlement.void, None);
    assert_eq!(round.credit().unwrap() - 1_000_000 * UNIT, settlement.net, "credit moves by the net");
    assert_eq!(settlement.boxes.iter().map(|b| b.net).sum::<Money>(), settlement.net);
    settlement.net
}

const PLAY: Action = Action::Play { box_index: 0 };
const FOLD: Action = Action::Fold { box_index: 0 };

#[test]
fn example_1_full_house_beats_a_qualifying_dealer() {
    let standard = profile("standard", "");
    let mut round = stacked(&standard, &[ANTE], &[], "Ah Ad Ac Kh Kd / 2s 2c 5d 7h 9s");
    act(&mut round, PLAY);
    assert_eq!(net(&round), 150 * UNIT);
    let b = &round.settlement().unwrap().boxes[0];
    assert_eq!((b.outcome, b.ante.net(), b.play.net()), (Outcome::Won, 10 * UNIT, 140 * UNIT));
}

#[test]
fn example_2_royal_flush_at_the_10_100_3000_table() {
    let standard = profile("standard", "");
    assert_eq!(standard.table.max_payout, 3000 * UNIT);
    let mut round = stacked(&standard, &[ANTE], &[], "As Ks Qs Js Ts / 2s 2c 5d 7h 9s");
    act(&mut round, PLAY);
    assert_eq!(net(&round), 2010 * UNIT);
}

#[test]
fn example_3_the_cap_on_the_play_bet_or_on_the_total() {
    let table = "[table]\nante_min = 500\nante_max = 5000\nmax_payout = 200000\n";
    for (cap, expected) in [("play", 2050 * UNIT), ("total", 2000 * UNIT)] {
        let profile = profile("standard", &format!("{table}[game]\ncap = \"{cap}\""));
        let mut round = stacked(&profile, &[50 * UNIT], &[], "As Ks Qs Js Ts / 2s 2c 5d 7h 9s");
        act(&mut round, PLAY);
        assert_eq!(net(&round), expected, "cap on {cap}");
    }
}

#[test]
fn example_4_dealer_does_not_qualify() {
    let standard = profile("standard", "");
    let mut round = stacked(&standard, &[ANTE], &[], "2h 2d 7c 8h 9d / As Qc 5d 7s 9s");
    act(&mut round, PLAY);
    assert_eq!(net(&round), 10 * UNIT);
    assert_eq!(round.settlement().unwrap().boxes[0].outcome, Outcome::DealerNotQualified);
}

#[test]
fn example_5_an_exact_tie_and_a_fold() {
    let standard = profile("standard", "");
    let mut tie = stacked(&standard, &[ANTE], &[], "As Kd 9c 6h 3d / Ah Kc 9d 6s 3h");
    act(&mut tie, PLAY);
    assert_eq!(net(&tie), 0);
    assert_eq!(tie.settlement().unwrap().boxes[0].outcome, Outcome::Push);

    let bonus = 2 * UNIT;
    let mut fold = stacked(&standard, &[ANTE], &[bonus], "As Kd 9c 6h 3d / Ah Kc 9d 6s 3h");
    act(&mut fold, FOLD);
    assert_eq!(net(&fold), -10 * UNIT - bonus);
}

#[test]
fn example_6_a_one_card_exchange_against_a_non_qualifying_dealer_is_neutral() {
    let standard = profile("standard", "");
    let mut round = stacked(&standard, &[ANTE], &[], "2h 2d 7c 8h 9d / As Qc 5d 7s 4s / 3c");
    act(&mut round, Action::Exchange { box_index: 0, positions: vec![4] });
    act(&mut round, PLAY);
    assert_eq!(round.settlement().unwrap().boxes[0].fees, 10 * UNIT);
    assert_eq!(net(&round), 0);
}

#[test]
fn example_7_golden_oasis_exchange_prices_with_and_without_the_bonus() {
    let golden = profile("golden-oasis", "");
    let fee = UNIT; // 10 % of a 10.00 ante
    for (bonus, price) in [(0, 15 * UNIT), (fee, 10 * UNIT)] {
        let bonus: &[Money] = if bonus > 0 { &[bonus] } else { &[] };
        let mut round = stacked(&golden, &[ANTE], bonus, "2h 2d 7c 8h 9d / As Kc 5d 7s 4s / 3c 4c");
        act(&mut round, Action::Exchange { box_index: 0, positions: vec![3, 4] });
        act(&mut round, PLAY);
        let b = &round.settlement().unwrap().boxes[0];
        assert_eq!(b.fees, price);
        assert_eq!(b.bonus.stake, bonus.first().copied().unwrap_or(0));
        assert_eq!(b.bonus.returned, 0, "the privilege fee is always kept");
    }
}

#[test]
fn example_8_golden_oasis_insurance_on_trips() {
    let golden = profile("golden-oasis", "");
    let trips = "7h 7d 7c Kh 2d";
    for (dealer, expected) in [
        ("As Qc 5d 8s 4s", 70 * UNIT),  // does not qualify: insurance wins, ante pays
        ("9s 9c 5d 8s 4h", 10 * UNIT),  // qualifies with a lower pair: insurance lost
        ("9s Tc Jd Qs Kc", -30 * UNIT), // qualifies with a straight: insurance returned
    ] {
        let mut round = stacked(&golden, &[ANTE], &[], &format!("{trips} / {dealer}"));
        act(&mut round, PLAY);
        assert_eq!(round.phase(), Phase::Insurance { box_index: 0 });
        act(&mut round, Action::Insure { box_index: 0, amount: 60 * UNIT });
        assert_eq!(net(&round), expected, "dealer {dealer}");
    }
}

#[test]
fn example_9_golden_oasis_straight_flush_protection() {
    let golden = profile("golden-oasis", "");
    for dealer in ["As Qc 5d 8d 4s", "9s 8s 7s 6s 5s", "Ts 9s 8s 7s 6s"] {
        let mut round = stacked(&golden, &[ANTE], &[], &format!("9h 8h 7h 6h 5h / {dealer}"));
        act(&mut round, PLAY);
        act(&mut round, Action::Decline { box_index: 0 }); // no insurance
        assert_eq!(net(&round), 505 * UNIT, "dealer {dealer}");
        assert_eq!(round.settlement().unwrap().boxes[0].outcome, Outcome::Protected);
    }
}

#[test]
fn example_10_czech_exchange_buying_the_dealers_card() {
    let czech = profile("czech-exchange", "[table]\nante_min = 1000");
    // The dealer's highest card (the ace) goes; the next card makes him a pair, or not.
    for (draw, expected) in [("5c", 40 * UNIT), ("2c", -10 * UNIT)] {
        let deck = format!("Jh Jd 3c 3h 8d / Ac Qc 5d 7s 4s / {draw}");
        let mut round = stacked(&czech, &[ANTE], &[], &deck);
        act(&mut round, PLAY);
        assert_eq!(round.phase(), Phase::Purchase { box_index: 0 });
        act(&mut round, Action::BuyDealerCard { box_index: 0 });
        assert_eq!(net(&round), expected, "the dealer draws {draw}");
    }
}

#[test]
fn example_11_czech_fixed_bonus_and_buying_a_card_forfeits_it() {
    let stake = 20 * UNIT;
    let czech = profile("czech", "[table]\nante_min = 1000");
    let deck = "7h 7d 7c Kh 2d / 9s Tc Jd Qs Kd";
    let mut round = stacked(&czech, &[ANTE], &[stake], deck);
    act(&mut round, PLAY);
    assert_eq!(net(&round), 70 * UNIT - stake);

    let buy = profile("czech-buy-card", "[table]\nante_min = 1000");
    let mut round = stacked(&buy, &[ANTE], &[stake], &format!("{deck} / 4c 5c"));
    act(&mut round, Action::Exchange { box_index: 0, positions: vec![4] });
    act(&mut round, PLAY);
    assert_eq!(net(&round), -30 * UNIT - stake - 10 * UNIT);
}

#[test]
fn example_12_stand_c_two_exchanges() {
    let stand = profile("stand-c", "[table]\nante_min = 1000\nante_step = 1000");
    let mut round = stacked(&stand, &[ANTE], &[], "2h 5d 7c 9h Jd / As Kc Qd 7s 4s / 3c 4c 6c 8c");
    act(&mut round, Action::Exchange { box_index: 0, positions: vec![0, 1, 2] });
    act(&mut round, Action::Exchange { box_index: 0, positions: vec![4] });
    let refused = round.act(Action::Exchange { box_index: 0, positions: vec![0] });
    assert!(refused.unwrap_err().to_string().contains("2 exchange(s) per box"));
    act(&mut round, FOLD);
    let b = &round.settlement().unwrap().boxes[0];
    assert_eq!(b.fees, 50 * UNIT);
    assert_eq!(b.net, -60 * UNIT);
}
