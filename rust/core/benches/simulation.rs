//! The simulation's rate: rounds per second on every core, the strategy's tables built once
//! beforehand (`Simulator`); `simulate` builds them per up card as it goes (about 2 s for
//! caribbean, more with exchanges).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oasis_core::simulation::{SimulationOptions, Simulator};
use oasis_core::Profile;

fn profile(id: &str) -> Profile {
    let path = format!("{}/../../oasis_kiosk/profiles/{id}.toml", env!("CARGO_MANIFEST_DIR"));
    Profile::from_toml(&std::fs::read_to_string(path).unwrap(), id, None).unwrap()
}

fn simulation(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulation");
    group.sample_size(10);
    // The play-or-fold game, and a game with a one-card exchange and the bonus bet.
    for (id, rounds) in [("caribbean", 4_000_000u64), ("standard", 200_000)] {
        let profile = profile(id);
        let options = SimulationOptions { rounds, seed: [5; 32], ante: None, bonus: true };
        let simulator = Simulator::new(&profile, options).unwrap();
        group.throughput(Throughput::Elements(rounds));
        group.bench_function(id, |b| b.iter(|| simulator.run(rounds, [5; 32]).house_edge));
    }
    group.finish();
}

criterion_group!(benches, simulation);
criterion_main!(benches);
