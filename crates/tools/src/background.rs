//! The work the execution tools leave running — `process` children and `pty` sessions — in one
//! handle that outlives any registry built on it (so a settings change keeps them), lets the
//! desktop watch terminal sessions, and stops everything at once when the app exits.

#[cfg(unix)]
use crate::exec::{ProcessTable, Terminals};
#[cfg(unix)]
use std::sync::Arc;

/// Background processes and terminal sessions; clones share them.
#[derive(Clone, Default)]
pub struct Background {
    #[cfg(unix)]
    processes: Arc<ProcessTable>,
    #[cfg(unix)]
    terminals: Terminals,
}

impl Background {
    pub fn new() -> Self {
        Self::default()
    }

    /// Kills every background process group and terminal session (app exit); returns how many
    /// were still there.
    pub fn shutdown(&self) -> usize {
        #[cfg(unix)]
        {
            self.processes.kill_all() + self.terminals.kill_all()
        }
        #[cfg(not(unix))]
        {
            0
        }
    }

    /// The `pty` sessions, for watching them.
    #[cfg(unix)]
    pub fn terminals(&self) -> &Terminals {
        &self.terminals
    }

    #[cfg(unix)]
    pub(crate) fn process_tool(&self) -> crate::exec::Process {
        crate::exec::Process::on(self.processes.clone())
    }

    #[cfg(unix)]
    pub(crate) fn pty_tool(&self) -> crate::exec::Pty {
        crate::exec::Pty::on(self.terminals.clone())
    }
}
