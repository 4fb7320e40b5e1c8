//! The exact analysis for Python: `exact_analysis`.

use oasis_core::analysis::{self, AnalysisError as CoreAnalysisError};
use oasis_core::profile::Money;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::background::{profile_argument, run_reporting};

pyo3::create_exception!(
    oasis_kiosk._core,
    AnalysisError,
    PyValueError,
    "A profile or ante the exact analysis does not cover."
);

fn analysis_error(error: CoreAnalysisError) -> PyErr {
    AnalysisError::new_err(error.to_string())
}

/// The exact return of a profile whose only decision is to play or fold, under optimal
/// play, over every player hand, up card and hole-card set (docs/analysis.md).
///
/// `profile`: a Profile or a shipped profile's id. `ante`: the ante the payments are
/// computed at (default: the table's maximum, where a maximum payout cuts most).
/// `progress(done, total)` is called about five times a second from this thread with the
/// player-hand classes done (total 0 while the tables are built). The work runs on every
/// core with the GIL released; an exception in `progress`, or Ctrl-C, stops it.
#[pyfunction]
#[pyo3(signature = (profile, ante = None, progress = None))]
fn exact_analysis<'py>(
    profile: &Bound<'py, PyAny>,
    ante: Option<Money>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = profile.py();
    let profile = profile_argument(profile)?;
    // Refused at once, without starting the work.
    let features = analysis::unsupported_features(&profile);
    if !features.is_empty() {
        return Err(analysis_error(CoreAnalysisError::Unsupported { profile: profile.id.clone(), features }));
    }

    let result = run_reporting(py, progress, "exact analysis", move |shared| {
        analysis::exact_analysis_with_progress(&profile, ante, shared)
    })?;
    let analysis = result.map_err(analysis_error)?;
    if let Some(callback) = progress {
        let total = analysis.player_classes;
        callback.call1((total, total))?;
    }
    let text = serde_json::to_string(&analysis).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.getattr("loads")?.call1((text,))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(exact_analysis, module)?)?;
    module.add("AnalysisError", module.py().get_type::<AnalysisError>())?;
    Ok(())
}
