//! The worked examples of RULES.md §4, each played from a stacked deck under its profile.
//!
//! The examples speak of an ante of 10 and a play bet of 20 in currency units; the
//! profiles count minor units, so 10 is 1 000 here and every net is scaled by 100.

use std::sync::Arc;

use oasis_core::round::{deal_needs, Action, LegalAction, Outcome, Phase};
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
fn example_10_the_dealers_draw_burns_no_card_even_where_exchanges_burn() {
    let czech = profile("czech-exchange", "[table]\nante_min = 1000\n[exchange]\nburn = true");
    let mut round = stacked(&czech, &[ANTE], &[], "Jh Jd 3c 3h 8d / Ac Qc 5d 7s 4s / 5c 2c");
    act(&mut round, PLAY);
    act(&mut round, Action::BuyDealerCard { box_index: 0 });
    assert_eq!(round.settlement().unwrap().dealer_cards, parse_cards("5c Qc 5d 7s 4s").unwrap());
    assert_eq!(net(&round), 40 * UNIT);
}

const BOX_1: usize = 0;
const BOX_2: usize = 1;

#[test]
fn example_13_golden_oasis_buying_the_game_is_the_dealers_redraw() {
    let golden = profile("golden-oasis", "");
    let fee = UNIT; // the privilege bonus, 10 % of the ante, kept in every case
                    // The dealer's ace goes; an eight pairs him, a nine or a four makes him a straight, a
                    // two leaves him without a hand.
    for (draw, expected, outcome) in [
        ("8s", 40 * UNIT, Outcome::Won),
        ("9c", -40 * UNIT, Outcome::Lost),
        ("4d", -40 * UNIT, Outcome::Lost),
        ("2c", -10 * UNIT, Outcome::DealerStillNotQualified),
    ] {
        let deck = format!("Jh Jd 3c 3h Kd / Ac 8d 7c 6h 5s / {draw}");
        let mut round = stacked(&golden, &[ANTE], &[fee], &deck);
        act(&mut round, PLAY);
        assert_eq!(round.phase(), Phase::Purchase { box_index: 0 });
        assert_eq!(round.legal_actions(0), vec![LegalAction::BuyGame { price: ANTE }, LegalAction::Decline]);
        act(&mut round, Action::BuyGame { box_index: 0 });
        assert_eq!(net(&round) + fee, expected, "the dealer draws {draw}");
        let b = &round.settlement().unwrap().boxes[0];
        assert_eq!((b.outcome, b.fees), (outcome, ANTE), "the dealer draws {draw}");
    }
}

#[test]
fn buying_the_game_on_two_boxes_is_one_dealer_draw_for_the_boxes_that_buy() {
    let golden = profile("golden-oasis", "");
    let (ante, fee) = (15 * UNIT, 150);
    let deck = "Jh Jd 3c 3h Kd / Qs Qh 9s 9h 2d / Ac 8d 7c 6h 5s / 8s 9c";
    let play_both = |round: &mut Round| {
        act(round, Action::Play { box_index: BOX_1 });
        act(round, Action::Play { box_index: BOX_2 });
        assert_eq!(round.phase(), Phase::Purchase { box_index: BOX_2 }, "the last box decides first");
    };
    // Box 2 declines and takes its ante win against the hand revealed; box 1 buys and the
    // dealer's eight pairs him: box 1 wins against the pair.
    let mut round = stacked(&golden, &[ante, ante], &[fee, fee], deck);
    play_both(&mut round);
    act(&mut round, Action::Decline { box_index: BOX_2 });
    assert_eq!(round.phase(), Phase::Purchase { box_index: BOX_1 });
    act(&mut round, Action::BuyGame { box_index: BOX_1 });
    let s = round.settlement().unwrap();
    assert_eq!(s.dealer_cards, parse_cards("8s 8d 7c 6h 5s").unwrap(), "one card drawn, no burn");
    assert_eq!(
        (s.boxes[BOX_1].outcome, s.boxes[BOX_1].net),
        (Outcome::Won, -ante + ante + 2 * 2 * ante - fee)
    );
    assert_eq!((s.boxes[BOX_2].outcome, s.boxes[BOX_2].net), (Outcome::DealerNotQualified, ante - fee));

    // Both buy: the dealer still draws once (the eight, not the nine after it), and both
    // boxes settle against that one new hand.
    let mut round = stacked(&golden, &[ante, ante], &[fee, fee], deck);
    play_both(&mut round);
    act(&mut round, Action::BuyGame { box_index: BOX_2 });
    assert_eq!(round.settlement(), None, "the dealer draws only when every box has decided");
    act(&mut round, Action::BuyGame { box_index: BOX_1 });
    let s = round.settlement().unwrap();
    assert_eq!(s.dealer_cards, parse_cards("8s 8d 7c 6h 5s").unwrap());
    assert_eq!(s.boxes[BOX_2].outcome, Outcome::Won, "queens and nines beat the eights");
    assert_eq!(s.boxes[BOX_1].outcome, Outcome::Won);
    assert_eq!(net(&round), 2 * (4 * ante - fee));
}

#[test]
fn a_purchase_fits_in_the_credit_left_before_any_win() {
    let golden = profile("golden-oasis", "");
    let (ante, fee) = (15 * UNIT, 150);
    let antes = [ante, ante];
    let needs = deal_needs(&golden, &antes, &[fee, fee]);
    assert_eq!(needs, 2 * (ante + fee + 2 * ante));
    let deck = parse_cards("Jh Jd 3c 3h Kd Qs Qh 9s 9h 2d Ac 8d 7c 6h 5s 8s").unwrap();
    let play_both = |credit: Money| {
        let mut round = Round::stacked(golden.clone(), &antes, &[fee, fee], &deck, Some(credit)).unwrap();
        act(&mut round, Action::Play { box_index: BOX_1 });
        act(&mut round, Action::Play { box_index: BOX_2 });
        round
    };
    // One unit short of a fee: no box is offered the purchase, though a box declining it
    // would win an ante, since that win is paid at the settlement.
    assert_eq!(play_both(needs + ante - 1).phase(), Phase::Settled);
    // One fee's worth: box 2 buys, and box 1 is not asked with nothing left.
    let mut round = play_both(needs + ante);
    act(&mut round, Action::BuyGame { box_index: BOX_2 });
    assert_eq!(round.phase(), Phase::Settled);
    assert_eq!(round.settlement().unwrap().boxes[BOX_1].fees, 0);
    let refused = Round::stacked(golden, &antes, &[fee, fee], &deck, Some(needs - 1)).unwrap_err();
    assert!(refused.to_string().contains("not enough credit to deal"), "{refused}");
}

#[test]
fn insurance_settles_on_the_hand_the_dealer_revealed() {
    let golden = profile("golden-oasis", "");
    let fee = UNIT;
    // Trips insured for 60 against a dealer who did not qualify; the box buys the game and
    // the dealer draws to a straight: the main bets lose, the insurance still wins.
    let mut round = stacked(&golden, &[ANTE], &[fee], "7h 7d 7s Kh 2d / Ac 8d 7c 6h 5s / 9c");
    act(&mut round, PLAY);
    act(&mut round, Action::Insure { box_index: 0, amount: 60 * UNIT });
    act(&mut round, Action::BuyGame { box_index: 0 });
    let b = &round.settlement().unwrap().boxes[0];
    assert_eq!((b.outcome, b.insurance.net()), (Outcome::Lost, 60 * UNIT));
    assert_eq!(net(&round) + fee, 60 * UNIT - 10 * UNIT - 30 * UNIT);
}

#[test]
fn example_14_the_play_bet_is_kept_in_reserve() {
    let czech = profile("czech-exchange", "[table]\nante_min = 1000");
    let deck = parse_cards("Jh Jd 3c 3h 8d Ac Qc 5d 7s 4s").unwrap();
    let dealt = |credit: Money| Round::stacked(czech.clone(), &[ANTE], &[], &deck, Some(credit * UNIT));
    let exchanges = |round: &Round| {
        round.legal_actions(0).into_iter().find_map(|legal| match legal {
            LegalAction::Exchange { prices } => Some(prices),
            _ => None,
        })
    };
    let mut round = dealt(30).expect("credit 30 deals: the ante and the play bet");
    assert_eq!(exchanges(&round), None, "after a fee of 10 the play bet could not be paid");
    let refused = round.act(Action::Exchange { box_index: 0, positions: vec![4] }).unwrap_err();
    assert!(refused.to_string().contains("not enough credit to play after an exchange"), "{refused}");
    act(&mut round, PLAY);
    let settled = round.settlement().expect("the play bet was kept for");
    assert_eq!(round.credit(), Some(30 * UNIT + settled.net));

    let round = dealt(40).unwrap();
    assert_eq!(exchanges(&round), Some(vec![(1, 10 * UNIT)]), "one card at 10, not two at 20");
    let refused = dealt(29).unwrap_err();
    assert!(refused.to_string().contains("not enough credit to deal"), "{refused}");
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
