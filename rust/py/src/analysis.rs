//! The exact analysis for Python: `exact_analysis`.

use oasis_core::analysis::{self, AnalysisError as CoreAnalysisError, BoxPlay};
use oasis_core::profile::Money;
use pyo3::prelude::*;

use crate::background::{profile_argument, run_reporting};
use crate::errors::{to_py_err, Kind, ANALYSIS_ERROR};
use crate::json::to_python;
use crate::whole::whole;

/// The exact return of a profile whose only decision is to play or fold, under optimal
/// play, over every player hand, up card and hole-card set (docs/analysis.md).
///
/// `profile`: a Profile or a shipped profile's id. `ante`: the ante the payments are
/// computed at (default: the table's maximum, where a maximum payout cuts most). `play`: how
/// the box is bet and played (see `box_play`). `progress(done, total)` is called about five
/// times a second from this thread with the player-hand classes done (total 0 while the tables are built). The work runs on every
/// core with the GIL released; an exception in `progress`, or Ctrl-C, stops it.
#[pyfunction]
#[pyo3(signature = (profile, ante = None, play = "standard", progress = None))]
fn exact_analysis<'py>(
    profile: &Bound<'py, PyAny>,
    ante: Option<&Bound<'py, PyAny>>,
    play: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = profile.py();
    let ante: Option<Money> =
        ante.map(|ante| whole(ante, "ante", |message| ANALYSIS_ERROR.err(message))).transpose()?;
    let profile = profile_argument(profile)?;
    let play = box_play(play, &ANALYSIS_ERROR)?;
    // Refused at once, without starting the work.
    let features = analysis::unsupported_features(&analysis::counted_profile(&profile, play));
    if !features.is_empty() {
        return Err(to_py_err(CoreAnalysisError::Unsupported { profile: profile.id.clone(), features }));
    }

    let result = run_reporting(py, progress, "exact analysis", move |shared| {
        analysis::exact_analysis_with_progress(&profile, ante, play, shared)
    })?;
    let analysis = result.map_err(to_py_err)?;
    if let Some(callback) = progress {
        let total = analysis.player_classes;
        callback.call1((total, total))?;
    }
    to_python(py, &analysis)
}

/// How a box is bet and played, by name: `standard` (the least bonus stake or the privilege
/// fee, weighed in every decision as a player who bets it would), `without_bonus` (no bonus
/// bet, no privilege fee), `for_main` (the standard stake, every decision made for the main
/// game alone), `blind` (a blind box: no decision, exact analysis only).
/// `refused`: the kind of error a name that is none of them raises (the caller's).
pub(crate) fn box_play(name: &str, refused: &Kind) -> PyResult<BoxPlay> {
    BoxPlay::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = BoxPlay::ALL.iter().map(|play| play.name()).collect();
        refused.err(format!("play: {name:?} is not one of {}", names.join(", ")))
    })
}

/// The most a fixed or odds bonus returns to any player, exactly: `{"stake",
/// "return_per_stake", "jackpot_frequency"}` with the bonus kept on every hand and judged as
/// dealt (its net per unit staked, jackpot awards not included, and the share of rounds that
/// win one), or None where the profile has no such bonus or an option improves the judged
/// hand without forfeiting it. `stake`: default the least.
#[pyfunction]
#[pyo3(signature = (profile, stake = None))]
fn side_bet_bound<'py>(profile: &Bound<'py, PyAny>, stake: Option<Money>) -> PyResult<Bound<'py, PyAny>> {
    let py = profile.py();
    let profile = profile_argument(profile)?;
    let stake = stake.or_else(|| profile.bonus.as_ref().and_then(|b| b.stake_min)).unwrap_or(0);
    let bound = analysis::side_bet_bound(&profile, stake);
    to_python(py, &bound)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(exact_analysis, module)?)?;
    module.add_function(wrap_pyfunction!(side_bet_bound, module)?)?;
    Ok(())
}
