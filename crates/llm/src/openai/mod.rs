//! The OpenAI-compatible chat-completions client (OpenAI, OpenRouter, LM Studio, vLLM, llama.cpp).

mod request;
mod response;

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
}

impl OpenAiClient {
    pub fn new(config: &ProviderConfig) -> Result<OpenAiClient, LlmError> {
        Ok(OpenAiClient {
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
impl ModelClient for OpenAiClient {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Openai
    }

    async fn stream(&self, request: &ChatRequest) -> Result<EventStream, LlmError> {
        let body = request_body(request);
        let url = self.http.url("/chat/completions");
        let response = self
            .http
            .send(&url, || {
                self.authorize(self.http.client().post(&url)).json(&body)
            })
            .await?;
        let parser = ChunkParser::new(self.http.api_key());
        Ok(event_stream(response, url, Framing::Sse, parser))
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        let url = self.http.url("/models");
        let listing = self
            .http
            .get_json(&url, || self.authorize(self.http.client().get(&url)))
            .await?;
        models_from_data(&listing)
    }
}
