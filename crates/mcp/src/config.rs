//! A server's settings checked and resolved for starting it: the transport (with the secrets
//! from the keychain filled in), its timeouts, and which tools it offers under what approval.

use hearth_protocol::{McpApproval, McpServerSettings};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crate::names::valid_server_name;

/// How Hearth reaches a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A child process speaking JSON-RPC on stdin/stdout.
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        cwd: Option<PathBuf>,
    },
    /// A streamable HTTP endpoint (falling back to HTTP+SSE), signed in to with OAuth when
    /// it asks.
    Http {
        url: String,
        headers: BTreeMap<String, String>,
        oauth: crate::oauth::OAuthSpec,
    },
}

/// One server, ready to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSpec {
    pub name: String,
    pub transport: Transport,
    pub startup_timeout: Duration,
    pub call_timeout: Duration,
}

/// Which of a server's tools are offered and which run without asking: changed in the settings
/// without restarting the server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offer {
    pub allow_tools: Vec<String>,
    pub deny_tools: Vec<String>,
    pub trust_read_only: bool,
    pub approvals: BTreeMap<String, McpApproval>,
}

impl Offer {
    /// The offer of `server`'s settings.
    pub fn of(server: &McpServerSettings) -> Offer {
        Offer {
            allow_tools: server.allow_tools.clone(),
            deny_tools: server.deny_tools.clone(),
            trust_read_only: server.trust_read_only,
            approvals: server.tools.clone(),
        }
    }

    /// Whether the server's tool `tool` is offered to the model.
    pub fn offers(&self, tool: &str) -> bool {
        (self.allow_tools.is_empty() || self.allow_tools.iter().any(|t| t == tool))
            && !self.deny_tools.iter().any(|t| t == tool)
            && self.approvals.get(tool) != Some(&McpApproval::Never)
    }

    /// Whether calls of `tool` run without asking: set to Always, or annotated read-only on a
    /// server trusted for that.
    pub fn runs_unasked(&self, tool: &str, read_only_hint: bool) -> bool {
        match self.approvals.get(tool) {
            Some(McpApproval::Always) => true,
            Some(McpApproval::Ask | McpApproval::Never) => false,
            None => self.trust_read_only && read_only_hint,
        }
    }
}

/// The keychain account of a secret environment variable of `server`.
pub fn env_secret_account(server: &str, variable: &str) -> String {
    format!("mcp:{server}:env:{variable}")
}

/// The keychain account of a secret header of `server`.
pub fn header_secret_account(server: &str, header: &str) -> String {
    format!("mcp:{server}:header:{}", header.to_ascii_lowercase())
}

/// Why a server's settings cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "MCP server name `{0}` must be 1–32 characters of letters, digits, `-` or `_` (no `__`)"
    )]
    BadName(String),
    #[error("MCP server `{0}` is configured twice")]
    Duplicate(String),
    #[error("MCP server `{0}` needs exactly one of `command` (stdio) or `url` (streamable HTTP)")]
    Transport(String),
    #[error("MCP server `{name}`: url `{url}` must start with http:// or https://")]
    BadUrl { name: String, url: String },
    #[error("MCP server `{name}`: timeouts must be at least 1 second")]
    Timeout { name: String },
    #[error("MCP server `{name}`: secret `{secret}` is not in the keychain (account `{account}`)")]
    MissingSecret {
        name: String,
        secret: String,
        account: String,
    },
}

/// Checks every server's settings (names unique and plain, one transport, sane timeouts).
pub fn check_servers(servers: &[McpServerSettings]) -> Result<(), ConfigError> {
    let mut seen = std::collections::HashSet::new();
    for server in servers {
        check_server(server)?;
        if !seen.insert(server.name.as_str()) {
            return Err(ConfigError::Duplicate(server.name.clone()));
        }
    }
    Ok(())
}

fn check_server(server: &McpServerSettings) -> Result<(), ConfigError> {
    let name = &server.name;
    if !valid_server_name(name) {
        return Err(ConfigError::BadName(name.clone()));
    }
    match (&server.command, &server.url) {
        (Some(command), None) if !command.trim().is_empty() => {}
        (None, Some(url)) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(ConfigError::BadUrl {
                    name: name.clone(),
                    url: url.clone(),
                });
            }
        }
        _ => return Err(ConfigError::Transport(name.clone())),
    }
    if server.startup_timeout_secs == 0 || server.call_timeout_secs == 0 {
        return Err(ConfigError::Timeout { name: name.clone() });
    }
    Ok(())
}

/// `server` checked, with its secrets looked up through `secret` (a keychain account → value).
pub fn resolve(
    server: &McpServerSettings,
    secret: &dyn Fn(&str) -> Option<String>,
) -> Result<ServerSpec, ConfigError> {
    check_server(server)?;
    let name = server.name.clone();
    let lookup = |key: &str, account: String| {
        secret(&account).ok_or_else(|| ConfigError::MissingSecret {
            name: name.clone(),
            secret: key.to_string(),
            account,
        })
    };
    let transport = match (&server.command, &server.url) {
        (Some(command), _) => {
            let mut env = server.env.clone();
            for variable in &server.secret_env {
                let value = lookup(variable, env_secret_account(&name, variable))?;
                env.insert(variable.clone(), value);
            }
            Transport::Stdio {
                command: command.clone(),
                args: server.args.clone(),
                env,
                cwd: server.cwd.as_ref().map(PathBuf::from),
            }
        }
        (None, url) => {
            let mut headers = server.headers.clone();
            for header in &server.secret_headers {
                let value = lookup(header, header_secret_account(&name, header))?;
                headers.insert(header.clone(), value);
            }
            Transport::Http {
                url: url.clone().unwrap_or_default(),
                headers,
                oauth: crate::oauth::OAuthSpec::of(server, secret),
            }
        }
    };
    Ok(ServerSpec {
        name: server.name.clone(),
        transport,
        startup_timeout: Duration::from_secs(server.startup_timeout_secs),
        call_timeout: Duration::from_secs(server.call_timeout_secs),
    })
}

/// Whether two settings of a server start it the same way (they may differ in what is offered).
pub fn same_connection(a: &McpServerSettings, b: &McpServerSettings) -> bool {
    let plain = |s: &McpServerSettings| McpServerSettings {
        allow_tools: Vec::new(),
        deny_tools: Vec::new(),
        trust_read_only: false,
        tools: BTreeMap::new(),
        ..s.clone()
    };
    plain(a) == plain(b)
}

/// The keychain accounts of `server`'s secrets.
pub fn secret_accounts(server: &McpServerSettings) -> Vec<String> {
    let name = &server.name;
    server
        .secret_env
        .iter()
        .map(|v| env_secret_account(name, v))
        .chain(
            server
                .secret_headers
                .iter()
                .map(|h| header_secret_account(name, h)),
        )
        .chain(
            server
                .url
                .is_some()
                .then(|| crate::oauth::tokens_account(name)),
        )
        .chain(
            server
                .oauth
                .client_id
                .is_some()
                .then(|| crate::oauth::client_secret_account(name)),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_come_from_the_keychain_and_a_missing_one_is_named() {
        let mut server = McpServerSettings::stdio("gh", "npx", &["-y".into()]);
        server.secret_env = vec!["TOKEN".into()];
        let found = resolve(&server, &|account| {
            (account == "mcp:gh:env:TOKEN").then(|| "s3cret".to_string())
        })
        .unwrap();
        let Transport::Stdio { env, .. } = found.transport else {
            panic!("stdio expected");
        };
        assert_eq!(env["TOKEN"], "s3cret");
        let missing = resolve(&server, &|_| None).unwrap_err();
        assert!(
            missing.to_string().contains("mcp:gh:env:TOKEN"),
            "{missing}"
        );
    }

    #[test]
    fn bad_settings_are_refused_with_the_server_named() {
        let both = McpServerSettings {
            url: Some("http://x".into()),
            ..McpServerSettings::stdio("both", "npx", &[])
        };
        assert_eq!(
            check_servers(&[both]).unwrap_err(),
            ConfigError::Transport("both".into())
        );
        let bad_url = McpServerSettings::http("web", "ftp://x");
        assert!(matches!(
            check_servers(&[bad_url]),
            Err(ConfigError::BadUrl { .. })
        ));
        let twice = McpServerSettings::http("a", "http://x");
        assert_eq!(
            check_servers(&[twice.clone(), twice]).unwrap_err(),
            ConfigError::Duplicate("a".into())
        );
    }

    #[test]
    fn only_connection_settings_restart_a_server() {
        let server = McpServerSettings::stdio("s", "npx", &["a".into()]);
        let mut offered = server.clone();
        offered.tools.insert("rm".into(), McpApproval::Never);
        offered.trust_read_only = true;
        offered.deny_tools = vec!["x".into()];
        assert!(same_connection(&server, &offered));
        let mut args = server.clone();
        args.args.push("b".into());
        let mut off = server.clone();
        off.enabled = false;
        assert!(!same_connection(&server, &args) && !same_connection(&server, &off));
        let mut secret = server.clone();
        secret.secret_env = vec!["TOKEN".into()];
        assert_eq!(secret_accounts(&secret), ["mcp:s:env:TOKEN"]);
    }

    #[test]
    fn approvals_filter_and_trust() {
        let mut server = McpServerSettings::stdio("s", "x", &[]);
        server.tools.insert("rm".into(), McpApproval::Never);
        server.tools.insert("ls".into(), McpApproval::Always);
        server.tools.insert("cat".into(), McpApproval::Ask);
        server.trust_read_only = true;
        let spec = Offer::of(&server);
        assert!(!spec.offers("rm") && spec.offers("ls"));
        assert!(spec.runs_unasked("ls", false));
        assert!(
            !spec.runs_unasked("cat", true),
            "Ask wins over the read-only trust"
        );
        assert!(spec.runs_unasked("stat", true) && !spec.runs_unasked("stat", false));
    }
}
