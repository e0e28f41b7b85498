//! The long-lived registry of running turns, shared by every engine a front end builds: at most
//! one turn per session (claimed in the store as well, so the app and `hearth-cli` cannot run
//! one session at once), each entry owning its turn's cancel token and released when its guard
//! drops — also when the turn panics or its future is dropped.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use hearth_store::Store;
use tokio_util::sync::CancellationToken;

use crate::EngineError;

/// Running turns by session id.
pub struct Turns {
    store: Arc<Store>,
    running: Mutex<HashMap<String, CancellationToken>>,
}

/// A claimed session; dropping it ends the claim.
#[must_use = "the session is released when the guard drops"]
pub struct TurnGuard {
    turns: Arc<Turns>,
    session_id: String,
}

impl Turns {
    pub fn new(store: Arc<Store>) -> Arc<Turns> {
        Arc::new(Turns {
            store,
            running: Mutex::new(HashMap::new()),
        })
    }

    /// Claims `session_id` for a turn cancelled by `cancel`, or says who already runs one.
    pub fn begin(
        self: &Arc<Self>,
        session_id: &str,
        cancel: CancellationToken,
    ) -> Result<TurnGuard, EngineError> {
        let mut running = self.lock();
        if running.contains_key(session_id) {
            return Err(EngineError::Busy(session_id.to_string()));
        }
        if !self.store.claim_turn(session_id)? {
            return Err(EngineError::BusyElsewhere(session_id.to_string()));
        }
        running.insert(session_id.to_string(), cancel);
        Ok(TurnGuard {
            turns: Arc::clone(self),
            session_id: session_id.to_string(),
        })
    }

    /// Cancels the running turn of `session_id`; false when none runs here.
    pub fn cancel(&self, session_id: &str) -> bool {
        self.lock()
            .get(session_id)
            .map(CancellationToken::cancel)
            .is_some()
    }

    /// How many turns run now.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    /// Whether a turn runs in `session_id` here.
    pub fn is_running(&self, session_id: &str) -> bool {
        self.lock().contains_key(session_id)
    }

    /// A panic while the map was held cannot leave it half-changed (each change is one call).
    fn lock(&self) -> MutexGuard<'_, HashMap<String, CancellationToken>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for TurnGuard {
    fn drop(&mut self) {
        self.turns.lock().remove(&self.session_id);
        if let Err(error) = self.turns.store.release_turn(&self.session_id) {
            tracing::warn!(%error, session = %self.session_id, "turn claim not released");
        }
    }
}
