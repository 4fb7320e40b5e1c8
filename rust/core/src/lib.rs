//! The Oasis Stud Poker engine: cards, the hand evaluator, the secure shuffle, the rules and
//! the strategy that values every decision.
//!
//! Pure Rust with no Python in it; `rust/py` exposes it to the kiosk as `oasis_kiosk._core`.

pub mod analysis;
pub mod card;
pub mod error;
pub mod eval;
pub mod profile;
pub mod progress;
pub mod round;
pub mod shuffle;
pub mod simulation;
pub mod strategy;

pub use card::{parse_cards, Card};
pub use error::{CardError, EntropyError, Error, ProfileError, RoundError, ShoeError};
pub use eval::{evaluator, Category, Evaluator, HandValue};
pub use profile::{Money, Profile, Ratio};
pub use progress::Progress;
pub use round::{Action, Phase, Round, RoundRecord, Settlement, Stakes};
pub use shuffle::{os_seed, shuffled_deck, Seed, Shoe};
pub use strategy::{advise, Advice, Choice};
