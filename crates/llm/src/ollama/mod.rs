//! The Ollama native chat client (`/api/chat`, NDJSON streaming; models from `/api/tags` with
//! their context length from `/api/show`).

mod request;
mod response;

use crate::http::Transport;
use crate::stream::{event_stream, Framing};
use crate::wire::listing_array;
use crate::{
    ChatRequest, EventStream, LlmError, ModelClient, ModelInfo, ProviderConfig, ProviderKind,
};

use serde_json::Value;

use request::request_body;
use response::LineParser;

/// Talks to `POST {base}/api/chat`; the key is optional (sent as a bearer token when set).
#[derive(Debug)]
pub struct OllamaClient {
    http: Transport,
}

impl OllamaClient {
    pub fn new(config: &ProviderConfig) -> Result<OllamaClient, LlmError> {
        Ok(OllamaClient {
            http: Transport::new(config)?,
        })
    }

    /// `model_info["<architecture>.context_length"]` of `/api/show`, the context the model was
    /// made for.
    async fn context_length(&self, model: &str) -> Option<u64> {
        let url = self.http.url("/api/show");
        let request = self
            .http
            .client()
            .post(&url)
            .json(&serde_json::json!({ "model": model }));
        let response = self.authorize(request).send().await.ok()?;
        let shown: Value = response.error_for_status().ok()?.json().await.ok()?;
        let info = shown.get("model_info")?.as_object()?;
        info.iter()
            .find(|(key, _)| key.ends_with(".context_length"))
            .and_then(|(_, value)| value.as_u64())
    }

    fn authorize(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match self.http.api_key() {
            Some(key) => builder.bearer_auth(key),
            None => builder,
        }
    }
}

#[async_trait::async_trait]
impl ModelClient for OllamaClient {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Ollama
    }

    async fn stream(&self, request: &ChatRequest) -> Result<EventStream, LlmError> {
        let body = request_body(request);
        let url = self.http.url("/api/chat");
        let response = self
            .http
            .send(&url, || {
                self.authorize(self.http.client().post(&url)).json(&body)
            })
            .await?;
        let parser = LineParser::new(self.http.api_key());
        Ok(event_stream(response, url, Framing::Ndjson, parser))
    }

    /// The local models (`/api/tags`), each with the context length `/api/show` reports for it
    /// (one request per model, not retried; none when it fails).
    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        let url = self.http.url("/api/tags");
        let listing = self
            .http
            .get_json(&url, || self.authorize(self.http.client().get(&url)))
            .await?;
        let ids: Vec<String> = listing_array(&listing, "models")?
            .iter()
            .filter_map(|model| {
                let id = model.get("name").or_else(|| model.get("model"))?.as_str()?;
                Some(id.to_string())
            })
            .collect();
        let mut models = Vec::with_capacity(ids.len());
        for id in ids {
            let context_window = self.context_length(&id).await;
            models.push(ModelInfo { id, context_window });
        }
        Ok(models)
    }
}
