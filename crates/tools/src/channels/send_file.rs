//! `send_file` (channel, chat_id, file_path, caption, as_image): one workspace file to a chat,
//! refused for a channel whose `supports_files` is false.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};

use super::files::read_files;
use super::send::{checked_text, no_files};
use super::{Outbound, Sender, Target};

/// `send_file`.
pub(super) struct SendFile(pub(super) Sender);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendFileArgs {
    /// The channel: `desktop` or a configured one.
    #[schemars(length(min = 1, max = 64))]
    pub channel: String,
    /// The chat in that channel.
    #[schemars(length(min = 1, max = 200))]
    pub chat_id: String,
    /// The workspace file to send.
    #[schemars(length(min = 1, max = 4096))]
    pub file_path: String,
    /// Text sent with the file.
    #[schemars(length(max = 4000))]
    pub caption: Option<String>,
    /// Send as a picture (png, jpg, gif, webp) rather than a document.
    pub as_image: Option<bool>,
}

#[async_trait]
impl Tool for SendFile {
    type Args = SendFileArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SEND_FILE
    }

    fn description(&self) -> &str {
        "Send a workspace file (or, with as_image, a picture) to a chat of a channel, with an \
         optional caption. Refused for channels that do not take files; waits for the \
         channel to confirm delivery."
    }

    async fn run(&self, ctx: &ToolContext, args: SendFileArgs) -> Result<Value, ToolError> {
        let target = Target::of(&args.channel, &args.chat_id)?;
        if !self.0.known("channel", &target.channel)? {
            return Err(no_files(&target.channel));
        }
        let caption = match args.caption.as_deref().map(str::trim) {
            Some(caption) if !caption.is_empty() => checked_text("caption", caption)?,
            _ => String::new(),
        };
        let files = read_files(
            &ctx.workspace,
            "file_path",
            vec![args.file_path],
            args.as_image,
        )
        .await?;
        self.0
            .deliver(Outbound {
                target,
                text: caption,
                files,
                origin: ctx.session_id.clone(),
                model: None,
            })
            .await
    }
}
