//! Calls to the Bot API (`<base>/bot<token>/<method>`) and their answers: `{"ok": true,
//! "result": …}`, or `{"ok": false, "error_code": …, "description": …}`.

use std::time::Duration;

use hearth_core::ChannelError;
use reqwest::header::HeaderMap;
use serde_json::Value;

use crate::http::{Body, Http};

/// One bot's API.
pub(crate) struct BotApi {
    pub(crate) base: String,
    token: String,
    http: Http,
}

impl BotApi {
    pub(crate) fn new(base: String, token: String, allow_local: &[String]) -> BotApi {
        BotApi {
            base,
            token,
            http: Http::new(allow_local),
        }
    }

    /// Calls `method` and returns its `result`; the error names the method and quotes
    /// Telegram's description (or the first bytes of an answer that is not the API's).
    pub(crate) async fn call(
        &self,
        method: &str,
        body: Body,
        timeout: Duration,
    ) -> Result<Value, ChannelError> {
        let path = format!("bot{}/{method}", self.token);
        let answer = self
            .http
            .post(&self.base, &path, HeaderMap::new(), body, timeout)
            .await
            .map_err(|why| why.during(method))?;
        let parsed: Option<Value> = serde_json::from_slice(&answer.body).ok();
        let status = answer.status.as_u16();
        let failed = match parsed {
            Some(reply) if reply["ok"] == Value::Bool(true) && answer.status.is_success() => {
                return Ok(reply["result"].clone());
            }
            Some(reply) if reply.get("description").is_some() => {
                // The API's own code wins over the HTTP status (they agree on its server).
                let code = reply["error_code"]
                    .as_u64()
                    .and_then(|c| u16::try_from(c).ok())
                    .unwrap_or(status);
                let retry_after = reply["parameters"]["retry_after"]
                    .as_u64()
                    .or(answer.retry_after);
                let description = reply["description"].as_str().unwrap_or_default();
                ChannelError::from_status("Telegram", code, description, retry_after)
            }
            _ if answer.status.is_success() => ChannelError::BadAnswer(format!(
                "the Bot API answered {}: {}",
                answer.status,
                answer.quoted()
            )),
            _ => ChannelError::from_status(
                "the Bot API",
                status,
                answer.quoted(),
                answer.retry_after,
            ),
        };
        Err(failed.during(method))
    }

    /// Calls `method` with a JSON body.
    pub(crate) async fn json(
        &self,
        method: &str,
        body: &Value,
        timeout: Duration,
    ) -> Result<Value, ChannelError> {
        let bytes = serde_json::to_vec(body).map_err(|e| {
            ChannelError::Local(format!("cannot encode the request: {e}")).during(method)
        })?;
        self.call(method, Body::Json(bytes), timeout).await
    }
}

/// The `message_id` of a sent message.
pub(crate) fn message_id(result: &Value) -> String {
    result["message_id"].to_string()
}
