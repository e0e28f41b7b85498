//! The Tauri commands: thin wrappers over the managed [`crate::state::AppState`].

pub mod attachments;
pub mod jobs;
pub mod memory;
pub mod sessions;
pub mod settings;
pub mod terminals;
pub mod turns;
pub mod updates;
pub mod window;
