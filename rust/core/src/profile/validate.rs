//! A profile's validation: complete and consistent, or the field and the reason.

use super::*;

impl Profile {
    pub(super) fn validate(&self) -> Result<(), (String, String)> {
        self.validate_table()?;
        self.validate_game()?;
        self.validate_boxes()?;
        if let Some(exchange) = &self.exchange {
            self.validate_exchange(exchange)?;
        }
        if let Some(bonus) = &self.bonus {
            self.validate_bonus(bonus)?;
        }
        self.validate_purchases()?;
        if let Some(insurance) = &self.insurance {
            if insurance.min_category < self.game.qualifier {
                return Err((
                    "insurance.min_category".into(),
                    "an insured hand must have a paytable row: at least the qualifier".into(),
                ));
            }
        }
        if let Some(protection) = &self.protection {
            self.validate_protection(protection)?;
        }
        Ok(())
    }

    /// The currency, the ante ladder and the largest payout.
    fn validate_table(&self) -> Result<(), (String, String)> {
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
        Ok(())
    }

    /// The play bet, and a paytable row for exactly the hands that can beat a qualifying dealer.
    fn validate_game(&self) -> Result<(), (String, String)> {
        let fail = |field: &str, reason: String| Err((field.to_string(), reason));
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
        Ok(())
    }

    /// The purchases (the sixth card, buying the game, buying the dealer's card): their fees,
    /// the bonus bet they may need, and which of them go together.
    fn validate_purchases(&self) -> Result<(), (String, String)> {
        let fail = |field: &str, reason: String| Err((field.to_string(), reason));
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
        Ok(())
    }

    fn validate_protection(&self, protection: &Protection) -> Result<(), (String, String)> {
        let fail = |field: &str, reason: String| Err((field.to_string(), reason));
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
        if price > Ratio::whole(most) {
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
