//! The OpenAI-compatible chat-completions client (OpenAI, OpenRouter, LM Studio, vLLM, llama.cpp).

mod request;
mod response;

use std::sync::atomic::{AtomicBool, Ordering};

use reqwest::Response;

use crate::http::Transport;
use crate::stream::{event_stream, Framing};
use crate::wire::models_from_data;
use crate::{
    ChatRequest, EventStream, LlmError, ModelClient, ModelInfo, ProviderConfig, ProviderKind,
};

use request::request_body;
use response::ChunkParser;

/// Talks to `POST {base}/chat/completions`; `base` includes `/v1`.
#[derive(Debug)]
pub struct OpenAiClient {
    http: Transport,
    /// The server refused `stream_options` once: it is not sent again by this client.
    usage_refused: AtomicBool,
}

/// Whether an error is a server refusing the `stream_options` field (a 400, or a 422 from
/// servers that validate their input strictly, whose message names the field).
fn refuses_stream_options(err: &LlmError) -> bool {
    matches!(err, LlmError::BadRequest { status: 400 | 422, detail } if detail.contains("stream_options"))
}

impl OpenAiClient {
    pub fn new(config: &ProviderConfig) -> Result<OpenAiClient, LlmError> {
        Ok(OpenAiClient {
            http: Transport::new(config)?,
            usage_refused: AtomicBool::new(false),
        })
    }

    async fn start(
        &self,
        url: &str,
        request: &ChatRequest,
        include_usage: bool,
    ) -> Result<Response, LlmError> {
        let body = request_body(request, include_usage);
        self.http
            .send(url, || {
                self.authorize(self.http.client().post(url)).json(&body)
            })
            .await
    }

    /// llama.cpp's `GET /props` `n_ctx` (`default_generation_settings.n_ctx`, or at the top in
    /// older versions); none when the server does not answer it (one request, not retried).
    async fn configured_context(&self) -> Option<u64> {
        let url = self.http.root_url("/props");
        let request = self.authorize(self.http.client().get(&url));
        let response = request.send().await.ok()?.error_for_status().ok()?;
        let props: serde_json::Value = response.json().await.ok()?;
        props
            .pointer("/default_generation_settings/n_ctx")
            .or_else(|| props.get("n_ctx"))
            .and_then(serde_json::Value::as_u64)
            .filter(|&n| n > 0)
    }

    fn authorize(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match self.http.api_key() {
            Some(key) => builder.bearer_auth(key),
            None => builder,
        }
    }
}

/// Whether a model listing comes from llama.cpp's server (its models carry `meta`).
fn is_llama_cpp(listing: &serde_json::Value) -> bool {
    listing
        .get("data")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|data| data.iter().any(|m| m.get("meta").is_some()))
}

#[async_trait::async_trait]
impl ModelClient for OpenAiClient {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Openai
    }

    async fn stream(&self, request: &ChatRequest) -> Result<EventStream, LlmError> {
        let url = self.http.url("/chat/completions");
        let include_usage = !self.usage_refused.load(Ordering::Relaxed);
        let response = match self.start(&url, request, include_usage).await {
            Err(err) if include_usage && refuses_stream_options(&err) => {
                tracing::warn!(%url, error = %err, "the server refuses stream_options: asking without it (no token counts) from now on");
                self.usage_refused.store(true, Ordering::Relaxed);
                self.start(&url, request, false).await?
            }
            other => other?,
        };
        let parser = ChunkParser::new(self.http.api_key());
        Ok(event_stream(response, url, Framing::Sse, parser))
    }

    /// The listed models; for a llama.cpp server (its listing has `meta`), the context it was
    /// started with (`/props` `n_ctx`, what limits a request) replaces the trained one.
    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        let url = self.http.url("/models");
        let listing = self
            .http
            .get_json(&url, || self.authorize(self.http.client().get(&url)))
            .await?;
        let mut models = models_from_data(&listing)?;
        if is_llama_cpp(&listing) {
            if let Some(n_ctx) = self.configured_context().await {
                for model in &mut models {
                    model.context_window = Some(n_ctx);
                }
            }
        }
        Ok(models)
    }
}
