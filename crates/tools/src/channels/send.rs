//! `message` (channel, chat_id, text) and `send_message` (PicoBot: target_chat_id, content,
//! files, origin): both write into the target session and wait for the channel's delivery.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};

use super::files::read_files;
use super::{Outbound, Sender, Target};

/// The longest text one message carries (channels split it as they need).
const MAX_TEXT_CHARS: usize = 100_000;

/// `message`.
pub(super) struct Message(pub(super) Sender);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MessageArgs {
    /// The channel: `desktop` or a configured one (e.g. `telegram`, a webhook's name).
    #[schemars(length(min = 1, max = 64))]
    pub channel: String,
    /// The chat in that channel (Telegram: the numeric chat id; desktop: the session id).
    #[schemars(length(min = 1, max = 200))]
    pub chat_id: String,
    /// The text to send.
    #[schemars(length(min = 1, max = 100000))]
    pub text: String,
}

#[async_trait]
impl Tool for Message {
    type Args = MessageArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::MESSAGE
    }

    fn description(&self) -> &str {
        "Send a text message to a chat of a channel (desktop, telegram, a webhook). Waits for \
         the channel to confirm delivery; a failure is an error with the channel's reason."
    }

    async fn run(&self, ctx: &ToolContext, args: MessageArgs) -> Result<Value, ToolError> {
        let target = Target::of(&args.channel, &args.chat_id)?;
        self.0.known("channel", &target.channel)?;
        let text = checked_text("text", &args.text)?;
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

/// `send_message`.
pub(super) struct SendMessage(pub(super) Sender);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendMessageArgs {
    /// `<channel>:<chat_id>` or `<channel>:<chat_id>:<dialog_id>`, e.g. `telegram:123456789`.
    #[schemars(length(min = 3, max = 300))]
    pub target_chat_id: String,
    /// The message text.
    #[schemars(length(min = 1, max = 100000))]
    pub content: String,
    /// Workspace files to attach (relative to the workspace, or absolute inside it).
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub files: Vec<String>,
    /// Where the message comes from (default: this session).
    pub origin: Option<String>,
}

#[async_trait]
impl Tool for SendMessage {
    type Args = SendMessageArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SEND_MESSAGE
    }

    fn description(&self) -> &str {
        "Send a message (and optionally workspace files) to `<channel>:<chat_id>[:<dialog_id>]`. \
         It is written into the target session, then the tool waits up to 120 s for the \
         channel's real delivery result: success means the channel confirmed it; a failure is \
         a delivery_failed error with the reason."
    }

    async fn run(&self, ctx: &ToolContext, args: SendMessageArgs) -> Result<Value, ToolError> {
        let target = Target::parse("target_chat_id", &args.target_chat_id)?;
        let files_allowed = self.0.known("target_chat_id", &target.channel)?;
        let text = checked_text("content", &args.content)?;
        if !args.files.is_empty() && !files_allowed {
            return Err(no_files(&target.channel));
        }
        let files = read_files(&ctx.workspace, "files", args.files, None).await?;
        let origin = args
            .origin
            .map(|o| o.trim().to_string())
            .filter(|o| !o.is_empty())
            .unwrap_or_else(|| ctx.session_id.clone());
        self.0
            .deliver(Outbound {
                target,
                text,
                files,
                origin,
                model: None,
            })
            .await
    }
}

/// The trimmed text of `field`, refused when blank or too long.
pub(crate) fn checked_text(field: &str, text: &str) -> Result<String, ToolError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ToolError::invalid(
            field,
            format!("`{field}` must not be blank"),
        ));
    }
    let chars = text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(ToolError::new(
            crate::error::ErrorKind::TooLarge,
            format!(
                "`{field}` has {chars} characters; a message may have at most {MAX_TEXT_CHARS}"
            ),
        ));
    }
    Ok(text.to_string())
}

/// The refusal for files to a channel that takes none.
pub(crate) fn no_files(channel: &str) -> ToolError {
    ToolError::new(
        crate::error::ErrorKind::Unavailable,
        format!(
            "channel `{channel}` does not take files (supports_files is false); send the text \
             only, or choose a channel that takes files"
        ),
    )
}
