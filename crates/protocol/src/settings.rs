//! User settings as stored in `config.toml` and shown in the settings UI. API keys are never
//! part of these types: they live in the OS keychain, and the UI only sees a masked hint.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

use crate::choices::{
    Capability, CloseWithoutTray, Language, McpApproval, ProviderKind, RuleEffect, SearchBackend,
    SecurityProfile, Theme, ToolProfile,
};

/// A configured model endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct ProviderEntry {
    /// Stable id, used as the keychain account name (`provider:<id>`).
    pub id: String,
    /// Display name, e.g. "OpenRouter".
    pub name: String,
    /// Wire format.
    pub kind: ProviderKind,
    /// Base URL; empty means the provider's default.
    #[serde(default)]
    pub base_url: String,
    #[serde(default)]
    pub default_model: Option<String>,
}

/// Everything in `config.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    pub providers: Vec<ProviderEntry>,
    /// Id of the provider new chats use.
    pub default_provider: Option<String>,
    pub default_model: Option<String>,
    pub tool_profile: ToolProfile,
    pub security_profile: SecurityProfile,
    pub language: Language,
    pub theme: Theme,
    pub start_at_login: bool,
    /// What closing the window does on a desktop with no tray icon host: ask (the default),
    /// keep running in the background, or quit. With a tray the window always hides to it.
    pub close_without_tray: CloseWithoutTray,
    /// Tool-loop iterations allowed per turn.
    #[serde(deserialize_with = "crate::bounds::max_iterations")]
    pub max_iterations: u32,
    /// Context window assumed when the provider does not report one.
    pub context_window: u64,
    /// Context windows by model name (`[model_context_windows]`, e.g. `"qwen3:8b" = 8192`): what
    /// the provider reported when the model was chosen, or the user's override.
    pub model_context_windows: std::collections::BTreeMap<String, u64>,
    /// "Pause all jobs" in the tray: the app's scheduler fires nothing while set.
    pub jobs_paused: bool,
    /// Local or special-purpose targets the network tools may reach despite the SSRF guard:
    /// `"host"` (every port) or `"host:port"`, e.g. `"127.0.0.1:11434"`. Empty (the default)
    /// allows none.
    pub allow_local_hosts: Vec<String>,
    /// The `web_search` backend. Brave and Tavily keys live in the OS keychain, not here.
    pub search: SearchSettings,
    /// User rules refining the security profile (`[[rules]]` in `config.toml`); deny wins.
    pub rules: Vec<PolicyRule>,
    /// The OS sandbox of the programs the agent starts (`[security]`).
    pub security: crate::security_settings::SecuritySettings,
    /// Where new versions are offered and the key they are signed with (`[updates]`; off
    /// until both are set).
    pub updates: crate::updates::UpdateSettings,
    /// MCP servers whose tools Hearth offers (`[[mcp_servers]]`); secrets live in the keychain.
    pub mcp_servers: Vec<McpServerSettings>,
    /// Personas sub-agents can run as (`[[agents]]`).
    pub agents: Vec<crate::agent_settings::AgentPersona>,
    /// Bounds on sub-agents (`[subagents]`).
    pub subagents: crate::agent_settings::SubAgentSettings,
    /// The media tools' providers (`[media]`); their keys live in the keychain.
    #[serde(default)]
    pub media: crate::media_settings::MediaSettings,
    /// The agent's browser (`[browser]`).
    pub browser: crate::browser_settings::BrowserSettings,
    /// External channels (`[[channels]]`): webhooks and Telegram bots; tokens in the keychain.
    #[serde(default)]
    pub channels: Vec<crate::channel_settings::ChannelSettings>,
    /// Long deliverables (`[artifacts]`) and the knowledge base (`[knowledge]`).
    #[serde(default)]
    pub artifacts: crate::document_settings::ArtifactSettings,
    #[serde(default)]
    pub knowledge: crate::document_settings::KnowledgeSettings,
    /// How the `local` provider runs GGUF models (`[local]`).
    #[serde(default)]
    pub local: crate::local_models::LocalSettings,
}

/// One user rule: allow or deny a tool (by canonical name, `*` at the end matching a prefix)
/// or every tool carrying a capability, optionally only in one workspace folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct PolicyRule {
    pub effect: RuleEffect,
    /// A tool name, e.g. `exec` or `mcp__github__*` (give this or `capability`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// A capability tag, e.g. `fs.write` or `network.outbound`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability: Option<Capability>,
    /// Only in this workspace folder and below.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
}

/// One MCP server: a command Hearth starts (stdio) or a URL it connects to (streamable HTTP).
/// Values of the `secret_env` variables and `secret_headers` are kept in the OS keychain
/// (`mcp:<name>:env:<VAR>`, `mcp:<name>:header:<Header>`), never in `config.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct McpServerSettings {
    /// Names the server and its tools (`mcp__<name>__<tool>`).
    pub name: String,
    /// The program of a stdio server, found on the login shell's `PATH` (e.g. `npx`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default)]
    pub args: Vec<String>,
    /// Extra environment variables of a stdio server.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Environment variables whose values are in the keychain.
    #[serde(default)]
    pub secret_env: Vec<String>,
    /// Working folder of a stdio server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The endpoint of a streamable HTTP server (give this or `command`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// HTTP headers sent with every request.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Headers whose values are in the keychain (e.g. `Authorization`).
    #[serde(default)]
    pub secret_headers: Vec<String>,
    #[serde(default = "enabled")]
    pub enabled: bool,
    /// Seconds to wait for the server to start and list its tools.
    #[serde(
        default = "startup_timeout",
        deserialize_with = "crate::bounds::mcp_startup_secs"
    )]
    pub startup_timeout_secs: u64,
    /// Seconds a call may go without an answer or progress.
    #[serde(
        default = "call_timeout",
        deserialize_with = "crate::bounds::mcp_call_secs"
    )]
    pub call_timeout_secs: u64,
    /// Only these tools (server names) are offered; empty offers all.
    #[serde(default)]
    pub allow_tools: Vec<String>,
    /// These tools are never offered.
    #[serde(default)]
    pub deny_tools: Vec<String>,
    /// Tools the server annotates `readOnlyHint: true` run without asking.
    #[serde(default)]
    pub trust_read_only: bool,
    /// Per-tool approval by the server's tool name; unlisted tools ask.
    #[serde(default)]
    #[ts(as = "std::collections::HashMap<String, McpApproval>")]
    pub tools: BTreeMap<String, McpApproval>,
    /// OAuth sign-in of a streamable HTTP server (`[mcp_servers.oauth]`).
    #[serde(default)]
    pub oauth: crate::mcp_oauth_settings::McpOAuthSettings,
}

fn enabled() -> bool {
    true
}

fn startup_timeout() -> u64 {
    30
}

fn call_timeout() -> u64 {
    60
}

impl McpServerSettings {
    /// A stdio server running `command args…`, with the defaults for everything else.
    pub fn stdio(name: &str, command: &str, args: &[String]) -> McpServerSettings {
        McpServerSettings {
            command: Some(command.to_string()),
            args: args.to_vec(),
            ..McpServerSettings::named(name)
        }
    }

    /// A streamable HTTP server at `url`, with the defaults for everything else.
    pub fn http(name: &str, url: &str) -> McpServerSettings {
        McpServerSettings {
            url: Some(url.to_string()),
            ..McpServerSettings::named(name)
        }
    }

    fn named(name: &str) -> McpServerSettings {
        McpServerSettings {
            name: name.to_string(),
            command: None,
            args: Vec::new(),
            env: BTreeMap::new(),
            secret_env: Vec::new(),
            cwd: None,
            url: None,
            headers: BTreeMap::new(),
            secret_headers: Vec::new(),
            enabled: true,
            startup_timeout_secs: startup_timeout(),
            call_timeout_secs: call_timeout(),
            allow_tools: Vec::new(),
            deny_tools: Vec::new(),
            trust_read_only: false,
            tools: BTreeMap::new(),
            oauth: Default::default(),
        }
    }
}

/// Which service answers `web_search`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSettings {
    /// The service to ask; none (or `""`, as older versions wrote it) picks the first
    /// configured of SearXNG, Brave and Tavily.
    #[serde(with = "empty_as_none", skip_serializing_if = "Option::is_none")]
    #[ts(as = "Option<SearchBackend>", optional)]
    pub backend: Option<SearchBackend>,
    /// Base URL of a SearXNG instance with the JSON format enabled; empty for none.
    pub searxng_url: String,
}

impl Settings {
    /// The context window of `model`: its entry in `model_context_windows`, else
    /// `context_window`.
    pub fn context_window_of(&self, model: &str) -> u64 {
        self.model_context_windows
            .get(model)
            .copied()
            .filter(|&tokens| tokens > 0)
            .unwrap_or(self.context_window)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            providers: Vec::new(),
            default_provider: None,
            default_model: None,
            tool_profile: ToolProfile::Full,
            security_profile: SecurityProfile::PersonalCli,
            language: Language::En,
            theme: Theme::System,
            start_at_login: false,
            close_without_tray: CloseWithoutTray::Ask,
            max_iterations: 50,
            context_window: 128_000,
            model_context_windows: std::collections::BTreeMap::new(),
            jobs_paused: false,
            allow_local_hosts: Vec::new(),
            search: SearchSettings::default(),
            rules: Vec::new(),
            security: Default::default(),
            updates: crate::updates::UpdateSettings::default(),
            mcp_servers: Vec::new(),
            agents: Vec::new(),
            subagents: crate::agent_settings::SubAgentSettings::default(),
            media: crate::media_settings::MediaSettings::default(),
            browser: crate::browser_settings::BrowserSettings::default(),
            channels: Vec::new(),
            artifacts: crate::document_settings::ArtifactSettings::default(),
            knowledge: crate::document_settings::KnowledgeSettings::default(),
            local: crate::local_models::LocalSettings::default(),
        }
    }
}

/// An optional choice where an empty string (as earlier versions saved "none") also means none.
mod empty_as_none {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    pub fn serialize<S: Serializer, T: Serialize>(
        value: &Option<T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(serializer)
    }

    pub fn deserialize<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: FromStr,
        T::Err: Display,
    {
        let text = Option::<String>::deserialize(deserializer)?;
        match text.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(name) => name.parse().map(Some).map_err(serde::de::Error::custom),
        }
    }
}

/// What the settings UI knows about a provider's key: whether one is stored, and its last four
/// characters. A keychain that cannot be asked counts as no key stored, with
/// `keychain_unavailable` set so the UI can say so calmly where a key is needed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct KeyStatus {
    pub provider_id: String,
    pub stored: bool,
    /// e.g. `••••abcd`.
    pub masked: Option<String>,
    /// The OS keychain could not be asked (none running, locked, or no default collection).
    #[serde(default)]
    pub keychain_unavailable: bool,
}
