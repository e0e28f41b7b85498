//! The Google Gemini `streamGenerateContent` client.

mod request;
mod response;
mod schema;

use serde_json::Value;

use crate::http::Transport;
use crate::stream::{event_stream, Framing};
use crate::wire::listing_array;
use crate::{
    ChatRequest, EventStream, LlmError, ModelClient, ModelInfo, ProviderConfig, ProviderKind,
};

use request::request_body;
use response::ChunkParser;

/// Talks to `POST {base}/models/{model}:streamGenerateContent?alt=sse`.
#[derive(Debug)]
pub struct GeminiClient {
    http: Transport,
}

impl GeminiClient {
    pub fn new(config: &ProviderConfig) -> Result<GeminiClient, LlmError> {
        Ok(GeminiClient {
            http: Transport::new(config)?,
        })
    }

    fn authorize(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match self.http.api_key() {
            Some(key) => builder.header("x-goog-api-key", key),
            None => builder,
        }
    }
}

#[async_trait::async_trait]
impl ModelClient for GeminiClient {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Gemini
    }

    async fn stream(&self, request: &ChatRequest) -> Result<EventStream, LlmError> {
        let body = request_body(request);
        let model = request.model.trim_start_matches("models/");
        let url = self
            .http
            .url(&format!("/models/{model}:streamGenerateContent?alt=sse"));
        let response = self
            .http
            .send(&url, || {
                self.authorize(self.http.client().post(&url)).json(&body)
            })
            .await?;
        let parser = ChunkParser::new(self.http.api_key());
        Ok(event_stream(response, url, Framing::Sse, parser))
    }

    /// Models that support `generateContent`, with their input token limit.
    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        let url = self.http.url("/models?pageSize=1000");
        let listing = self
            .http
            .get_json(&url, || self.authorize(self.http.client().get(&url)))
            .await?;
        Ok(listing_array(&listing, "models")?
            .iter()
            .filter(|model| match model.get("supportedGenerationMethods") {
                Some(Value::Array(methods)) => methods.iter().any(|m| m == "generateContent"),
                _ => true,
            })
            .filter_map(|model| {
                let name = model.get("name")?.as_str()?;
                Some(ModelInfo {
                    id: name.trim_start_matches("models/").to_string(),
                    context_window: model.get("inputTokenLimit").and_then(Value::as_u64),
                })
            })
            .collect())
    }
}
