//! What Hearth and its model worker say to each other: one JSON object per line on the worker's
//! stdin and stdout.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The model worker's executable, installed beside the app and `hearth-cli`: llama.cpp is linked
/// into it alone, so the app and `hearth-cli` never load it.
pub const WORKER_PROGRAM: &str = "hearth-model-worker";

/// The first argument of a model worker (the program checks it, and tests find workers by it).
pub const WORKER_ARG: &str = "__hearth_model_worker";

/// A request to the worker. The first line is `Inspect` (answered, then the worker exits) or
/// `Load` (the worker then serves `Generate` and `Cancel` until its stdin closes).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    Inspect {
        path: PathBuf,
    },
    Load(Load),
    Generate(Generate),
    /// Stops the generation under way (ignored when none is).
    Cancel,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Load {
    pub path: PathBuf,
    /// Tokens of context; 0 lets the worker choose from the model and free memory.
    pub context_length: u32,
    /// 0 lets the worker choose.
    pub threads: u32,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Generate {
    /// The whole conversation rendered through the model's chat template.
    pub prompt: String,
    pub max_tokens: u32,
    /// 0 samples greedily.
    pub temperature: f32,
    /// Tools the model may call: once it writes `trigger`, what follows is held to a call of one
    /// of them by a grammar (name, then arguments valid for its JSON Schema).
    pub tools: Option<ToolGrammar>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct ToolGrammar {
    /// e.g. `<tool_call>`.
    pub trigger: String,
    /// e.g. `</tool_call>`.
    pub closer: String,
    /// `(name, JSON Schema of the arguments)`.
    pub tools: Vec<(String, serde_json::Value)>,
    /// The reply must be a call: the grammar holds it from its first token.
    pub required: bool,
}

/// The facts of a GGUF file read from its metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facts {
    pub architecture: Option<String>,
    pub name: Option<String>,
    pub size_label: Option<String>,
    pub quantization: Option<String>,
    pub context_length: Option<u64>,
    pub chat_template: Option<String>,
}

/// What the worker answers.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    Inspected(Facts),
    Loaded(Loaded),
    /// Generated text (whole UTF-8 characters).
    Piece(String),
    Done(Finish),
    /// The request could not be served; the worker stays up when it was a `Generate`.
    Failed(Failure),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Loaded {
    pub facts: Facts,
    /// The context the model runs with.
    pub context_length: u32,
    pub bos_token: String,
    pub eos_token: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// The model ended its turn.
    Stop,
    /// `max_tokens` or the context's end was reached.
    Length,
    Cancelled,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finish {
    pub reason: FinishReason,
    pub prompt_tokens: u64,
    /// Prompt tokens whose state was kept from the previous request (not processed again).
    pub cached_tokens: u64,
    pub completion_tokens: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The file is not a model llama.cpp can load.
    Unusable(String),
    /// The prompt does not fit the context.
    TooLong { tokens: u64, context: u64 },
    /// Anything else (a decode failure, a bad request).
    Other(String),
}
