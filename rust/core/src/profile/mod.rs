//! Rule profiles: every house variant of RULES.md as data, parsed from TOML and validated once.
//!
//! A profile that loads is complete and consistent: every price it can ask at every allowed
//! ante is a whole number of minor units, every category a player can win with has a
//! paytable row, every option names what it needs. Errors name the file, the field and the
//! reason, and nothing of a bad profile is kept.

mod ratio;
mod validate;

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

pub use ratio::Ratio;

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

// `SHIPPED_PROFILES`, listed by build.rs from the profiles' folder.
include!(concat!(env!("OUT_DIR"), "/shipped_profiles.rs"));

/// A shipped profile's TOML text, for the tests.
#[cfg(test)]
pub(crate) fn shipped_profile_text(id: &str) -> String {
    let path = format!("{}/../../oasis_kiosk/profiles/{id}.toml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("a shipped profile")
}

#[cfg(test)]
mod tests;
