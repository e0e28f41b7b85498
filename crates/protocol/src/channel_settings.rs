//! The external channels of `config.toml` (`[[channels]]`): a webhook or a Telegram bot, who may
//! write to Hearth through it and under which security profile. Tokens are never stored here:
//! they live in the OS keychain (`channel:<name>`) or in the environment variable `token_env`.
//! Plus what the app reports about them: [`ChannelStatus`] and a test's [`ChannelDelivery`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::choices::{ChannelKind, SecurityProfile};

/// One configured channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct ChannelSettings {
    /// Names the channel in targets (`<name>:<chat_id>`) and session ids; lower-case letters,
    /// digits, `-` and `_`; not `desktop`.
    pub name: String,
    pub kind: ChannelKind,
    /// The webhook's URL (webhook only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// HTTP headers sent with every webhook request (secrets belong in the token instead).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// The Bot API server (Telegram only); empty means `https://api.telegram.org`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The environment variable holding the token (the bot token; a webhook's bearer token),
    /// read before the keychain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_env: Option<String>,
    /// Whether Hearth reads messages from this channel (Telegram: long polling).
    #[serde(default)]
    pub inbound: bool,
    /// The chats that may write to Hearth; everyone else gets one refusal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_chats: Vec<AllowedChat>,
    /// Whether files are sent (a webhook: base64 in the body). `false` makes `send_file`
    /// refuse this channel.
    #[serde(default = "enabled")]
    pub files: bool,
    /// Seconds one delivery may take.
    #[serde(
        default = "delivery_timeout",
        deserialize_with = "crate::bounds::channel_secs"
    )]
    pub timeout_secs: u64,
    #[serde(default = "enabled")]
    pub enabled: bool,
}

/// A chat allowed to write to Hearth, and the security profile its turns run under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct AllowedChat {
    /// The channel's chat id (Telegram: the numeric chat id).
    pub id: String,
    /// `public_gateway` unless the user raised it.
    #[serde(default = "gateway")]
    pub profile: SecurityProfile,
}

impl ChannelSettings {
    /// A channel named `name` of `kind` with nothing else set.
    pub fn new(name: impl Into<String>, kind: ChannelKind) -> ChannelSettings {
        ChannelSettings {
            name: name.into(),
            kind,
            url: None,
            headers: BTreeMap::new(),
            base_url: None,
            token_env: None,
            inbound: false,
            allowed_chats: Vec::new(),
            files: true,
            timeout_secs: delivery_timeout(),
            enabled: true,
        }
    }

    /// The keychain account of the channel's token.
    pub fn token_account(&self) -> String {
        format!("channel:{}", self.name)
    }

    /// The allow-list entry of `chat_id`, if the chat may write to Hearth.
    pub fn allowed(&self, chat_id: &str) -> Option<&AllowedChat> {
        self.allowed_chats.iter().find(|chat| chat.id == chat_id)
    }
}

/// The prefixes of Hearth's own sessions (`desktop:<id>`, `cli:<id>`, …), which no channel may
/// be named.
pub const LOCAL_SESSION_KINDS: [&str; 4] = ["desktop", "cli", "job", "task"];

/// Refuses a channel name that cannot be part of a chat target (a chat target is
/// `<channel>:<chat>`, so Hearth's own session kinds are taken).
pub fn check_channel_name(name: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !valid {
        return Err(format!(
            "`{name}` is not a channel name: use 1 to 32 lower-case letters, digits, `-` or `_`"
        ));
    }
    if LOCAL_SESSION_KINDS.contains(&name) {
        return Err(format!(
            "`{name}` is taken by Hearth's own sessions; choose another name"
        ));
    }
    Ok(())
}

fn delivery_timeout() -> u64 {
    30
}

fn enabled() -> bool {
    true
}

fn gateway() -> SecurityProfile {
    SecurityProfile::PublicGateway
}

/// How a configured channel stands in the running app (Settings → Channels).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ChannelStatus {
    pub name: String,
    /// Built and able to send (its URL, token and the rest were usable).
    pub ready: bool,
    /// Why it could not be built (a missing token…), when it could not.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// Whether the app reads messages from it now (inbound on, built, able to receive).
    pub polling: bool,
}

/// What a channel confirmed for a test message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ChannelDelivery {
    /// `<channel>:<chat_id>`.
    pub target: String,
    /// The ids the channel gave what it delivered.
    pub message_ids: Vec<String>,
}
