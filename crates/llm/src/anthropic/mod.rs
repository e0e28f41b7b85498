//! The Anthropic Messages API client.

mod request;
mod response;

use crate::http::Transport;
use crate::stream::{event_stream, Framing};
use crate::wire::models_from_data;
use crate::{
    ChatRequest, EventStream, LlmError, ModelClient, ModelInfo, ProviderConfig, ProviderKind,
};

use request::request_body;
use response::EventParser;

const API_VERSION: &str = "2023-06-01";

/// Talks to `POST {base}/v1/messages`.
#[derive(Debug)]
pub struct AnthropicClient {
    http: Transport,
}

impl AnthropicClient {
    pub fn new(config: &ProviderConfig) -> Result<AnthropicClient, LlmError> {
        Ok(AnthropicClient {
            http: Transport::new(config)?,
        })
    }

    fn authorize(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        let builder = builder.header("anthropic-version", API_VERSION);
        match self.http.api_key() {
            Some(key) => builder.header("x-api-key", key),
            None => builder,
        }
    }
}

#[async_trait::async_trait]
impl ModelClient for AnthropicClient {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Anthropic
    }

    async fn stream(&self, request: &ChatRequest) -> Result<EventStream, LlmError> {
        let body = request_body(request);
        let url = self.http.url("/v1/messages");
        let response = self
            .http
            .send(&url, || {
                self.authorize(self.http.client().post(&url)).json(&body)
            })
            .await?;
        let parser = EventParser::new(self.http.api_key());
        Ok(event_stream(response, url, Framing::Sse, parser))
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        let url = self.http.url("/v1/models?limit=1000");
        let listing = self
            .http
            .get_json(&url, || self.authorize(self.http.client().get(&url)))
            .await?;
        models_from_data(&listing)
    }
}
