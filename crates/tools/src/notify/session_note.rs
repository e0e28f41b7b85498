//! `notify`: a note from the assistant written into the current session (default) or a named
//! desktop session; channels that are not configured report `delivery_failed`.

use std::sync::Arc;

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_protocol::{ContentPart, Role};
use hearth_store::{NewMessage, Store, StoreError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};

/// The only channel built in; adapters for others come later.
const DESKTOP: &str = "desktop";

/// `notify`.
pub struct Notify {
    pub(super) store: Arc<Store>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotifyArgs {
    /// The note.
    #[schemars(length(min = 1, max = 20000))]
    pub message: String,
    /// The channel (default: the current session's).
    pub channel: Option<String>,
    /// The chat (session) id (default: the current session).
    pub chat_id: Option<String>,
}

#[async_trait]
impl Tool for Notify {
    type Args = NotifyArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::NOTIFY
    }

    fn description(&self) -> &str {
        "Post a notice into a chat: the current one unless channel and chat_id name another."
    }

    async fn run(&self, ctx: &ToolContext, args: NotifyArgs) -> Result<Value, ToolError> {
        let message = args.message.trim();
        if message.is_empty() {
            return Err(ToolError::invalid("message", "`message` must not be blank"));
        }
        let session_id = session_for(ctx, args.channel.as_deref(), args.chat_id.as_deref())?;
        let note = NewMessage::new(
            session_id.clone(),
            Role::Assistant,
            vec![ContentPart::Text {
                text: message.to_string(),
            }],
        );
        match self.store.insert_message(&note) {
            Ok(stored) => Ok(json!({
                "status": "delivered",
                "channel": session_id.split_once(':').map_or(DESKTOP, |(c, _)| c),
                "session_id": session_id,
                "message_id": stored.id,
            })),
            Err(StoreError::NotFound { .. }) => Err(ToolError::new(
                ErrorKind::DeliveryFailed,
                format!("no session {session_id} to deliver to"),
            )),
            Err(e) => Err(ToolError::new(ErrorKind::DeliveryFailed, e.to_string())),
        }
    }
}

/// The session a note goes to: the current one, or `desktop:<chat_id>`.
fn session_for(
    ctx: &ToolContext,
    channel: Option<&str>,
    chat_id: Option<&str>,
) -> Result<String, ToolError> {
    let clean = |v: Option<&str>| {
        v.map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let current = ctx.session_id.split_once(':').map(|(channel, _)| channel);
    match (clean(channel).as_deref(), clean(chat_id)) {
        (None, None) => Ok(ctx.session_id.clone()),
        (Some(channel), None) if Some(channel) == current => Ok(ctx.session_id.clone()),
        (None | Some(DESKTOP), Some(chat)) if chat.starts_with("desktop:") => Ok(chat),
        (None | Some(DESKTOP), Some(chat)) => Ok(format!("{DESKTOP}:{chat}")),
        (Some(DESKTOP), None) => Err(ToolError::invalid(
            "chat_id",
            "`chat_id` is required to reach a desktop session from another channel",
        )),
        (Some(other), _) => Err(ToolError::new(
            ErrorKind::DeliveryFailed,
            format!("channel `{other}` is not configured (only `desktop` is)"),
        )),
    }
}
