//! The Monte Carlo simulation for Python: `simulate`.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use oasis_core::profile::Money;
use oasis_core::simulation::{self, Progress, SimulationError, SimulationOptions};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::game::Profile;
use crate::seed_or_fresh;

/// How often the progress callback is called and an interrupt (Ctrl-C) is noticed.
const POLL: Duration = Duration::from_millis(200);

/// Simulates `rounds` rounds of one box of a profile, with its exchanges and purchases, played
/// by the simulation's fast near-optimal strategy (docs/simulation.md).
///
/// `profile`: a Profile or a shipped profile's id. `seed`: 32 bytes (default: a fresh one from
/// the operating system; the result's `seed` replays it). `ante`: default the table's maximum.
/// `bonus`: play the standard bonus stake where the profile has a bonus. `progress(done,
/// total)` is called about five times a second with the rounds done. The work runs on every
/// core with the GIL released; an exception in `progress`, or Ctrl-C, stops it.
#[pyfunction]
#[pyo3(signature = (profile, rounds, seed = None, ante = None, bonus = true, progress = None))]
fn simulate<'py>(
    profile: &Bound<'py, PyAny>,
    rounds: u64,
    seed: Option<&[u8]>,
    ante: Option<Money>,
    bonus: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = profile.py();
    let profile = match profile.cast::<Profile>() {
        Ok(profile) => profile.get().0.clone(),
        Err(_) => {
            let name = profile.cast::<PyString>()?;
            let loaded = py.import("oasis_kiosk.rules")?.getattr("load_profile")?.call1((name,))?;
            loaded.cast::<Profile>()?.get().0.clone()
        }
    };
    let options = SimulationOptions { rounds, seed: seed_or_fresh(seed)?, ante, bonus };
    if rounds == 0 {
        return Err(PyValueError::new_err(SimulationError::NoRounds.to_string()));
    }
    if let Some(ante) = ante.filter(|&a| !profile.allows_ante(a)) {
        return Err(PyValueError::new_err(
            SimulationError::Ante { profile: profile.id.clone(), ante }.to_string(),
        ));
    }
    let shared = Arc::new(Progress::new());
    let (sender, mut receiver) = mpsc::channel();
    let worker = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || {
            // The receiver is gone only when the caller gave up waiting.
            let _ = sender.send(simulation::simulate_with_progress(&profile, &options, &shared));
        })
    };
    let result = loop {
        let (received, back) = py.detach(move || (receiver.recv_timeout(POLL), receiver));
        receiver = back;
        match received {
            Ok(result) => break result,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the simulation stopped without a result"))
            }
        }
        let polled = py.check_signals().and_then(|()| match progress {
            Some(callback) => callback.call1(shared.get()).map(drop),
            None => Ok(()),
        });
        if let Err(error) = polled {
            shared.cancel();
            py.detach(|| worker.join()).ok();
            return Err(error);
        }
    };
    py.detach(|| worker.join()).ok();
    let result = result.map_err(|e| PyValueError::new_err(e.to_string()))?;
    if let Some(callback) = progress {
        callback.call1((result.rounds, result.rounds))?;
    }
    let text = serde_json::to_string(&result).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.getattr("loads")?.call1((text,))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(simulate, module)?)?;
    Ok(())
}
