//! One server kept running: a supervisor task connects it (bounded by the start-up timeout),
//! lists its tools, refreshes them on `tools/list_changed`, and restarts it with backoff
//! (1 s doubling to 30 s) when it exits or drops its connection. Calls wait for it to be ready,
//! time out without progress, send `notifications/cancelled` when abandoned, are retried once
//! after a restart when the connection was cut under them, and go through `input_required`
//! rounds; a server that wants an OAuth sign-in waits for it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::Tool;
use rmcp::service::Peer;
use rmcp::RoleClient;
use tokio::sync::{watch, Notify};
use tokio_util::sync::CancellationToken;

use crate::config::{ServerSpec, Transport};
use crate::connect::Handler;
use crate::elicitation::Asking;
use crate::log::ServerLog;
use crate::oauth::SharedOAuth;
use crate::status::{ServerStatus, State};

mod calls;
mod supervise;

pub(crate) use supervise::kill_process_group;

/// First wait before a restart; doubled after each failure up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_secs(1);
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How long a shut-down server gets to exit before its process group is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(8);

struct Inner {
    state: State,
    tools: Vec<Tool>,
    peer: Option<Peer<RoleClient>>,
    /// Counts connections: a retried call waits for a newer one.
    generation: u64,
    restarts: u32,
    protocol_version: Option<String>,
    /// The stdio child's process (group) id while it may be running.
    pid: Option<u32>,
    /// The server's last OAuth challenge (`WWW-Authenticate`), for the next sign-in.
    challenge: Option<String>,
    /// What answers the server's input requests on the current connection.
    handler: Option<Handler>,
}

pub(crate) struct Server {
    pub spec: ServerSpec,
    pub log: ServerLog,
    /// The conversations of the calls in progress, for elicitations.
    pub asking: Arc<Asking>,
    pub oauth: SharedOAuth,
    inner: Mutex<Inner>,
    changed: watch::Sender<u64>,
    /// Woken when a call finds the sign-in no longer accepted: the connection ends.
    signed_out: Notify,
    shutdown: CancellationToken,
}

impl Server {
    pub fn new(
        spec: ServerSpec,
        log: ServerLog,
        state: State,
        oauth: SharedOAuth,
        shutdown: CancellationToken,
    ) -> Server {
        Server {
            spec,
            log,
            asking: Arc::default(),
            oauth,
            inner: Mutex::new(Inner {
                state,
                tools: Vec::new(),
                peer: None,
                generation: 0,
                restarts: 0,
                protocol_version: None,
                pid: None,
                challenge: None,
                handler: None,
            }),
            changed: watch::channel(0).0,
            signed_out: Notify::new(),
            shutdown,
        }
    }

    fn update(&self, change: impl FnOnce(&mut Inner)) {
        if let Ok(mut inner) = self.inner.lock() {
            change(&mut inner);
        }
        self.changed.send_modify(|n| *n += 1);
    }

    fn read<T>(&self, read: impl FnOnce(&Inner) -> T) -> Option<T> {
        self.inner.lock().ok().map(|inner| read(&inner))
    }

    pub fn state(&self) -> State {
        self.read(|i| i.state.clone()).unwrap_or(State::Stopped)
    }

    /// The server's tools while it is ready.
    pub fn tools(&self) -> Vec<Tool> {
        self.read(|i| {
            if i.state == State::Ready {
                i.tools.clone()
            } else {
                Vec::new()
            }
        })
        .unwrap_or_default()
    }

    pub fn is_ready(&self) -> bool {
        self.state() == State::Ready
    }

    /// What the server said it offers (its capabilities, as JSON) while it is connected.
    pub fn capabilities(&self) -> Option<serde_json::Value> {
        let peer = self.read(|i| i.peer.clone()).flatten()?;
        serde_json::to_value(&peer.peer_info()?.capabilities).ok()
    }

    pub fn status(&self, offered: usize) -> ServerStatus {
        let (state, protocol_version, restarts) = self
            .read(|i| (i.state.clone(), i.protocol_version.clone(), i.restarts))
            .unwrap_or((State::Stopped, None, 0));
        ServerStatus {
            name: self.spec.name.clone(),
            state,
            tools: offered,
            protocol_version,
            restarts,
            transport: match self.spec.transport {
                Transport::Stdio { .. } => "stdio",
                Transport::Http { .. } => "http",
            },
            log_path: self.log.path().to_path_buf(),
            log_tail: self.log.tail(),
        }
    }

    /// Wakes the watchers (what the server offers changed in the settings).
    pub fn touch(&self) {
        self.changed.send_modify(|n| *n += 1);
    }

    /// A receiver woken on every change of state or tools.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// Waits until the server is no longer starting, or `limit` passed.
    pub async fn settled(&self, limit: Duration) {
        let mut changes = self.changed.subscribe();
        let _ = tokio::time::timeout(limit, async {
            while !self.state().is_settled() {
                if changes.changed().await.is_err() {
                    return;
                }
            }
        })
        .await;
    }
}
