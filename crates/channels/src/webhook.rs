//! The webhook channel: each message is one POST of a JSON body to the user's URL — channel,
//! target, chat and dialog ids, text, origin, session, files as base64 — with the configured
//! headers (and `Authorization: Bearer <token>` when the channel has a token). Delivered means
//! a 2xx answer; anything else, or no answer in time, is a failure with the status and the
//! first bytes of the body.

use std::time::Duration;

use async_trait::async_trait;
use base64::Engine as _;
use hearth_core::{Channel, ChannelError, Receipt};
use hearth_protocol::ChannelSettings;
use hearth_tools::channels::Outbound;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION};
use serde_json::{json, Value};

use crate::http::{Body, Http};

/// A webhook.
pub struct Webhook {
    name: String,
    url: String,
    headers: HeaderMap,
    files: bool,
    timeout: Duration,
    http: Http,
}

impl Webhook {
    /// The webhook `settings` describe; its URL is checked by the guard at every send.
    pub fn new(
        settings: &ChannelSettings,
        allow_local: &[String],
        token: Option<String>,
    ) -> Result<Webhook, ChannelError> {
        let bad = ChannelError::Misconfigured;
        let url = settings
            .url
            .clone()
            .filter(|u| !u.trim().is_empty())
            .ok_or_else(|| bad(format!("webhook `{}` has no url", settings.name)))?;
        url::Url::parse(&url).map_err(|e| {
            bad(format!(
                "webhook `{}`: `{url}` is not a URL: {e}",
                settings.name
            ))
        })?;
        let mut headers = HeaderMap::new();
        for (name, value) in &settings.headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| bad(format!("webhook `{}`: header `{name}`: {e}", settings.name)))?;
            let value = HeaderValue::from_str(value)
                .map_err(|e| bad(format!("webhook `{}`: header `{name}`: {e}", settings.name)))?;
            headers.insert(name, value);
        }
        if let Some(token) = token {
            let mut value = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
                bad(format!(
                    "webhook `{}`: the token is not a valid header value",
                    settings.name
                ))
            })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        Ok(Webhook {
            name: settings.name.clone(),
            url,
            headers,
            files: settings.files,
            timeout: Duration::from_secs(settings.timeout_secs.max(1)),
            http: Http::new(allow_local),
        })
    }
}

/// The JSON body of `message` sent by webhook `channel`.
pub fn body(channel: &str, message: &Outbound) -> Value {
    let files: Vec<Value> = message
        .files
        .iter()
        .map(|file| {
            json!({
                "name": file.name,
                "mime_type": file.mime_type,
                "size": file.bytes.len(),
                "as_image": file.as_image,
                "data_base64": base64::engine::general_purpose::STANDARD.encode(&file.bytes),
            })
        })
        .collect();
    let target = &message.target;
    json!({
        "channel": channel,
        "target": target.to_string(),
        "chat_id": target.chat_id,
        "dialog_id": target.dialog_id,
        "text": message.text,
        "origin": message.origin,
        "session": target.to_string(),
        "files": files,
        "sent_at": chrono::Utc::now().to_rfc3339(),
    })
}

#[async_trait]
impl Channel for Webhook {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> &'static str {
        "webhook"
    }

    fn supports_files(&self) -> bool {
        self.files
    }

    async fn send(&self, message: &Outbound) -> Result<Receipt, ChannelError> {
        if !self.files && !message.files.is_empty() {
            return Err(ChannelError::Unsupported(format!(
                "webhook `{}` does not take files",
                self.name
            )));
        }
        let bytes = serde_json::to_vec(&body(&self.name, message))
            .map_err(|e| ChannelError::Local(format!("the body could not be encoded: {e}")))?;
        let answer = self
            .http
            .post(
                &self.url,
                "",
                self.headers.clone(),
                Body::Json(bytes),
                self.timeout,
            )
            .await?;
        if !answer.status.is_success() {
            return Err(ChannelError::from_status(
                "the webhook",
                answer.status.as_u16(),
                answer.quoted(),
                answer.retry_after,
            ));
        }
        let id = serde_json::from_slice::<Value>(&answer.body)
            .ok()
            .and_then(|v| {
                v.get("id")
                    .map(|id| id.to_string().trim_matches('"').to_string())
            });
        Ok(Receipt {
            message_ids: id.into_iter().collect(),
        })
    }
}
