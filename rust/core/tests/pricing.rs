//! What a round says of its prices agrees with what it charges: an exchange's refusal, the
//! exchanges it offers and the help's price list name the counts the pricing offers, and the
//! price list states the redraw's fee the round charges.

use std::sync::Arc;

use oasis_core::round::{allowed_antes, extreme_antes, price_list, Action, LegalAction, Phase};
use oasis_core::{parse_cards, Money, Profile, Round};

const ANTE: Money = 1000;

/// golden-oasis with one exchange round whose bonus price offers a count that the fees
/// without the bonus do not.
fn bonus_only_count() -> Arc<Profile> {
    golden_oasis("[[exchange.rounds]]\nfees = { 1 = \"1\", 5 = \"1\" }\nwith_bonus = { 2 = \"1\" }")
}

fn golden_oasis(overrides: &str) -> Arc<Profile> {
    let path = format!("{}/../../oasis_kiosk/profiles/golden-oasis.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    Arc::new(Profile::from_toml(&text, "golden-oasis", Some(overrides)).unwrap_or_else(|e| panic!("{e}")))
}

fn offered(round: &Round) -> Vec<usize> {
    round
        .legal_actions(0)
        .iter()
        .find_map(|legal| match legal {
            LegalAction::Exchange { prices } => Some(prices.iter().map(|&(count, _)| count).collect()),
            _ => None,
        })
        .expect("an exchange is offered")
}

#[test]
fn a_refused_exchange_names_the_counts_the_box_is_offered() {
    let profile = bonus_only_count();
    for (bonus, counts) in [(vec![], vec![1, 5]), (vec![100], vec![1, 2, 5])] {
        let mut round = Round::new(profile.clone(), &[ANTE], &bonus, Some([7; 32]), None).unwrap();
        assert_eq!(offered(&round), counts, "bonus {bonus:?}");
        let refused = round.act(Action::Exchange { box_index: 0, positions: vec![0, 1, 2] }).unwrap_err();
        let named = counts.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ");
        assert!(refused.to_string().contains(&format!("(offered: {named})")), "{refused}");
    }
    let listed: Vec<(usize, Option<Money>, Option<Money>)> = price_list(&profile, ANTE).unwrap().exchanges[0]
        .iter()
        .map(|fee| (fee.count, fee.fee, fee.with_bonus))
        .collect();
    assert_eq!(listed, [(1, Some(1000), Some(1000)), (2, None, Some(1000)), (5, Some(1000), Some(1000))]);
}

#[test]
fn the_price_list_states_the_redraw_the_round_charges() {
    let profile = golden_oasis("[buy_game]\nfee = \"1.5\"");
    // Kings over a dealer without an ace or a king: he does not qualify and the game is for sale.
    let top = parse_cards("Kh Kd 7c 4s 2h Qs Jd 9c 6h 3s").unwrap();
    let mut round = Round::stacked(profile.clone(), &[ANTE], &[100], &top, None).unwrap();
    round.act(Action::Play { box_index: 0 }).unwrap();
    assert_eq!(round.phase(), Phase::Purchase { box_index: 0 });
    let sold = round.legal_actions(0).iter().find_map(|legal| match legal {
        LegalAction::BuyGame { price } => Some(*price),
        _ => None,
    });
    assert_eq!(sold, Some(1500));
    assert_eq!(price_list(&profile, ANTE).unwrap().redraw, sold);
}

#[test]
fn the_antes_allowed_on_several_boxes_are_those_a_round_of_them_takes() {
    let profile = golden_oasis("");
    for boxes in 1..=2 {
        let allowed = allowed_antes(&profile, boxes);
        for ante in profile.allowed_antes() {
            let taken = Round::new(profile.clone(), &vec![ante; boxes], &[], Some([7; 32]), None).is_ok();
            assert_eq!(taken, allowed.contains(&ante), "{boxes} box(es) at {ante}");
        }
    }
    assert_eq!(allowed_antes(&profile, 2)[0], 1500);
}

#[test]
fn the_extreme_antes_are_the_ends_of_the_table_and_those_priced_apart() {
    // golden-oasis sets the privilege fee at 500 apart: 600 is the least ante priced in proportion.
    assert_eq!(extreme_antes(&golden_oasis("")), [500, 600, 5000]);
    assert_eq!(extreme_antes(&golden_oasis("[bonus]\nfee_at_ante = { 600 = 70 }")), [500, 600, 700, 5000]);
}
