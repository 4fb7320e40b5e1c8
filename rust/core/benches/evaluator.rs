//! Evaluator throughput: random 5-, 6- and 7-card hands, and every five-card hand.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use oasis_core::shuffle::shuffled_deck;
use oasis_core::{evaluator, Shoe};

/// Hands per random batch: large enough that branch predictors cannot learn the batch.
const HANDS: usize = 1 << 20;

fn random_hands<const N: usize>() -> Vec<[u8; N]> {
    let mut shoe_seed = [0u8; 32];
    (0..HANDS)
        .map(|i| {
            shoe_seed[..8].copy_from_slice(&(i as u64).to_le_bytes());
            let deck = shuffled_deck(&shoe_seed);
            std::array::from_fn(|k| deck[k].code())
        })
        .collect()
}

fn random(c: &mut Criterion) {
    let table = evaluator();
    let mut group = c.benchmark_group("random");
    group.throughput(Throughput::Elements(HANDS as u64));
    let five = random_hands::<5>();
    group.bench_function(BenchmarkId::new("eval", 5), |b| {
        b.iter(|| five.iter().map(|&h| u64::from(table.eval5(h).strength())).sum::<u64>())
    });
    let six = random_hands::<6>();
    group.bench_function(BenchmarkId::new("eval", 6), |b| {
        b.iter(|| six.iter().map(|&h| u64::from(table.eval6(h).strength())).sum::<u64>())
    });
    let seven = random_hands::<7>();
    group.bench_function(BenchmarkId::new("eval", 7), |b| {
        b.iter(|| seven.iter().map(|&h| u64::from(table.eval7(h).strength())).sum::<u64>())
    });
    let flat: Vec<u8> = five.iter().flatten().copied().collect();
    let mut out = vec![0u32; HANDS];
    group.bench_function(BenchmarkId::new("batch_checked", 5), |b| {
        b.iter(|| table.evaluate_batch_into(black_box(&flat), 5, &mut out).unwrap())
    });
    group.finish();
}

/// Sums the strengths of every hand of the listed cards, as nested loops: the compiler
/// keeps the outer cards' share of the key out of the inner loop, as an exhaustive
/// analysis would.
macro_rules! every_hand {
    ($eval:expr; $first:ident $(, $card:ident)*) => {{
        let mut sum = 0u64;
        every_hand!(@loop sum, $eval, 0u8, [] ; $first $(, $card)*);
        sum
    }};
    (@loop $sum:ident, $eval:expr, $from:expr, [$($held:ident),*] ; $card:ident $(, $rest:ident)*) => {
        for $card in $from..52u8 {
            every_hand!(@loop $sum, $eval, $card + 1, [$($held,)* $card] ; $($rest),*);
        }
    };
    (@loop $sum:ident, $eval:expr, $from:expr, [$($held:ident),*] ; ) => {
        $sum += u64::from($eval([$($held),*]).strength());
    };
}

fn exhaustive(c: &mut Criterion) {
    let table = evaluator();
    let mut group = c.benchmark_group("exhaustive");
    group.sample_size(10);
    group.throughput(Throughput::Elements(2_598_960));
    group.bench_function(BenchmarkId::new("eval", 5), |b| {
        b.iter(|| every_hand!(|h| table.eval5(h); c0, c1, c2, c3, c4))
    });
    group.throughput(Throughput::Elements(20_358_520));
    group.bench_function(BenchmarkId::new("eval", 6), |b| {
        b.iter(|| every_hand!(|h| table.eval6(h); c0, c1, c2, c3, c4, c5))
    });
    group.throughput(Throughput::Elements(133_784_560));
    group.bench_function(BenchmarkId::new("eval", 7), |b| {
        b.iter(|| every_hand!(|h| table.eval7(h); c0, c1, c2, c3, c4, c5, c6))
    });
    group.finish();
}

fn build(c: &mut Criterion) {
    // Building every table from nothing, as the first evaluation in a process does.
    let mut group = c.benchmark_group("tables");
    group.sample_size(10);
    group.bench_function("build", |b| b.iter(oasis_core::Evaluator::build_tables));
    group.finish();
    black_box(Shoe::new([0; 32]));
}

criterion_group!(benches, random, exhaustive, build);
criterion_main!(benches);
