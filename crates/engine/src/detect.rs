//! First-run detection of model servers on this machine: each candidate port on 127.0.0.1 is
//! asked for its model listing (Ollama's `/api/tags`, `/v1/models` for the OpenAI-compatible
//! ones), all at once and with a short timeout; those that answer are offered as providers.

use std::time::Duration;

use hearth_llm::{build_client, ProviderConfig, ProviderKind, RetryPolicy};
use hearth_protocol::DetectedServer;

/// How long a candidate may take to list its models (a local server answers in milliseconds).
pub const DETECT_TIMEOUT: Duration = Duration::from_millis(1_500);

/// A server that may be running on a port of 127.0.0.1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalCandidate {
    /// Shown to the user: `Ollama`, `LM Studio`…
    pub name: String,
    /// The provider id suggested for it.
    pub id: String,
    pub kind: ProviderKind,
    pub port: u16,
}

impl LocalCandidate {
    pub fn new(name: &str, id: &str, kind: ProviderKind, port: u16) -> LocalCandidate {
        LocalCandidate {
            name: name.to_string(),
            id: id.to_string(),
            kind,
            port,
        }
    }

    fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn base_url(&self) -> String {
        match self.kind {
            ProviderKind::Ollama => format!("http://{}", self.address()),
            _ => format!("http://{}/v1", self.address()),
        }
    }
}

/// The servers looked for at first run, on their default ports.
pub fn well_known_servers() -> Vec<LocalCandidate> {
    vec![
        LocalCandidate::new("Ollama", "ollama", ProviderKind::Ollama, 11434),
        LocalCandidate::new("LM Studio", "lm-studio", ProviderKind::Openai, 1234),
        LocalCandidate::new("llama.cpp", "llama-cpp", ProviderKind::Openai, 8080),
        LocalCandidate::new("vLLM", "vllm", ProviderKind::Openai, 8000),
    ]
}

/// The candidates whose model listing answered within `timeout`, in the candidates' order.
/// Servers that refuse (or want a key), time out or are not there are left out.
pub async fn detect_local_servers(
    candidates: &[LocalCandidate],
    timeout: Duration,
) -> Vec<DetectedServer> {
    let probes = candidates.iter().map(|c| probe(c, timeout));
    futures::future::join_all(probes)
        .await
        .into_iter()
        .flatten()
        .collect()
}

async fn probe(candidate: &LocalCandidate, timeout: Duration) -> Option<DetectedServer> {
    let base_url = candidate.base_url();
    let client = build_client(ProviderConfig {
        kind: candidate.kind,
        provider_id: candidate.id.clone(),
        base_url: base_url.clone(),
        api_key: None,
        retry: RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        },
        connect_timeout: timeout,
    })
    .ok()?;
    let listed = tokio::time::timeout(timeout, client.list_models()).await;
    let models = match listed {
        Ok(Ok(models)) => models,
        Ok(Err(error)) => {
            tracing::debug!(server = %candidate.name, %error, "no model server here");
            return None;
        }
        Err(_) => {
            tracing::debug!(server = %candidate.name, "no answer in time");
            return None;
        }
    };
    tracing::info!(server = %candidate.name, port = candidate.port, models = models.len(), "found a local model server");
    Some(DetectedServer {
        name: candidate.name.clone(),
        id: candidate.id.clone(),
        kind: candidate.kind,
        address: candidate.address(),
        base_url,
        models: models.into_iter().map(|m| m.id).collect(),
    })
}
