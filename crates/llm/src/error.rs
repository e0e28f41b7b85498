//! Typed provider errors whose messages tell the user what to do.

use std::time::Duration;

/// A failure talking to a model provider.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("authentication failed ({status}): check the API key for this provider (set it in Settings, or with HEARTH_API_KEY / the provider's usual variable): {detail}")]
    Auth { status: u16, detail: String },
    /// A 401/403 from a provider that was sent no key (a local server set up with one).
    #[error("this server wants an API key ({status}): add one to provider '{provider_id}' in Settings → Providers, or run `hearth-cli keys set {provider_id}`, or set HEARTH_API_KEY or {env_var}: {detail}")]
    KeyRequired {
        status: u16,
        provider_id: String,
        env_var: String,
        detail: String,
    },
    #[error("rate limited by the provider{}: wait and retry, or lower the request rate: {detail}", retry_after.map(|d| format!(" (retry after {}s)", d.as_secs())).unwrap_or_default())]
    RateLimited {
        retry_after: Option<Duration>,
        detail: String,
    },
    #[error("the conversation is too long for this model's context window: start a new chat or pick a model with a larger context: {detail}")]
    ContextTooLong { detail: String },
    #[error(
        "the provider rejected the request ({status}): check the model name and settings: {detail}"
    )]
    BadRequest { status: u16, detail: String },
    #[error("the provider had a server error ({status}); try again later: {detail}")]
    Server { status: u16, detail: String },
    #[error(
        "could not reach the provider at {url}: {detail}; check the base URL and your network"
    )]
    Network { url: String, detail: String },
    #[error("the provider sent a response Hearth could not understand: {detail}")]
    Protocol { detail: String },
}

impl LlmError {
    /// Whether retrying the same request may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            LlmError::RateLimited { .. } | LlmError::Server { .. } | LlmError::Network { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The desktop translates this message by its wording (`ui/src/lib/errors.ts`, whose test
    /// holds the same text): change both together.
    #[test]
    fn key_required_wording() {
        let err = LlmError::KeyRequired {
            status: 401,
            provider_id: "llama-cpp".into(),
            env_var: "OPENAI_API_KEY".into(),
            detail: "Invalid API Key".into(),
        };
        assert_eq!(
            err.to_string(),
            "this server wants an API key (401): add one to provider 'llama-cpp' in Settings → Providers, or run `hearth-cli keys set llama-cpp`, or set HEARTH_API_KEY or OPENAI_API_KEY: Invalid API Key"
        );
    }
}
