//! The Ollama native chat client (`/api/chat`, NDJSON streaming).

mod request;
mod response;

use crate::http::Transport;
use crate::stream::{event_stream, Framing};
use crate::wire::listing_array;
use crate::{
    ChatRequest, EventStream, LlmError, ModelClient, ModelInfo, ProviderConfig, ProviderKind,
};

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

    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        let url = self.http.url("/api/tags");
        let listing = self
            .http
            .get_json(&url, || self.authorize(self.http.client().get(&url)))
            .await?;
        Ok(listing_array(&listing, "models")?
            .iter()
            .filter_map(|model| {
                let id = model.get("name").or_else(|| model.get("model"))?.as_str()?;
                Some(ModelInfo {
                    id: id.to_string(),
                    context_window: None,
                })
            })
            .collect())
    }
}
