//! Updates: the `[updates]` table of `config.toml` (off until an endpoint and its signing key
//! are set) and what Settings → About learns when it checks.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where Hearth looks for a new version, and the key every release must be signed with.
/// Both empty (the default): updates are off and Hearth never asks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct UpdateSettings {
    /// The update manifest's URL (`https://`; `http://` only on 127.0.0.1, `[::1]` or
    /// `localhost`). `{{target}}`, `{{arch}}` and `{{current_version}}` are filled in.
    pub endpoint: String,
    /// The public key releases are signed with: the content of the `.pub` file
    /// `tauri signer generate` writes (one base64 line).
    pub pubkey: String,
}

impl UpdateSettings {
    /// Whether Hearth may check for updates.
    pub fn enabled(&self) -> bool {
        !self.endpoint.is_empty()
    }
}

impl<'de> Deserialize<'de> for UpdateSettings {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = UpdateSettingsToml::deserialize(deserializer)?;
        UpdateSettings::try_from(raw).map_err(serde::de::Error::custom)
    }
}

/// `[updates]` as written, checked before it becomes [`UpdateSettings`].
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct UpdateSettingsToml {
    endpoint: String,
    pubkey: String,
}

impl TryFrom<UpdateSettingsToml> for UpdateSettings {
    type Error = String;

    fn try_from(raw: UpdateSettingsToml) -> Result<UpdateSettings, String> {
        let settings = UpdateSettings {
            endpoint: raw.endpoint.trim().to_string(),
            pubkey: raw.pubkey.trim().to_string(),
        };
        if settings.endpoint.is_empty() {
            return if settings.pubkey.is_empty() {
                Ok(settings)
            } else {
                Err("a pubkey without an endpoint: set endpoint too, or remove pubkey".into())
            };
        }
        if !endpoint_allowed(&settings.endpoint) {
            return Err(format!(
                "endpoint '{}' must start with https:// (http:// only on 127.0.0.1, [::1] or localhost)",
                settings.endpoint
            ));
        }
        if settings.pubkey.is_empty() {
            return Err("an endpoint needs the pubkey its releases are signed with".into());
        }
        Ok(settings)
    }
}

fn endpoint_allowed(endpoint: &str) -> bool {
    if let Some(rest) = endpoint.strip_prefix("https://") {
        return !rest.is_empty();
    }
    let Some(rest) = endpoint.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    matches!(host, "127.0.0.1" | "::1" | "localhost")
}

/// What Settings → About shows before any check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AboutInfo {
    /// The running version.
    pub version: String,
    /// Whether `[updates]` in `config.toml` sets an endpoint and its key.
    pub updates_enabled: bool,
    /// The endpoint asked when checking (empty when off).
    pub endpoint: String,
}

/// What checking for updates found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct UpdateCheck {
    /// The running version.
    pub current_version: String,
    /// The newer version offered, if any.
    pub available: Option<AvailableUpdate>,
}

/// A newer version the update server offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AvailableUpdate {
    pub version: String,
    /// Release notes, as the server sent them.
    pub notes: Option<String>,
    /// Publication date as the server wrote it (RFC 3339), when it gave one.
    pub date: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(toml_json: serde_json::Value) -> Result<UpdateSettings, String> {
        serde_json::from_value(toml_json).map_err(|e| e.to_string())
    }

    #[test]
    fn updates_are_off_by_default_and_need_both_an_endpoint_and_a_key() {
        let off = parse(serde_json::json!({})).unwrap();
        assert!(!off.enabled());
        let on = parse(
            serde_json::json!({"endpoint": "https://example.org/{{target}}.json", "pubkey": "a2V5"}),
        );
        assert!(on.unwrap().enabled());
        let no_key = parse(serde_json::json!({"endpoint": "https://example.org/latest.json"}));
        assert!(no_key.unwrap_err().contains("needs the pubkey"));
        let no_endpoint = parse(serde_json::json!({"pubkey": "a2V5"}));
        assert!(no_endpoint.unwrap_err().contains("without an endpoint"));
    }

    #[test]
    fn plain_http_is_refused_except_on_this_machine() {
        for ok in [
            "http://127.0.0.1:8080/latest.json",
            "http://localhost/x",
            "http://[::1]:9/x",
        ] {
            assert!(
                parse(serde_json::json!({"endpoint": ok, "pubkey": "k"})).is_ok(),
                "{ok}"
            );
        }
        for bad in [
            "http://example.org/latest.json",
            "http://127.0.0.1.example.org/x",
            "ftp://x",
            "https://",
        ] {
            let error = parse(serde_json::json!({"endpoint": bad, "pubkey": "k"})).unwrap_err();
            assert!(error.contains("must start with https://"), "{bad}: {error}");
        }
    }

    #[test]
    fn an_unknown_key_is_refused() {
        let error = parse(serde_json::json!({"endpoint": "", "channel": "beta"})).unwrap_err();
        assert!(error.contains("unknown field `channel`"), "{error}");
    }
}
