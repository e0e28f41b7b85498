//! Import of the `mcpServers` JSON that Claude Desktop, Cursor and Jan use: servers as settings,
//! and the values that look secret (tokens, keys, passwords, `Authorization`) split off for the
//! keychain so they never reach `config.toml`.

use hearth_protocol::McpServerSettings;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

use crate::config::{env_secret_account, header_secret_account};
use crate::names::sanitize;

/// A server from the file, and its secrets as (keychain account, value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub server: McpServerSettings,
    pub secrets: Vec<(String, String)>,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("no `mcpServers` object in the JSON")]
    NoServers,
    #[error("server `{name}`: {message}")]
    Server { name: String, message: String },
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, Value>,
    cwd: Option<String>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    /// Jan: whether the server is switched on.
    active: Option<bool>,
    /// Claude/Cursor variants: whether it is switched off.
    disabled: Option<bool>,
}

/// The servers in `text` (`{"mcpServers": {name: {command, args, env} | {url, headers}}}`, or
/// the inner object alone).
pub fn import_servers(text: &str) -> Result<Vec<Imported>, ImportError> {
    let json: Value = serde_json::from_str(text)?;
    let servers = match json.get("mcpServers") {
        Some(Value::Object(map)) => map.clone(),
        Some(_) => return Err(ImportError::NoServers),
        None => match json {
            Value::Object(map) if map.values().all(looks_like_server) && !map.is_empty() => map,
            _ => return Err(ImportError::NoServers),
        },
    };
    servers
        .into_iter()
        .map(|(name, entry)| {
            let entry: Entry = serde_json::from_value(entry).map_err(|e| ImportError::Server {
                name: name.clone(),
                message: e.to_string(),
            })?;
            Ok(imported(&server_name(&name), entry))
        })
        .collect()
}

fn looks_like_server(value: &Value) -> bool {
    value.get("command").is_some() || value.get("url").is_some()
}

/// A usable server name from the file's key (`my server` → `my-server`).
fn server_name(key: &str) -> String {
    let mut name = sanitize(key).replace('_', "-");
    while name.contains("--") {
        name = name.replace("--", "-");
    }
    let name: String = name.trim_matches('-').chars().take(32).collect();
    if name.is_empty() {
        "server".to_string()
    } else {
        name
    }
}

fn imported(name: &str, entry: Entry) -> Imported {
    let mut server = match (&entry.url, &entry.command) {
        (Some(url), None) => McpServerSettings::http(name, url),
        _ => McpServerSettings::stdio(name, entry.command.as_deref().unwrap_or(""), &entry.args),
    };
    server.cwd = entry.cwd;
    server.enabled = entry.active.unwrap_or(true) && !entry.disabled.unwrap_or(false);
    let mut secrets = Vec::new();
    for (key, value) in entry.env {
        let value = match value {
            Value::String(text) => text,
            other => other.to_string(),
        };
        if secret_looking(&key) {
            secrets.push((env_secret_account(name, &key), value));
            server.secret_env.push(key);
        } else {
            server.env.insert(key, value);
        }
    }
    for (key, value) in entry.headers {
        if secret_looking(&key) {
            secrets.push((header_secret_account(name, &key), value));
            server.secret_headers.push(key);
        } else {
            server.headers.insert(key, value);
        }
    }
    Imported { server, secrets }
}

/// Whether a variable or header name suggests its value is a credential.
fn secret_looking(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    [
        "token",
        "key",
        "secret",
        "password",
        "passwd",
        "auth",
        "credential",
        "cookie",
    ]
    .iter()
    .any(|word| key.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_desktop_json_with_secrets_split_off() {
        let text = r#"{"mcpServers": {
            "github server": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                               "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_x", "LOG_LEVEL": "debug"}},
            "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer t", "X-Team": "a"}},
            "off": {"command": "uvx", "args": ["mcp-server-time"], "active": false}
        }}"#;
        let servers = import_servers(text).unwrap();
        let github = &servers[0];
        assert_eq!(github.server.name, "github-server");
        assert_eq!(github.server.command.as_deref(), Some("npx"));
        assert_eq!(github.server.env["LOG_LEVEL"], "debug");
        assert_eq!(github.server.secret_env, ["GITHUB_PERSONAL_ACCESS_TOKEN"]);
        assert_eq!(
            github.secrets,
            [(
                "mcp:github-server:env:GITHUB_PERSONAL_ACCESS_TOKEN".to_string(),
                "ghp_x".to_string()
            )]
        );
        let off = servers.iter().find(|s| s.server.name == "off").unwrap();
        assert!(!off.server.enabled);
        let remote = servers.iter().find(|s| s.server.name == "remote").unwrap();
        assert_eq!(
            remote.server.url.as_deref(),
            Some("https://mcp.example.com/mcp")
        );
        assert_eq!(remote.server.headers["X-Team"], "a");
        assert_eq!(remote.server.secret_headers, ["Authorization"]);
        assert_eq!(remote.secrets[0].0, "mcp:remote:header:authorization");
    }

    #[test]
    fn pasted_inner_object_and_garbage() {
        let servers =
            import_servers(r#"{"time": {"command": "uvx", "args": ["mcp-server-time"]}}"#).unwrap();
        assert_eq!(servers[0].server.args, ["mcp-server-time"]);
        assert!(matches!(import_servers("[1]"), Err(ImportError::NoServers)));
        assert!(matches!(import_servers("{"), Err(ImportError::Json(_))));
    }
}
