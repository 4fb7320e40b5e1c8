//! Shuffle and deal: a fresh deck per round, as the terminal deals.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oasis_core::Shoe;

fn shuffle(c: &mut Criterion) {
    let mut group = c.benchmark_group("shuffle");
    group.throughput(Throughput::Elements(1));
    let mut seed = [0u8; 32];
    let mut round = 0u64;
    group.bench_function("seeded_shuffle_and_deal_10", |b| {
        b.iter(|| {
            round += 1;
            seed[..8].copy_from_slice(&round.to_le_bytes());
            let mut shoe = Shoe::new(seed);
            shoe.deal(10).unwrap()[9]
        })
    });
    group.bench_function("os_seeded_shuffle_and_deal_10", |b| {
        b.iter(|| Shoe::from_os().unwrap().deal(10).unwrap()[9])
    });
    group.finish();
}

criterion_group!(benches, shuffle);
criterion_main!(benches);
