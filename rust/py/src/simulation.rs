//! The Monte Carlo simulation for Python: `simulate`.

use oasis_core::profile::Money;
use oasis_core::simulation::{self, SimulationError, SimulationOptions};
use pyo3::prelude::*;

use crate::analysis::box_play;
use crate::background::{profile_argument, run_reporting};
use crate::errors::{to_py_err, SIMULATION_ERROR};
use crate::json::to_python;
use crate::seed_or_fresh;
use crate::whole::whole;

/// Simulates `rounds` rounds of one box of a profile, with its exchanges and purchases, played
/// by the simulation's fast near-optimal strategy (docs/simulation.md).
///
/// `profile`: a Profile or a shipped profile's id. `seed`: 32 bytes (default: a fresh one from
/// the operating system; the result's `seed` replays it). `ante`: default the table's maximum.
/// `play`: how the box is bet and played (`standard`, `without_bonus`, `for_main`: see
/// `exact_analysis`). `progress(done,
/// total)` is called about five times a second with the rounds done. The work runs on every
/// core with the GIL released; an exception in `progress`, or Ctrl-C, stops it.
#[pyfunction]
#[pyo3(signature = (profile, rounds, seed = None, ante = None, play = "standard", progress = None))]
fn simulate<'py>(
    profile: &Bound<'py, PyAny>,
    rounds: &Bound<'py, PyAny>,
    seed: Option<&[u8]>,
    ante: Option<&Bound<'py, PyAny>>,
    play: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = profile.py();
    let refused = |message: String| SIMULATION_ERROR.err(message);
    let rounds: u64 = whole(rounds, "rounds", refused)?;
    let ante: Option<Money> = ante.map(|ante| whole(ante, "ante", refused)).transpose()?;
    let profile = profile_argument(profile)?;
    let options = SimulationOptions {
        rounds,
        seed: seed_or_fresh(seed)?,
        ante,
        play: box_play(play, &SIMULATION_ERROR)?,
    };
    if rounds == 0 {
        return Err(to_py_err(SimulationError::NoRounds));
    }
    if let Some(ante) = ante.filter(|&a| !profile.allows_ante(a)) {
        return Err(to_py_err(SimulationError::Ante { profile: profile.id.clone(), ante }));
    }
    let result = run_reporting(py, progress, "simulation", move |shared| {
        simulation::simulate_with_progress(&profile, &options, shared)
    })?;
    let result = result.map_err(to_py_err)?;
    if let Some(callback) = progress {
        callback.call1((result.rounds, result.rounds))?;
    }
    to_python(py, &result)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(simulate, module)?)?;
    module.add("MIN_ROUNDS", simulation::MIN_ROUNDS)?;
    Ok(())
}
