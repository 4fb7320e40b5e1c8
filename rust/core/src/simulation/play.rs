//! The fast path of a round: the deal from a shuffled deck, the fast strategy's decisions, the
//! insurance and the dealer's redraw it buys, and the settlement as the round engine makes it,
//! with the conditional nets of the estimate and what each option taken brought.

use rand_chacha::ChaCha8Rng;

use crate::card::{Card, DECK_SIZE};
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::{BonusKind, Money, Profile, Redraw};
use crate::round::{self, Action, Outcome};
use crate::shuffle::bounded;

use super::fast::FastPlayer;
use super::stratum::{BoxView, Move, Stratum};

/// The other 51 cards, shuffled as they are drawn.
pub(super) struct Deck {
    cards: [u8; DECK_SIZE],
    next: usize,
}

impl Deck {
    pub(super) fn new(up: u8) -> Deck {
        let mut cards: [u8; DECK_SIZE] = std::array::from_fn(|c| c as u8);
        cards.swap(usize::from(up), DECK_SIZE - 1);
        Deck { cards, next: 0 }
    }

    /// The next card: Fisher–Yates one step at a time over the 51 cards below the up card.
    #[inline]
    pub(super) fn draw(&mut self, rng: &mut ChaCha8Rng) -> u8 {
        let j = self.next + bounded(rng, (DECK_SIZE - 1 - self.next) as u32) as usize;
        self.cards.swap(self.next, j);
        self.next += 1;
        self.cards[self.next - 1]
    }
}

/// The histogram slot of a box's outcome: a win by its hand's category, the others by kind.
pub(super) fn outcome_slot(outcome: Outcome, hand: HandValue) -> usize {
    match outcome {
        Outcome::Won => hand.category() as usize,
        Outcome::DealerNotQualified => NOT_QUALIFIED,
        Outcome::DealerStillNotQualified => STILL_NOT_QUALIFIED,
        Outcome::Push => PUSH,
        Outcome::Protected => PROTECTED,
        Outcome::Folded => FOLDED,
        Outcome::Lost | Outcome::Void => LOST,
    }
}

/// The bonus bet's net as a side bet of its own: a fixed or odds bonus; a progressive's is
/// counted with the jackpot instead.
pub(super) fn side_net(profile: &Profile, bonus_net: Money) -> Money {
    match profile.bonus.as_ref().map(|b| b.kind) {
        Some(BonusKind::Fixed | BonusKind::Odds) => bonus_net,
        _ => 0,
    }
}

/// How a round went, for the tallies and the engine comparison.
#[derive(Clone, Debug, Default)]
pub(super) struct RoundResult {
    pub(super) outcome_slot: usize,
    pub(super) net: Money,
    pub(super) side: Money,
    pub(super) wager: Money,
    pub(super) played: bool,
    pub(super) bonus_hit: Option<Category>,
    pub(super) jackpot_hit: Option<Category>,
    /// Card counts exchanged in each round (0 for none).
    pub(super) exchanged: [usize; 2],
    pub(super) exchange_fees: Money,
    pub(super) sixth: Option<Money>,
    pub(super) insurance: Option<(Money, Money)>,
    /// (gain over the counterfactual) of options taken.
    pub(super) exchange_gain: Money,
    pub(super) sixth_gain: Money,
    pub(super) redraw_gain: Option<Money>,
    /// The main game's net in expectation over the dealer's hole cards, given every card the
    /// player saw and every decision (a bought redraw's gain as realized): its mean is the
    /// main game's, its variance smaller.
    pub(super) conditional_net: f64,
    /// The same for the play-or-fold game on the dealt hand, whose mean the exact analysis
    /// knows: the control variate.
    pub(super) base_conditional_net: f64,
    /// The side bet's net had the dealt hand kept it (never exchanged or folded): a control
    /// variate whose mean the hand-category counts give.
    pub(super) base_side: Money,
}

/// Cards dealt and actions taken, to replay the round on the engine.
#[derive(Clone, Debug, Default)]
pub(super) struct Trace {
    pub(super) drawn: Vec<u8>,
    pub(super) actions: Vec<Action>,
}

/// The settlement-relevant state of the box at the end.
#[derive(Clone, Copy, Debug)]
pub(super) struct Finish {
    pub(super) hand: HandValue,
    pub(super) dealt: HandValue,
    pub(super) played: bool,
    pub(super) forfeited: bool,
    pub(super) insurance: Money,
    pub(super) fees: Money,
    pub(super) bought_redraw: bool,
}

/// Outcome slots: 0–10 won by category, then these.
pub(super) const NOT_QUALIFIED: usize = 11;
pub(super) const STILL_NOT_QUALIFIED: usize = 12;
pub(super) const PUSH: usize = 13;
pub(super) const PROTECTED: usize = 14;
pub(super) const FOLDED: usize = 15;
pub(super) const LOST: usize = 16;
pub(super) const SLOTS: usize = 17;

impl FastPlayer<'_> {
    /// The box's settlement as the round makes it (`round::box_result`), against the dealer's
    /// hand as he revealed it and as it is now (after a redraw): (outcome slot, box net, side
    /// bet's net).
    fn settle(
        &self,
        f: &Finish,
        (revealed, dealer_now): (HandValue, HandValue),
        jackpot: &mut Option<Category>,
        hit: &mut Option<Category>,
    ) -> (usize, Money, Money) {
        let facts = round::BoxFacts {
            hand: f.hand,
            dealt: f.dealt,
            played: f.played,
            bought_redraw: f.bought_redraw,
            ante: self.ante,
            play_bet: if f.played { self.play_bet } else { 0 },
            bonus_stake: self.bonus_stake,
            bonus_forfeited: f.forfeited,
            insurance: f.insurance,
            fees: f.fees,
        };
        let result = round::box_result(self.profile, &facts, revealed, dealer_now);
        let side = side_net(self.profile, result.bonus.net());
        *jackpot = result.jackpot.map(|w| w.category);
        *hit = (result.bonus.returned > 0).then(|| result.judged.category());
        (outcome_slot(result.outcome, f.hand), result.net, side)
    }

    /// After playing: the insurance the strategy takes (exact counts).
    fn insure(&self, cards: &[u8], discards: &[u8], up: u8, hand: HandValue) -> Money {
        let category = hand.category();
        if self.profile.insurance.as_ref().is_none_or(|i| category < i.min_category) {
            return 0;
        }
        let mut known = [0u8; 16];
        known[..cards.len()].copy_from_slice(cards);
        known[cards.len()..cards.len() + discards.len()].copy_from_slice(discards);
        let counts = self.exact_counts(&known[..cards.len() + discards.len()], up, hand.strength());
        self.insurance(category, counts).0
    }

    /// The box's net against a dealer who revealed `revealed` and holds `dealer_now`.
    fn net_against(&self, f: &Finish, revealed: HandValue, dealer_now: HandValue) -> Money {
        self.settle(f, (revealed, dealer_now), &mut None, &mut None).1
    }

    /// Whether a box that played `f` buys the dealer's redraw after he revealed `dealer`, a
    /// hand that does not qualify: the house's name for it and its fee, if the engine offers
    /// it and its mean over the dealer's draws from the cards not `seen` beats declining.
    /// Its fee and the mean gain of buying over declining are returned with it.
    fn buys_redraw(&self, f: &Finish, dealer: [u8; 5], seen: u64) -> Option<(Redraw, Money, f64)> {
        let has_bonus = self.has_bonus(f.forfeited);
        let (redraw, fee) =
            round::redraw_fee(self.profile, f.hand, self.ante, has_bonus, DECK_SIZE, None).ok()?;
        let revealed = evaluator().eval5(dealer);
        let declined = self.net_against(f, revealed, revealed);
        let bought = Finish { bought_redraw: true, fees: f.fees + fee, ..*f };
        let highest = round::dealer_discard(&dealer.map(|c| Card::from_code(c).expect("a card")));
        let (mut sum, mut n) = (0i64, 0i64);
        let mut again = dealer;
        for c in (0..DECK_SIZE as u8).filter(|c| seen & (1 << c) == 0) {
            again[highest] = c;
            sum += self.net_against(&bought, revealed, evaluator().eval5(again));
            n += 1;
        }
        (sum > declined * n).then(|| (redraw, fee, (sum - declined * n) as f64 / n as f64))
    }

    /// Plays one round with up card `stratum.up`, drawing from `deck`.
    // Long: as a round is, every step draws from one deck and trace and adds to one luck, in order.
    pub(super) fn play_round(
        &self,
        stratum: &Stratum,
        deck: &mut Deck,
        rng: &mut ChaCha8Rng,
        mut trace: Option<&mut Trace>,
    ) -> RoundResult {
        deck.next = 0;
        let up = stratum.up;
        let mut draw = |deck: &mut Deck, trace: &mut Option<&mut Trace>| {
            let card = deck.draw(rng);
            if let Some(t) = trace.as_deref_mut() {
                t.drawn.push(card);
            }
            card
        };
        let mut dealt = [0u8; 5];
        for card in dealt.iter_mut() {
            *card = draw(deck, &mut trace);
        }
        let mut dealer = [0u8; 5];
        for card in dealer[..4].iter_mut() {
            *card = draw(deck, &mut trace);
        }
        dealer[4] = up;
        let mut node = BoxView::dealt(dealt, up);
        let mut result = RoundResult::default();
        let act = |trace: &mut Option<&mut Trace>, action: Action| {
            if let Some(t) = trace.as_deref_mut() {
                t.actions.push(action);
            }
        };
        let mut fees: Money = 0;
        // What the cards the options drew, and the dealer's bought card, gave beyond their
        // mean as the strategy's tables value them: each has mean 0 given what the player had
        // seen before, so it is taken out of the conditional net.
        let mut luck = 0.0;
        let played = loop {
            match self.decide(stratum, &node) {
                Move::Fold => {
                    act(&mut trace, Action::Fold { box_index: 0 });
                    break false;
                }
                Move::Play => {
                    act(&mut trace, Action::Play { box_index: 0 });
                    break true;
                }
                Move::Exchange(mask) => {
                    let has_bonus = self.has_bonus(node.forfeited);
                    let k = mask.count_ones() as usize;
                    let fee = self.exchange_fees(node.exchanges, has_bonus)[k].expect("an offered exchange");
                    let positions: Vec<usize> = (0..5).filter(|i| mask >> i & 1 == 1).collect();
                    act(&mut trace, Action::Exchange { box_index: 0, positions: positions.clone() });
                    if self.burn {
                        draw(deck, &mut trace);
                    }
                    let mut held = [0u8; 5];
                    let kept = (0..5).filter(|i| mask >> i & 1 == 0).map(|i| node.cards[i]);
                    let h = held.iter_mut().zip(kept).map(|(slot, card)| *slot = card).count();
                    held[..h].sort_unstable();
                    for &p in &positions {
                        node.discards[node.discard_count] = node.cards[p];
                        node.discard_count += 1;
                        node.cards[p] = draw(deck, &mut trace);
                    }
                    let mut dead = [0u8; 11];
                    dead[0] = up;
                    dead[1..=node.discard_count].copy_from_slice(&node.discards[..node.discard_count]);
                    let sums = &stratum.sums[node.exchanges];
                    let mut now = [node.cards[0], node.cards[1], node.cards[2], node.cards[3], node.cards[4]];
                    now.sort_unstable();
                    luck += sums.get(&now) - sums.mean(&held[..h], &dead[..=node.discard_count]);
                    if node.exchanges < 2 {
                        result.exchanged[node.exchanges] = k;
                    }
                    node.exchanges += 1;
                    node.forfeited |= self.forfeits_on_exchange;
                    fees += fee;
                    result.exchange_fees += fee;
                }
                Move::SixthCard => {
                    let fee =
                        self.sixth_card_fee(self.has_bonus(node.forfeited)).expect("an offered sixth card");
                    act(&mut trace, Action::BuySixthCard { box_index: 0 });
                    node.cards[5] = draw(deck, &mut trace);
                    luck += Self::six_card_value(stratum, node.cards)
                        - Self::sixth_card_mean(stratum, &node.cards);
                    node.len = 6;
                    node.sixth = true;
                    fees += fee;
                    result.sixth = Some(fee);
                }
            }
        };
        let hand = node.value();
        let dealt_value = evaluator().eval5(dealt);
        let discards = &node.discards[..node.discard_count];
        let mut finish = Finish {
            hand,
            dealt: dealt_value,
            played,
            forfeited: node.forfeited,
            insurance: 0,
            fees,
            bought_redraw: false,
        };
        let has_bonus = self.has_bonus(node.forfeited);
        if played
            && self.profile.insurance.is_some()
            && round::insurance_limits(self.profile, hand, self.ante, self.play_bet, None, 0).is_ok()
        {
            finish.insurance = self.insure(&node.cards[..node.len], discards, up, hand);
            act(
                &mut trace,
                match finish.insurance {
                    0 => Action::Decline { box_index: 0 },
                    amount => Action::Insure { box_index: 0, amount },
                },
            );
        }
        let revealed = evaluator().eval5(dealer);
        let mut dealer_value = revealed;
        if played && revealed.strength() < self.qualifier && self.profile.dealer_redraw().is_some() {
            let mut seen = 0u64;
            for &c in node.cards[..node.len].iter().chain(discards).chain(&dealer) {
                seen |= 1 << c;
            }
            match self.buys_redraw(&finish, dealer, seen) {
                Some((redraw, fee, mean_gain)) => {
                    let declined = self.net_against(&finish, revealed, revealed);
                    act(
                        &mut trace,
                        match redraw {
                            Redraw::DealerCard => Action::BuyDealerCard { box_index: 0 },
                            Redraw::Game => Action::BuyGame { box_index: 0 },
                        },
                    );
                    let highest = round::dealer_discard(&dealer.map(|c| Card::from_code(c).expect("a card")));
                    dealer[highest] = draw(deck, &mut trace);
                    dealer_value = evaluator().eval5(dealer);
                    finish.bought_redraw = true;
                    finish.fees += fee;
                    let gain = self.net_against(&finish, revealed, dealer_value) - declined;
                    result.redraw_gain = Some(gain);
                    luck += gain as f64 - mean_gain;
                }
                None => {
                    if round::redraw_fee(self.profile, hand, self.ante, has_bonus, DECK_SIZE, None).is_ok() {
                        act(&mut trace, Action::Decline { box_index: 0 });
                    }
                }
            }
        }
        let (slot, net, side) =
            self.settle(&finish, (revealed, dealer_value), &mut result.jackpot_hit, &mut result.bonus_hit);
        let mut known = [0u8; 16];
        let seen = node.known(&mut known);
        (result.conditional_net, result.base_conditional_net) =
            self.conditional_nets(&finish, net - side, &known[..seen], (&dealt, up, revealed));
        result.conditional_net -= luck;
        if self.profile.bonus.as_ref().is_some_and(|b| b.kind != BonusKind::Privilege) {
            result.base_side = self.bonus_net(false, false, dealt_value.category());
        }
        result.outcome_slot = slot;
        result.net = net;
        result.side = side;
        result.played = played;
        result.wager = self.ante
            + if played { self.play_bet } else { 0 }
            + finish.insurance
            + finish.fees
            + match self.profile.bonus.as_ref().map(|b| b.kind) {
                Some(BonusKind::Privilege) => self.bonus_stake,
                _ => 0,
            };
        if finish.insurance > 0 {
            let won = round::insurance_bet(
                finish.insurance,
                revealed.strength() >= self.qualifier,
                hand > revealed,
            );
            result.insurance = Some((finish.insurance, won.net()));
        }
        if node.exchanges > 0 || node.sixth {
            // What the box would have had without the exchange or the card: the dealt hand,
            // played or folded by the strategy, insured and buying the dealer's redraw as it
            // would, the redraw then being the next card of the same deck.
            let first = BoxView::dealt(dealt, up);
            let plays = matches!(self.decide_without_options(stratum, &first), Move::Play);
            let mut base = Finish {
                hand: dealt_value,
                dealt: dealt_value,
                played: plays,
                forfeited: false,
                insurance: 0,
                fees: 0,
                bought_redraw: false,
            };
            if plays
                && self.profile.insurance.is_some()
                && round::insurance_limits(self.profile, dealt_value, self.ante, self.play_bet, None, 0)
                    .is_ok()
            {
                base.insurance = self.insure(&dealt, &[], up, dealt_value);
            }
            let mut dealt_dealer = dealer_as_dealt(deck, up);
            let revealed_as_dealt = evaluator().eval5(dealt_dealer);
            let mut dealer_then = revealed_as_dealt;
            if plays && revealed_as_dealt.strength() < self.qualifier {
                let seen = dealt.iter().chain(&dealt_dealer).fold(0u64, |m, &c| m | 1 << c);
                if let Some((_, fee, _)) = self.buys_redraw(&base, dealt_dealer, seen) {
                    let highest =
                        round::dealer_discard(&dealt_dealer.map(|c| Card::from_code(c).expect("a card")));
                    dealt_dealer[highest] = deck.cards[DEALT_CARDS];
                    dealer_then = evaluator().eval5(dealt_dealer);
                    base.bought_redraw = true;
                    base.fees += fee;
                }
            }
            let without = self.net_against(&base, revealed_as_dealt, dealer_then);
            if node.sixth {
                result.sixth_gain = net - without;
            } else {
                result.exchange_gain = net - without;
            }
        }
        result
    }

    /// Play or fold only (for the counterfactual of an option taken).
    fn decide_without_options(&self, stratum: &Stratum, node: &BoxView) -> Move {
        let hand = node.value();
        let judged = self.judged(node.dealt, hand.category());
        let fold = -self.ante + self.weighed_bonus(false, true, judged);
        let mut known = [0u8; 16];
        let n = node.known(&mut known);
        let counts = self.exact_counts(&known[..n], stratum.up, hand.strength());
        let total = i128::from(counts.total());
        let play = self.play_total(hand.strength(), counts)
            + total * i128::from(self.weighed_bonus(false, false, judged));
        if play >= total * i128::from(fold) {
            Move::Play
        } else {
            Move::Fold
        }
    }
}

/// Cards dealt before the first card an option draws: the box's five and the dealer's four.
const DEALT_CARDS: usize = 9;

/// The dealer's five cards as dealt, before a bought card replaced his highest: the deck's
/// draws 5 to 8 and the up card.
fn dealer_as_dealt(deck: &Deck, up: u8) -> [u8; 5] {
    [deck.cards[5], deck.cards[6], deck.cards[7], deck.cards[8], up]
}
