//! The table of terminal sessions: opening one (within the session limit), finding one by id,
//! forgetting a killed one, watching one's output live and typing into it (the desktop's
//! terminal view) and killing them all (app exit). Clones share the table.

use super::session::{Session, TerminalFeed};
use crate::error::{ErrorKind, ToolError};
use crate::exec::kill::kill_session;
use crate::exec::{lock, unknown_id};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Sessions one table holds (running or exited); exited ones are forgotten first.
pub(crate) const MAX_SESSIONS: usize = 16;

/// The terminal sessions of the `pty` tool; every clone sees the same sessions.
#[derive(Clone, Default)]
pub struct Terminals {
    inner: Arc<Mutex<Sessions>>,
}

#[derive(Default)]
struct Sessions {
    next: u64,
    open: BTreeMap<u64, Arc<Session>>,
}

impl Terminals {
    /// Adds the session `start` makes from the next id (`pty-N`), forgetting an exited session
    /// when the table is full; `too_large` when every session is still running.
    pub(crate) fn open(
        &self,
        start: impl FnOnce(String) -> Result<Session, ToolError>,
    ) -> Result<Arc<Session>, ToolError> {
        let mut sessions = lock(&self.inner);
        if sessions.open.len() >= MAX_SESSIONS {
            let exited = sessions
                .open
                .iter()
                .find(|(_, s)| s.status()["status"] != "running")
                .map(|(key, _)| *key);
            match exited {
                Some(key) => drop(sessions.open.remove(&key)),
                None => {
                    return Err(ToolError::new(
                        ErrorKind::TooLarge,
                        format!("{MAX_SESSIONS} terminal sessions are open; kill one first"),
                    ))
                }
            }
        }
        sessions.next += 1;
        let key = sessions.next;
        let session = Arc::new(start(format!("pty-{key}"))?);
        sessions.open.insert(key, session.clone());
        Ok(session)
    }

    pub(crate) fn all(&self) -> Vec<Arc<Session>> {
        lock(&self.inner).open.values().cloned().collect()
    }

    /// The session called `id`, or `not_found` naming the open ones.
    pub(crate) fn get(&self, id: &str) -> Result<Arc<Session>, ToolError> {
        let sessions = lock(&self.inner);
        if let Some(session) = sessions.open.values().find(|s| s.id == id) {
            return Ok(session.clone());
        }
        let known: Vec<&str> = sessions.open.values().map(|s| s.id.as_str()).collect();
        Err(unknown_id(
            "terminal session",
            "open sessions",
            id,
            &known,
            "session_id",
        ))
    }

    pub(crate) fn forget(&self, session: &Arc<Session>) {
        lock(&self.inner)
            .open
            .retain(|_, s| !Arc::ptr_eq(s, session));
    }

    /// Watches the session `id`: its screen as it looks now, then its output as it arrives.
    /// `None` when no such session is open.
    pub fn watch(&self, id: &str) -> Option<TerminalFeed> {
        self.get(id).ok().map(|session| session.watch())
    }

    /// Types `input` into the session `id` as keys would (the desktop's terminal view): text,
    /// `\r` for Enter, `\u{7f}` for Backspace, `\u{3}` for Ctrl-C, escape sequences for arrows.
    /// Returns the bytes written; `not_found` when no such session is open.
    pub async fn write(&self, id: &str, input: String) -> Result<usize, ToolError> {
        let session = self.get(id)?;
        session.write(input).await
    }

    /// Kills every session and the programs in it; returns how many there were.
    pub fn kill_all(&self) -> usize {
        let sessions = std::mem::take(&mut lock(&self.inner).open);
        for session in sessions.values() {
            kill_session(session.pid);
        }
        sessions.len()
    }
}
