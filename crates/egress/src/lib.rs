//! The egress proxy: an HTTP proxy on 127.0.0.1 that a managed browser sends all its traffic
//! through (CONNECT for https/wss, absolute-form requests for http, WebSocket upgrades). It
//! resolves names itself and checks every connection with the tools' SSRF guard at connect
//! time, so redirects, DNS rebinding, sub-resources, page script, service workers and popups
//! all meet the same check; what it refused is recorded for the browser tool to report.

mod flags;
mod log;
mod serve;

pub use flags::chrome_flags;
pub use log::Refused;
pub use serve::REFUSAL_HEADER;

use hearth_net::{Guard, HostResolver, SystemResolver};
use log::RefusalLog;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Why the proxy could not start.
#[derive(Debug, thiserror::Error)]
pub enum EgressError {
    #[error("the egress proxy could not listen on 127.0.0.1: {0}")]
    Listen(#[from] std::io::Error),
}

/// A running proxy; it stops (and drops every tunnel it carries) when dropped.
pub struct EgressProxy {
    port: u16,
    refusals: Arc<RefusalLog>,
    stop: CancellationToken,
}

impl EgressProxy {
    /// Starts a proxy on a free port of 127.0.0.1 allowing what `allow_local` allows (the
    /// `allow_local_hosts` setting), resolving names with the system resolver.
    pub async fn start(allow_local: &[String]) -> Result<EgressProxy, EgressError> {
        Self::start_with_resolver(allow_local, Arc::new(SystemResolver)).await
    }

    /// [`EgressProxy::start`] with another resolver (a DNS server of the user's choice, or a
    /// test's stub).
    pub async fn start_with_resolver(
        allow_local: &[String],
        resolver: Arc<dyn HostResolver>,
    ) -> Result<EgressProxy, EgressError> {
        let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).await?;
        let port = listener.local_addr()?.port();
        let refusals = Arc::new(RefusalLog::default());
        let stop = CancellationToken::new();
        let state = Arc::new(serve::State {
            guard: Guard::new(allow_local, resolver),
            refusals: Arc::clone(&refusals),
            stop: stop.clone(),
        });
        tokio::spawn(serve::accept(listener, state));
        Ok(EgressProxy {
            port,
            refusals,
            stop,
        })
    }

    /// The port on 127.0.0.1 the proxy listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The flags that route a Chromium-family browser through this proxy.
    pub fn chrome_flags(&self) -> Vec<String> {
        chrome_flags(self.port)
    }

    /// What the proxy refused, oldest first (the most recent [`log::KEPT`]).
    pub fn refusals(&self) -> Vec<Refused> {
        self.refusals.all()
    }

    /// The latest refusal of a connection to `host` (a name or an address as the browser sent
    /// it), e.g. to explain a navigation that failed.
    pub fn refused(&self, host: &str) -> Option<Refused> {
        self.refusals.latest_for(host, None, 0)
    }

    /// How many connections the proxy refused so far: taken before an action, it is the
    /// `since` of [`EgressProxy::refused_since`].
    pub fn refusal_count(&self) -> u64 {
        self.refusals.count()
    }

    /// The latest refusal of `host:port` among those after the first `since` (what an action
    /// that began at [`EgressProxy::refusal_count`] `since` ran into).
    pub fn refused_since(&self, host: &str, port: u16, since: u64) -> Option<Refused> {
        self.refusals.latest_for(host, Some(port), since)
    }

    /// The refusals after the first `since`, each with its number (the one an `http://` answer
    /// of the proxy carries in [`REFUSAL_HEADER`]), oldest first.
    pub fn refusals_since(&self, since: u64) -> Vec<(u64, Refused)> {
        self.refusals.since(since)
    }
}

impl Drop for EgressProxy {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
