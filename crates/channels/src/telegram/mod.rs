//! The Telegram channel over the Bot API: text through `sendMessage` (HTML-escaped, split at
//! 4,096 characters), files through `sendDocument` and pictures through `sendPhoto` (captioned
//! with the text when it fits), delivery read from each answer; inbound by `getUpdates` long
//! polling (see [`inbound`]).

mod api;
mod inbound;
mod text;

use std::time::Duration;

use async_trait::async_trait;
use hearth_core::{Channel, ChannelError, Inbound, Receipt};
use hearth_protocol::ChannelSettings;
use hearth_tools::channels::{OutFile, Outbound};
use serde_json::{json, Value};

use crate::http::Multipart;
use api::{message_id, BotApi};
pub use text::{escape_html, split_text, TEXT_LIMIT};
use text::{utf16_len, CAPTION_LIMIT};

/// Telegram's own Bot API server.
pub const DEFAULT_BASE_URL: &str = "https://api.telegram.org";

/// A Telegram bot.
pub struct Telegram {
    name: String,
    inbound: bool,
    timeout: Duration,
    api: BotApi,
}

impl Telegram {
    /// The bot `settings` describe, with its token.
    pub fn new(
        settings: &ChannelSettings,
        allow_local: &[String],
        token: Option<String>,
    ) -> Result<Telegram, ChannelError> {
        let bad = ChannelError::Misconfigured;
        let token = token.filter(|t| !t.trim().is_empty()).ok_or_else(|| {
            bad(format!(
                "Telegram channel `{}` has no bot token: give it on stdin to `hearth-cli \
                 channels add {} --kind telegram` (it goes to the keychain), or name an \
                 environment variable with token_env",
                settings.name, settings.name
            ))
        })?;
        if !token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ':' || c == '_' || c == '-')
        {
            return Err(bad(format!(
                "Telegram channel `{}`: the bot token has characters a token never has",
                settings.name
            )));
        }
        let base = settings
            .base_url
            .clone()
            .filter(|b| !b.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_string());
        url::Url::parse(&base).map_err(|e| {
            bad(format!(
                "Telegram channel `{}`: base_url `{base}`: {e}",
                settings.name
            ))
        })?;
        Ok(Telegram {
            name: settings.name.clone(),
            inbound: settings.inbound,
            timeout: Duration::from_secs(settings.timeout_secs.max(1)),
            api: BotApi::new(base, token.trim().to_string(), allow_local),
        })
    }

    /// The bot's `@username`, from `getMe` (checks the token and the server).
    pub async fn bot_name(&self) -> Result<String, ChannelError> {
        let me = self.api.json("getMe", &json!({}), self.timeout).await?;
        Ok(me["username"]
            .as_str()
            .map_or_else(|| me["first_name"].to_string(), |u| format!("@{u}")))
    }

    /// The common fields of a message to `message`'s chat.
    fn address(message: &Outbound) -> Value {
        let mut fields = json!({ "chat_id": message.target.chat_id });
        if let Some(thread) = &message.target.dialog_id {
            fields["message_thread_id"] = json!(thread);
        }
        fields
    }

    async fn send_text(&self, message: &Outbound, text: &str) -> Result<String, ChannelError> {
        let mut body = Telegram::address(message);
        body["text"] = json!(escape_html(text));
        body["parse_mode"] = json!("HTML");
        let sent = self.api.json("sendMessage", &body, self.timeout).await?;
        Ok(message_id(&sent))
    }

    async fn send_file(
        &self,
        message: &Outbound,
        file: &OutFile,
        caption: &str,
    ) -> Result<String, ChannelError> {
        let (method, field) = if file.as_image {
            ("sendPhoto", "photo")
        } else {
            ("sendDocument", "document")
        };
        let mut form = Multipart::new().text("chat_id", &message.target.chat_id);
        if let Some(thread) = &message.target.dialog_id {
            form = form.text("message_thread_id", thread);
        }
        if !caption.is_empty() {
            form = form
                .text("caption", &escape_html(caption))
                .text("parse_mode", "HTML");
        }
        let form = form.file(field, &file.name, &file.mime_type, &file.bytes);
        let sent = self.api.call(method, form.finish(), self.timeout).await?;
        Ok(message_id(&sent))
    }
}

#[async_trait]
impl Channel for Telegram {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> &'static str {
        "telegram"
    }

    fn supports_files(&self) -> bool {
        true
    }

    /// The text goes as the caption of a single file when it fits, else as messages of its
    /// own first; each part is confirmed by its answer, and a failure says which part.
    async fn send(&self, message: &Outbound) -> Result<Receipt, ChannelError> {
        let caption_fits = message.files.len() == 1 && utf16_len(&message.text) <= CAPTION_LIMIT;
        let texts = if caption_fits || message.text.is_empty() {
            Vec::new()
        } else {
            split_text(&message.text, TEXT_LIMIT)
        };
        let caption = if caption_fits {
            message.text.as_str()
        } else {
            ""
        };
        let parts = texts.len() + message.files.len();
        let mut ids = Vec::new();
        let failed = |ids: &Vec<String>, why: ChannelError| {
            if parts == 1 {
                why
            } else {
                ChannelError::Partial {
                    part: ids.len() + 1,
                    parts,
                    error: Box::new(why),
                }
            }
        };
        for text in &texts {
            let id = self
                .send_text(message, text)
                .await
                .map_err(|why| failed(&ids, why))?;
            ids.push(id);
        }
        for file in &message.files {
            let id = self
                .send_file(message, file, caption)
                .await
                .map_err(|why| failed(&ids, why))?;
            ids.push(id);
        }
        Ok(Receipt { message_ids: ids })
    }

    fn inbound(&self) -> Option<&dyn Inbound> {
        self.inbound.then_some(self as &dyn Inbound)
    }
}
