//! `web_search` (Hearth and Echo): its settings (`SearchConfig`), the choice of
//! backend (SearXNG, Brave or Tavily) and `unavailable` with a setup hint when none is set.

mod backends;

use super::Network;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use backends::Backend;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::fmt;
use std::sync::Arc;

/// Brave Search's web search endpoint.
pub const BRAVE_ENDPOINT: &str = "https://api.search.brave.com/res/v1/web/search";
/// Tavily's search endpoint.
pub const TAVILY_ENDPOINT: &str = "https://api.tavily.com/search";

/// Which service answers `web_search` (an enumerated setting, declared in `hearth-protocol`).
pub use hearth_protocol::SearchBackend;

/// The `web_search` settings. Keys come from the OS keychain; this struct only carries them.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SearchConfig {
    /// The backend to use; `None` picks the first configured of SearXNG, Brave, Tavily.
    pub backend: Option<SearchBackend>,
    /// Base URL of a SearXNG instance, e.g. `https://searx.example.org`. One on this computer or
    /// the local network must also be listed in `allow_local`.
    pub searxng_url: Option<String>,
    pub brave_api_key: Option<String>,
    pub tavily_api_key: Option<String>,
    /// Another Brave-compatible endpoint (default [`BRAVE_ENDPOINT`]).
    pub brave_endpoint: Option<String>,
    /// Another Tavily-compatible endpoint (default [`TAVILY_ENDPOINT`]).
    pub tavily_endpoint: Option<String>,
}

impl fmt::Debug for SearchConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = |key: &Option<String>| key.as_ref().map(|_| "<set>");
        f.debug_struct("SearchConfig")
            .field("backend", &self.backend)
            .field("searxng_url", &self.searxng_url)
            .field("brave_api_key", &key(&self.brave_api_key))
            .field("tavily_api_key", &key(&self.tavily_api_key))
            .field("brave_endpoint", &self.brave_endpoint)
            .field("tavily_endpoint", &self.tavily_endpoint)
            .finish()
    }
}

/// What to say when no backend is configured.
const SETUP_HINT: &str = "web_search has no search backend configured. Set one in Settings → \
    Network → Web search: a SearXNG URL (config.toml `search.searxng_url`; the instance must \
    allow the JSON format, `search.formats: [html, json]` in its settings.yml; a SearXNG on \
    this computer or the local network must also be added to allow_local, e.g. \
    \"127.0.0.1:8888\"), or a Brave Search API key, or a Tavily API key (keys are kept in the \
    OS keychain).";

/// A configured value, blank counting as unset.
fn set(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

impl SearchConfig {
    /// The backend to use with its settings, or `unavailable` saying what is missing.
    fn choose(&self) -> Result<Backend<'_>, ToolError> {
        let searxng = set(&self.searxng_url).map(|url| Backend::Searxng { url });
        let brave = set(&self.brave_api_key).map(|key| Backend::Brave {
            key,
            endpoint: set(&self.brave_endpoint).unwrap_or(BRAVE_ENDPOINT),
        });
        let tavily = set(&self.tavily_api_key).map(|key| Backend::Tavily {
            key,
            endpoint: set(&self.tavily_endpoint).unwrap_or(TAVILY_ENDPOINT),
        });
        let missing = |what: &str| {
            ToolError::new(
                ErrorKind::Unavailable,
                format!("web_search is set to use {what}; {SETUP_HINT}"),
            )
        };
        match self.backend {
            Some(SearchBackend::Searxng) => {
                searxng.ok_or_else(|| missing("SearXNG but no SearXNG URL is set"))
            }
            Some(SearchBackend::Brave) => {
                brave.ok_or_else(|| missing("Brave but no Brave Search API key is stored"))
            }
            Some(SearchBackend::Tavily) => {
                tavily.ok_or_else(|| missing("Tavily but no Tavily API key is stored"))
            }
            None => searxng
                .or(brave)
                .or(tavily)
                .ok_or_else(|| ToolError::new(ErrorKind::Unavailable, SETUP_HINT)),
        }
    }
}

pub(crate) struct WebSearch(pub(crate) Arc<Network>);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WebSearchArgs {
    /// What to search for.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// How many results to return (default 5, at most 20).
    #[schemars(range(min = 1, max = 20))]
    max_results: Option<usize>,
}

#[async_trait]
impl Tool for WebSearch {
    type Args = WebSearchArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::WEB_SEARCH
    }

    fn description(&self) -> &str {
        "Searches the web with the search service configured in settings (SearXNG, Brave or \
         Tavily) and returns results as {title, url, snippet}. Use web_fetch to read a result."
    }

    async fn run(&self, _ctx: &ToolContext, args: WebSearchArgs) -> Result<Value, ToolError> {
        let query = args.query.trim();
        if query.is_empty() {
            return Err(ToolError::invalid("query", "the query is blank"));
        }
        let backend = self.0.search.choose()?;
        let max_results = args.max_results.unwrap_or(5);
        let results = backend.search(&self.0.client, query, max_results).await?;
        Ok(json!({
            "query": query,
            "backend": backend.kind().as_str(),
            "results": results,
        }))
    }
}
