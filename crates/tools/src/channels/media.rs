//! `text_to_speech`'s `deliver` through the channel layer: the audio goes to the chat the call
//! ran in (a Telegram chat's session sends it to Telegram; a desktop chat already shows it in
//! the tool card) or to any `deliver_channel` / `deliver_chat_id`, with the same honest
//! delivery result as `send_file`.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use crate::error::{ErrorKind, ToolError};
use crate::media::{shown_here, MediaDelivery, MediaFile};

use super::send::no_files;
use super::{ChannelSink, FileOrigin, OutFile, Outbound, Sender, Target, MAX_FILE_BYTES};

/// Delivers media files through `sink`.
pub fn media_delivery(sink: Arc<dyn ChannelSink>) -> Arc<dyn MediaDelivery> {
    Arc::new(ChannelDelivery(Sender { sink }))
}

struct ChannelDelivery(Sender);

/// Where the file goes: the chat the call ran in unless the arguments name another.
fn target_of(
    here: &str,
    channel: Option<&str>,
    chat_id: Option<&str>,
) -> Result<Target, ToolError> {
    let home = Target::parse("session", here);
    match (channel, chat_id, home) {
        (None, None, Ok(home)) => Ok(home),
        (Some(channel), None, Ok(home)) if home.channel == channel => Ok(home),
        (None, Some(chat_id), Ok(home)) => Target::of(&home.channel, chat_id),
        (Some(channel), Some(chat_id), _) => Target::of(channel, chat_id),
        (Some(channel), None, _) => Err(ToolError::invalid(
            "deliver_chat_id",
            format!("name the chat in `{channel}` to deliver to"),
        )),
        (None, _, Err(_)) => Err(ToolError::invalid(
            "deliver_channel",
            format!("this chat ({here}) is not a channel's chat: name deliver_channel and deliver_chat_id"),
        )),
    }
}

#[async_trait]
impl MediaDelivery for ChannelDelivery {
    async fn deliver(
        &self,
        file: MediaFile<'_>,
        channel: Option<&str>,
        chat_id: Option<&str>,
    ) -> Result<Value, ToolError> {
        let path = file.path.to_string();
        self.send(file, channel, chat_id)
            .await
            .map_err(|mut error| {
                error.message = format!("{}; the file is saved at {path}", error.message);
                error
            })
    }
}

impl ChannelDelivery {
    async fn send(
        &self,
        file: MediaFile<'_>,
        channel: Option<&str>,
        chat_id: Option<&str>,
    ) -> Result<Value, ToolError> {
        let channel = channel.map(str::trim).filter(|c| !c.is_empty());
        let chat_id = chat_id.map(str::trim).filter(|c| !c.is_empty());
        let target = target_of(file.session_id, channel, chat_id)?;
        let external =
            target.channel != "desktop" && self.0.sink.supports_files(&target.channel).is_some();
        if target.to_string() == file.session_id && !external {
            return Ok(shown_here(&file));
        }
        if !self.0.known("deliver_channel", &target.channel)? {
            return Err(no_files(&target.channel));
        }
        let bytes = tokio::fs::read(file.absolute)
            .await
            .map_err(|e| ToolError::internal(format!("`{}` could not be read: {e}", file.path)))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(ToolError::new(
                ErrorKind::TooLarge,
                format!(
                    "`{}` is {} bytes; a channel file may be at most {MAX_FILE_BYTES} bytes",
                    file.path,
                    bytes.len()
                ),
            ));
        }
        let name = file
            .path
            .rsplit('/')
            .next()
            .unwrap_or(file.path)
            .to_string();
        let outbound = Outbound {
            target,
            text: file.caption.unwrap_or_default().trim().to_string(),
            files: vec![OutFile {
                name,
                origin: FileOrigin::Workspace(file.path.to_string()),
                mime_type: file.mime_type.to_string(),
                bytes,
                as_image: false,
            }],
            origin: file.session_id.to_string(),
            model: None,
        };
        self.0.deliver(outbound).await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_target_defaults_to_the_chat_the_call_ran_in() {
        let here = target_of("telegram:42", None, None).unwrap();
        assert_eq!(here.to_string(), "telegram:42");
        let same = target_of("telegram:42", Some("telegram"), None).unwrap();
        assert_eq!(same.to_string(), "telegram:42");
        let other = target_of("telegram:42", None, Some("7")).unwrap();
        assert_eq!(other.to_string(), "telegram:7");
        let away = target_of("desktop:abc", Some("hook"), Some("ops")).unwrap();
        assert_eq!(away.to_string(), "hook:ops");
        let missing = target_of("desktop:abc", Some("hook"), None).unwrap_err();
        assert_eq!(missing.kind, ErrorKind::InvalidArguments);
        assert!(
            missing.message.contains("name the chat in `hook`"),
            "{}",
            missing.message
        );
    }
}
