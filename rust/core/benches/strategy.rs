//! Advice for one typical hand: every choice valued, the best one picked.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use oasis_core::strategy::advise;
use oasis_core::{parse_cards, Profile, Round};

/// A shipped profile, without the tables named in `without`.
fn profile(id: &str, without: &[&str]) -> Arc<Profile> {
    let path = format!("{}/../../oasis_kiosk/profiles/{id}.toml", env!("CARGO_MANIFEST_DIR"));
    let mut table: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    for name in without {
        table.remove(*name);
    }
    Arc::new(Profile::from_toml(&table.to_string(), id, None).unwrap())
}

/// A no-pair hand with an ace and a four-flush against a queen: every choice is close.
const DEAL: &str = "Ah Jh 8h 5h 3c  2d 9s Tc 6d Qc";

fn strategy(c: &mut Criterion) {
    let mut group = c.benchmark_group("strategy");
    group.sample_size(20);
    let cases = [
        ("czech_exchange", profile("czech-exchange", &[])),
        ("czech_exchange_without_dealer_card", profile("czech-exchange", &["buy_dealer_card"])),
        ("czech_no_exchange", profile("czech", &[])),
    ];
    for (name, profile) in cases {
        let round = Round::stacked(profile, &[2000], &[], &parse_cards(DEAL).unwrap(), None).unwrap();
        group.bench_function(name, |b| b.iter(|| advise(&round, 0).unwrap().best().ev));
    }
    group.finish();
}

criterion_group!(benches, strategy);
criterion_main!(benches);
