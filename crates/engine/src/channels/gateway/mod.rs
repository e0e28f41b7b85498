//! The inbound gateway of the desktop app and `hearth-cli daemon`: one long-polling loop per
//! inbound channel. Each batch is stored (with the new offset) before it is handled, so a
//! restart neither loses an update nor answers one twice; a chat on the channel's allow list
//! gets an agent turn in its session `<channel>:<chat_id>` under its security profile
//! (`public_gateway` unless raised; nobody approves, so asks are denied) and the answer is sent
//! back; any other chat gets one refusal and is logged. Failures that can pass (the network, a
//! server error, a rate limit) back off (0.5 s doubling to 60 s, or the wait the service asked
//! for); a permanent one (a refused token, a blocked address) stops that channel's polling, and
//! the handle says why.

mod handling;
mod polling;
mod turn;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use hearth_protocol::Settings;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::builder::EngineBuilder;
use crate::EngineError;

/// The channels whose polling stopped for good, each with why.
type Stopped = Arc<Mutex<BTreeMap<String, String>>>;

/// Where the gateway reads the settings from at every update.
type SettingsSource = Arc<dyn Fn() -> Result<Settings, EngineError> + Send + Sync>;

/// Told the session id of a chat whose session got new messages (the app refreshes it).
type SessionListener = Arc<dyn Fn(&str) + Send + Sync>;

/// Serves the inbound channels of a builder's [`super::Channels`].
pub struct Gateway {
    builder: Arc<EngineBuilder>,
    settings: SettingsSource,
    listener: Option<SessionListener>,
}

/// The running loops; [`GatewayHandle::stop`] ends them.
pub struct GatewayHandle {
    cancel: CancellationToken,
    tasks: Vec<JoinHandle<()>>,
    /// The channels polled, in the order of `tasks`.
    names: Vec<String>,
    stopped: Stopped,
}

impl GatewayHandle {
    /// How many channels are being polled.
    pub fn polling(&self) -> usize {
        self.tasks.len()
    }

    /// Whether channel `name` is being polled (it was started and not stopped by a permanent
    /// failure).
    pub fn polls(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name) && self.stopped(name).is_none()
    }

    /// Why polling channel `name` stopped, when a permanent failure (a refused token, a
    /// blocked address) stopped it.
    pub fn stopped(&self, name: &str) -> Option<String> {
        self.stopped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned()
    }

    /// Stops polling; a turn in progress is cancelled (and run again at the next start).
    pub async fn stop(self) {
        self.cancel.cancel();
        for task in self.tasks {
            if let Err(error) = task.await {
                tracing::warn!(%error, "an inbound channel loop ended badly");
            }
        }
    }
}

impl Gateway {
    /// A gateway over `builder`'s channels, reading the settings from `settings` at every
    /// update (so allow lists and profiles changed in the app apply at once).
    pub fn new(
        builder: Arc<EngineBuilder>,
        settings: impl Fn() -> Result<Settings, EngineError> + Send + Sync + 'static,
    ) -> Gateway {
        Gateway {
            builder,
            settings: Arc::new(settings),
            listener: None,
        }
    }

    /// Tells `listener` the session id of every chat whose session got new messages (an
    /// inbound message and its answer).
    pub fn with_listener(mut self, listener: impl Fn(&str) + Send + Sync + 'static) -> Gateway {
        self.listener = Some(Arc::new(listener));
        self
    }

    /// Starts a loop for every enabled channel with `inbound = true` that can receive.
    /// Call inside a tokio runtime.
    pub fn serve(self) -> GatewayHandle {
        let gateway = Arc::new(self);
        let cancel = CancellationToken::new();
        let stopped = Stopped::default();
        let settings = match (gateway.settings)() {
            Ok(settings) => settings,
            Err(error) => {
                tracing::error!(%error, "inbound channels not served");
                return GatewayHandle {
                    cancel,
                    tasks: Vec::new(),
                    names: Vec::new(),
                    stopped,
                };
            }
        };
        let channels = gateway.builder.channels();
        let (names, tasks) = settings
            .channels
            .iter()
            .filter(|c| c.enabled && c.inbound)
            .filter_map(|c| channels.external(&c.name))
            .filter(|channel| channel.inbound().is_some())
            .map(|channel| {
                let gateway = gateway.clone();
                let cancel = cancel.clone();
                let stopped = stopped.clone();
                let name = channel.name().to_string();
                (
                    name,
                    tokio::spawn(async move { gateway.poll(channel, cancel, stopped).await }),
                )
            })
            .unzip();
        GatewayHandle {
            cancel,
            tasks,
            names,
            stopped,
        }
    }
}
