//! Types exchanged between the UI, the engine and its adapters: sessions, messages, tool calls and
//! the events a turn emits while it runs.

mod agent_settings;
mod agents;
mod artifacts;
mod attached;
mod bounds;
mod browser_settings;
mod channel_settings;
mod choices;
mod cjk;
mod confirmation;
mod content;
mod document_error;
mod document_settings;
mod error_texts;
mod errors;
mod events;
mod forms;
mod knowledge;
mod local_models;
mod mcp_oauth_settings;
mod mcp_resources;
mod mcp_view;
mod media_settings;
mod messages;
mod model_downloads;
mod planning;
mod policy_reason;
mod providers;
mod security_settings;
mod sessions;
mod settings;
mod skill_part;
mod startup;
mod texts;
mod tool_calls;
mod tool_error_kind;
mod tool_view;
mod updates;
mod usage;
mod window;
pub use agent_settings::*;
pub use agents::*;
pub use artifacts::*;
pub use attached::*;
pub use browser_settings::*;
pub use channel_settings::*;
pub use choices::*;
pub use cjk::{estimate_tokens, is_cjk, is_cjk_ideograph, is_cjk_letter, is_hangul};
pub use confirmation::*;
pub use content::*;
pub use document_error::*;
pub use document_settings::*;
pub use errors::*;
pub use events::*;
pub use forms::*;
pub use knowledge::*;
pub use local_models::*;
pub use mcp_oauth_settings::*;
pub use mcp_resources::*;
pub use mcp_view::*;
pub use media_settings::*;
pub use messages::*;
pub use model_downloads::*;
pub use planning::*;
pub use policy_reason::*;
pub use providers::*;
pub use security_settings::*;
pub use sessions::*;
pub use settings::*;
pub use skill_part::*;
pub use startup::*;
pub use texts::*;
pub use tool_calls::*;
pub use tool_error_kind::*;
pub use tool_view::*;
pub use updates::*;
pub use usage::*;
pub use window::*;

/// Where ts-rs writes the TypeScript bindings, for the tests that write generated files beside
/// them.
#[cfg(test)]
pub(crate) fn bindings_dir() -> std::path::PathBuf {
    let dir = std::env::var("TS_RS_EXPORT_DIR").unwrap_or_else(|_| "bindings".to_string());
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir)
}
