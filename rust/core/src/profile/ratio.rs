//! The exact ratios of a profile: fees in antes, shares of a jackpot.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Money;

/// An exact non-negative rational written as an integer or a decimal (`1`, `"1.5"`, `"0.1"`):
/// fees in antes, shares of a jackpot. Always in lowest terms, so equal values are equal fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    pub(super) numerator: u64,
    pub(super) denominator: u64,
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

    pub(super) fn parse(text: &str) -> Result<Ratio, String> {
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
