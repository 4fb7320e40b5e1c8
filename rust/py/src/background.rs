//! Long work for Python (the exact analysis, a simulation): on a thread of its own with the
//! GIL released, reporting progress and honouring Ctrl-C.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use oasis_core::Progress;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::game::Profile;

/// How often the progress callback is called and an interrupt (Ctrl-C) is noticed.
const POLL: Duration = Duration::from_millis(200);

/// A Profile, or a shipped profile's id loaded by `oasis_kiosk.rules.load_profile`.
pub(crate) fn profile_argument(profile: &Bound<'_, PyAny>) -> PyResult<Arc<oasis_core::Profile>> {
    if let Ok(profile) = profile.cast::<Profile>() {
        return Ok(profile.get().0.clone());
    }
    let name = profile.cast::<PyString>()?;
    let loaded = profile.py().import("oasis_kiosk.rules")?.getattr("load_profile")?.call1((name,))?;
    Ok(loaded.cast::<Profile>()?.get().0.clone())
}

/// Runs `work` on its own thread while this one waits with the GIL released, calling
/// `progress(done, total)` about five times a second. An exception from `progress`, or
/// Ctrl-C, cancels the work and is raised once it has stopped. `what` names the work in the
/// error raised if it ends without a result.
pub(crate) fn run_reporting<T: Send + 'static>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    what: &str,
    work: impl FnOnce(&Progress) -> T + Send + 'static,
) -> PyResult<T> {
    let shared = Arc::new(Progress::new());
    let (sender, mut receiver) = mpsc::channel();
    let worker = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || {
            // The receiver is gone only when the caller gave up waiting.
            let _ = sender.send(work(&shared));
        })
    };
    let result = loop {
        let (received, back) = py.detach(move || (receiver.recv_timeout(POLL), receiver));
        receiver = back;
        match received {
            Ok(result) => break result,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Err(crate::errors::worker_stopped(what)),
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
    Ok(result)
}
