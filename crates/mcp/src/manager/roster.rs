//! Changing the servers while Hearth runs: [`McpManager::apply`] brings the running servers in
//! line with new settings (a server whose connection settings are unchanged keeps running and
//! only what it offers changes; a changed, enabled or disabled one is replaced; a removed one
//! is shut down), and [`McpManager::restart`] replaces one server with a fresh start.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use hearth_protocol::McpServerSettings;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::McpManager;
use crate::config::{resolve, same_connection, ConfigError, Offer, ServerSpec, Transport};
use crate::log::ServerLog;
use crate::server::Server;
use crate::status::State;

/// One configured server and its supervisor.
pub(super) struct Slot {
    pub settings: McpServerSettings,
    pub server: Arc<Server>,
    pub offer: Offer,
    /// Stops this server alone (a child of the manager's shutdown).
    stop: CancellationToken,
    pub task: Option<JoinHandle<()>>,
}

impl Slot {
    /// Starts the supervisor (once) of a server waiting to start.
    pub fn start(&mut self, runtime: &tokio::runtime::Handle) {
        if self.task.is_none() && self.server.state() == State::Starting {
            self.task = Some(runtime.spawn(self.server.clone().supervise()));
        }
    }

    /// Stops the server; returns its supervisor, which ends once the server is shut down.
    fn retire(mut self) -> Option<JoinHandle<()>> {
        self.stop.cancel();
        self.task.take()
    }
}

impl McpManager {
    /// Brings the servers in line with `settings` without restarting Hearth; secrets are read
    /// again through `secret` for every server that is (re)started.
    pub fn apply(&self, settings: &[McpServerSettings], secret: &dyn Fn(&str) -> Option<String>) {
        let Ok(mut slots) = self.slots.lock() else {
            return;
        };
        let mut old = std::mem::take(&mut *slots);
        let mut seen = HashSet::new();
        for entry in settings {
            let duplicate = !seen.insert(entry.name.as_str());
            let kept = old
                .iter()
                .position(|s| !duplicate && same_connection(&s.settings, entry));
            let slot = match kept {
                Some(index) => {
                    let mut slot = old.remove(index);
                    slot.offer = Offer::of(entry);
                    slot.settings = entry.clone();
                    slot.server.touch();
                    slot
                }
                None => self.slot(entry, duplicate, secret),
            };
            slots.push(slot);
        }
        self.retire(old);
        if let Some(runtime) = self.runtime() {
            for slot in slots.iter_mut() {
                slot.start(&runtime);
            }
        }
        drop(slots);
        self.roster.send_modify(|n| *n += 1);
    }

    /// Replaces the server `name` with a fresh start (its secrets read again); false when no
    /// server has that name.
    pub fn restart(&self, name: &str, secret: &dyn Fn(&str) -> Option<String>) -> bool {
        let Ok(mut slots) = self.slots.lock() else {
            return false;
        };
        let Some(index) = slots.iter().position(|s| s.settings.name == name) else {
            return false;
        };
        let settings = slots[index].settings.clone();
        let mut fresh = self.slot(&settings, false, secret);
        if let Some(runtime) = self.runtime() {
            fresh.start(&runtime);
        }
        let old = std::mem::replace(&mut slots[index], fresh);
        drop(slots);
        self.retire(vec![old]);
        self.roster.send_modify(|n| *n += 1);
        true
    }

    fn retire(&self, slots: Vec<Slot>) {
        let tasks: Vec<_> = slots.into_iter().filter_map(Slot::retire).collect();
        if let Ok(mut retired) = self.retired.lock() {
            retired.retain(|task| !task.is_finished());
            retired.extend(tasks);
        }
    }

    /// A server of `entry`, not started; shown failed (and never started) when its settings
    /// are bad or its name is taken.
    fn slot(
        &self,
        entry: &McpServerSettings,
        duplicate: bool,
        secret: &dyn Fn(&str) -> Option<String>,
    ) -> Slot {
        let log = ServerLog::new(&self.log_dir, &crate::names::sanitize(&entry.name));
        let resolved = if duplicate {
            Err(ConfigError::Duplicate(entry.name.clone()).to_string())
        } else {
            resolve(entry, secret).map_err(|e| e.to_string())
        };
        let (spec, state) = match resolved {
            Ok(spec) if entry.enabled => (spec, State::Starting),
            Ok(spec) => (spec, State::Disabled),
            Err(reason) => (placeholder(entry), State::Failed { reason }),
        };
        let stop = self.shutdown.child_token();
        Slot {
            settings: entry.clone(),
            server: Arc::new(Server::new(
                spec,
                log,
                state,
                self.oauth.clone(),
                stop.clone(),
            )),
            offer: Offer::of(entry),
            stop,
            task: None,
        }
    }
}

/// A spec for a server whose settings could not be resolved (shown failed, never started).
fn placeholder(entry: &McpServerSettings) -> ServerSpec {
    ServerSpec {
        name: entry.name.clone(),
        transport: match &entry.url {
            Some(url) => Transport::Http {
                url: url.clone(),
                headers: Default::default(),
                oauth: Default::default(),
            },
            None => Transport::Stdio {
                command: entry.command.clone().unwrap_or_default(),
                args: Vec::new(),
                env: Default::default(),
                cwd: None,
            },
        },
        startup_timeout: Duration::from_secs(entry.startup_timeout_secs.max(1)),
        call_timeout: Duration::from_secs(entry.call_timeout_secs.max(1)),
    }
}
