//! Every enumerated setting as a closed serde enum (a string union in TypeScript): a value that is
//! not one of the choices fails to load, naming the choices, instead of falling back.

use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;
use std::str::FromStr;
use ts_rs::TS;

/// A name that is not one of an enumerated setting's choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceError {
    /// What was being chosen, e.g. `security profile`.
    pub what: &'static str,
    pub value: String,
    /// The allowed values, comma-separated.
    pub expected: String,
}

impl fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} `{}` (expected one of: {})",
            self.what, self.value, self.expected
        )
    }
}

impl std::error::Error for ChoiceError {}

/// Declares a closed enum of named choices: serde and ts-rs use the given names, and `ALL`,
/// `as_str`, `FromStr` (whose error lists the choices) and `Display` come with it. It is
/// deserialized through `FromStr`, so a bad value in any format says the same thing.
macro_rules! choices {
    ($(#[$meta:meta])* $name:ident, $what:literal {
        $($(#[$vmeta:meta])* $variant:ident => $tag:literal,)+
    }) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, TS,
        )]
        #[ts(export)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $tag)] $variant,)+
        }

        impl $name {
            /// Every choice, in declaration order.
            pub const ALL: [$name; [$($tag,)+].len()] = [$($name::$variant,)+];

            /// The name as written in `config.toml`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $tag,)+
                }
            }
        }

        impl FromStr for $name {
            type Err = ChoiceError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($tag => Ok($name::$variant),)+
                    _ => Err(ChoiceError {
                        what: $what,
                        value: s.to_string(),
                        expected: [$($tag,)+].join(", "),
                    }),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let name = String::deserialize(deserializer)?;
                name.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

choices! {
    /// Which tools are exposed to the model. Cumulative: `minimal` ⊂ `messaging` ⊂ `coding` ⊂
    /// `full` (the derived order follows that chain).
    ToolProfile, "tool profile" {
        Minimal => "minimal",
        Messaging => "messaging",
        Coding => "coding",
        Full => "full",
    }
}

choices! {
    /// The run shape's security baseline.
    SecurityProfile, "security profile" {
        /// A person at the window: high-risk calls need approval.
        PersonalCli => "personal_cli",
        /// Tray / scheduled runs, nobody watching: high-risk calls need a job authorization.
        Daemon => "daemon",
        /// Messages from outside channels: high-risk, `fs.write` and `process.exec` are refused.
        PublicGateway => "public_gateway",
    }
}

choices! {
    /// Which wire format a provider speaks.
    ProviderKind, "provider kind" {
        /// OpenAI chat completions and compatible servers (OpenRouter, LM Studio, vLLM, llama.cpp…).
        Openai => "openai",
        Anthropic => "anthropic",
        Ollama => "ollama",
        Gemini => "gemini",
        /// A GGUF model from the models folder, run by llama.cpp in a worker process.
        Local => "local",
    }
}

choices! {
    /// What a user rule does to the calls it matches.
    RuleEffect, "rule effect" {
        Allow => "allow",
        Deny => "deny",
    }
}

choices! {
    /// How calls of one MCP tool are approved (`[mcp_servers.tools]` in `config.toml`).
    McpApproval, "MCP tool approval" {
        /// Runs without asking (still refused where the security profile refuses MCP calls).
        Always => "always",
        /// Asks under `personal_cli`, as every MCP call does by default.
        Ask => "ask",
        /// Never offered to the model.
        Never => "never",
    }
}

choices! {
    /// Which service answers `web_search`.
    SearchBackend, "web search backend" {
        /// A SearXNG instance (`searxng_url`) with the JSON format enabled.
        Searxng => "searxng",
        /// Brave Search API (key in the keychain).
        Brave => "brave",
        /// Tavily (key in the keychain).
        Tavily => "tavily",
    }
}

choices! {
    /// What closing the window does when the desktop shows no tray icons.
    CloseWithoutTray, "close without tray" {
        /// Ask the first time, then remember the answer.
        Ask => "ask",
        /// Hide the window and keep jobs running; launching Hearth again opens it.
        Background => "background",
        Quit => "quit",
    }
}

choices! {
    /// The UI's colour scheme.
    Theme, "theme" {
        Light => "light",
        Dark => "dark",
        /// Follow the operating system.
        System => "system",
    }
}

choices! {
    /// The UI's language.
    Language, "language" {
        En => "en",
        ZhCn => "zh-CN",
    }
}

choices! {
    /// A capability tag carried by a tool, as matched by policy rules; written dotted, e.g.
    /// `fs.read`.
    Capability, "capability" {
        FsRead => "fs.read",
        FsWrite => "fs.write",
        ProcessExec => "process.exec",
        ProcessManage => "process.manage",
        CodeExec => "code.exec",
        NetworkOutbound => "network.outbound",
        MessageSend => "message.send",
        MessageAsk => "message.ask",
        Notification => "notification",
        MemoryRead => "memory.read",
        MemoryWrite => "memory.write",
        SessionRead => "session.read",
        KnowledgeRead => "knowledge.read",
        KnowledgeWrite => "knowledge.write",
        ArtifactRead => "artifact.read",
        ArtifactWrite => "artifact.write",
        MediaGenerate => "media.generate",
        MediaRead => "media.read",
        BrowserControl => "browser.control",
        TaskWrite => "task.write",
        WorkflowWrite => "workflow.write",
        SchedulerWrite => "scheduler.write",
        AgentRead => "agent.read",
        AgentDispatch => "agent.dispatch",
        SkillRead => "skill.read",
        SkillWrite => "skill.write",
        SkillInstall => "skill.install",
        McpCall => "mcp.call",
        McpRead => "mcp.read",
    }
}

impl ProviderKind {
    /// The base URL used when none is configured.
    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::Openai => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
            ProviderKind::Ollama => "http://127.0.0.1:11434",
            ProviderKind::Gemini => "https://generativelanguage.googleapis.com/v1beta",
            ProviderKind::Local => "",
        }
    }

    /// The environment variable this provider's key is usually found in.
    pub fn key_env_var(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OPENAI_API_KEY",
            ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
            ProviderKind::Ollama => "OLLAMA_API_KEY",
            ProviderKind::Gemini => "GEMINI_API_KEY",
            ProviderKind::Local => "HEARTH_LOCAL_API_KEY",
        }
    }

    /// Whether this provider can run without an API key.
    pub fn key_optional(self) -> bool {
        matches!(self, ProviderKind::Ollama | ProviderKind::Local)
    }

    /// Whether this provider runs in Hearth itself, with no endpoint and no key.
    pub fn in_process(self) -> bool {
        matches!(self, ProviderKind::Local)
    }
}

/// The TypeScript constants listing every choice (`ui/src/lib/bindings/choices.ts`), so the UI's
/// menus come from the same declarations as the types.
pub fn typescript_choice_lists() -> String {
    fn list<T: Copy + fmt::Display>(out: &mut String, constant: &str, ty: &str, all: &[T]) {
        let names: Vec<String> = all.iter().map(|c| format!("'{c}'")).collect();
        out.push_str(&format!(
            "import type {{ {ty} }} from './{ty}';\nexport const {constant} = [{}] as const satisfies readonly {ty}[];\n",
            names.join(", ")
        ));
    }
    let mut out = String::from(
        "// Generated from crates/protocol/src/choices.rs by `cargo test -p hearth-protocol`. Do not edit.\n",
    );
    list(&mut out, "TOOL_PROFILES", "ToolProfile", &ToolProfile::ALL);
    list(
        &mut out,
        "SECURITY_PROFILES",
        "SecurityProfile",
        &SecurityProfile::ALL,
    );
    list(
        &mut out,
        "PROVIDER_KINDS",
        "ProviderKind",
        &ProviderKind::ALL,
    );
    list(&mut out, "RULE_EFFECTS", "RuleEffect", &RuleEffect::ALL);
    list(&mut out, "MCP_APPROVALS", "McpApproval", &McpApproval::ALL);
    list(
        &mut out,
        "SEARCH_BACKENDS",
        "SearchBackend",
        &SearchBackend::ALL,
    );
    list(&mut out, "THEMES", "Theme", &Theme::ALL);
    list(
        &mut out,
        "CLOSE_WITHOUT_TRAY",
        "CloseWithoutTray",
        &CloseWithoutTray::ALL,
    );
    list(&mut out, "LANGUAGES", "Language", &Language::ALL);
    list(&mut out, "CAPABILITIES", "Capability", &Capability::ALL);
    list(
        &mut out,
        "SPEECH_BACKENDS",
        "SpeechBackend",
        &SpeechBackend::ALL,
    );
    list(&mut out, "CHANNEL_KINDS", "ChannelKind", &ChannelKind::ALL);
    out
}

choices! {
    /// Where `text_to_speech` makes its audio.
    SpeechBackend, "speech backend" {
        /// `espeak-ng` from the operating system: offline, WAV.
        Local => "local",
        /// An OpenAI-compatible `/audio/speech` endpoint.
        Openai => "openai",
        /// Microsoft Edge's read-aloud service (not available: see the README's Media section).
        Edge => "edge",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Writes the choice lists beside the ts-rs bindings (CI checks they are committed).
    #[test]
    fn export_choice_lists() {
        let dir = crate::bindings_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let text = typescript_choice_lists();
        assert!(text.contains("export const LANGUAGES = ['en', 'zh-CN'] as const"));
        std::fs::write(dir.join("choices.ts"), text).unwrap();
    }

    #[test]
    fn names_round_trip_through_serde_and_from_str() {
        for language in Language::ALL {
            let json = serde_json::to_string(&language).unwrap();
            assert_eq!(json, format!("\"{}\"", language.as_str()));
            assert_eq!(language.as_str().parse::<Language>().unwrap(), language);
        }
        assert_eq!(Capability::FsWrite.as_str(), "fs.write");
        assert!(ToolProfile::Minimal < ToolProfile::Full);
    }

    #[test]
    fn an_unknown_name_lists_the_choices() {
        let error = "public_gatway".parse::<SecurityProfile>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown security profile `public_gatway` (expected one of: personal_cli, daemon, public_gateway)"
        );
        let serde_error = serde_json::from_str::<Theme>("\"blue\"").unwrap_err();
        assert!(serde_error
            .to_string()
            .starts_with("unknown theme `blue` (expected one of: light, dark, system)"));
    }
}

choices! {
    /// What kind of external channel a `[[channels]]` entry is.
    ChannelKind, "channel kind" {
        /// POST a JSON body to a URL; delivered means a 2xx answer.
        Webhook => "webhook",
        /// A Telegram bot (Bot API), outbound and optionally inbound by long polling.
        Telegram => "telegram",
    }
}
