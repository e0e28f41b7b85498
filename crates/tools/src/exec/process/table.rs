//! The background process table: each entry's command, pid, status and captured output (a ring
//! buffer per stream), a supervising task per process, and the kill of every process still
//! running when the table is dropped.

use crate::error::{ErrorKind, ToolError};
use crate::exec::kill::kill_group;
use crate::exec::ring::{Ring, Taken};
use crate::exec::run::supervise;
use crate::exec::{lock, unknown_id};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::process::Child;
use tokio::sync::Notify;

/// Bytes of output kept per stream and process.
pub(crate) const RING_CAPACITY: usize = 1024 * 1024;
/// Processes the table holds (running or finished); finished ones are forgotten first.
pub(crate) const MAX_PROCESSES: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Running,
    Exited {
        code: Option<i32>,
        signal: Option<i32>,
    },
    /// Killed by `stop` (`"stopped"`) or by its time limit (`"timeout"`).
    Killed {
        reason: &'static str,
    },
}

#[derive(Debug)]
struct State {
    status: Status,
    stdout: Ring,
    stderr: Ring,
    stop_requested: bool,
}

/// One background process.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) id: String,
    pub(crate) command: String,
    pub(crate) pid: u32,
    started: Instant,
    state: Mutex<State>,
    finished: Notify,
}

impl Entry {
    pub(crate) fn status(&self) -> Status {
        lock(&self.state).status
    }

    /// A one-line description for `list`.
    pub(crate) fn summary(&self) -> Value {
        let mut value = json!({
            "process_id": self.id,
            "command": self.command,
            "pid": self.pid,
            "runtime_ms": u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
        add_status(&mut value, self.status());
        value
    }

    /// Output written since the last call: (stdout, stderr).
    pub(crate) fn take_output(&self) -> (Taken, Taken) {
        let mut state = lock(&self.state);
        let running = state.status == Status::Running;
        (
            state.stdout.take_new(running),
            state.stderr.take_new(running),
        )
    }

    /// Kills the process group (if still running) and waits up to `wait` for the supervisor to
    /// record the end. Returns false when it was not running.
    pub(crate) async fn stop(&self, wait: Duration) -> bool {
        let finished = self.finished.notified();
        {
            let mut state = lock(&self.state);
            if state.status != Status::Running {
                return false;
            }
            state.stop_requested = true;
            kill_group(self.pid);
        }
        let _ = tokio::time::timeout(wait, finished).await;
        true
    }
}

/// `status` (`running`, `exited`, `killed`) with `exit_code`, `signal` or `reason`.
pub(crate) fn add_status(value: &mut Value, status: Status) {
    match status {
        Status::Running => value["status"] = json!("running"),
        Status::Exited { code, signal } => {
            value["status"] = json!("exited");
            value["exit_code"] = json!(code);
            if let Some(signal) = signal {
                value["signal"] = json!(signal);
            }
        }
        Status::Killed { reason } => {
            value["status"] = json!("killed");
            value["reason"] = json!(reason);
        }
    }
}

/// Background processes; they are killed when the table is dropped or by [`Table::kill_all`].
#[derive(Debug, Default)]
pub(crate) struct Table {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    next: u64,
    entries: BTreeMap<u64, Arc<Entry>>,
}

impl Table {
    /// Adds a spawned child and starts supervising it (time limit `limit`).
    pub(crate) fn insert(
        &self,
        command: String,
        child: Child,
        limit: Duration,
    ) -> Result<Arc<Entry>, ToolError> {
        let Some(pid) = child.id() else {
            return Err(ToolError::internal(
                "the process ended before it was recorded",
            ));
        };
        let mut inner = lock(&self.inner);
        if inner.entries.len() >= MAX_PROCESSES {
            let oldest_finished = inner
                .entries
                .iter()
                .find(|(_, entry)| entry.status() != Status::Running)
                .map(|(key, _)| *key);
            match oldest_finished {
                Some(key) => {
                    inner.entries.remove(&key);
                }
                None => {
                    kill_group(pid);
                    return Err(ToolError::new(
                        ErrorKind::TooLarge,
                        format!("{MAX_PROCESSES} background processes are running; stop one first"),
                    ));
                }
            }
        }
        inner.next += 1;
        let key = inner.next;
        let entry = Arc::new(Entry {
            id: format!("proc-{key}"),
            command,
            pid,
            started: Instant::now(),
            state: Mutex::new(State {
                status: Status::Running,
                stdout: Ring::new(RING_CAPACITY),
                stderr: Ring::new(RING_CAPACITY),
                stop_requested: false,
            }),
            finished: Notify::new(),
        });
        inner.entries.insert(key, entry.clone());
        tokio::spawn(watch(entry.clone(), child, limit));
        Ok(entry)
    }

    /// Kills every running process group; returns how many were running.
    pub(crate) fn kill_all(&self) -> usize {
        let mut killed = 0;
        for entry in lock(&self.inner).entries.values() {
            let mut state = lock(&entry.state);
            if state.status == Status::Running {
                state.stop_requested = true;
                kill_group(entry.pid);
                killed += 1;
            }
        }
        killed
    }

    pub(crate) fn list(&self) -> Vec<Arc<Entry>> {
        lock(&self.inner).entries.values().cloned().collect()
    }

    /// The entry called `id`, or `not_found` naming the known ones.
    pub(crate) fn get(&self, id: &str) -> Result<Arc<Entry>, ToolError> {
        let inner = lock(&self.inner);
        if let Some(entry) = inner.entries.values().find(|entry| entry.id == id) {
            return Ok(entry.clone());
        }
        let known: Vec<&str> = inner.entries.values().map(|e| e.id.as_str()).collect();
        Err(unknown_id(
            "process",
            "known processes",
            id,
            &known,
            "process_id",
        ))
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.kill_all();
    }
}

/// Supervises one process: fills its rings, enforces its limit, records how it ended.
async fn watch(entry: Arc<Entry>, child: Child, limit: Duration) {
    let sink = |pick: fn(&mut State) -> &mut Ring| {
        let entry = entry.clone();
        move |data: &[u8]| pick(&mut lock(&entry.state)).push(data)
    };
    let outcome = supervise(
        child,
        limit,
        sink(|state| &mut state.stdout),
        sink(|state| &mut state.stderr),
    )
    .await;
    let mut state = lock(&entry.state);
    state.status = match outcome {
        Ok(outcome) if outcome.timed_out => Status::Killed { reason: "timeout" },
        _ if state.stop_requested => Status::Killed { reason: "stopped" },
        Ok(outcome) => Status::Exited {
            code: outcome.status.code(),
            signal: outcome.status.signal(),
        },
        Err(error) => {
            tracing::warn!(%error, process = %entry.id, "background process supervision failed");
            Status::Exited {
                code: None,
                signal: None,
            }
        }
    };
    drop(state);
    entry.finished.notify_waiters();
}
