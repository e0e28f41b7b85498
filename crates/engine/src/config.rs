//! Reading and writing `config.toml` (the user's [`Settings`]); keys are never stored here.

use std::path::Path;

use hearth_protocol::{ProviderEntry, Settings};

use crate::EngineError;

/// Loads settings; a missing file gives the defaults. An unknown key, a value that is not one of
/// a setting's choices or a malformed rule is an error naming the file, the key and the choices
/// (never a fallback: a misspelled security profile must not mean a looser one).
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
    let settings = parse_settings(&text).map_err(|why| {
        EngineError::Config(format!("{}: {why}; fix it and start again", path.display()))
    })?;
    crate::rules::user_rules(&settings)
        .map_err(|why| EngineError::Config(format!("{}: {why}", path.display())))?;
    if let Some(why) = settings
        .subagents
        .problem()
        .or_else(|| meaningless(&settings))
    {
        return Err(EngineError::Config(format!("{}: {why}", path.display())));
    }
    Ok(settings)
}

/// Values that parse but would mean nothing, silently: an `allow_local_hosts` entry that allows
/// nothing (a wildcard, a range, a URL), a channel no chat could be addressed to and a sandbox
/// grant that matches nothing or grants nothing.
fn meaningless(settings: &Settings) -> Option<String> {
    if let Some(why) = hearth_policy::grant_problem(&settings.security.grants) {
        return Some(why);
    }
    let network = hearth_tools::NetworkConfig {
        allow_local: settings.allow_local_hosts.clone(),
        ..Default::default()
    };
    if let Some((_, why)) = network.invalid_allow_entries().into_iter().next() {
        return Some(format!("allow_local_hosts: {why}"));
    }
    settings
        .channels
        .iter()
        .enumerate()
        .find_map(|(index, channel)| {
            hearth_protocol::check_channel_name(&channel.name)
                .err()
                .map(|why| format!("channels[{index}].name: {why}"))
        })
}

/// Parses the text of `config.toml`; the error is one line: the key, what is wrong with it
/// (the bad value and the allowed ones) and the line it is on.
fn parse_settings(text: &str) -> Result<Settings, String> {
    let document = toml::Deserializer::parse(text).map_err(|e| one_line(&e, text, None))?;
    serde_path_to_error::deserialize(document).map_err(|e| {
        let key = e.path().to_string();
        one_line(e.inner(), text, Some(key).filter(|k| k != "."))
    })
}

fn one_line(error: &toml::de::Error, text: &str, key: Option<String>) -> String {
    let message = error.message().trim().replace('\n', " ");
    let line = error
        .span()
        .map(|span| text[..span.start.min(text.len())].lines().count().max(1));
    let mut out = match key {
        Some(key) => format!("{key}: {message}"),
        None => message,
    };
    if let Some(line) = line {
        out.push_str(&format!(" (line {line})"));
    }
    out
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
