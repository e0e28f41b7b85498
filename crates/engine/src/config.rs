//! Reading and writing `config.toml` (the user's [`Settings`]); keys are never stored here.

use std::path::Path;

use hearth_protocol::{ProviderEntry, Settings};

use crate::EngineError;

/// Loads settings; a missing file gives the defaults.
pub fn load_settings(path: &Path) -> Result<Settings, EngineError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Settings::default()),
        Err(e) => {
            return Err(EngineError::Config(format!(
                "cannot read {}: {e}",
                path.display()
            )))
        }
    };
    let settings: Settings = toml::from_str(&text).map_err(|e| {
        EngineError::Config(format!(
            "{} is not valid: {e}; fix or delete it",
            path.display()
        ))
    })?;
    crate::rules::user_rules(&settings)?;
    Ok(settings)
}

/// Writes settings atomically (temp file + rename).
pub fn save_settings(path: &Path, settings: &Settings) -> Result<(), EngineError> {
    let text = toml::to_string_pretty(settings)
        .map_err(|e| EngineError::Config(format!("cannot encode settings: {e}")))?;
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| EngineError::Config(format!("cannot write {}: {e}", path.display())))
}

/// The provider new chats use: the configured default, else the first one.
pub fn default_provider(settings: &Settings) -> Option<&ProviderEntry> {
    match &settings.default_provider {
        Some(id) => settings.providers.iter().find(|p| &p.id == id),
        None => settings.providers.first(),
    }
}
