//! The network tools — `http_request`, `web_fetch`, `web_search` — behind the SSRF
//! guard, their configuration (`NetworkConfig`) and `register_network`, which the engine calls.

mod body;
mod client;
mod http_request;
mod pinned;
mod readable;
mod refusal;
mod search;
mod web_fetch;

pub(crate) use client::Outgoing;
pub use client::{GuardedClient, MAX_BODY_BYTES};
pub use hearth_net::{
    special_purpose, CheckedUrl, Guard, GuardError, HostResolver, Refusal, SpecialPurpose,
    SystemResolver,
};
pub use search::{SearchBackend, SearchConfig, BRAVE_ENDPOINT, TAVILY_ENDPOINT};

use crate::dialect::{Dialect, DialectTool};
use crate::registry::{Registry, RegistryError};
use http_request::{HttpRequest, PicobotHttpArgs, PICOBOT_DESCRIPTION};
use search::WebSearch;
use std::sync::Arc;
use web_fetch::WebFetch;

/// What the network tools need from the user's settings. The default allows no local target
/// and has no search backend.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworkConfig {
    /// Local or special-purpose targets the user allows: `"host"` (every port) or
    /// `"host:port"`, e.g. `"127.0.0.1:11434"` for a local Ollama or `"[::1]:8080"`. A name
    /// entry (`"searx.lan:8888"`) allows whatever that name resolves to.
    pub allow_local: Vec<String>,
    /// The `web_search` backend.
    pub search: SearchConfig,
}

impl NetworkConfig {
    /// The `allow_local` entries that do not parse, each with the reason (the guard ignores
    /// them; a settings screen should show them).
    pub fn invalid_allow_entries(&self) -> Vec<(String, String)> {
        self.allow_local
            .iter()
            .filter_map(|entry| {
                hearth_net::check_allow_entry(entry)
                    .err()
                    .map(|why| (entry.clone(), why))
            })
            .collect()
    }
}

/// Why the network tools could not be registered.
#[derive(Debug, thiserror::Error)]
pub enum NetworkSetupError {
    #[error("the HTTP client could not be built: {0}")]
    Client(#[from] reqwest::Error),
    #[error(transparent)]
    Registry(#[from] RegistryError),
}

/// What the network tools share: the guarded client and the search settings.
pub(crate) struct Network {
    pub(crate) client: GuardedClient,
    search: SearchConfig,
}

/// Registers the network tools `registry`'s dialect has, resolving names with the system
/// resolver: `hearth` and `echo` get `http_request`, `web_fetch`, `web_search`, `skill_install`; `ceecore` gets
/// `http_request`; `picobot` gets its own `http_request` shape and `web_fetch`.
/// [`crate::builtin_registry`] does not register them: they need the user's settings.
pub fn register_network(
    registry: &mut Registry,
    config: NetworkConfig,
) -> Result<(), NetworkSetupError> {
    register_network_with_resolver(registry, config, Arc::new(SystemResolver))
}

/// [`register_network`] with another resolver (e.g. a DNS server of the user's choice).
pub fn register_network_with_resolver(
    registry: &mut Registry,
    config: NetworkConfig,
    resolver: Arc<dyn HostResolver>,
) -> Result<(), NetworkSetupError> {
    use Dialect::{Ceecore, Echo, Hearth, Picobot};
    let network = Arc::new(Network {
        client: GuardedClient::new(&config.allow_local, resolver)?,
        search: config.search,
    });
    let picobot_http: DialectTool<HttpRequest, PicobotHttpArgs> = DialectTool::new(
        "http_request",
        PICOBOT_DESCRIPTION,
        HttpRequest(Arc::clone(&network)),
    );
    registry.register_for(&[Hearth, Echo, Ceecore], HttpRequest(Arc::clone(&network)))?;
    registry.register_for(&[Picobot], picobot_http)?;
    registry.register_for(&[Hearth, Echo, Picobot], WebFetch(Arc::clone(&network)))?;
    registry.register_for(
        &[Hearth, Echo],
        crate::skills::SkillInstall(Arc::clone(&network)),
    )?;
    registry.register_for(&[Hearth, Echo], WebSearch(network))?;
    Ok(())
}
