//! Model providers behind one streaming-first trait: request/response types, typed errors,
//! retry with backoff, and the OpenAI-compatible, Anthropic, Ollama and Gemini wire formats.

pub mod anthropic;
mod classify;
mod collect;
mod error;
#[cfg(test)]
mod fixtures;
pub mod framing;
pub mod gemini;
mod http;
pub mod ollama;
pub mod openai;
mod retry;
mod stream;
mod types;
mod wire;

use std::sync::Arc;

pub use collect::{collect, ToolCallAccumulator};
pub use error::LlmError;
pub use retry::{backoff_delay, parse_retry_after};
pub use types::*;
pub use wire::{function_tool, text_without_media};

/// Builds the client for `config.kind`. Fails only on an unusable base URL or TLS setup, and for
/// [`ProviderKind::Local`], whose client is not built per request.
pub fn build_client(config: ProviderConfig) -> Result<SharedModelClient, LlmError> {
    Ok(match config.kind {
        ProviderKind::Openai => Arc::new(openai::OpenAiClient::new(&config)?),
        ProviderKind::Anthropic => Arc::new(anthropic::AnthropicClient::new(&config)?),
        ProviderKind::Ollama => Arc::new(ollama::OllamaClient::new(&config)?),
        ProviderKind::Gemini => Arc::new(gemini::GeminiClient::new(&config)?),
        // Runs in a worker of Hearth's own (crate hearth-local), not over HTTP: the engine
        // hands out the one client of its models folder.
        ProviderKind::Local => {
            return Err(LlmError::Protocol {
                detail: "the local provider has no HTTP client".into(),
            })
        }
    })
}
