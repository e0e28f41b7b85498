//! Hearth's external channels behind the engine's [`hearth_core::Channel`] trait: a webhook
//! (POST a JSON body to the user's URL; delivered means 2xx) and a Telegram bot (Bot API with
//! a configurable base URL: `sendMessage`, `sendDocument`, `sendPhoto`, and `getUpdates` long
//! polling for inbound chats). Every request goes through the SSRF guard.

mod http;
mod telegram;
mod webhook;

use std::sync::Arc;

use hearth_core::{Channel, ChannelError, ChannelFactory};
use hearth_protocol::{ChannelKind, ChannelSettings};

pub use hearth_protocol::check_channel_name as check_name;
pub use telegram::{escape_html, split_text, Telegram, DEFAULT_BASE_URL, TEXT_LIMIT};
pub use webhook::Webhook;

/// Builds webhook and Telegram channels from their settings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Adapters;

impl ChannelFactory for Adapters {
    fn open(
        &self,
        settings: &ChannelSettings,
        allow_local: &[String],
        token: Option<String>,
    ) -> Result<Arc<dyn Channel>, ChannelError> {
        check_name(&settings.name).map_err(ChannelError::Misconfigured)?;
        Ok(match settings.kind {
            ChannelKind::Webhook => Arc::new(Webhook::new(settings, allow_local, token)?),
            ChannelKind::Telegram => Arc::new(Telegram::new(settings, allow_local, token)?),
        })
    }
}

/// The chat a test message goes to: a webhook's chat `test`, a Telegram bot's first allowed
/// chat (a bot cannot write to a chat that never wrote to it).
pub fn test_target(channel: &ChannelSettings) -> Result<String, ChannelError> {
    let chat = match channel.kind {
        ChannelKind::Webhook => "test".to_string(),
        ChannelKind::Telegram => channel
            .allowed_chats
            .first()
            .map(|c| c.id.clone())
            .ok_or_else(|| {
                ChannelError::Misconfigured(format!(
                    "channel `{}` has no allowed chat to send a test to: allow your own chat id first",
                    channel.name
                ))
            })?,
    };
    Ok(format!("{}:{chat}", channel.name))
}
