//! `notify` (message, channel, chat_id): a notice into the current session by default — which,
//! for a chat that came from Telegram, reaches that chat — or into any channel's chat.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};

use super::send::checked_text;
use super::{Outbound, Sender, Target};

/// `notify`.
pub(super) struct Notify(pub(super) Sender);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotifyArgs {
    /// The note.
    #[schemars(length(min = 1, max = 20000))]
    pub message: String,
    /// The channel (default: the current session's).
    pub channel: Option<String>,
    /// The chat in that channel (default: the current session).
    pub chat_id: Option<String>,
}

#[async_trait]
impl Tool for Notify {
    type Args = NotifyArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::NOTIFY
    }

    fn description(&self) -> &str {
        "Post a notice into a chat: the current one unless channel and chat_id name another \
         (any configured channel). Waits for the channel to confirm delivery."
    }

    async fn run(&self, ctx: &ToolContext, args: NotifyArgs) -> Result<Value, ToolError> {
        let text = checked_text("message", &args.message)?;
        let target = self.target(ctx, args.channel.as_deref(), args.chat_id.as_deref())?;
        self.0
            .deliver(Outbound {
                target,
                text,
                files: Vec::new(),
                origin: ctx.session_id.clone(),
                model: None,
            })
            .await
    }
}

/// A trimmed argument, `None` when blank.
fn clean(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

impl Notify {
    /// The current session, or the named chat (its channel defaulting to the current one's).
    fn target(
        &self,
        ctx: &ToolContext,
        channel: Option<&str>,
        chat_id: Option<&str>,
    ) -> Result<Target, ToolError> {
        let current = || {
            Target::parse("chat_id", &ctx.session_id).map_err(|_| {
                ToolError::new(
                    ErrorKind::DeliveryFailed,
                    format!(
                        "the current session `{}` is not a channel's chat; name channel and \
                         chat_id",
                        ctx.session_id
                    ),
                )
            })
        };
        match (clean(channel), clean(chat_id)) {
            (None, None) => current(),
            (Some(channel), None) => {
                let here = current()?;
                if here.channel == channel {
                    Ok(here)
                } else {
                    Err(ToolError::invalid(
                        "chat_id",
                        format!("`chat_id` is required to reach channel `{channel}` from here"),
                    ))
                }
            }
            (channel, Some(chat)) => {
                let channel = match channel {
                    Some(channel) => channel.to_string(),
                    None if chat.contains(':') => return Target::parse("chat_id", chat),
                    None => current()?.channel,
                };
                self.0.known("channel", &channel)?;
                Target::of(&channel, chat)
            }
        }
    }
}
