//! Which folders the knowledge base indexes: those in `[knowledge] folders` (a relative one
//! taken inside the default workspace), or `<workspace>/knowledge`, made when missing.

use std::path::PathBuf;

use hearth_protocol::Settings;

use hearth_core::DataDir;

/// The knowledge folders of `settings`, without duplicates, in their order.
pub fn knowledge_folders(settings: &Settings, dir: &DataDir) -> Vec<PathBuf> {
    if settings.knowledge.folders.is_empty() {
        let default = dir.workspace().join("knowledge");
        if let Err(error) = std::fs::create_dir_all(&default) {
            tracing::warn!(%error, "the default knowledge folder cannot be made");
        }
        return vec![default];
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for folder in &settings.knowledge.folders {
        let path = PathBuf::from(folder.trim());
        let path = if path.is_absolute() {
            path
        } else {
            dir.workspace().join(path)
        };
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}
