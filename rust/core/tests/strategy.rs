//! The strategy's expected values against brute force: every dealer hand (and every
//! replacement card) played out, by the round engine itself where that is fast enough, by a
//! naive loop over the rules of RULES.md §2 otherwise.

use std::sync::Arc;

use oasis_core::round::{Action, LegalAction, Phase};
use oasis_core::strategy::{advise, advise_with, Advice, Effort};
use oasis_core::{evaluator, parse_cards, Card, Category, Money, Profile, Round};
use rayon::prelude::*;

/// The least ante of `standard`, where the naive reference plays.
const ANTE: Money = 1000;

/// A shipped profile with TOML `overrides`, without the tables named in `without`.
fn profile(id: &str, overrides: &str, without: &[&str]) -> Arc<Profile> {
    let path = format!("{}/../../oasis_kiosk/profiles/{id}.toml", env!("CARGO_MANIFEST_DIR"));
    let mut table: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    for name in without {
        table.remove(*name);
    }
    Arc::new(Profile::from_toml(&table.to_string(), id, Some(overrides)).unwrap_or_else(|e| panic!("{e}")))
}

/// Caribbean Stud Poker (RULES.md §5): `standard` with one box, no exchange, no bonus and no cap.
fn caribbean() -> Arc<Profile> {
    profile(
        "standard",
        "[table]\nmax_payout = 1000000000\n[boxes]\nmax = 1\nlooked_at = 1",
        &["exchange", "bonus"],
    )
}

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap()
}

/// One box at the table's least ante dealt `box_cards`, the dealer `dealer` (his last card up), then `rest` on top of
/// the shoe.
fn deal(profile: &Arc<Profile>, bonus: Money, box_cards: &[Card], dealer: &[Card], rest: &[Card]) -> Round {
    let top: Vec<Card> = box_cards.iter().chain(dealer).chain(rest).copied().collect();
    let bonus = if bonus > 0 { vec![bonus] } else { vec![] };
    Round::stacked(profile.clone(), &[profile.table.ante_min], &bonus, &top, None).unwrap()
}

fn act(round: &mut Round, action: Action) {
    round.act(action.clone()).unwrap_or_else(|e| panic!("{action:?}: {e}"));
}

fn ev_of(advice: &Advice, action: &Action) -> f64 {
    advice.choices.iter().find(|c| &c.action == action).unwrap_or_else(|| panic!("no {action:?}")).ev
}

const PLAY: Action = Action::Play { box_index: 0 };
const FOLD: Action = Action::Fold { box_index: 0 };
const DECLINE: Action = Action::Decline { box_index: 0 };

/// Every choice of `k` of `items`.
fn choose<T: Copy>(items: &[T], k: usize) -> Vec<Vec<T>> {
    if k == 0 {
        return vec![vec![]];
    }
    (0..items.len())
        .flat_map(|i| {
            choose(&items[i + 1..], k - 1).into_iter().map(move |mut rest| {
                rest.insert(0, items[i]);
                rest
            })
        })
        .collect()
}

fn unseen(seen: &[Card]) -> Vec<Card> {
    Card::all().filter(|c| !seen.contains(c)).collect()
}

/// The box's net as the engine settles it.
fn settled_net(round: &Round) -> Money {
    match round.phase() {
        Phase::Settled => round.settlement().unwrap().boxes[0].net,
        phase => panic!("{phase:?}"),
    }
}

/// The mean net of playing `box_cards` against every dealer hand the unseen cards allow,
/// each round played by the engine with `insurance` taken (0: declined), and after a reveal
/// that offers the dealer's redraw, the best of the purchase's values (checked against the
/// engine by `buying_the_redraw_is_worth_the_mean_of_every_card_the_dealer_may_draw`).
fn engine_play(profile: &Arc<Profile>, bonus: Money, box_cards: &[Card], up: Card, insurance: Money) -> f64 {
    let seen: Vec<Card> = box_cards.iter().copied().chain([up]).collect();
    let hands = choose(&unseen(&seen), 4);
    let total: f64 = hands
        .par_iter()
        .map(|hidden| {
            let dealer: Vec<Card> = hidden.iter().copied().chain([up]).collect();
            let mut round = deal(profile, bonus, box_cards, &dealer, &[]);
            act(&mut round, PLAY);
            if let Phase::Insurance { .. } = round.phase() {
                act(
                    &mut round,
                    if insurance > 0 { Action::Insure { box_index: 0, amount: insurance } } else { DECLINE },
                );
            }
            match round.phase() {
                Phase::Purchase { .. } => advise(&round, 0).unwrap().best().ev,
                _ => settled_net(&round) as f64,
            }
        })
        .sum();
    total / hands.len() as f64
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn playing_is_worth_the_mean_of_every_dealer_hand_the_engine_plays() {
    let standard = profile("standard", "[boxes]\nmax = 1\nlooked_at = 1", &[]);
    for (hand, up, bonus) in [
        ("Ah Kd 9c 6s 2h", "Qc", 0),
        ("7h 7d Jc 4s 2h", "As", 200),
        ("Qs Jd 9c 7h 5s", "3d", 0),
        ("9h Th Jh Qh Kh", "Ah", 500),
    ] {
        let (box_cards, up) = (cards(hand), cards(up)[0]);
        let round = deal(&standard, bonus, &box_cards, &cards(&format!("2c 3c 4c 5c {up}")), &[]);
        let advice = advise(&round, 0).unwrap();
        let dealt_bonus = {
            let mut folded = round.clone();
            act(&mut folded, FOLD);
            folded.settlement().unwrap().boxes[0].net
        };
        assert!(close(ev_of(&advice, &FOLD), dealt_bonus as f64), "{hand}: fold is what the engine settles");
        let expected = engine_play(&standard, bonus, &box_cards, up, 0);
        let ev = ev_of(&advice, &PLAY);
        assert!(close(ev, expected), "{hand} against {up}: {ev} by the strategy, {expected} by the engine");
    }
}

#[test]
fn insurance_buying_the_game_and_protection_count_as_the_engine_settles_them() {
    let golden = profile("golden-oasis", "", &[]);
    let fee = oasis_core::round::privilege_fee(&golden, golden.table.ante_min).unwrap();
    for (hand, up) in [("8h 8d 8c 4s 2h", "Kc"), ("Ah Kd 9c 6s 2h", "Qc"), ("5s 6s 7s 8s 9s", "Ad")] {
        let (box_cards, up) = (cards(hand), cards(up)[0]);
        let round = deal(&golden, fee, &box_cards, &cards(&format!("2c 3c 4c Tc {up}")), &[]);
        let advice = advise(&round, 0).unwrap();
        let mut played = round.clone();
        act(&mut played, PLAY);
        let mut values = vec![engine_play(&golden, fee, &box_cards, up, 0)];
        if let Phase::Insurance { .. } = played.phase() {
            let insure = advise(&played, 0).unwrap();
            let LegalAction::Insure { min, max } = played.legal_actions(0)[0] else {
                panic!("insurance offered")
            };
            for amount in [min, max] {
                let expected = engine_play(&golden, fee, &box_cards, up, amount);
                assert!(
                    close(ev_of(&insure, &Action::Insure { box_index: 0, amount }), expected),
                    "{hand}: {amount}"
                );
                values.push(expected);
            }
            // The value is convex in the amount: no amount between does better than both ends.
            let middle = engine_play(&golden, fee, &box_cards, up, (min + max) / 2);
            assert!(middle <= values[1].max(values[2]) + 1e-6, "{hand}: {middle} between {values:?}");
            assert!(close(ev_of(&insure, &DECLINE), values[0]));
        }
        let best = values.iter().copied().fold(f64::MIN, f64::max);
        assert!(close(ev_of(&advice, &PLAY), best), "{hand}: {} against {best}", ev_of(&advice, &PLAY));
    }
}

/// A box's net by RULES.md §2.5 with no cap reached and no bonus: the naive reference.
fn naive_net(profile: &Profile, hand: [u8; 5], dealer: [u8; 5]) -> Money {
    let (hand, dealer) = (evaluator().eval5(hand), evaluator().eval5(dealer));
    if dealer.category() < Category::AceKing {
        return ANTE;
    }
    match hand.cmp(&dealer) {
        std::cmp::Ordering::Greater => ANTE + 2 * ANTE * profile.odds(hand.category()).unwrap(),
        std::cmp::Ordering::Less => -3 * ANTE,
        std::cmp::Ordering::Equal => 0,
    }
}

#[test]
fn a_one_card_exchange_is_exact_against_every_replacement_and_every_dealer_hand() {
    let standard = profile("standard", "[boxes]\nmax = 1\nlooked_at = 1", &[]);
    assert_eq!(standard.table.ante_min, ANTE);
    let fee = ANTE;
    for (hand, up) in [("Ah Kh Qh Jh 3c", "9d"), ("6c 6d Ks 9h 2d", "4s")] {
        let box_cards = cards(hand);
        let up = cards(up)[0];
        let round = deal(&standard, 0, &box_cards, &cards(&format!("Tc Td 7s 8s {up}")), &[]);
        let advice = advise(&round, 0).unwrap();
        let seen: Vec<Card> = box_cards.iter().copied().chain([up]).collect();
        let pool: Vec<u8> = unseen(&seen).iter().map(|c| c.code()).collect();
        for position in 0..5 {
            let expected: f64 = pool
                .par_iter()
                .map(|&new| {
                    let mut held: [u8; 5] = std::array::from_fn(|i| box_cards[i].code());
                    held[position] = new;
                    let rest: Vec<u8> = pool.iter().copied().filter(|&c| c != new).collect();
                    let hands = choose(&rest, 4);
                    let play: Money = hands
                        .iter()
                        .map(|h| naive_net(&standard, held, [h[0], h[1], h[2], h[3], up.code()]))
                        .sum();
                    let play = play as f64 / hands.len() as f64;
                    play.max(-ANTE as f64) - fee as f64
                })
                .sum::<f64>()
                / pool.len() as f64;
            let choice = advice
                .choices
                .iter()
                .find(|c| c.action == Action::Exchange { box_index: 0, positions: vec![position] })
                .unwrap();
            assert!(choice.exact);
            assert!(close(choice.ev, expected), "{hand}, card {position}: {} against {expected}", choice.ev);
        }
    }
}

#[test]
fn buying_the_redraw_is_worth_the_mean_of_every_card_the_dealer_may_draw() {
    let czech = profile("czech-exchange", "", &[]);
    let golden = profile("golden-oasis", "", &[]);
    let fee = oasis_core::round::privilege_fee(&golden, golden.table.ante_min).unwrap();
    let buy_card = Action::BuyDealerCard { box_index: 0 };
    let buy_game = Action::BuyGame { box_index: 0 };
    for (profile, bonus, buy, hand, best) in [
        (&czech, 0, &buy_card, "Ts Th Tc 4d 2s", &buy_card), // trips buy against A-Q
        (&golden, fee, &buy_game, "Ts Th 4c 4d 2s", &DECLINE), // 2:1 does not pay the fee
        (&golden, fee, &buy_game, "2h 7h 9h Jh Kh", &buy_game), // a flush does
    ] {
        let box_cards = cards(hand);
        let dealer = cards("As Qc 8d 5h 3s");
        let mut round = deal(profile, bonus, &box_cards, &dealer, &[]);
        act(&mut round, PLAY);
        if let Phase::Insurance { .. } = round.phase() {
            act(&mut round, DECLINE);
        }
        assert_eq!(round.phase(), Phase::Purchase { box_index: 0 });
        let advice = advise(&round, 0).unwrap();
        let seen: Vec<Card> = box_cards.iter().chain(&dealer).copied().collect();
        let draws: Vec<Money> = unseen(&seen)
            .into_iter()
            .map(|card| {
                let mut bought = deal(profile, bonus, &box_cards, &dealer, &[card]);
                act(&mut bought, PLAY);
                if let Phase::Insurance { .. } = bought.phase() {
                    act(&mut bought, DECLINE);
                }
                act(&mut bought, buy.clone());
                bought.settlement().unwrap().boxes[0].net
            })
            .collect();
        let expected = draws.iter().sum::<Money>() as f64 / draws.len() as f64;
        assert!(close(ev_of(&advice, buy), expected), "{hand}: {} against {expected}", ev_of(&advice, buy));
        let mut declined = round.clone();
        act(&mut declined, DECLINE);
        assert!(close(ev_of(&advice, &DECLINE), declined.settlement().unwrap().boxes[0].net as f64));
        assert_eq!(&advice.best().action, best, "{hand} under {}", profile.id);
    }
}

#[test]
fn playing_with_the_dealers_card_to_buy_is_the_mean_of_the_decisions_after_the_reveal() {
    let czech = profile("czech-exchange", "", &[]);
    for (hand, up) in [("Ts Th Tc 4d 2s", "7c"), ("2h 7h 9h Jh Kh", "5d"), ("As Kd 8c 6h 2s", "Qd")] {
        let (box_cards, up) = (cards(hand), cards(up)[0]);
        let round = deal(&czech, 0, &box_cards, &cards(&format!("3c 4c 5c 6c {up}")), &[]);
        let advice = advise(&round, 0).unwrap();
        let seen: Vec<Card> = box_cards.iter().copied().chain([up]).collect();
        let hands = choose(&unseen(&seen), 4);
        let total: f64 = hands
            .par_iter()
            .map(|hidden| {
                let dealer: Vec<Card> = hidden.iter().copied().chain([up]).collect();
                let mut played = deal(&czech, 0, &box_cards, &dealer, &[]);
                act(&mut played, PLAY);
                match played.phase() {
                    // The purchase's own values are checked against the engine above.
                    Phase::Purchase { .. } => advise(&played, 0).unwrap().best().ev,
                    _ => settled_net(&played) as f64,
                }
            })
            .sum();
        let expected = total / hands.len() as f64;
        let ev = ev_of(&advice, &PLAY);
        assert!(close(ev, expected), "{hand}: {ev} against {expected}");
    }
}

#[test]
fn caribbean_stud_plays_every_pair_and_folds_every_hand_below_ace_king() {
    let caribbean = caribbean();
    let ups = ["Ad", "Kd", "Qd", "9d", "5d", "2s"];
    let dealt = |hand: &str, up: &str| {
        let hidden = "Td Th 6d 6c";
        (!hand.contains(up))
            .then(|| deal(&caribbean, 0, &cards(hand), &cards(&format!("{hidden} {up}")), &[]))
    };
    for hand in ["2c 2h 3s 4c 6h", "Kh Kc 9s 4s 2h", "7c 7h Js 9c 4d", "3c 3h 5s 5c 8h", "As Ks Qs Js Ts"] {
        for round in ups.iter().filter_map(|up| dealt(hand, up)) {
            let up = round.visible_dealer_cards()[4].unwrap();
            let advice = advise(&round, 0).unwrap();
            assert!((ev_of(&advice, &FOLD) + ANTE as f64).abs() < 1e-9, "fold loses the ante");
            assert_eq!(advice.best().action, PLAY, "{hand} against {up}");
        }
    }
    // Below A-K a box never beats a qualifying dealer: playing wins 1 ante when he does not
    // qualify and loses 3 when he does, which is worse than folding unless he fails over half
    // the time; he fails about 44 % of the time.
    for hand in ["Qs Jd 9c 7h 5s", "Kc Qd Jh 9s 8c", "Ac Qd Jh 9s 8c", "7c 5d 4h 3s 2c"] {
        for round in ups.iter().filter_map(|up| dealt(hand, up)) {
            let up = round.visible_dealer_cards()[4].unwrap();
            let advice = advise(&round, 0).unwrap();
            assert_eq!(advice.best().action, FOLD, "{hand} against {up}");
            assert!(ev_of(&advice, &PLAY) < -(ANTE as f64));
        }
    }
}

#[test]
fn large_exchanges_are_sampled_reproducibly_and_say_so() {
    let stand_b = profile("stand-b", "", &[]);
    let round = deal(&stand_b, 0, &cards("Ah Kd 9c 6s 2h"), &cards("3c 4c 5c 6c Qd"), &[]);
    let effort = Effort::default();
    let advice = advise_with(&round, 0, effort).unwrap();
    assert_eq!(advice, advise_with(&round, 0, effort).unwrap(), "the same question, the same answer");
    for choice in &advice.choices {
        let exact = match &choice.action {
            Action::Exchange { positions, .. } => positions.len() <= 3,
            _ => true,
        };
        assert_eq!(choice.exact, exact, "{:?}", choice.action);
    }
    let other = advise_with(&round, 0, Effort { seed: 7, ..effort }).unwrap();
    for (a, b) in advice.choices.iter().zip(&other.choices) {
        // Another seed, another sample: within a few standard errors (an ante or two spread
        // over at least 200 draws) of the first.
        let ante = stand_b.table.ante_min as f64;
        assert!((a.ev - b.ev).abs() < 0.5 * ante, "{:?}: {} and {}", a.action, a.ev, b.ev);
    }
}
