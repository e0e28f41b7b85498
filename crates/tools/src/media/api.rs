//! The media providers' HTTP side: an endpoint the user configured (base URL, model, key from
//! the keychain) and one JSON POST with typed failures. Like model providers, these endpoints
//! are the user's choice, not the model's, so they are not behind the SSRF guard.

use crate::error::{ErrorKind, ToolError};
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE};
use reqwest::StatusCode;
use serde_json::Value;
use std::time::Duration;

/// The OpenAI API, used when an endpoint's base URL is empty.
pub const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";

/// The most bytes read from a media provider's answer (a large image as base64 fits).
const MAX_ANSWER_BYTES: usize = 64 * 1024 * 1024;

/// How long a media provider may take to answer (image generation is slow).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(300);

/// An OpenAI-compatible media endpoint.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiEndpoint {
    /// Including `/v1`, without a trailing slash.
    pub base_url: String,
    pub model: String,
    /// Sent as `Authorization: Bearer`; `None` for a keyless local server.
    pub api_key: Option<String>,
}

impl std::fmt::Debug for ApiEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiEndpoint")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

impl ApiEndpoint {
    /// The endpoint for `base_url` (empty: the OpenAI API) and `model` (empty: `default_model`)
    /// with `api_key`; `None` when it cannot work: the OpenAI API without a key.
    pub fn configured(
        base_url: &str,
        model: &str,
        default_model: &str,
        api_key: Option<String>,
    ) -> Option<ApiEndpoint> {
        let api_key = api_key.filter(|k| !k.trim().is_empty());
        let base_url = base_url.trim().trim_end_matches('/');
        if base_url.is_empty() && api_key.is_none() {
            return None;
        }
        let model = model.trim();
        Some(ApiEndpoint {
            base_url: if base_url.is_empty() {
                OPENAI_BASE_URL.to_string()
            } else {
                base_url.to_string()
            },
            model: if model.is_empty() {
                default_model
            } else {
                model
            }
            .to_string(),
            api_key,
        })
    }

    /// POSTs `body` as JSON to `{base_url}/{path}`; the answer's bytes and content type when
    /// it is a success, else a typed error naming the provider's status and first words.
    pub(crate) async fn post(
        &self,
        http: &reqwest::Client,
        what: &str,
        path: &str,
        body: &Value,
    ) -> Result<(Vec<u8>, String), ToolError> {
        let url = format!("{}/{path}", self.base_url);
        let mut request = http
            .post(&url)
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_string());
        if let Some(key) = &self.api_key {
            request = request.header(AUTHORIZATION, format!("Bearer {key}"));
        }
        let answer = async {
            let response = request
                .send()
                .await
                .map_err(|e| sent_error(what, &url, &e))?;
            let status = response.status();
            let kind = response
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string();
            let bytes = read_capped(response)
                .await
                .map_err(|e| sent_error(what, &url, &e))?;
            Ok::<_, ToolError>((status, kind, bytes))
        };
        let (status, kind, bytes) = tokio::time::timeout(ANSWER_TIMEOUT, answer)
            .await
            .map_err(|_| {
                ToolError::new(
                    ErrorKind::Timeout,
                    format!(
                        "the {what} at {url} gave no answer within {} s",
                        ANSWER_TIMEOUT.as_secs()
                    ),
                )
            })??;
        let bytes = bytes.ok_or_else(|| {
            ToolError::new(
                ErrorKind::TooLarge,
                format!("the {what} answered with more than {MAX_ANSWER_BYTES} bytes"),
            )
        })?;
        if !status.is_success() {
            return Err(status_error(what, &url, status, &bytes));
        }
        Ok((bytes, kind))
    }
}

/// The client the media providers are called with (no redirects followed).
pub(crate) fn http_client() -> Result<reqwest::Client, reqwest::Error> {
    hearth_net::http::client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(Duration::from_secs(30))
        .user_agent(concat!("Hearth/", env!("CARGO_PKG_VERSION")))
        .build()
}

/// The body, or `None` when it is longer than [`MAX_ANSWER_BYTES`].
async fn read_capped(mut response: reqwest::Response) -> Result<Option<Vec<u8>>, reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > MAX_ANSWER_BYTES {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(body))
}

fn sent_error(what: &str, url: &str, error: &reqwest::Error) -> ToolError {
    let kind = if error.is_timeout() {
        ErrorKind::Timeout
    } else {
        ErrorKind::Network
    };
    ToolError::new(
        kind,
        format!("the {what} at {url} could not be reached: {error}"),
    )
}

/// A failed answer: the status and the first 300 characters of the body.
fn status_error(what: &str, url: &str, status: StatusCode, body: &[u8]) -> ToolError {
    let text = String::from_utf8_lossy(body);
    let first: String = text.chars().take(300).collect();
    let kind = match status.as_u16() {
        401 | 403 => ErrorKind::NotPermitted,
        429 => ErrorKind::RateLimited,
        400 | 404 | 413 | 422 => ErrorKind::Failed,
        _ => ErrorKind::Network,
    };
    let hint = if matches!(status.as_u16(), 401 | 403) {
        " (check the key in Settings → Media)"
    } else {
        ""
    };
    ToolError::new(
        kind,
        format!("the {what} at {url} answered {status}{hint}: {first}"),
    )
}
