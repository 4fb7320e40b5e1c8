//! The fast player: the profile's settlement at one ante and bonus stake, folded into tables
//! of nets by category, and the valuations the strategy and the estimate are made of (the
//! dealer's hands counted per up card or exactly, the best insurance, a final hand's value,
//! the conditional nets of a round).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::analysis::{self, category_counts, BoxPlay, HoldingTables, BINOMIAL, CUMULATIVE};
use crate::card::DECK_SIZE;
use crate::eval::{Category, HandValue};
use crate::profile::{Money, Profile};
use crate::progress::Progress;
use crate::round::{self, Outcome};

use super::play::Finish;
use super::tables::{categories, fives};

/// Dealer hands holding a given card: C(51, 4).
const HANDS_WITH_UP: i64 = 249_900;

/// The ante and play bet's net for each way the round ends, for one category.
#[derive(Clone, Copy, Debug, Default)]
struct CategoryNets {
    won: Money,
    lost: Money,
    push: Money,
    not_qualified: Money,
}

/// Dealer hands by how they end against a box hand that played.
#[derive(Clone, Copy, Debug)]
pub(super) struct ShowdownCounts {
    pub(super) not_qualified: i64,
    pub(super) lower: i64,
    pub(super) equal: i64,
    pub(super) higher: i64,
}

impl ShowdownCounts {
    pub(super) fn total(&self) -> i64 {
        self.not_qualified + self.lower + self.equal + self.higher
    }
}

/// The ante and play bet's net of playing a hand with these nets, summed over dealer counts.
fn main_total(nets: &CategoryNets, counts: ShowdownCounts) -> i128 {
    i128::from(counts.not_qualified) * i128::from(nets.not_qualified)
        + i128::from(counts.lower) * i128::from(nets.won)
        + i128::from(counts.equal) * i128::from(nets.push)
        + i128::from(counts.higher) * i128::from(nets.lost)
}

/// The fast strategy and the fast path of a round, for one profile, ante and bonus stake.
pub(super) struct FastPlayer<'a> {
    pub(super) profile: &'a Profile,
    tables: Arc<HoldingTables>,
    pub(super) ante: Money,
    pub(super) play_bet: Money,
    pub(super) bonus_stake: Money,
    nets: [CategoryNets; 11],
    /// The nets of the profile's play-or-fold game ([`analysis::base_game`]), the control
    /// variate played beside every round.
    base_nets: [CategoryNets; 11],
    /// The bonus stake's net by [forfeited][folded][judged category].
    bonus: [[[Money; 11]; 2]; 2],
    /// The same as the player weighs it when deciding: the net, or nothing for a player who
    /// decides for the main game alone ([`BoxPlay::ForMain`]).
    weighed_bonus: [[[Money; 11]; 2]; 2],
    pub(super) forfeits_on_exchange: bool,
    pub(super) must_play_after: bool,
    pub(super) burn: bool,
    pub(super) qualifier: u16,
}

impl<'a> FastPlayer<'a> {
    /// The strategy for `profile` at `ante` with the box bet and played as `play` says (not
    /// blind); builds the exact analysis's counting tables (under a second, about 95 MiB).
    pub fn new(profile: &'a Profile, ante: Money, play: BoxPlay) -> FastPlayer<'a> {
        let tables = Arc::new(HoldingTables::build(profile.game.qualifier));
        FastPlayer::with_tables(profile, ante, play, tables)
    }

    /// As [`FastPlayer::new`], with counting tables already built for the profile's qualifier.
    pub(super) fn with_tables(
        profile: &'a Profile,
        ante: Money,
        play: BoxPlay,
        tables: Arc<HoldingTables>,
    ) -> FastPlayer<'a> {
        assert_eq!(tables.qualifier, profile.game.qualifier.lowest().strength());
        let bonus_stake = play.stake(profile, ante);
        let play_bet = profile.play_bet(ante);
        let nets_of = |profile: &Profile| {
            Category::ALL.map(|c| {
                let net = |outcome| {
                    let (_, a, p) = round::main_bets(profile, c.lowest(), ante, play_bet, outcome);
                    a.net() + p.net()
                };
                CategoryNets {
                    won: if profile.odds(c).is_some() { net(Outcome::Won) } else { net(Outcome::Lost) },
                    lost: net(Outcome::Lost),
                    push: net(Outcome::Push),
                    not_qualified: net(Outcome::DealerNotQualified),
                }
            })
        };
        let nets = nets_of(profile);
        let base_nets = nets_of(&analysis::base_game(profile));
        let mut bonus = [[[0; 11]; 2]; 2];
        for (forfeited, by_fold) in bonus.iter_mut().enumerate() {
            for (folded, by_category) in by_fold.iter_mut().enumerate() {
                for (c, net) in by_category.iter_mut().enumerate() {
                    let judged = || Category::ALL[c].lowest();
                    *net =
                        round::bonus_bet(profile, bonus_stake, forfeited == 1, folded == 1, judged).0.net();
                }
            }
        }
        let weighed_bonus = if play.weighs_bonus() { bonus } else { [[[0; 11]; 2]; 2] };
        let exchange = profile.exchange.as_ref();
        FastPlayer {
            profile,
            tables,
            ante,
            play_bet,
            bonus_stake,
            nets,
            base_nets,
            bonus,
            weighed_bonus,
            forfeits_on_exchange: exchange.is_some_and(|e| e.forfeits_bonus),
            must_play_after: exchange.is_some_and(|e| e.must_play_after),
            burn: exchange.is_some_and(|e| e.burn),
            qualifier: profile.game.qualifier.lowest().strength(),
        }
    }

    /// The control variates' exact means at this ante and stake.
    pub(super) fn anchors(&self) -> Anchors {
        let base_return = self.base_return();
        let side_return = match self.bonus_stake {
            0 => 0.0,
            stake => {
                let total: i128 = category_counts()
                    .iter()
                    .zip(Category::ALL)
                    .map(|(&count, c)| i128::from(count) * i128::from(self.bonus_net(false, false, c)))
                    .sum();
                total as f64 / (fives().len() as f64 * stake as f64)
            }
        };
        Anchors { base_return, side_return }
    }

    /// The exact return per ante of the profile's play-or-fold game at this ante, counted
    /// once per game and ante in a process (the profiles of one house share it).
    fn base_return(&self) -> f64 {
        static KNOWN: OnceLock<Mutex<HashMap<(String, Money), f64>>> = OnceLock::new();
        let base = analysis::base_game(self.profile);
        let key = (base.digest(), self.ante);
        let known = KNOWN.get_or_init(Mutex::default);
        if let Some(&value) = known.lock().expect("no panic while it is held").get(&key) {
            return value;
        }
        let exact =
            analysis::analyse(&base, self.ante, BoxPlay::WithoutBonus, &self.tables, &Progress::new())
                .expect("the play-or-fold game is analysed at any ante its profile allows");
        let value = exact.player_net as f64 / (exact.total_combinations as f64 * self.ante as f64);
        known.lock().expect("no panic while it is held").insert(key, value);
        value
    }

    pub(super) fn has_bonus(&self, forfeited: bool) -> bool {
        self.bonus_stake > 0 && !forfeited
    }

    /// Exchange fees by card count in exchange round `round`, for a box with or without the bonus.
    pub(super) fn exchange_fees(&self, exchange_round: usize, has_bonus: bool) -> [Option<Money>; 6] {
        let mut fees = [None; 6];
        if let Some(r) = self.profile.exchange.as_ref().and_then(|e| e.rounds.get(exchange_round)) {
            for (n, fee) in fees.iter_mut().enumerate().skip(1) {
                *fee = round::exchange_fee(r, n, has_bonus).and_then(|f| f.of(self.ante));
            }
        }
        fees
    }

    /// The sixth card's fee for a box with or without the bonus, if it is offered to it.
    pub(super) fn sixth_card_fee(&self, has_bonus: bool) -> Option<Money> {
        let sixth = self.profile.sixth_card.as_ref();
        round::purchase_fee(self.profile, sixth, "the sixth card", self.ante, has_bonus, (1, DECK_SIZE), None)
            .ok()
    }

    pub(super) fn exchange_rounds(&self) -> usize {
        self.profile.exchange.as_ref().map_or(0, |e| e.rounds.len())
    }

    /// The dealer's hands holding the up card, none of the player's cards removed.
    pub(super) fn approximate_counts(&self, up: u8, strength: u16) -> ShowdownCounts {
        let below = &self.tables.one[usize::from(up) * CUMULATIVE..][..CUMULATIVE];
        let q = usize::from(self.qualifier);
        let not_qualified = i64::from(below[q]);
        if strength < self.qualifier {
            return ShowdownCounts {
                not_qualified,
                lower: 0,
                equal: 0,
                higher: HANDS_WITH_UP - not_qualified,
            };
        }
        let s = usize::from(strength);
        ShowdownCounts {
            not_qualified,
            lower: i64::from(below[s]) - not_qualified,
            equal: i64::from(below[s + 1] - below[s]),
            higher: HANDS_WITH_UP - i64::from(below[s + 1]),
        }
    }

    /// The dealer's hands holding the up card and none of the `known` cards, exactly, by
    /// inclusion–exclusion over the known cards.
    pub(super) fn exact_counts(&self, known: &[u8], up: u8, strength: u16) -> ShowdownCounts {
        let player = (strength >= self.qualifier).then_some(strength);
        let mut sums = [0i64; 3];
        let mut held = [0u8; 5];
        for mask in 0u32..1 << known.len() {
            let t = mask.count_ones() as usize;
            if t > 4 {
                continue;
            }
            let mut n = 0;
            for (i, &card) in known.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    held[n] = card;
                    n += 1;
                }
            }
            held[n] = up;
            n += 1;
            held[..n].sort_unstable();
            let counts = self.tables.count(&held[..n], player);
            let sign = if t % 2 == 0 { 1 } else { -1 };
            for (sum, count) in sums.iter_mut().zip(counts) {
                *sum += sign * count;
            }
        }
        let total = BINOMIAL[DECK_SIZE - 1 - known.len()][4] as i64;
        match player {
            None => ShowdownCounts { not_qualified: sums[0], lower: 0, equal: 0, higher: total - sums[0] },
            Some(_) => ShowdownCounts {
                not_qualified: sums[0],
                lower: sums[1] - sums[0],
                equal: sums[2] - sums[1],
                higher: total - sums[2],
            },
        }
    }

    /// The insurance a box playing a hand of `category` takes against these dealer counts:
    /// none, the least or the most, whichever is worth most (the value is linear in the amount).
    pub(super) fn insurance(&self, category: Category, counts: ShowdownCounts) -> (Money, i128) {
        let limits =
            round::insurance_limits(self.profile, category.lowest(), self.ante, self.play_bet, None, 0);
        let Ok((least, most)) = limits else { return (0, 0) };
        let per_unit = i128::from(counts.not_qualified - counts.lower);
        [least, most].into_iter().map(|x| (x, i128::from(x) * per_unit)).fold((0, 0), |best, option| {
            if option.1 > best.1 {
                option
            } else {
                best
            }
        })
    }

    /// Playing a hand, summed over the dealer counts: ante and play bet, and the best
    /// insurance (minor units × hands). The dealer's redraw is left out of this valuation
    /// (it is decided exactly at the reveal, and pays only to hands that play anyway).
    pub(super) fn play_total(&self, strength: u16, counts: ShowdownCounts) -> i128 {
        let category = categories()[usize::from(strength)];
        main_total(&self.nets[category as usize], counts) + self.insurance(category, counts).1
    }

    /// The conditional nets of a round given every card the player saw (see
    /// [`RoundResult::conditional_net`](super::play::RoundResult::conditional_net)): the
    /// profile's, from the box as it ended (`finish`, its `main` net as settled, `known` its
    /// cards and discards), and the play-or-fold game's on the dealt hand. The dealer's hole cards are, to the player, any four of the
    /// cards he has not seen, so each expectation is a count of the dealer's hands.
    pub(super) fn conditional_nets(
        &self,
        finish: &Finish,
        main: Money,
        known: &[u8],
        (dealt, up, revealed): (&[u8; 5], u8, HandValue),
    ) -> (f64, f64) {
        let dealt_counts = self.exact_counts(dealt, up, finish.dealt.strength());
        let total = dealt_counts.total() as f64;
        let base_play = main_total(&self.base_nets[finish.dealt.category() as usize], dealt_counts) as f64;
        let base = (base_play / total).max(-self.ante as f64);
        if !finish.played {
            return (main as f64, base);
        }
        // The realized ante, play bet and insurance against the hand the dealer revealed
        // (a bought redraw's gain over declining is taken as it was) give way to their
        // expectation over his hole cards.
        let realized = self.bets_against(finish.hand, finish.insurance, revealed);
        let expected = self.expected_bets(finish.hand, finish.insurance, known, up);
        ((main - realized) as f64 + expected, base)
    }

    /// The ante, play bet and insurance's net of a box that played `hand` against a dealer
    /// who revealed `revealed`, no redraw bought.
    pub(super) fn bets_against(&self, hand: HandValue, insurance: Money, revealed: HandValue) -> Money {
        let outcome = round::played_outcome(self.profile, hand, revealed, false);
        let (_, ante, play) = round::main_bets(self.profile, hand, self.ante, self.play_bet, outcome);
        let qualifies = round::qualifies(self.profile, revealed);
        ante.net() + play.net() + round::insurance_bet(insurance, qualifies, hand > revealed).net()
    }

    /// The mean of [`FastPlayer::bets_against`] over the dealer's hands that hold the up card
    /// and none of the `known` cards.
    pub(super) fn expected_bets(&self, hand: HandValue, insurance: Money, known: &[u8], up: u8) -> f64 {
        let counts = self.exact_counts(known, up, hand.strength());
        let total = main_total(&self.nets[hand.category() as usize], counts)
            + i128::from(insurance) * i128::from(counts.not_qualified - counts.lower);
        total as f64 / counts.total() as f64
    }

    pub(super) fn bonus_net(&self, forfeited: bool, folded: bool, judged: Category) -> Money {
        self.bonus[usize::from(forfeited)][usize::from(folded)][judged as usize]
    }

    /// What the bonus weighs in a decision (see [`FastPlayer::weighed_bonus`]).
    pub(super) fn weighed_bonus(&self, forfeited: bool, folded: bool, judged: Category) -> Money {
        self.weighed_bonus[usize::from(forfeited)][usize::from(folded)][judged as usize]
    }

    /// The category the bonus is judged on ([`round::judged_hand`]).
    #[inline]
    pub(super) fn judged(&self, dealt: Category, hand: Category) -> Category {
        round::judged_hand(self.profile, dealt, hand)
    }

    /// The value of a final hand (best of folding, where allowed, and playing), in minor units.
    pub(super) fn final_value(
        &self,
        strength: u16,
        counts: ShowdownCounts,
        judged: Category,
        forfeited: bool,
        fold_allowed: bool,
    ) -> f64 {
        let play = self.play_total(strength, counts) as f64 / counts.total() as f64
            + self.weighed_bonus(forfeited, false, judged) as f64;
        let fold = (-self.ante + self.weighed_bonus(forfeited, true, judged)) as f64;
        if fold_allowed {
            play.max(fold)
        } else {
            play
        }
    }
}

/// The exactly known means of the control variates: the play-or-fold game's return per ante
/// (the exact analysis) and the side bet's per stake on the dealt hand (the hand counts).
#[derive(Clone, Copy, Debug)]
pub(super) struct Anchors {
    pub(super) base_return: f64,
    pub(super) side_return: f64,
}
