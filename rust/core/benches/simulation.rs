//! The simulation's rate for every profile file the package ships: rounds per second on every
//! core, the strategy's tables and the control variate's exact anchor built once beforehand
//! (`Simulator`); `simulate` builds them as it goes (seconds, more with exchanges).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oasis_core::analysis::BoxPlay;
use oasis_core::simulation::{SimulationOptions, Simulator};
use oasis_core::Profile;

/// Every profile file in `oasis_kiosk/profiles`, by name.
fn profiles() -> Vec<Profile> {
    let folder = format!("{}/../../oasis_kiosk/profiles", env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            Profile::from_toml(&std::fs::read_to_string(path).unwrap(), &path.display().to_string(), None)
                .unwrap()
        })
        .collect()
}

fn simulation(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulation");
    group.sample_size(10);
    for profile in profiles() {
        // A play-or-fold game plays from a table of decisions; the others value every option.
        let rounds =
            if profile.exchange.is_none() && profile.sixth_card.is_none() { 2_000_000 } else { 100_000 };
        let options = SimulationOptions { rounds, seed: [5; 32], ante: None, play: BoxPlay::Standard };
        let simulator = Simulator::new(&profile, options).unwrap();
        group.throughput(Throughput::Elements(rounds));
        group.bench_function(profile.id.as_str(), |b| b.iter(|| simulator.run(rounds, [5; 32]).house_edge));
    }
    group.finish();
}

criterion_group!(benches, simulation);
criterion_main!(benches);
