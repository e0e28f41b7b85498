//! Local models: the `[local]` settings of the `local` provider and what Settings → Models shows
//! of the GGUF files in the models folder.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `[local]`: how the `local` provider runs its models.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct LocalSettings {
    /// Minutes a loaded model stays in memory after its last reply; then its worker ends and
    /// the memory is given back.
    #[serde(deserialize_with = "crate::bounds::idle_minutes")]
    pub idle_minutes: u32,
    /// Threads used to generate; 0 picks the machine's physical cores.
    pub threads: u32,
    /// Tokens of context; 0 picks the model's training context, bounded by free memory.
    pub context_length: u32,
}

impl Default for LocalSettings {
    fn default() -> Self {
        LocalSettings {
            idle_minutes: 10,
            threads: 0,
            context_length: 0,
        }
    }
}

/// One GGUF file of the models folder, described from its own metadata.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct LocalModel {
    /// What a provider's `default_model` names: the file name without `.gguf`.
    pub name: String,
    pub file_name: String,
    pub size_bytes: u64,
    /// e.g. `llama`, `qwen3`, `gemma3`.
    pub architecture: Option<String>,
    /// e.g. `Q4_K_M`.
    pub quantization: Option<String>,
    /// The context the model was trained with.
    pub context_length: Option<u64>,
    /// The context Hearth runs it with (the training context bounded by free memory and the
    /// `[local]` setting).
    pub run_context: Option<u64>,
    /// e.g. `135M`, `1.7B`.
    pub parameters: Option<String>,
    /// Whether it is the file Hearth installs for trying it out offline.
    pub builtin: bool,
    /// Why the file cannot be used, when it cannot (not a GGUF, truncated…).
    pub problem: Option<String>,
}

/// A model worth downloading, and whether it fits this machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RecommendedModel {
    pub title: String,
    /// `owner/repo` on Hugging Face.
    pub repo: String,
    pub file: String,
    pub size_bytes: u64,
    /// Memory it needs to run with a 4k context.
    pub memory_bytes: u64,
    pub fits: bool,
}

/// Settings → Models: the folder, its models, and the recommendations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct LocalModelsView {
    pub folder: String,
    pub models: Vec<LocalModel>,
    pub recommended: Vec<RecommendedModel>,
    /// This machine's memory, as the recommendations were judged.
    pub memory_bytes: u64,
}
