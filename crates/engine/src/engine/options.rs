//! The engine's knobs, passed explicitly by the composition root.

use std::collections::BTreeMap;
use std::time::Duration;

use hearth_core::DataDir;
use hearth_policy::ToolProfile;
use hearth_protocol::{Language, Settings};

/// Knobs of the engine, passed explicitly by the composition root.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub data_dir: DataDir,
    /// Model used when a session names none.
    pub default_model: String,
    pub tool_profile: ToolProfile,
    pub max_iterations: u32,
    /// The context window of a model without one of its own in `model_windows`.
    pub context_window: u64,
    /// Context windows by model name (what the provider reported, or the user's override): a
    /// session with its own model is measured against that model's window.
    pub model_windows: BTreeMap<String, u64>,
    /// The language of the titles the engine gives chats.
    pub language: Language,
    /// How often streamed text is written to the store (at most one second).
    pub flush_interval: Duration,
    /// A reply whose stream sends nothing for this long fails as stalled (the default, five
    /// minutes, leaves room for slow reasoning models before their first token).
    pub stream_idle_timeout: Duration,
    /// Added to the system prompt (a sub-agent's instructions, its persona's prompt).
    pub instructions: Option<String>,
    /// How deep this engine's turns are nested: 0 for a chat, 1 for its sub-agents.
    pub depth: u32,
}

impl EngineOptions {
    pub fn new(data_dir: DataDir, default_model: impl Into<String>) -> EngineOptions {
        EngineOptions {
            data_dir,
            default_model: default_model.into(),
            tool_profile: ToolProfile::Full,
            max_iterations: 50,
            context_window: 128_000,
            model_windows: BTreeMap::new(),
            language: Language::En,
            flush_interval: Duration::from_millis(500),
            stream_idle_timeout: Duration::from_secs(300),
            instructions: None,
            depth: 0,
        }
    }

    /// [`EngineOptions::new`] with the tool profile and limits of `settings` (its context
    /// windows, per model and default).
    pub fn from_settings(
        data_dir: DataDir,
        default_model: impl Into<String>,
        settings: &Settings,
    ) -> EngineOptions {
        let default_model = default_model.into();
        EngineOptions {
            tool_profile: settings.tool_profile,
            max_iterations: settings.max_iterations.max(1),
            context_window: settings.context_window,
            model_windows: settings.model_context_windows.clone(),
            language: settings.language,
            ..EngineOptions::new(data_dir, default_model)
        }
    }
}

impl EngineOptions {
    /// The context window of `model`: its own entry, else the default.
    pub fn window_of(&self, model: &str) -> u64 {
        self.model_windows
            .get(model)
            .copied()
            .filter(|&tokens| tokens > 0)
            .unwrap_or(self.context_window)
    }
}
