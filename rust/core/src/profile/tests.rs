use super::*;

fn load(id: &str, overrides: &str) -> Result<Profile, ProfileError> {
    Profile::from_toml(&shipped_profile_text(id), &format!("{id}.toml"), Some(overrides))
}

#[test]
fn every_shipped_profile_loads() {
    for id in SHIPPED_PROFILES {
        let profile = load(id, "").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(profile.id, id);
    }
    let golden = load("golden-oasis", "").unwrap();
    let fees = &golden.exchange.as_ref().unwrap().rounds[0];
    assert_eq!(fees.fees[&2].of(1000), Some(1500));
    assert_eq!(fees.with_bonus[&2].of(1000), Some(1000));
    assert_eq!(golden.bonus.as_ref().unwrap().fee_at_ante[&500], 60);
    assert_eq!(load("stand-c", "").unwrap().exchange.unwrap().rounds[1].fees[&1], Ratio::whole(2));
}

#[test]
fn the_core_ships_every_profile_in_its_folder() {
    let folder = format!("{}/../../oasis_kiosk/profiles", env!("CARGO_MANIFEST_DIR"));
    let mut found: Vec<String> = std::fs::read_dir(folder)
        .expect("the profiles' folder")
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .map(|path| path.file_stem().expect("a file name").to_string_lossy().into_owned())
        .collect();
    found.sort();
    assert_eq!(SHIPPED_PROFILES.to_vec(), found);
}

#[test]
fn ratios_compare_by_value() {
    assert!(Ratio::parse("1.5").unwrap() > Ratio::whole(1));
    assert!(Ratio::parse("0.9").unwrap() < Ratio::whole(1));
    assert!(Ratio::parse("0.25").unwrap() < Ratio::parse("0.3").unwrap());
    assert_eq!(Ratio::parse("2.0").unwrap(), Ratio::whole(2));
    assert_eq!(Ratio::whole(u64::MAX / 2).of(Money::MAX / 4), None, "too large for a Money");
}

#[test]
fn ratios_are_exact() {
    assert_eq!(Ratio::parse("1.5"), Ok(Ratio { numerator: 3, denominator: 2 }));
    assert_eq!(Ratio::parse("0.10").unwrap().to_string(), "0.1");
    assert_eq!(Ratio::parse(".5").unwrap().of(1000), Some(500));
    assert_eq!(Ratio::parse("1.5").unwrap().of(1001), None);
    assert_eq!(Ratio::parse("1.25").unwrap().to_string(), "1.25");
    for bad in ["", ".", "1.2.3", "-1", "1e3", "a"] {
        assert!(Ratio::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn a_profile_rebuilds_from_its_own_data() {
    for id in ["golden-oasis", "czech-exchange", "stand-c", "standard"] {
        let profile = load(id, "").unwrap();
        let data: toml::Table = serde_json::from_str(&serde_json::to_string(&profile).unwrap()).unwrap();
        let again = Profile::from_toml_table("", "stored", Some(data)).unwrap();
        assert_eq!(again, profile);
        assert_eq!(again.digest(), profile.digest());
    }
}

#[test]
fn an_operator_derives_a_profile_by_overriding_fields() {
    let profile = load("standard", "[table]\nmax_payout = 500000\n[boxes]\nmax = 2").unwrap();
    assert_eq!(profile.table.max_payout, 500000);
    assert_eq!(profile.table.ante_min, 1000, "fields not overridden stay");
    assert_eq!(profile.boxes.max, 2);
    assert_ne!(profile.digest(), load("standard", "").unwrap().digest());
    assert_eq!(load("standard", "").unwrap().digest(), load("standard", "").unwrap().digest());
}

fn refused(id: &str, overrides: &str) -> String {
    load(id, overrides).expect_err("must be refused").to_string()
}

#[test]
fn bad_profiles_are_refused_naming_file_field_and_reason() {
    let cases = [
        ("standard", "colour = 1", "standard.toml: colour: unknown field `colour`"),
        ("standard", "[table]\nshoe = 2", "standard.toml: table.shoe: unknown field `shoe`"),
        ("standard", "[[exchange.rounds]]\nfees = { one = \"1\" }", "key \"one\" is not a whole number"),
        ("standard", "[table]\nante_min = 20000", "table.ante_min: minimum 20000 is above the maximum 10000"),
        ("standard", "[paytable]\nHighCard = 1", "paytable.HighCard: HighCard never beats"),
        ("standard", "[game]\nqualifier = \"Pair\"", "game.qualifier: unknown variant `Pair`"),
        ("golden-oasis", "[table]\nante_step = 1", "at an ante of 501 is not a whole number"),
        ("golden-oasis", "[table]\nante_min = 501", "exchange.rounds[0].fees.2: 1.5 antes at an ante of 501"),
        (
            "stand-b",
            "[[exchange.rounds]]\nfees = { 6 = \"1\" }",
            "exchange.rounds[0].fees.6: one exchange takes 1 to 5 cards",
        ),
        (
            "czech-exchange",
            "[buy_game]\nfee = \"1\"",
            "buy_game: buying the game and buying the dealer's card",
        ),
        (
            "golden-oasis",
            "[sixth_card]\nmin_category = \"OnePair\"",
            "sixth_card.min_category: only a purchase after the dealer's reveal",
        ),
        ("czech", "[bonus]\nstake_max = 3000", "bonus.stake_max: a fixed bonus has one stake"),
        (
            "stand-a",
            "[sixth_card]\nfee = \"1\"\nneeds_bonus = true",
            "sixth_card.needs_bonus: the profile has no bonus bet",
        ),
        ("standard", "[exchange]\nburn = \"yes\"", "exchange.burn: invalid type"),
        ("standard", "[table", "standard.toml: overrides: line 1, column 7: unclosed table"),
        ("golden-oasis", "[bonus]\nfee_at_ante = { 550 = 60 }", "bonus.fee_at_ante.550"),
        (
            "golden-oasis",
            "[insurance]\nmin_category = \"HighCard\"",
            "insurance.min_category: an insured hand",
        ),
        (
            "golden-oasis",
            "[protection]\ncategories = [\"HighCard\"]",
            "protection.categories: HighCard has no paytable row",
        ),
        (
            "stand-b",
            "[[exchange.rounds]]\nfees = { 1 = 100000000000000 }",
            "antes is above the most a price may be",
        ),
        ("stand-b", "[paytable]\nRoyalFlush = 100001", "paytable.RoyalFlush: odds are 1 to 100000"),
        ("standard", "[bonus.pays]\nFourOfAKind = 100001", "bonus.pays.FourOfAKind: must be 1 to 100000"),
        ("standard", "[table]\nmax_payout = 1000000000001", "table.max_payout: 1000000000001 is above"),
        ("standard", "[table]\nante_max = 100000000000\nante_step = 1", "more than 10000 steps"),
        ("standard", "[game]\nplay_multiple = 11", "game.play_multiple: the play bet is 1 to 10 antes"),
    ];
    for (id, overrides, expected) in cases {
        let message = refused(id, overrides);
        assert!(message.contains(expected), "{overrides:?}: {message}");
    }
    let pairs_qualify = shipped_profile_text("czech-exchange")
        .replace("AceKing = 1", "")
        .replace("\"AceKing\"", "\"OnePair\"");
    let message = Profile::from_toml(&pairs_qualify, "pairs.toml", None).unwrap_err().to_string();
    assert!(
        message.contains("buy_dealer_card: a dealer who does not qualify must hold no pair"),
        "{message}"
    );
    let mut text = shipped_profile_text("standard");
    text = text.replace("FullHouse = 7\n", "");
    let message = Profile::from_toml(&text, "mine.toml", None).unwrap_err().to_string();
    assert_eq!(message, "mine.toml: paytable: no row for FullHouse, which can beat a qualifying dealer");
}
