//! Provider-neutral request, stream-event and client types.

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures::Stream;
use hearth_protocol::{ContentPart, Role, StopReason, ToolCall, Usage};
use serde::{Deserialize, Serialize};

use crate::LlmError;

pub use hearth_protocol::ProviderKind;

/// Retry behaviour for 429, 5xx and connection failures before the stream starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

/// Everything needed to build a client.
#[derive(Clone)]
pub struct ProviderConfig {
    pub kind: ProviderKind,
    /// The configured provider's id, named in errors that say where its key goes.
    pub provider_id: String,
    /// e.g. `https://api.openai.com/v1` (OpenAI-compatible servers include `/v1`).
    pub base_url: String,
    pub api_key: Option<String>,
    pub retry: RetryPolicy,
    /// Time allowed to receive response headers; the stream itself has no overall timeout.
    pub connect_timeout: Duration,
}

impl std::fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("kind", &self.kind)
            .field("provider_id", &self.provider_id)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("retry", &self.retry)
            .finish()
    }
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    pub parameters: serde_json::Value,
}

/// One message of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatMessage {
    pub role: Role,
    pub content: Vec<ContentPart>,
    /// Assistant messages: the calls it made.
    pub tool_calls: Vec<ToolCall>,
    /// Tool messages: which call this answers, and the tool's name.
    pub tool_call_id: Option<String>,
    pub tool_name: Option<String>,
}

impl ChatMessage {
    pub fn user(text: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role: Role::User,
            content: vec![ContentPart::text(text)],
            tool_calls: Vec::new(),
            tool_call_id: None,
            tool_name: None,
        }
    }

    pub fn assistant(text: impl Into<String>, tool_calls: Vec<ToolCall>) -> ChatMessage {
        let text = text.into();
        ChatMessage {
            role: Role::Assistant,
            content: if text.is_empty() {
                Vec::new()
            } else {
                vec![ContentPart::text(text)]
            },
            tool_calls,
            tool_call_id: None,
            tool_name: None,
        }
    }

    pub fn tool_result(call_id: &str, tool_name: &str, content: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role: Role::Tool,
            content: vec![ContentPart::text(content)],
            tool_calls: Vec::new(),
            tool_call_id: Some(call_id.to_string()),
            tool_name: Some(tool_name.to_string()),
        }
    }
}

/// A request for one model response.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub model: String,
    /// The system prompt, sent the way each provider expects it.
    pub system: String,
    pub messages: Vec<ChatMessage>,
    /// Shared: the requests of a turn (and of every turn with the same profile) send the same.
    pub tools: Arc<[ToolSpec]>,
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
    pub tool_choice: ToolChoice,
}

/// Whether the model may answer in text or must call one of the offered tools.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ToolChoice {
    #[default]
    Auto,
    /// One of the offered tools must be called (OpenAI `"required"`, Anthropic `any`, Gemini
    /// `ANY`, a grammar for local models; Ollama has no such option and treats it as `Auto`).
    Required,
}

/// One event of a streamed response.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    TextDelta(String),
    /// A tool call begins; `index` identifies it among the calls of this response.
    ToolCallStart {
        index: usize,
        id: String,
        name: String,
    },
    /// A fragment of a tool call's JSON arguments.
    ToolCallDelta {
        index: usize,
        arguments: String,
    },
    /// Opaque state the provider attached to tool call `index`, to be sent back with it.
    ToolCallSignature {
        index: usize,
        signature: String,
    },
    Usage(Usage),
    /// The response is complete.
    Done {
        stop_reason: StopReason,
    },
}

pub type EventStream = Pin<Box<dyn Stream<Item = Result<StreamEvent, LlmError>> + Send>>;

/// A model listed by the provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub id: String,
    #[serde(default)]
    pub context_window: Option<u64>,
}

/// A whole response, accumulated from a stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Completion {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    pub stop_reason: Option<StopReason>,
}

/// A model provider. Dropping the returned stream cancels the request.
#[async_trait::async_trait]
pub trait ModelClient: Send + Sync {
    fn kind(&self) -> ProviderKind;

    /// Starts a streamed response, retrying per the policy until the stream begins.
    async fn stream(&self, request: &ChatRequest) -> Result<EventStream, LlmError>;

    /// Lists the models the endpoint offers.
    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError>;

    /// The context `model` runs with, when the provider knows it without a request (Hearth's
    /// own models do; a server's is learnt from its model listing when the model is chosen).
    async fn context_window(&self, _model: &str) -> Option<u64> {
        None
    }
}

pub type SharedModelClient = Arc<dyn ModelClient>;
