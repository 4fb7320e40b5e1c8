//! The exact analysis of the `caribbean` profile against the published optimal-strategy
//! return table of Caribbean Stud Poker (RULES.md §5).
//!
//! Source: Michael Shackleford, "Caribbean Stud Poker", The Wizard of Odds
//! (https://wizardofodds.com/games/caribbean-stud-poker/), "U.S. Rules Return Table" for the
//! optimal strategy, as reproduced at http://www.casinoadvisor.com/caribbean-stud-poker-probability-article.html
//! and http://photoeditorx.com/games/caribbean-stud-poker/; the same page's strategy table gives
//! the total loss of perfect strategy, 1 041 372 912 372 over 19 933 230 517 200 combinations,
//! a house edge of 5.224 % and an element of risk of 2.555 %. The published table merges the
//! player's wins with a pair and with ace-king into one row, "pair or less".
//!
//! A minute or less in the optimised test profile (`[profile.test] opt-level = 3`).

use oasis_core::analysis::{exact_analysis, TOTAL_COMBINATIONS};
use oasis_core::Profile;

fn caribbean() -> Profile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../oasis_kiosk/profiles/caribbean.toml");
    Profile::from_toml(&std::fs::read_to_string(path).unwrap(), "caribbean.toml", None).unwrap()
}

#[test]
fn caribbean_stud_reproduces_the_published_return_table() {
    let analysis = exact_analysis(&caribbean(), None).unwrap();
    let published: [(&[&str], u64, i64); 13] = [
        (&["won_RoyalFlush"], 16_759_740, 201),
        (&["won_StraightFlush"], 156_929_720, 101),
        (&["won_FourOfAKind"], 2_832_435_800, 41),
        (&["won_FullHouse"], 16_624_475_280, 15),
        (&["won_Flush"], 21_856_990_280, 11),
        (&["won_Straight"], 43_805_516_100, 9),
        (&["won_ThreeOfAKind"], 234_242_908_320, 7),
        (&["won_TwoPair"], 488_012_139_360, 5),
        (&["won_OnePair", "won_AceKing"], 2_343_248_003_808, 3),
        (&["dealer_not_qualified"], 4_532_514_033_720, 1),
        (&["push"], 321_623_100, 0),
        (&["folded"], 9_523_005_974_460, -1),
        (&["lost"], 2_726_592_727_512, -3),
    ];
    let ante = analysis.ante;
    for (names, combinations, units) in published {
        let counted: u64 = names.iter().map(|name| analysis.combinations(name)).sum();
        assert_eq!(counted, combinations, "{names:?}");
        for name in names {
            let row = analysis.outcomes.iter().find(|row| row.name == *name).unwrap();
            assert_eq!(row.net, units * ante, "{name} pays {units} antes");
        }
    }
    assert_eq!(analysis.outcomes.len(), 14, "the ten winning categories and four other outcomes");
    assert_eq!(analysis.total_combinations, 19_933_230_517_200);
    assert_eq!(analysis.total_combinations, TOTAL_COMBINATIONS);
    assert_eq!(analysis.player_net, -1_041_372_912_372 * i128::from(ante));
    assert!((analysis.house_edge - 0.052_243).abs() < 5e-7, "{}", analysis.house_edge);
    assert!((analysis.element_of_risk - 0.025_553).abs() < 5e-7, "{}", analysis.element_of_risk);
    // Played: every combination not folded, 52.23 % of them.
    assert!((analysis.play_fraction - 0.522_255).abs() < 5e-7, "{}", analysis.play_fraction);
    assert!(analysis.cap_binds.is_empty(), "the reference game has no cap");
    assert_eq!(analysis.player_classes, 134_459);
}

/// RULES.md: the reference profile is `standard` without exchange, bonus or cap, on one box.
#[test]
fn caribbean_is_standard_without_exchange_bonus_or_cap() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../oasis_kiosk/profiles/standard.toml");
    let standard =
        Profile::from_toml(&std::fs::read_to_string(path).unwrap(), "standard.toml", None).unwrap();
    let caribbean = caribbean();
    assert_eq!(caribbean.game, standard.game);
    assert_eq!(caribbean.paytable, standard.paytable);
    assert_eq!((caribbean.boxes.max, caribbean.boxes.looked_at), (1, 1));
    assert!(caribbean.exchange.is_none() && caribbean.bonus.is_none());
    let table = &caribbean.table;
    assert_eq!((table.ante_min, table.ante_max, table.ante_step), (1000, 10000, 100));
    let largest_win = table.ante_max * (1 + 2 * caribbean.paytable.values().max().unwrap());
    assert!(table.max_payout >= largest_win, "the cap never binds");
}
