//! Model servers found running on this machine at first run, offered as one-click providers,
//! and the models a provider lists when its connection is tested.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::choices::ProviderKind;

/// A local model server that answered its model listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DetectedServer {
    /// What it is, for display: `Ollama`, `LM Studio`, `llama.cpp`, `vLLM`.
    pub name: String,
    /// The provider id to add it under (`ollama`, `lm-studio`, `llama-cpp`, `vllm`).
    pub id: String,
    /// The provider kind that speaks its API: `ollama` or `openai`.
    pub kind: ProviderKind,
    /// `host:port`, for display.
    pub address: String,
    /// The base URL to configure (OpenAI-compatible servers include `/v1`).
    pub base_url: String,
    /// The models it lists, in its order; the first becomes the default.
    pub models: Vec<String>,
}

/// A model a provider lists, with the context window it reports (none when it says nothing).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ListedModel {
    pub id: String,
    pub context_window: Option<u64>,
}
