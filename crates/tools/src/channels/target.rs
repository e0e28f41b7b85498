//! Chat targets: `<channel>:<chat_id>[:<dialog_id>]`, the session id of the chat in Hearth.

use std::fmt;

use crate::error::ToolError;

/// Where a message goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub channel: String,
    pub chat_id: String,
    /// A thread or topic inside the chat (Telegram: `message_thread_id`).
    pub dialog_id: Option<String>,
}

impl Target {
    /// Parses `<channel>:<chat_id>[:<dialog_id>]`; `field` names the argument in errors.
    pub fn parse(field: &str, raw: &str) -> Result<Target, ToolError> {
        let raw = raw.trim();
        let mut parts = raw.splitn(3, ':');
        let channel = parts.next().unwrap_or_default().trim();
        let chat_id = parts.next().unwrap_or_default().trim();
        let dialog_id = parts.next().map(str::trim);
        if channel.is_empty() || chat_id.is_empty() || dialog_id == Some("") {
            return Err(ToolError::invalid(
                field,
                format!(
                    "`{raw}` is not a chat target: write `<channel>:<chat_id>` or \
                     `<channel>:<chat_id>:<dialog_id>`, e.g. `telegram:123456789`"
                ),
            ));
        }
        Ok(Target {
            channel: channel.to_string(),
            chat_id: chat_id.to_string(),
            dialog_id: dialog_id.map(str::to_string),
        })
    }

    /// A target from separate channel and chat arguments; a chat id already prefixed with its
    /// channel is taken as it is.
    pub fn of(channel: &str, chat_id: &str) -> Result<Target, ToolError> {
        let (channel, chat_id) = (channel.trim(), chat_id.trim());
        if channel.is_empty() {
            return Err(ToolError::invalid("channel", "`channel` must not be blank"));
        }
        if chat_id.is_empty() {
            return Err(ToolError::invalid("chat_id", "`chat_id` must not be blank"));
        }
        let prefix = format!("{channel}:");
        let joined = if chat_id.starts_with(&prefix) {
            chat_id.to_string()
        } else {
            format!("{prefix}{chat_id}")
        };
        Target::parse("chat_id", &joined)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.channel, self.chat_id)?;
        if let Some(dialog) = &self.dialog_id {
            write!(f, ":{dialog}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn targets_parse_with_and_without_a_dialog() {
        let plain = Target::parse("t", "telegram:123").unwrap();
        assert_eq!(
            (plain.channel.as_str(), plain.chat_id.as_str()),
            ("telegram", "123")
        );
        assert_eq!(plain.dialog_id, None);
        let threaded = Target::parse("t", " telegram:-100:7 ").unwrap();
        assert_eq!(threaded.dialog_id.as_deref(), Some("7"));
        assert_eq!(threaded.to_string(), "telegram:-100:7");
        assert_eq!(
            Target::of("desktop", "desktop:abc").unwrap().to_string(),
            "desktop:abc"
        );
        for bad in ["", "telegram", "telegram:", ":123", "telegram:1:"] {
            let error = Target::parse("target_chat_id", bad).unwrap_err();
            assert_eq!(error.field.as_deref(), Some("target_chat_id"), "{bad}");
        }
    }
}
