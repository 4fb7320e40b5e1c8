//! Rule profiles: every house variant of RULES.md as data, parsed from TOML and validated once.
//!
//! A profile that loads is complete and consistent: every price it can ask at every allowed
//! ante is a whole number of minor units, every category a player can win with has a
//! paytable row, every option names what it needs. Errors name the file, the field and the
//! reason, and nothing of a bad profile is kept.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::ProfileError;
use crate::eval::Category;

/// Money in minor units of the profile's currency (cents, haléře). Never a float.
pub type Money = i64;

/// The largest amount a profile or a credit may name: 10^12 minor units (ten billion euros),
/// so that every product the settlement forms (amount × play multiple × odds) fits in a Money.
pub const MAX_AMOUNT: Money = 1_000_000_000_000;
/// The largest odds a paytable row or bonus row may pay (N:1).
pub const MAX_ODDS: Money = 100_000;
/// The largest play bet in antes, and the largest price in antes.
pub const MAX_MULTIPLE: u32 = 10;
/// The most antes a table's ante ladder may offer (the BET button steps through them).
pub const MAX_LADDER: Money = 10_000;

/// An exact non-negative rational written as an integer or a decimal (`1`, `"1.5"`, `"0.1"`):
/// fees in antes, shares of a jackpot. Always in lowest terms, so equal values are equal fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    numerator: u64,
    denominator: u64,
}

impl Ratio {
    /// The whole number `n`.
    pub const fn whole(n: u64) -> Ratio {
        Ratio { numerator: n, denominator: 1 }
    }

    /// `amount × self`, if that is a whole number of minor units (and fits one).
    pub fn of(self, amount: Money) -> Option<Money> {
        let product = i128::from(amount) * i128::from(self.numerator);
        let denominator = i128::from(self.denominator);
        (product % denominator == 0).then(|| Money::try_from(product / denominator).ok()).flatten()
    }

    /// True when the ratio is zero.
    pub fn is_zero(self) -> bool {
        self.numerator == 0
    }

    fn parse(text: &str) -> Result<Ratio, String> {
        let bad = || format!("{text:?} is not a number such as 1, 1.5 or 0.1");
        let (whole, fraction) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
        if whole.is_empty() && fraction.is_empty() || fraction.len() > 9 {
            return Err(bad());
        }
        let digits = |s: &str| s.is_empty() || s.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || !digits(fraction) {
            return Err(bad());
        }
        let denominator = 10u64.pow(fraction.len() as u32);
        let whole: u64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| bad())? };
        let fraction: u64 = if fraction.is_empty() { 0 } else { fraction.parse().map_err(|_| bad())? };
        let numerator =
            whole.checked_mul(denominator).and_then(|n| n.checked_add(fraction)).ok_or_else(bad)?;
        let divisor = gcd(numerator, denominator);
        Ok(Ratio { numerator: numerator / divisor, denominator: denominator / divisor })
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> std::cmp::Ordering {
        let left = u128::from(self.numerator) * u128::from(other.denominator);
        let right = u128::from(other.numerator) * u128::from(self.denominator);
        left.cmp(&right)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Parsed from decimals, so the denominator divides a power of ten.
        let mut scale = 1u64;
        let mut places = 0usize;
        while scale % self.denominator != 0 {
            scale *= 10;
            places += 1;
        }
        let scaled = self.numerator * (scale / self.denominator);
        match places {
            0 => write!(f, "{scaled}"),
            _ => write!(f, "{}.{:0places$}", scaled / scale, scaled % scale),
        }
    }
}

impl<'de> Deserialize<'de> for Ratio {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ratio, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Whole(u64),
            Text(String),
        }
        match Written::deserialize(deserializer)? {
            Written::Whole(n) => Ok(Ratio::whole(n)),
            Written::Text(text) => Ratio::parse(&text).map_err(serde::de::Error::custom),
        }
    }
}

impl Serialize for Ratio {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

/// What the maximum payout per box caps (RULES.md §2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cap {
    /// The play-bet win alone.
    Play,
    /// The ante win plus the play-bet win.
    Total,
}

/// The ante of a box that played against a dealer who does not qualify (RULES.md §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NoQualifyAnte {
    /// Wins 1:1.
    Pays,
    /// Is returned.
    Returned,
}

/// Which hand a bonus bet is judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JudgedOn {
    /// The five cards as dealt.
    Dealt,
    /// The box's final hand.
    Final,
}

/// The three meanings of the bonus bet (RULES.md §3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BonusKind {
    /// A fixed stake paying fixed amounts.
    Fixed,
    /// A stake paying odds plus the stake back.
    Odds,
    /// A fee in antes, always kept, that unlocks options.
    Privilege,
}

/// Table limits and currency.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// ISO 4217 code, e.g. "EUR".
    pub currency: String,
    /// Minor units in one major unit (100 for cents).
    pub minor_units: u32,
    pub ante_min: Money,
    pub ante_max: Money,
    pub ante_step: Money,
    /// Maximum payout per box.
    pub max_payout: Money,
}

/// The main game's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// The dealer qualifies with this category or better.
    pub qualifier: Category,
    /// The play bet in antes.
    pub play_multiple: u32,
    pub cap: Cap,
    pub no_qualify_ante: NoQualifyAnte,
}

/// How many boxes, which are blind, and what several boxes require.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Boxes {
    /// The most boxes a round may play.
    pub max: usize,
    /// Boxes 1..=looked_at are looked at and decided one after another; the others are
    /// blind: ante and play bet up front, no exchange, no fold.
    pub looked_at: usize,
    /// Every box must have the same ante.
    #[serde(default)]
    pub identical_antes: bool,
    /// The least ante allowed when more than one box plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_ante_multi: Option<Money>,
    /// The most cards one exchange may take when more than one box plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_exchange_multi: Option<usize>,
}

/// One exchange round: the fee in antes for each number of cards it may take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExchangeRound {
    #[serde(deserialize_with = "numeric_keys")]
    pub fees: BTreeMap<usize, Ratio>,
    /// Fees that replace `fees` for a box with the bonus bet.
    #[serde(default, deserialize_with = "numeric_keys")]
    pub with_bonus: BTreeMap<usize, Ratio>,
}

/// Card exchange (RULES.md §3.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exchange {
    /// The first exchange, then any further ones, in order.
    pub rounds: Vec<ExchangeRound>,
    /// Burn the top card before each replacement deal.
    #[serde(default)]
    pub burn: bool,
    /// Exchanging loses the bonus bet.
    #[serde(default)]
    pub forfeits_bonus: bool,
    /// The play bet is compulsory after an exchange.
    #[serde(default)]
    pub must_play_after: bool,
}

/// A jackpot award: a bonus hand of this category wins this share of the progressive meter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JackpotAward {
    pub category: Category,
    pub share: Ratio,
}

/// The bonus bet (RULES.md §3.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bonus {
    pub kind: BonusKind,
    /// Stake limits (fixed and odds kinds; a fixed stake has min = max).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stake_min: Option<Money>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stake_max: Option<Money>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stake_step: Option<Money>,
    /// The fee in antes (privilege kind).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee: Option<Ratio>,
    /// Fees in minor units that replace `fee` at these antes (seed 002: 0.60 at a 5.00 ante).
    #[serde(default, deserialize_with = "numeric_keys")]
    pub fee_at_ante: BTreeMap<Money, Money>,
    /// Amounts in minor units (fixed) or odds N:1 (odds) per winning category.
    #[serde(default)]
    pub pays: BTreeMap<Category, Money>,
    #[serde(default = "judged_on_dealt")]
    pub judged_on: JudgedOn,
    #[serde(default = "yes")]
    pub forfeited_by_fold: bool,
    /// Bonus hands that win a share of the progressive jackpot instead of their `pays` row.
    #[serde(default)]
    pub jackpot: Vec<JackpotAward>,
}

/// A table whose keys are whole numbers (`{ 1 = "1", 2 = "1.5" }`): TOML keys are strings.
fn numeric_keys<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: std::str::FromStr + Ord,
    V: Deserialize<'de>,
{
    BTreeMap::<String, V>::deserialize(deserializer)?
        .into_iter()
        .map(|(key, value)| match key.parse() {
            Ok(number) => Ok((number, value)),
            Err(_) => Err(serde::de::Error::custom(format!("key {key:?} is not a whole number"))),
        })
        .collect()
}

fn judged_on_dealt() -> JudgedOn {
    JudgedOn::Dealt
}

fn yes() -> bool {
    true
}

/// A purchase priced in antes: the sixth card, buying the game, buying the dealer's card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Purchase {
    pub fee: Ratio,
    /// Only a box with the bonus bet may buy it.
    #[serde(default)]
    pub needs_bonus: bool,
    /// After the reveal, only a box holding this category or better may buy (none: any box).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_category: Option<Category>,
}

/// The name a house gives the dealer's redraw after a non-qualifying reveal (RULES.md §3.2,
/// §3.4): the dealer discards his highest card and draws one more for the boxes that pay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redraw {
    /// `[buy_dealer_card]` (seed 000).
    DealerCard,
    /// `[buy_game]` (seed 002).
    Game,
}

impl Redraw {
    /// The purchase in words, for reasons: "buying the dealer's card", "buying the game".
    pub fn what(self) -> &'static str {
        match self {
            Redraw::DealerCard => "buying the dealer's card",
            Redraw::Game => "buying the game",
        }
    }
}

/// Insurance against a dealer who does not qualify (RULES.md §3.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Insurance {
    /// The least hand that may be insured.
    pub min_category: Category,
}

/// Straight flush / royal flush protection (RULES.md §3.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Protection {
    pub categories: Vec<Category>,
}

/// A rule profile, as written in its TOML file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Short name, e.g. "czech-exchange".
    pub id: String,
    /// Display name.
    pub name: String,
    /// Where the rules come from (a seed document).
    #[serde(default)]
    pub source: String,
    pub table: Table,
    pub game: Game,
    /// Odds paid on the play bet per category (N:1).
    pub paytable: BTreeMap<Category, Money>,
    pub boxes: Boxes,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<Exchange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<Bonus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sixth_card: Option<Purchase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buy_game: Option<Purchase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buy_dealer_card: Option<Purchase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insurance: Option<Insurance>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection: Option<Protection>,
}

impl Profile {
    /// Parses and validates a profile; `source` names the file in errors. `overrides`, if
    /// given, is TOML whose tables are merged over the profile's before validation (how an
    /// operator derives a house variant).
    pub fn from_toml(text: &str, source: &str, overrides: Option<&str>) -> Result<Profile, ProfileError> {
        let overrides = match overrides {
            Some(text) => Some(
                text.parse::<toml::Table>()
                    .map_err(|e| ProfileError::new(source, "overrides", toml_reason(&e, text)))?,
            ),
            None => None,
        };
        Profile::from_toml_table(text, source, overrides)
    }

    /// [`Profile::from_toml`] with the overrides already parsed (from a configuration file).
    pub fn from_toml_table(
        text: &str,
        source: &str,
        overrides: Option<toml::Table>,
    ) -> Result<Profile, ProfileError> {
        let error = |field: &str, reason: String| ProfileError::new(source, field, reason);
        let mut table: toml::Table = text.parse().map_err(|e| error("", toml_reason(&e, text)))?;
        if let Some(overrides) = overrides {
            merge(&mut table, overrides);
        }
        let profile: Profile = serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
            let field = e.path().to_string();
            error(if field == "." { "" } else { &field }, e.inner().message().to_string())
        })?;
        profile.validate().map_err(|(field, reason)| error(&field, reason))?;
        Ok(profile)
    }

    /// Every ante the table allows, lowest first.
    pub fn allowed_antes(&self) -> impl Iterator<Item = Money> + '_ {
        let t = &self.table;
        (0..).map(move |k| t.ante_min + k * t.ante_step).take_while(move |&a| a <= t.ante_max)
    }

    /// Is `ante` on the table's ante ladder?
    pub fn allows_ante(&self, ante: Money) -> bool {
        let t = &self.table;
        (t.ante_min..=t.ante_max).contains(&ante) && (ante - t.ante_min) % t.ante_step == 0
    }

    /// The play bet for an ante.
    pub fn play_bet(&self, ante: Money) -> Money {
        ante * Money::from(self.game.play_multiple)
    }

    /// The dealer's redraw the profile sells after a non-qualifying reveal, under its name.
    pub fn dealer_redraw(&self) -> Option<(Redraw, &Purchase)> {
        match (&self.buy_dealer_card, &self.buy_game) {
            (Some(purchase), _) => Some((Redraw::DealerCard, purchase)),
            (None, Some(purchase)) => Some((Redraw::Game, purchase)),
            (None, None) => None,
        }
    }

    /// Odds paid on the play bet for a category, if it has a row.
    pub fn odds(&self, category: Category) -> Option<Money> {
        self.paytable.get(&category).copied()
    }

    /// A short fingerprint of the profile's content, journaled with each round so that a
    /// round is never replayed under rules that changed.
    pub fn digest(&self) -> String {
        let canonical = serde_json::to_string(self).expect("a profile serialises");
        let hash = canonical
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        format!("{hash:016x}")
    }

    fn validate(&self) -> Result<(), (String, String)> {
        let fail = |field: &str, reason: String| Err((field.to_string(), reason));
        let t = &self.table;
        if t.currency.len() != 3 || !t.currency.bytes().all(|b| b.is_ascii_uppercase()) {
            return fail("table.currency", format!("{:?} is not a three-letter currency code", t.currency));
        }
        if ![1, 10, 100, 1000].contains(&t.minor_units) {
            return fail("table.minor_units", format!("{} is not 1, 10, 100 or 1000", t.minor_units));
        }
        if t.ante_min <= 0 || t.ante_step <= 0 || t.max_payout <= 0 {
            return fail("table", "ante_min, ante_step and max_payout must be positive".into());
        }
        if t.ante_min > t.ante_max {
            return fail(
                "table.ante_min",
                format!("minimum {} is above the maximum {}", t.ante_min, t.ante_max),
            );
        }
        for (field, amount) in [("table.ante_max", t.ante_max), ("table.max_payout", t.max_payout)] {
            if amount > MAX_AMOUNT {
                return fail(
                    field,
                    format!("{amount} is above the largest amount a terminal keeps, {MAX_AMOUNT}"),
                );
            }
        }
        if (t.ante_max - t.ante_min) / t.ante_step >= MAX_LADDER {
            return fail(
                "table.ante_step",
                format!("the ante ladder would have more than {MAX_LADDER} steps"),
            );
        }
        if !(1..=MAX_MULTIPLE).contains(&self.game.play_multiple) {
            return fail("game.play_multiple", format!("the play bet is 1 to {MAX_MULTIPLE} antes"));
        }
        for category in Category::ALL {
            match (category >= self.game.qualifier, self.odds(category)) {
                (true, None) => {
                    return fail(
                        "paytable",
                        format!("no row for {}, which can beat a qualifying dealer", category.name()),
                    )
                }
                (false, Some(_)) => {
                    return fail(
                        &format!("paytable.{}", category.name()),
                        format!(
                            "{} never beats a qualifying dealer, so it cannot have a row",
                            category.name()
                        ),
                    )
                }
                (_, Some(odds)) if !(1..=MAX_ODDS).contains(&odds) => {
                    return fail(
                        &format!("paytable.{}", category.name()),
                        format!("odds are 1 to {MAX_ODDS}"),
                    )
                }
                _ => {}
            }
        }
        self.validate_boxes()?;
        if let Some(exchange) = &self.exchange {
            self.validate_exchange(exchange)?;
        }
        if let Some(bonus) = &self.bonus {
            self.validate_bonus(bonus)?;
        }
        for (field, purchase) in [
            ("sixth_card", &self.sixth_card),
            ("buy_game", &self.buy_game),
            ("buy_dealer_card", &self.buy_dealer_card),
        ] {
            if let Some(purchase) = purchase {
                self.check_price(&format!("{field}.fee"), purchase.fee)?;
                if purchase.needs_bonus && self.bonus.is_none() {
                    return fail(&format!("{field}.needs_bonus"), "the profile has no bonus bet".into());
                }
            }
        }
        if self.sixth_card.as_ref().is_some_and(|p| p.min_category.is_some()) {
            return fail(
                "sixth_card.min_category",
                "only a purchase after the dealer's reveal names the hands that may buy".into(),
            );
        }
        if self.buy_dealer_card.is_some() && self.buy_game.is_some() {
            return fail(
                "buy_game",
                "buying the game and buying the dealer's card are the same redraw of the dealer's \
                 highest card: a profile sells one of them"
                    .into(),
            );
        }
        if let Some((redraw, _)) = self.dealer_redraw() {
            if self.game.qualifier > Category::AceKing {
                let field = match redraw {
                    Redraw::DealerCard => "buy_dealer_card",
                    Redraw::Game => "buy_game",
                };
                return fail(
                    field,
                    "a dealer who does not qualify must hold no pair for his highest card to be one card"
                        .into(),
                );
            }
        }
        if let Some(insurance) = &self.insurance {
            if insurance.min_category < self.game.qualifier {
                return fail(
                    "insurance.min_category",
                    "an insured hand must have a paytable row: at least the qualifier".into(),
                );
            }
        }
        if let Some(protection) = &self.protection {
            if protection.categories.is_empty() {
                return fail("protection.categories", "name at least one category".into());
            }
            // Half the expected payment (ante + play bet × odds) must be whole.
            for &category in &protection.categories {
                let Some(odds) = self.odds(category).map(|odds| odds as u64) else {
                    return fail("protection.categories", format!("{} has no paytable row", category.name()));
                };
                let half = Ratio { numerator: 1 + u64::from(self.game.play_multiple) * odds, denominator: 2 };
                self.check_price("protection.categories", half)?;
            }
        }
        Ok(())
    }

    fn validate_boxes(&self) -> Result<(), (String, String)> {
        let b = &self.boxes;
        let fail = |field: &str, reason: String| Err((field.to_string(), reason));
        if b.max == 0 || b.max > 7 {
            return fail("boxes.max", format!("a round plays 1 to 7 boxes, not {}", b.max));
        }
        if b.looked_at == 0 || b.looked_at > b.max {
            return fail(
                "boxes.looked_at",
                format!("must be 1 to boxes.max ({}), not {}", b.max, b.looked_at),
            );
        }
        if b.min_ante_multi.is_some_and(|m| m > self.table.ante_max) {
            return fail("boxes.min_ante_multi", "is above the table's maximum ante".into());
        }
        Ok(())
    }

    fn validate_exchange(&self, exchange: &Exchange) -> Result<(), (String, String)> {
        if exchange.rounds.is_empty() {
            return Err(("exchange.rounds".into(), "name at least one exchange round".into()));
        }
        for (i, round) in exchange.rounds.iter().enumerate() {
            if round.fees.is_empty() {
                return Err((format!("exchange.rounds[{i}].fees"), "offer at least one card count".into()));
            }
            for (table, fees) in [("fees", &round.fees), ("with_bonus", &round.with_bonus)] {
                for (&count, &fee) in fees {
                    let field = format!("exchange.rounds[{i}].{table}.{count}");
                    if !(1..=5).contains(&count) {
                        return Err((field, format!("one exchange takes 1 to 5 cards, not {count}")));
                    }
                    self.check_price(&field, fee)?;
                }
            }
            if !round.with_bonus.is_empty() && self.bonus.is_none() {
                return Err((
                    format!("exchange.rounds[{i}].with_bonus"),
                    "the profile has no bonus bet".into(),
                ));
            }
        }
        Ok(())
    }

    fn validate_bonus(&self, bonus: &Bonus) -> Result<(), (String, String)> {
        let fail = |field: &str, reason: String| Err((field.to_string(), reason));
        match bonus.kind {
            BonusKind::Privilege => {
                let Some(fee) = bonus.fee else {
                    return fail("bonus.fee", "a privilege bonus needs its fee in antes".into());
                };
                if fee.is_zero() {
                    return fail("bonus.fee", "must be positive".into());
                }
                for (&ante, &amount) in &bonus.fee_at_ante {
                    if !self.allows_ante(ante) || !(1..=MAX_AMOUNT).contains(&amount) {
                        let reason =
                            format!("{ante} is not an allowed ante or {amount} is not a positive fee");
                        return fail(&format!("bonus.fee_at_ante.{ante}"), reason);
                    }
                }
                self.check_price("bonus.fee", fee)?;
                if !bonus.pays.is_empty() || !bonus.jackpot.is_empty() {
                    return fail("bonus.pays", "a privilege bonus never pays".into());
                }
            }
            BonusKind::Fixed | BonusKind::Odds => {
                let (Some(min), Some(max)) = (bonus.stake_min, bonus.stake_max) else {
                    return fail(
                        "bonus.stake_min",
                        "the stake limits stake_min and stake_max are needed".into(),
                    );
                };
                if min <= 0 || min > max {
                    return fail("bonus.stake_min", format!("stakes {min}..{max} are not a positive range"));
                }
                if bonus.kind == BonusKind::Fixed && min != max {
                    return fail(
                        "bonus.stake_max",
                        "a fixed bonus has one stake: stake_min = stake_max".into(),
                    );
                }
                if bonus.stake_step.is_some_and(|s| s <= 0) {
                    return fail("bonus.stake_step", "must be positive".into());
                }
                if bonus.fee.is_some() || !bonus.fee_at_ante.is_empty() {
                    return fail("bonus.fee", "only a privilege bonus has a fee".into());
                }
                if bonus.pays.is_empty() && bonus.jackpot.is_empty() {
                    return fail("bonus.pays", "a bonus bet needs at least one paying hand".into());
                }
                let limit = if bonus.kind == BonusKind::Fixed { MAX_AMOUNT } else { MAX_ODDS };
                if let Some((category, _)) = bonus.pays.iter().find(|(_, &v)| !(1..=limit).contains(&v)) {
                    return fail(&format!("bonus.pays.{}", category.name()), format!("must be 1 to {limit}"));
                }
                if max > MAX_AMOUNT {
                    return fail("bonus.stake_max", format!("is above {MAX_AMOUNT}"));
                }
            }
        }
        for award in &bonus.jackpot {
            if award.share.is_zero() || award.share > Ratio::whole(1) {
                return fail(
                    "bonus.jackpot",
                    format!("a share is above 0 and at most 1, not {}", award.share),
                );
            }
        }
        Ok(())
    }

    /// Refuses a price in antes that is not a whole number of minor units at some allowed
    /// ante. Every allowed ante is `min + k × step`, so checking `min` and `step` covers all.
    fn check_price(&self, field: &str, price: Ratio) -> Result<(), (String, String)> {
        let t = &self.table;
        let most = u64::from(MAX_MULTIPLE) * MAX_ODDS as u64;
        if price > (Ratio { numerator: most, denominator: 1 }) {
            return Err((
                field.to_string(),
                format!("{price} antes is above the most a price may be, {most}"),
            ));
        }
        let more_than_one = t.ante_min + t.ante_step <= t.ante_max;
        let failing = if price.of(t.ante_min).is_none() {
            Some(t.ante_min)
        } else if more_than_one && price.of(t.ante_step).is_none() {
            Some(t.ante_min + t.ante_step)
        } else {
            None
        };
        match failing {
            Some(ante) => Err((
                field.to_string(),
                format!("{price} antes at an ante of {ante} is not a whole number of minor units"),
            )),
            None => Ok(()),
        }
    }
}

/// A TOML syntax error as "line L, column C: what".
fn toml_reason(error: &toml::de::Error, text: &str) -> String {
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {}", error.message().trim())
        }
        None => error.message().trim().to_string(),
    }
}

/// Merges `overrides` into `base`: tables merge key by key, anything else replaces.
fn merge(base: &mut toml::Table, overrides: toml::Table) {
    for (key, value) in overrides {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(inner)), toml::Value::Table(value)) => merge(inner, value),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// The profiles the package ships (`oasis_kiosk/profiles`), for the tests.
#[cfg(test)]
pub(crate) const SHIPPED_PROFILES: [&str; 10] = [
    "caribbean",
    "czech",
    "czech-buy-card",
    "czech-exchange",
    "standard",
    "golden-oasis",
    "russian-three-box",
    "stand-a",
    "stand-b",
    "stand-c",
];

/// A shipped profile's TOML text, for the tests.
#[cfg(test)]
pub(crate) fn shipped_profile_text(id: &str) -> String {
    let path = format!("{}/../../oasis_kiosk/profiles/{id}.toml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("a shipped profile")
}

#[cfg(test)]
mod tests {
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
            (
                "standard",
                "[table]\nante_min = 20000",
                "table.ante_min: minimum 20000 is above the maximum 10000",
            ),
            ("standard", "[paytable]\nHighCard = 1", "paytable.HighCard: HighCard never beats"),
            ("standard", "[game]\nqualifier = \"Pair\"", "game.qualifier: unknown variant `Pair`"),
            ("golden-oasis", "[table]\nante_step = 1", "at an ante of 501 is not a whole number"),
            (
                "golden-oasis",
                "[table]\nante_min = 501",
                "exchange.rounds[0].fees.2: 1.5 antes at an ante of 501",
            ),
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
}
