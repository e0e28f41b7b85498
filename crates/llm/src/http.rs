//! The HTTP side shared by every provider: one `reqwest::Client` per client object, the base URL
//! and key, retried sends, and bounded body reads.

use reqwest::{RequestBuilder, Response};

use crate::classify::network_error;
use crate::retry::send_with_retry;
use crate::{LlmError, ProviderConfig, RetryPolicy};

/// The largest model listing accepted (OpenRouter's is a few megabytes).
const LISTING_LIMIT: usize = 32 * 1024 * 1024;

/// A provider endpoint: connection pool, base URL, key and retry policy.
pub(crate) struct Transport {
    client: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    retry: RetryPolicy,
    /// Named when a keyless request is refused ([`LlmError::KeyRequired`]).
    provider_id: String,
    key_env_var: &'static str,
}

impl Transport {
    pub(crate) fn new(config: &ProviderConfig) -> Result<Transport, LlmError> {
        let base_url = config.base_url.trim().trim_end_matches('/').to_string();
        let invalid = |detail: String| LlmError::Network {
            url: base_url.clone(),
            detail,
        };
        let parsed = reqwest::Url::parse(&base_url)
            .map_err(|e| invalid(format!("invalid base URL: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(invalid(
                "the base URL must start with http:// or https://".into(),
            ));
        }
        let client = hearth_net::http::client_builder()
            .connect_timeout(config.connect_timeout)
            .build()
            .map_err(|e| network_error(&base_url, e))?;
        let api_key = config.api_key.clone().filter(|k| !k.trim().is_empty());
        Ok(Transport {
            client,
            base_url,
            api_key,
            retry: config.retry.clone(),
            provider_id: config.provider_id.clone(),
            key_env_var: config.kind.key_env_var(),
        })
    }

    /// The base URL joined with `path` (which starts with `/`).
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// The server's root (the base URL without a trailing `/v1`) joined with `path`: where
    /// llama.cpp serves `/props`.
    pub(crate) fn root_url(&self, path: &str) -> String {
        let root = self.base_url.strip_suffix("/v1").unwrap_or(&self.base_url);
        format!("{root}{path}")
    }

    pub(crate) fn client(&self) -> &reqwest::Client {
        &self.client
    }

    pub(crate) fn api_key(&self) -> Option<&str> {
        self.api_key.as_deref()
    }

    /// Sends with retries until a success status; see [`send_with_retry`]. A 401/403 to a
    /// request sent without a key says that the server wants one, and where to put it.
    pub(crate) async fn send<F>(&self, url: &str, make: F) -> Result<Response, LlmError>
    where
        F: Fn() -> RequestBuilder,
    {
        let result = send_with_retry(&self.retry, url, self.api_key(), make).await;
        match result {
            Err(LlmError::Auth { status, detail }) if self.api_key.is_none() => {
                Err(LlmError::KeyRequired {
                    status,
                    provider_id: self.provider_id.clone(),
                    env_var: self.key_env_var.to_string(),
                    detail,
                })
            }
            other => other,
        }
    }

    /// Sends with retries and parses the JSON body (model listings).
    pub(crate) async fn get_json<F>(
        &self,
        url: &str,
        make: F,
    ) -> Result<serde_json::Value, LlmError>
    where
        F: Fn() -> RequestBuilder,
    {
        let response = self.send(url, make).await?;
        let body = read_body(response, LISTING_LIMIT)
            .await
            .map_err(|e| network_error(url, e))?;
        serde_json::from_str(&body).map_err(|e| LlmError::Protocol {
            detail: format!("the model listing is not valid JSON: {e}"),
        })
    }
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport")
            .field("provider_id", &self.provider_id)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("retry", &self.retry)
            .finish()
    }
}

/// Reads at most `limit` bytes of a body as text (invalid UTF-8 replaced).
pub(crate) async fn read_body(
    mut response: Response,
    limit: usize,
) -> Result<String, reqwest::Error> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        let room = limit - bytes.len();
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if bytes.len() >= limit {
            break;
        }
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
