//! Typed provider errors whose messages tell the user what to do.

use std::time::Duration;

use hearth_protocol::AppError;

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
    /// The `local` provider could not run its model: one of the `AppError::LocalModel*` /
    /// `AppError::LocalWorkerCrashed` failures, already worded for the user.
    #[error(transparent)]
    Local(AppError),
}

impl From<&LlmError> for AppError {
    fn from(error: &LlmError) -> AppError {
        match error {
            LlmError::Auth { status, detail } => AppError::ModelAuth {
                status: *status,
                detail: detail.clone(),
            },
            LlmError::KeyRequired {
                status,
                provider_id,
                env_var,
                detail,
            } => AppError::KeyRequired {
                status: *status,
                provider_id: provider_id.clone(),
                env_var: env_var.clone(),
                detail: detail.clone(),
            },
            LlmError::RateLimited { detail, .. } => AppError::ModelRateLimited {
                detail: detail.clone(),
            },
            LlmError::ContextTooLong { detail } => AppError::ContextTooLong {
                detail: detail.clone(),
            },
            LlmError::BadRequest { status, detail } => AppError::ModelRejected {
                status: *status,
                detail: detail.clone(),
            },
            LlmError::Server { status, detail } => AppError::ModelServer {
                status: *status,
                detail: detail.clone(),
            },
            LlmError::Network { url, detail } => AppError::ModelUnreachable {
                url: url.clone(),
                detail: detail.clone(),
            },
            LlmError::Protocol { detail } => AppError::ModelProtocol {
                detail: detail.clone(),
            },
            LlmError::Local(error) => error.clone(),
        }
    }
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

    /// The CLI's message says where the key goes; the desktop gets the same facts as a typed
    /// `AppError::KeyRequired` and words them itself.
    #[test]
    fn key_required_names_where_the_key_goes() {
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
        let typed = AppError::from(&err);
        let json = serde_json::to_value(&typed).unwrap_or_default();
        assert_eq!(json["code"], "key_required");
        assert_eq!(json["params"]["provider_id"], "llama-cpp");
        assert_eq!(json["params"]["env_var"], "OPENAI_API_KEY");
    }
}
