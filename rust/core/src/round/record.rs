//! What the terminal journals of a round: enough to rebuild it exactly.

use serde::{Deserialize, Serialize};

use crate::profile::Money;
use crate::shuffle::Seed;

use super::Action;

/// Where the round's deck comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckSource {
    /// A shuffle from this seed (hexadecimal).
    Seed(String),
    /// A stacked deck for tests and analysis: these cards on top, then the rest in code order.
    Stacked(Vec<String>),
}

/// Everything needed to rebuild a round: journal this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub profile: String,
    pub profile_digest: String,
    pub deck: DeckSource,
    pub antes: Vec<Money>,
    pub bonus: Vec<Money>,
    pub credit: Option<Money>,
    pub actions: Vec<Action>,
}

/// A seed as the record writes it: lowercase hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn unhex(text: &str) -> Option<Seed> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut seed = [0u8; 32];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(seed)
}
