//! Strategy: the expected value of every decision the current box may take, and the best one.
//!
//! Every expected value is the box's expected net at settlement ([`BoxSettlement::net`]:
//! ante, play bet, bonus and insurance results less every fee, the fees already paid
//! included), so the options of one decision compare directly; a fold is worth −ante (and
//! the bonus stake, where folding loses it). Only what the player has seen counts: the cards
//! and discards of the boxes looked at and the dealer's visible cards ([`Round::seen_cards`]).
//! Every other card, burnt ones included, is equally likely to be anywhere, so the
//! dealer's hidden cards and every replacement card are drawn without replacement from the
//! unseen cards, in whatever order the shoe deals them.
//!
//! How it is exact and fast (docs/strategy.md has the whole argument):
//! - The dealer's hidden four cards are enumerated once per question (C(46, 4) = 163 185
//!   hands with one box), their strengths with the up card sorted, and sorted again per
//!   unseen card and per pair of unseen cards. The dealer hands that share no card with the
//!   box's new cards are counted by inclusion–exclusion over those lists (triples and
//!   quadruples, rarely needed, are enumerated), each count a binary search: how many do not
//!   qualify, are lower than, equal to or higher than the box's hand. A hand's play value is
//!   then a sum of counts times the settlement of each case, taken from the round's own
//!   settlement functions, so the later options are exact too: insurance, the no-qualify
//!   ante rule, straight flush protection, the caps.
//! - The dealer's redraw (buying his card, or the game: he discards his highest card and
//!   draws one) is decided per dealer hand (the box sees it first), so it is counted per
//!   non-qualifying dealer hand, with each hand's qualifying draws sorted in
//!   advance; a bound skips the hands where buying cannot pay for the box's hand.
//! - Insurance is linear in its amount for every dealer hand, and the purchases after the
//!   reveal take a maximum of such linear functions, so the expected value is convex in the
//!   amount: its maximum over the allowed range is at one of its ends, and only "none", the
//!   least and the most are valued.
//! - An exchange averages the best next decision (fold, play, a further exchange) over its
//!   replacement cards: every replacement when that takes at most [`Effort::exact_work`]
//!   hand valuations (every 1- and 2-card exchange, and 3-card ones, with one exchange round),
//!   otherwise a seeded, reproducible sample of them, and the choice says it is not exact.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use rayon::prelude::*;
use serde::Serialize;

use crate::card::{Card, DECK_SIZE};
use crate::error::RoundError;
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::{JudgedOn, Money, Profile};
use crate::round::{self, Action, LegalAction, Outcome, Phase, Round, HAND};
use crate::shuffle::bounded;

/// One decision with its expected value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    pub action: Action,
    /// The box's expected net at settlement after this decision and the best ones after it,
    /// in minor units.
    pub ev: f64,
    /// False when some replacement cards were sampled rather than all enumerated.
    pub exact: bool,
}

/// Every decision the box may take now, in the order `legal_actions` lists them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    #[serde(rename = "box")]
    pub box_index: usize,
    pub choices: Vec<Choice>,
}

impl Advice {
    /// The choice with the highest expected value (the first listed among equals).
    pub fn best(&self) -> &Choice {
        &self.choices[self.best_index()]
    }

    /// Where the best choice is in `choices`.
    pub fn best_index(&self) -> usize {
        (1..self.choices.len())
            .fold(0, |best, i| if self.choices[i].ev > self.choices[best].ev { i } else { best })
    }
}

/// How much work an exchange may take before its replacement cards are sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Hand valuations one exchange may take to enumerate every replacement; beyond it the
    /// replacements are sampled, as many as this budget pays for and never fewer than
    /// [`MIN_SAMPLES`].
    pub exact_work: u64,
    /// Dealer hands sampled to value buying the dealer's card after a draw of two cards or
    /// more; after none or one every dealer hand counts.
    pub dealer_sample: usize,
    /// Seeds the samples, so the same question always gets the same answer.
    pub seed: u64,
}

/// The fewest replacement draws a sampled exchange averages.
pub const MIN_SAMPLES: u64 = 200;

impl Default for Effort {
    fn default() -> Effort {
        Effort { exact_work: 20_000, dealer_sample: 2048, seed: 0x6f61_7369_735f_6576 }
    }
}

/// Advice for the box whose turn it is, with the default effort.
pub fn advise(round: &Round, box_index: usize) -> Result<Advice, RoundError> {
    advise_with(round, box_index, Effort::default())
}

/// Advice for the box whose turn it is.
pub fn advise_with(round: &Round, box_index: usize, effort: Effort) -> Result<Advice, RoundError> {
    let turn = match round.phase() {
        Phase::Decision { box_index: b }
        | Phase::Insurance { box_index: b }
        | Phase::Purchase { box_index: b } => b,
        Phase::Settled => return Err(RoundError::Illegal("the round is settled".into())),
    };
    if turn != box_index {
        return Err(RoundError::Illegal(format!(
            "it is box {}'s turn, not box {}'s",
            turn + 1,
            box_index + 1
        )));
    }
    let choices = match round.phase() {
        Phase::Purchase { .. } => Player::new(round, box_index).purchases(round),
        phase => {
            let table = DealerTable::new(round, box_index, effort);
            let advisor = Advisor::new(Player::new(round, box_index), table, effort);
            match phase {
                Phase::Insurance { .. } => advisor.insurance(round),
                _ => advisor.decisions(round),
            }
        }
    };
    Ok(Advice { box_index, choices })
}

/// An expected value and whether it was enumerated exactly.
#[derive(Clone, Copy, Debug)]
struct Estimate {
    ev: f64,
    exact: bool,
}

impl Estimate {
    fn exact(ev: f64) -> Estimate {
        Estimate { ev, exact: true }
    }

    fn best(self, other: Estimate) -> Estimate {
        let exact = self.exact && other.exact;
        Estimate { ev: if other.ev > self.ev { other.ev } else { self.ev }, exact }
    }

    /// The mean of estimates that are each equally likely.
    fn mean(estimates: &[Estimate], exact: bool) -> Estimate {
        // Summed in order, so the answer does not depend on how the threads shared the work.
        let sum: f64 = estimates.iter().map(|e| e.ev).sum();
        let exact = exact && estimates.iter().all(|e| e.exact);
        Estimate { ev: sum / estimates.len() as f64, exact }
    }
}

/// What stays fixed about the box while its hand is imagined changing.
struct Player<'a> {
    profile: &'a Profile,
    index: usize,
    ante: Money,
    play_bet: Money,
    bonus_stake: Money,
    /// The dealt hand, on which some bonuses are judged.
    dealt: HandValue,
    /// The hand now.
    hand: Hand,
    /// Insurance already taken (after the play bet).
    insurance: Money,
}

impl<'a> Player<'a> {
    fn new(round: &'a Round, index: usize) -> Player<'a> {
        let state = round.box_state(index);
        let profile = round.profile();
        Player {
            profile,
            index,
            ante: state.ante,
            play_bet: profile.play_bet(state.ante),
            bonus_stake: state.bonus_stake,
            dealt: evaluator().evaluate_unchecked(&state.dealt),
            hand: Hand::of(&state.cards),
            insurance: state.insurance,
        }
    }

    /// The bonus stake's net when the box ends with `hand` (jackpot awards count as nothing:
    /// the meter is the terminal's, and in the shipped profiles the jackpot hand plays anyway).
    fn bonus(&self, hand: HandValue, forfeited: bool, folded: bool) -> Money {
        let judged = || match self.profile.bonus.as_ref().map(|b| b.judged_on) {
            Some(JudgedOn::Dealt) => self.dealt,
            _ => hand,
        };
        round::bonus_bet(self.profile, self.bonus_stake, forfeited, folded, judged).0.net()
    }

    /// The ante and play bet's net for each way the round can end for `hand`.
    fn nets(&self, hand: HandValue) -> Nets {
        let net = |outcome| {
            let (_, ante, play) = round::main_bets(self.profile, hand, self.ante, self.play_bet, outcome);
            ante.net() + play.net()
        };
        Nets {
            won: net(Outcome::Won),
            lost: net(Outcome::Lost),
            push: net(Outcome::Push),
            not_qualified: net(Outcome::DealerNotQualified),
            still_not_qualified: net(Outcome::DealerStillNotQualified),
        }
    }

    /// The choices after a dealer who does not qualify: his cards are known, only the card he
    /// would draw is not, one of the cards the player has not seen (each equally likely).
    /// Insurance settles on the hand he revealed whatever the box does.
    fn purchases(&self, round: &Round) -> Vec<Choice> {
        let state = round.box_state(self.index);
        let hand = self.hand.value();
        let dealer: Vec<Card> = round.dealer_cards().to_vec();
        let nets = self.nets(hand);
        let bonus = self.bonus(hand, state.bonus_forfeited, false);
        let insurance_won = round::insurance_bet(self.insurance, false, true).net();
        let fixed = (bonus - state.fees + insurance_won) as f64;
        let mut choices = Vec::new();
        for legal in round.legal_actions(self.index) {
            let (action, price) = match legal {
                LegalAction::Decline => {
                    let ev = nets.not_qualified as f64 + fixed;
                    choices.push(Choice {
                        action: Action::Decline { box_index: self.index },
                        ev,
                        exact: true,
                    });
                    continue;
                }
                LegalAction::BuyGame { price } => (Action::BuyGame { box_index: self.index }, price),
                LegalAction::BuyDealerCard { price } => {
                    (Action::BuyDealerCard { box_index: self.index }, price)
                }
                _ => continue,
            };
            let seen = mask(&round.seen_cards());
            let mut kept = dealer.clone();
            kept.remove(round::dealer_discard(&dealer));
            let draws: Vec<Money> = unseen(seen)
                .map(|card| {
                    let mut again = kept.clone();
                    again.push(Card::from_code(card).expect("a deck card"));
                    let value = evaluator().evaluate_unchecked(&again);
                    nets.after_redraw(self.profile, hand, value)
                })
                .collect();
            let mean = draws.iter().sum::<Money>() as f64 / draws.len() as f64;
            choices.push(Choice { action, ev: mean + fixed - price as f64, exact: true });
        }
        choices
    }
}

/// The ante and play bet's net for each way the round can end for one hand.
#[derive(Clone, Copy, Debug)]
struct Nets {
    won: Money,
    lost: Money,
    push: Money,
    not_qualified: Money,
    still_not_qualified: Money,
}

impl Nets {
    /// A box that bought the dealer's redraw, against his hand after it.
    fn after_redraw(&self, profile: &Profile, hand: HandValue, dealer: HandValue) -> Money {
        match round::played_outcome(profile, hand, dealer, true) {
            Outcome::Won => self.won,
            Outcome::Lost => self.lost,
            Outcome::Push => self.push,
            _ => self.still_not_qualified,
        }
    }
}

/// A box's hand as imagined: its cards and every card it drew from the unseen cards.
#[derive(Clone, Copy, Debug)]
struct Hand {
    cards: [u8; 6],
    len: usize,
    /// Card bits of every card drawn on the way here, discarded again or not: none of them
    /// is among the dealer's hidden cards.
    drawn: u64,
}

impl Hand {
    fn of(cards: &[Card]) -> Hand {
        let mut codes = [0u8; 6];
        for (code, card) in codes.iter_mut().zip(cards) {
            *code = card.code();
        }
        Hand { cards: codes, len: cards.len(), drawn: 0 }
    }

    fn value(&self) -> HandValue {
        let c = &self.cards;
        match self.len {
            5 => evaluator().eval5([c[0], c[1], c[2], c[3], c[4]]),
            _ => evaluator().eval6(*c),
        }
    }

    /// The hand with the cards at `positions` replaced by `new`, in order.
    fn exchanged(&self, positions: &[usize], new: &[u8]) -> Hand {
        let mut hand = *self;
        for (&position, &card) in positions.iter().zip(new) {
            hand.cards[position] = card;
            hand.drawn |= 1 << card;
        }
        hand
    }

    fn with_sixth(&self, card: u8) -> Hand {
        let mut hand = *self;
        hand.cards[5] = card;
        hand.len = 6;
        hand.drawn |= 1 << card;
        hand
    }
}

fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |bits, card| bits | 1 << card.code())
}

/// The card codes whose bits are not in `seen`.
fn unseen(seen: u64) -> impl Iterator<Item = u8> {
    (0..DECK_SIZE as u8).filter(move |&code| seen & (1 << code) == 0)
}

/// What the round's own rules allow a box at one decision, as the engine says, with the box's
/// money then: the choices after an imagined exchange come from the engine's round after the
/// same exchange (the prices depend on how many cards, not which).
struct Node {
    fold: bool,
    play: bool,
    /// Card count and the decision after (whose fees include the exchange's).
    exchanges: Vec<(usize, Node)>,
    /// The decision after buying a sixth card.
    sixth_card: Option<Box<Node>>,
    fees: Money,
    bonus_forfeited: bool,
    has_bonus: bool,
    credit: Option<Money>,
    /// The play bets of the later boxes, which the credit must keep after this box plays.
    play_bets_after: Money,
    remaining: usize,
}

impl Node {
    fn new(round: &Round, box_index: usize) -> Node {
        let state = round.box_state(box_index);
        let mut node = Node {
            fold: false,
            play: false,
            exchanges: Vec::new(),
            sixth_card: None,
            fees: state.fees,
            bonus_forfeited: state.bonus_forfeited,
            has_bonus: state.has_bonus(),
            credit: round.credit(),
            play_bets_after: round.play_bets_after(box_index),
            remaining: round.shoe_remaining(),
        };
        let after = |action: Action| {
            let mut next = round.clone();
            next.act(action).expect("the engine offered it");
            Node::new(&next, box_index)
        };
        for legal in round.legal_actions(box_index) {
            match legal {
                LegalAction::Fold => node.fold = true,
                LegalAction::Play { .. } => node.play = true,
                LegalAction::Exchange { prices } => {
                    for (count, _) in prices {
                        let positions = (0..count).collect();
                        node.exchanges.push((count, after(Action::Exchange { box_index, positions })));
                    }
                }
                LegalAction::BuySixthCard { .. } => {
                    node.sixth_card = Some(Box::new(after(Action::BuySixthCard { box_index })));
                }
                _ => {}
            }
        }
        node
    }

    /// Hand valuations needed to value every choice here exactly, with `unseen` cards left.
    fn work(&self, unseen: u64) -> u64 {
        let exchanges: u64 = self
            .exchanges
            .iter()
            .map(|(count, next)| binomial(HAND as u64, *count as u64) * exchange_work(*count, next, unseen))
            .sum();
        let sixth = self.sixth_card.as_ref().map_or(0, |next| exchange_work(1, next, unseen));
        1 + exchanges + sixth
    }
}

/// Hand valuations needed to value one exchange of `count` cards exactly.
fn exchange_work(count: usize, next: &Node, unseen: u64) -> u64 {
    binomial(unseen, count as u64).saturating_mul(next.work(unseen.saturating_sub(count as u64)))
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |product, i| product * (n - i) / (i + 1))
}

/// Values the choices of a box before the dealer's reveal.
struct Advisor<'a> {
    player: Player<'a>,
    table: DealerTable,
    effort: Effort,
    /// Every choice of positions to exchange, by card count.
    positions: Vec<Vec<Vec<usize>>>,
}

impl<'a> Advisor<'a> {
    fn new(player: Player<'a>, table: DealerTable, effort: Effort) -> Advisor<'a> {
        let positions = (0..=HAND).map(|count| combinations(HAND, count)).collect();
        Advisor { player, table, effort, positions }
    }

    fn decisions(&self, round: &Round) -> Vec<Choice> {
        let node = Node::new(round, self.player.index);
        let hand = self.player.hand;
        let b = self.player.index;
        let mut choices = Vec::new();
        if node.fold {
            let ev = self.fold(&node, &hand);
            choices.push(Choice { action: Action::Fold { box_index: b }, ev, exact: true });
        }
        if node.play {
            let estimate = self.play(&node, &hand);
            choices.push(Choice {
                action: Action::Play { box_index: b },
                ev: estimate.ev,
                exact: estimate.exact,
            });
        }
        for (count, next) in &node.exchanges {
            for positions in &self.positions[*count] {
                let estimate = self.exchange(&hand, positions, next, true);
                let action = Action::Exchange { box_index: b, positions: positions.clone() };
                choices.push(Choice { action, ev: estimate.ev, exact: estimate.exact });
            }
        }
        if let Some(next) = &node.sixth_card {
            let estimate = self.sixth_card(&hand, next, true);
            choices.push(Choice {
                action: Action::BuySixthCard { box_index: b },
                ev: estimate.ev,
                exact: estimate.exact,
            });
        }
        choices
    }

    /// The choices of a box that has just played: insure none, the least or the most.
    fn insurance(&self, round: &Round) -> Vec<Choice> {
        let state = round.box_state(self.player.index);
        let hand = self.player.hand;
        let value = hand.value();
        let fixed = self.player.bonus(value, state.bonus_forfeited, false) - state.fees;
        let b = self.player.index;
        let at = |amount: Money| {
            let credit = round.credit().map(|c| c - amount);
            let money = AtReveal { credit, remaining: round.shoe_remaining(), has_bonus: state.has_bonus() };
            self.reveal(value, hand.drawn, amount, money).ev + fixed as f64
        };
        let mut choices = Vec::new();
        for legal in round.legal_actions(b) {
            match legal {
                LegalAction::Insure { min, max } => {
                    for amount in if min == max { vec![min] } else { vec![min, max] } {
                        let action = Action::Insure { box_index: b, amount };
                        choices.push(Choice { action, ev: at(amount), exact: true });
                    }
                }
                LegalAction::Decline => {
                    choices.push(Choice { action: Action::Decline { box_index: b }, ev: at(0), exact: true })
                }
                _ => {}
            }
        }
        choices
    }

    /// The best choice at a decision for an imagined hand.
    fn decide(&self, node: &Node, hand: &Hand) -> Estimate {
        let mut best: Option<Estimate> = None;
        let mut consider = |estimate: Estimate| {
            best = Some(best.map_or(estimate, |b| b.best(estimate)));
        };
        if node.fold {
            consider(Estimate::exact(self.fold(node, hand)));
        }
        if node.play {
            consider(self.play(node, hand));
        }
        for (count, next) in &node.exchanges {
            for positions in &self.positions[*count] {
                consider(self.exchange(hand, positions, next, false));
            }
        }
        if let Some(next) = &node.sixth_card {
            consider(self.sixth_card(hand, next, false));
        }
        best.expect("a decision always offers fold or play")
    }

    fn fold(&self, node: &Node, hand: &Hand) -> f64 {
        let value = hand.value();
        let (_, ante, _) = round::main_bets(self.player.profile, value, self.player.ante, 0, Outcome::Folded);
        (ante.net() + self.player.bonus(value, node.bonus_forfeited, true) - node.fees) as f64
    }

    /// Plays, then insures as well as the box may.
    fn play(&self, node: &Node, hand: &Hand) -> Estimate {
        let player = &self.player;
        let value = hand.value();
        let credit = node.credit.map(|c| c - player.play_bet);
        let fixed = (player.bonus(value, node.bonus_forfeited, false) - node.fees) as f64;
        let money = |amount: Money| AtReveal {
            credit: credit.map(|c| c - amount),
            remaining: node.remaining,
            has_bonus: node.has_bonus,
        };
        let mut best = self.reveal(value, hand.drawn, 0, money(0));
        if let Ok((min, max)) = round::insurance_limits(
            player.profile,
            value,
            player.ante,
            player.play_bet,
            credit,
            node.play_bets_after,
        ) {
            for amount in [min, max] {
                best = best.best(self.reveal(value, hand.drawn, amount, money(amount)));
            }
        }
        Estimate { ev: best.ev + fixed, exact: best.exact }
    }

    /// The expected net of the ante, play bet and insurance from the reveal on, the box
    /// buying the dealer's redraw after the reveal where it pays best. The redraw is valued
    /// against every dealer hand after at most one drawn card, against a sample after more.
    fn reveal(&self, hand: HandValue, drawn: u64, insurance: Money, money: AtReveal) -> Estimate {
        let player = &self.player;
        let profile = player.profile;
        let nets = player.nets(hand);
        let cases = self.table.cases(hand, drawn);
        // Insurance settles on the revealed hand, whatever a box then buys.
        let declined = nets.not_qualified + insurance;
        let sum = cases.qualifying[0] * (nets.won - insurance)
            + cases.qualifying[1] * nets.push
            + cases.qualifying[2] * nets.lost
            + (cases.not_qualifying[0] + cases.not_qualifying[1] + cases.not_qualifying[2]) * declined;
        let redraw =
            round::redraw_fee(profile, hand, player.ante, money.has_bonus, money.remaining, money.credit)
                .ok();
        let exact = drawn.count_ones() <= 1;
        let gain = match (redraw, &self.table.redraw) {
            (Some((_, fee)), Some(table)) => {
                let prices = RedrawPrices { fee, nets };
                Estimate { ev: table.gain(hand, drawn, &prices, &self.table, exact), exact }
            }
            _ => Estimate::exact(0.0),
        };
        Estimate { ev: (sum as f64 + gain.ev) / cases.total as f64, exact: gain.exact }
    }

    /// Exchanges the cards at `positions`, then takes the best next decision (whose values
    /// count the fee: the next node's fees hold it).
    fn exchange(&self, hand: &Hand, positions: &[usize], next: &Node, parallel: bool) -> Estimate {
        let pool: Vec<u8> = self.table.pool.iter().copied().filter(|&c| hand.drawn & (1 << c) == 0).collect();
        let count = positions.len();
        let work = exchange_work(count, next, pool.len() as u64);
        let outcomes: Vec<Vec<u8>> = if work <= self.effort.exact_work {
            combinations(pool.len(), count)
                .into_iter()
                .map(|picks| picks.iter().map(|&i| pool[i]).collect())
                .collect()
        } else {
            let per_draw = next.work(pool.len().saturating_sub(count) as u64).max(1);
            let draws = (self.effort.exact_work / per_draw).max(MIN_SAMPLES);
            let seed =
                self.effort.seed ^ hand.drawn.rotate_left(17) ^ positions.iter().fold(0, |m, &p| m | 1 << p);
            sample(&pool, count, draws, seed)
        };
        let exact = work <= self.effort.exact_work;
        let value = |new: &Vec<u8>| self.decide(next, &hand.exchanged(positions, new));
        let estimates: Vec<Estimate> = if parallel {
            outcomes.par_iter().map(value).collect()
        } else {
            outcomes.iter().map(value).collect()
        };
        Estimate::mean(&estimates, exact)
    }

    /// Buys a sixth card, then takes the best next decision.
    fn sixth_card(&self, hand: &Hand, next: &Node, parallel: bool) -> Estimate {
        let pool: Vec<u8> = self.table.pool.iter().copied().filter(|&c| hand.drawn & (1 << c) == 0).collect();
        let value = |&card: &u8| self.decide(next, &hand.with_sixth(card));
        let estimates: Vec<Estimate> =
            if parallel { pool.par_iter().map(value).collect() } else { pool.iter().map(value).collect() };
        Estimate::mean(&estimates, true)
    }
}

/// The box's money and the shoe at the dealer's reveal, which decide what it may buy then.
#[derive(Clone, Copy, Debug)]
struct AtReveal {
    credit: Option<Money>,
    remaining: usize,
    has_bonus: bool,
}

/// Every way to choose `k` of `n` positions, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k > n {
        return all;
    }
    loop {
        all.push(pick.clone());
        let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else {
            return all;
        };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// `draws` random choices of `k` cards of `pool`, each uniform, from a seeded generator.
fn sample(pool: &[u8], k: usize, draws: u64, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut cards = pool.to_vec();
    (0..draws)
        .map(|_| {
            // A partial Fisher–Yates shuffle: the first k places are a uniform choice.
            for i in 0..k {
                let j = i + bounded(&mut rng, (cards.len() - i) as u32) as usize;
                cards.swap(i, j);
            }
            cards[..k].to_vec()
        })
        .collect()
}

/// How many dealer hands fall in each case against one box hand: qualifying and lower,
/// equal, higher; not qualifying and lower, equal, higher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cases {
    qualifying: [Money; 3],
    not_qualifying: [Money; 3],
    total: Money,
}

/// Counts of a sorted list of dealer strengths against one box hand.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    total: Money,
    /// Below the box's hand.
    below: Money,
    /// Below or equal to the box's hand.
    at_most: Money,
    /// Below the qualifier.
    not_qualifying: Money,
}

impl Counts {
    /// From how many hands are weaker than each strength, all of them last.
    fn cumulative(below: &[u32], hand: u16, floor: u16) -> Counts {
        let at = |x: u16| Money::from(below[x as usize]);
        Counts {
            total: at(HandValue::COUNT),
            below: at(hand),
            at_most: at(hand + 1),
            not_qualifying: at(floor),
        }
    }

    fn of(list: &[u16], hand: u16, floor: u16) -> Counts {
        let below = |x: u16| list.partition_point(|&s| s < x) as Money;
        Counts {
            total: list.len() as Money,
            below: below(hand),
            at_most: below(hand + 1),
            not_qualifying: below(floor),
        }
    }

    fn count(&mut self, strength: u16, hand: u16, floor: u16) {
        self.total += 1;
        self.below += Money::from(strength < hand);
        self.at_most += Money::from(strength <= hand);
        self.not_qualifying += Money::from(strength < floor);
    }

    fn add(&mut self, other: Counts, sign: Money) {
        self.total += sign * other.total;
        self.below += sign * other.below;
        self.at_most += sign * other.at_most;
        self.not_qualifying += sign * other.not_qualifying;
    }

    fn cases(self, hand: u16, floor: u16) -> Cases {
        let c = self;
        if hand >= floor {
            Cases {
                qualifying: [c.below - c.not_qualifying, c.at_most - c.below, c.total - c.at_most],
                not_qualifying: [c.not_qualifying, 0, 0],
                total: c.total,
            }
        } else {
            Cases {
                qualifying: [0, 0, c.total - c.not_qualifying],
                not_qualifying: [c.below, c.at_most - c.below, c.not_qualifying - c.at_most],
                total: c.total,
            }
        }
    }
}

const NOT_IN_POOL: u8 = u8::MAX;

/// Entries of a table of how many hands are weaker than each strength, all of them last.
const BELOW_LEN: usize = HandValue::COUNT as usize + 1;

/// Every hand the dealer may hold: his up card and four of the cards the player has not seen.
struct DealerTable {
    up: u8,
    /// The cards the player has not seen, lowest code first.
    pool: Vec<u8>,
    /// A card code's place in `pool`.
    place: [u8; DECK_SIZE],
    /// The weakest qualifying strength.
    floor: u16,
    /// How many dealer hands are weaker than each strength (and all of them, last).
    all_below: Vec<u32>,
    /// The same per unseen card, for the hands holding it, [`BELOW_LEN`] entries each.
    single_below: Vec<u32>,
    /// Per pair of unseen cards, the sorted strengths of the hands holding both.
    pair: Vec<u16>,
    pair_len: usize,
    redraw: Option<RedrawTable>,
}

impl DealerTable {
    fn new(round: &Round, box_index: usize, effort: Effort) -> DealerTable {
        let profile = round.profile();
        let up = round.dealer_cards()[HAND - 1].code();
        let seen = mask(&round.seen_cards());
        let pool: Vec<u8> = unseen(seen).collect();
        let mut place = [NOT_IN_POOL; DECK_SIZE];
        for (i, &card) in pool.iter().enumerate() {
            place[card as usize] = i as u8;
        }
        let n = pool.len();
        let floor = profile.game.qualifier.lowest().strength();

        // Every hidden four as places in the pool, sorted by strength (a counting sort).
        let mut fours = Vec::with_capacity(binomial(n as u64, 4) as usize);
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    fours.extend((c + 1..n).map(|d| [a as u8, b as u8, c as u8, d as u8]));
                }
            }
        }
        let hands: Vec<([u8; 4], u16)> = fours
            .into_par_iter()
            .map(|places| {
                let [a, b, c, d] = places.map(|p| pool[p as usize]);
                (places, evaluator().eval5([a, b, c, d, up]).strength())
            })
            .collect();
        let mut starts = vec![0usize; HandValue::COUNT as usize + 1];
        for &(_, s) in &hands {
            starts[s as usize + 1] += 1;
        }
        for s in 1..starts.len() {
            starts[s] += starts[s - 1];
        }
        let mut sorted = vec![([0u8; 4], 0u16); hands.len()];
        for &(places, s) in &hands {
            sorted[starts[s as usize]] = (places, s);
            starts[s as usize] += 1;
        }

        let pair_len = binomial(n as u64 - 2, 2) as usize;
        let mut all_below = vec![0u32; BELOW_LEN];
        let mut single_below = vec![0u32; n * BELOW_LEN];
        let mut pair = vec![0u16; n * n.saturating_sub(1) / 2 * pair_len];
        let mut pair_fill = vec![0usize; n * n.saturating_sub(1) / 2];
        for &(places, s) in &sorted {
            all_below[s as usize + 1] += 1;
            for (i, &a) in places.iter().enumerate() {
                let a = a as usize;
                single_below[a * BELOW_LEN + s as usize + 1] += 1;
                for &b in &places[i + 1..] {
                    let index = pair_index(n, a, b as usize);
                    pair[index * pair_len + pair_fill[index]] = s;
                    pair_fill[index] += 1;
                }
            }
        }
        for below in std::iter::once(&mut all_below[..]).chain(single_below.chunks_exact_mut(BELOW_LEN)) {
            for s in 1..BELOW_LEN {
                below[s] += below[s - 1];
            }
        }
        let mut table =
            DealerTable { up, pool, place, floor, all_below, single_below, pair, pair_len, redraw: None };
        if profile.dealer_redraw().is_some() {
            let player = Player::new(round, box_index);
            let not_qualifying: Vec<[u8; 4]> =
                sorted.iter().take_while(|&&(_, s)| s < floor).map(|&(places, _)| places).collect();
            table.redraw = Some(RedrawTable::new(&table, &not_qualifying, &player, effort));
        }
        table
    }

    /// How many dealer hands without any of the `drawn` cards fall in each case against `hand`:
    /// inclusion–exclusion over the drawn cards the hands hold.
    fn cases(&self, hand: HandValue, drawn: u64) -> Cases {
        let (h, floor) = (hand.strength(), self.floor);
        let mut counts = Counts::cumulative(&self.all_below, h, floor);
        let mut places = [0usize; DECK_SIZE];
        let mut drawn_count = 0;
        for card in unseen(!drawn) {
            places[drawn_count] = self.place[card as usize] as usize;
            drawn_count += 1;
        }
        let places = &places[..drawn_count];
        for (i, &a) in places.iter().enumerate() {
            counts.add(Counts::cumulative(&self.single_below[a * BELOW_LEN..][..BELOW_LEN], h, floor), -1);
            for (j, &b) in places.iter().enumerate().skip(i + 1) {
                let index = pair_index(self.pool.len(), a.min(b), a.max(b));
                counts.add(Counts::of(&self.pair[index * self.pair_len..][..self.pair_len], h, floor), 1);
                for (k, &c) in places.iter().enumerate().skip(j + 1) {
                    counts.add(self.enumerated(&[a, b, c], h), -1);
                    for &d in &places[k + 1..] {
                        counts.add(self.enumerated(&[a, b, c, d], h), 1);
                    }
                }
            }
        }
        counts.cases(h, floor)
    }

    /// Counts of the dealer hands holding every card at these places (three or four), by
    /// evaluating them: few hands, rarely needed.
    fn enumerated(&self, places: &[usize], hand: u16) -> Counts {
        let mut counts = Counts::default();
        let mut codes = [self.up; 5];
        for (code, &p) in codes.iter_mut().zip(places) {
            *code = self.pool[p];
        }
        if places.len() == 4 {
            counts.count(evaluator().eval5(codes).strength(), hand, self.floor);
            return counts;
        }
        for (p, &card) in self.pool.iter().enumerate() {
            if !places.contains(&p) {
                codes[3] = card;
                counts.count(evaluator().eval5(codes).strength(), hand, self.floor);
            }
        }
        counts
    }
}

/// The place of the pair (a, b), a < b, among the pairs of `n` places in lexicographic order.
fn pair_index(n: usize, a: usize, b: usize) -> usize {
    a * (2 * n - a - 1) / 2 + (b - a - 1)
}

/// What buying the dealer's redraw is worth against one box hand (insurance aside: it
/// settles on the revealed hand whatever the box buys).
struct RedrawPrices {
    fee: Money,
    nets: Nets,
}

/// The dealer hands that do not qualify, each with the hands he may draw to if the box buys
/// his redraw: he discards his highest card and draws one of the unseen cards.
struct RedrawTable {
    /// Sorted by threshold, so the hands a box hand may buy against are a prefix.
    hands: Vec<NotQualifying>,
    /// Per hand, the weakest box hand for which buying may pay: no weaker hand buys.
    threshold: Vec<u16>,
    /// A seeded uniform sample of the hands, in the same order, and their thresholds.
    sample: Vec<NotQualifying>,
    sample_threshold: Vec<u16>,
    /// Every hand's qualifying draws' strengths, each hand's sorted, at its `start`.
    draw_strength: Vec<u16>,
    draw_card: Vec<u8>,
}

/// The draws that make a dealer qualify: the strength after the draw and the card drawn.
type Draws = Vec<(u16, u8)>;

/// One dealer hand that does not qualify.
#[derive(Clone, Copy, Debug)]
struct NotQualifying {
    /// Bits of the hidden cards.
    hidden: u64,
    /// Bits of the cards whose draw makes him qualify.
    qualifying_draws: u64,
    start: u32,
    len: u32,
}

/// Bits of the cards that may make four cards of distinct ranks better than a high card
/// without A-K: a pair, a straight, a flush, or an ace or a king. Draws of the other cards
/// need no valuing.
fn may_qualify(kept: &[u8; 4]) -> u64 {
    const RANK: u64 = 0b1111;
    let ranks = kept.iter().fold(0u32, |m, &c| m | 1 << (c >> 2));
    let mut cards = (RANK << (4 * 11)) | (RANK << (4 * 12));
    for rank in 0..13 {
        let with = ranks | 1 << rank;
        // Five ranks in a row, or the wheel A-2-3-4-5 (the ace below the two).
        let straight = (0..9).any(|low| with >> low & 0b11111 == 0b11111)
            || with & 0b1_0000_0000_1111 == 0b1_0000_0000_1111;
        if ranks & 1 << rank != 0 || straight {
            cards |= RANK << (4 * rank);
        }
    }
    if kept.iter().all(|&c| c & 3 == kept[0] & 3) {
        cards |= (0..13).fold(0u64, |m, rank| m | 1 << (4 * rank + u64::from(kept[0] & 3)));
    }
    cards
}

/// Most cards a box can draw on any path: every exchange round at its largest, and a sixth card.
fn most_drawn(profile: &Profile) -> u64 {
    let exchanges: usize = profile
        .exchange
        .as_ref()
        .map_or(0, |e| e.rounds.iter().map(|r| r.fees.keys().max().copied().unwrap_or(0)).sum());
    (exchanges + usize::from(profile.sixth_card.is_some())) as u64
}

impl RedrawTable {
    fn new(
        table: &DealerTable,
        not_qualifying: &[[u8; 4]],
        player: &Player<'_>,
        effort: Effort,
    ) -> RedrawTable {
        let profile = player.profile;
        let floor = table.floor;
        let fee = profile.dealer_redraw().and_then(|(_, p)| p.fee.of(player.ante)).unwrap_or(0);
        // Upper bounds of what a bought card can bring, for every hand up to a category.
        let nets: Vec<Nets> = Category::ALL.iter().map(|c| player.nets(c.lowest())).collect();
        let prefix_max = |of: fn(&Nets) -> Money| -> Vec<Money> {
            nets.iter()
                .scan(Money::MIN, |best, n| {
                    *best = (*best).max(of(n));
                    Some(*best)
                })
                .collect()
        };
        let won_up = prefix_max(|n| n.won);
        let other_up: Vec<Money> =
            prefix_max(|n| n.push.max(n.lost).max(n.still_not_qualified)).iter().map(|&m| m.max(0)).collect();
        let declined_least = nets.iter().map(|n| n.not_qualified).min().unwrap_or(0);
        let smallest_pool = (table.pool.len() as u64).saturating_sub(4 + most_drawn(profile)).max(1) as Money;

        // Buying may pay only if its best case beats the least a decline brings: with k of
        // the draws below the box's hand, from the least category on (monotone in both).
        let may_pay = |category: usize, wins: Money| {
            let best = -fee * smallest_pool + other_up[category] * smallest_pool + wins * won_up[category];
            best > declined_least * smallest_pool
        };
        let least_category: Vec<Option<usize>> = (0..=table.pool.len() as Money)
            .map(|wins| (0..Category::ALL.len()).find(|&category| may_pay(category, wins)))
            .collect();
        let pool_bits = table.pool.iter().fold(0u64, |m, &c| m | 1 << c);
        let per_hand: Vec<(NotQualifying, u16, Draws)> = not_qualifying
            .par_iter()
            .map(|places| {
                let hidden: [u8; 4] = places.map(|p| table.pool[p as usize]);
                let five = [hidden[0], hidden[1], hidden[2], hidden[3], table.up];
                let discard = round::dealer_discard(&five.map(|c| Card::from_code(c).expect("a deck card")));
                let mut kept = [0u8; 4];
                let others = five.iter().enumerate().filter(|&(i, _)| i != discard);
                for (slot, (_, &card)) in kept.iter_mut().zip(others) {
                    *slot = card;
                }
                let hidden_bits = hidden.iter().fold(0u64, |m, &c| m | 1 << c);
                let mut draws: Vec<(u16, u8)> = unseen(!(may_qualify(&kept) & pool_bits & !hidden_bits))
                    .map(|c| (evaluator().eval5([kept[0], kept[1], kept[2], kept[3], c]).strength(), c))
                    .filter(|&(s, _)| s >= floor)
                    .collect();
                draws.sort_unstable();
                // The weakest box hand with k wins among the draws and a category where buying
                // may pay: at least the category's floor and above the k-th weakest draw.
                let threshold = (0..=draws.len())
                    .filter_map(|k| {
                        let category = least_category[k]?;
                        let above = if k == 0 { 0 } else { draws[k - 1].0 + 1 };
                        Some(Category::ALL[category].lowest().strength().max(above))
                    })
                    .min()
                    .unwrap_or(HandValue::COUNT);
                let hand = NotQualifying {
                    hidden: hidden_bits,
                    qualifying_draws: draws.iter().fold(0, |m, &(_, c)| m | 1 << c),
                    start: 0,
                    len: draws.len() as u32,
                };
                (hand, threshold, draws)
            })
            .collect();
        let mut order: Vec<usize> = (0..per_hand.len()).collect();
        order.sort_by_key(|&i| per_hand[i].1);
        let mut built = RedrawTable {
            hands: Vec::with_capacity(order.len()),
            threshold: Vec::with_capacity(order.len()),
            sample: Vec::new(),
            sample_threshold: Vec::new(),
            draw_strength: Vec::new(),
            draw_card: Vec::new(),
        };
        for i in order {
            let (hand, threshold, draws) = &per_hand[i];
            built.hands.push(NotQualifying { start: built.draw_strength.len() as u32, ..*hand });
            built.threshold.push(*threshold);
            built.draw_strength.extend(draws.iter().map(|&(s, _)| s));
            built.draw_card.extend(draws.iter().map(|&(_, c)| c));
        }
        let mut picks: Vec<usize> = (0..built.hands.len()).collect();
        let mut rng = ChaCha20Rng::seed_from_u64(effort.seed);
        let size = effort.dealer_sample.min(picks.len());
        for i in 0..size {
            let j = i + bounded(&mut rng, (picks.len() - i) as u32) as usize;
            picks.swap(i, j);
        }
        picks.truncate(size);
        picks.sort_unstable();
        built.sample = picks.iter().map(|&i| built.hands[i]).collect();
        built.sample_threshold = picks.iter().map(|&i| built.threshold[i]).collect();
        built
    }

    /// What buying the dealer's redraw adds, summed over the non-qualifying dealer hands without
    /// any drawn card, against the best choice without it: over every hand when `exact`, else
    /// estimated from the sample (each sampled hand stands for its share of all).
    fn gain(
        &self,
        hand: HandValue,
        drawn: u64,
        prices: &RedrawPrices,
        table: &DealerTable,
        exact: bool,
    ) -> f64 {
        let (hands, threshold) =
            if exact { (&self.hands, &self.threshold) } else { (&self.sample, &self.sample_threshold) };
        let h = hand.strength();
        let nets = &prices.nets;
        let pool = (table.pool.len() - 4 - drawn.count_ones() as usize) as Money;
        let candidates = threshold.partition_point(|&t| t <= h);
        let mut gain: Money = 0;
        for hand in &hands[..candidates] {
            if hand.hidden & drawn != 0 {
                continue;
            }
            let range = hand.start as usize..(hand.start + hand.len) as usize;
            let strengths = &self.draw_strength[range.clone()];
            let (lower, equal, higher) = if hand.qualifying_draws & drawn == 0 {
                let lower = strengths.partition_point(|&s| s < h) as Money;
                let at_most = strengths.partition_point(|&s| s <= h) as Money;
                (lower, at_most - lower, strengths.len() as Money - at_most)
            } else {
                // A drawn card would have made him qualify: count the others one by one.
                let others =
                    strengths.iter().zip(&self.draw_card[range]).filter(|&(_, &c)| drawn & (1 << c) == 0);
                others.fold((0, 0, 0), |(l, e, g), (&s, _)| {
                    (l + Money::from(s < h), e + Money::from(s == h), g + Money::from(s > h))
                })
            };
            let still = pool - lower - equal - higher;
            let bought = -prices.fee * pool
                + still * nets.still_not_qualified
                + lower * nets.won
                + equal * nets.push
                + higher * nets.lost;
            gain += (bought - nets.not_qualified * pool).max(0);
        }
        gain as f64 / pool as f64 * (self.hands.len() as f64 / hands.len().max(1) as f64)
    }
}
