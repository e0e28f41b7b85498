//! The scripted server as a provider: the config and client the engine rigs and benches use.

use std::time::Duration;

use hearth_llm::{build_client, ProviderConfig, ProviderKind, RetryPolicy, SharedModelClient};

use super::ScriptedServer;

impl ScriptedServer {
    /// This server as the OpenAI-compatible provider `scripted` with default retries and a 5 s
    /// connect timeout; override fields for another policy.
    pub fn openai_provider(&self) -> ProviderConfig {
        ProviderConfig {
            kind: ProviderKind::Openai,
            provider_id: "scripted".into(),
            base_url: self.openai_base(),
            api_key: Some("test".into()),
            retry: RetryPolicy::default(),
            connect_timeout: Duration::from_secs(5),
        }
    }

    /// A client of [`Self::openai_provider`].
    pub fn openai_client(&self) -> SharedModelClient {
        build_client(self.openai_provider()).expect("a client of the scripted server")
    }
}
