//! `getUpdates` long polling: the updates from an offset on, their text messages as
//! [`Received`], and the offset past every update (text or not).

use std::time::Duration;

use async_trait::async_trait;
use hearth_core::{Batch, ChannelError, Inbound};
use hearth_store::Received;
use serde_json::{json, Value};

use super::Telegram;

/// How long Telegram holds a `getUpdates` call open when nothing arrives.
pub(crate) const LONG_POLL_SECS: u64 = 25;

#[async_trait]
impl Inbound for Telegram {
    async fn receive(&self, offset: i64) -> Result<Batch, ChannelError> {
        let body = json!({
            "offset": offset,
            "timeout": LONG_POLL_SECS,
            "allowed_updates": ["message"],
        });
        let wait = Duration::from_secs(LONG_POLL_SECS) + self.timeout;
        let result = self.api.json("getUpdates", &body, wait).await?;
        batch(&result, offset)
    }
}

/// The batch in a `getUpdates` result.
pub(crate) fn batch(result: &Value, offset: i64) -> Result<Batch, ChannelError> {
    let bad = |why: &str| ChannelError::BadAnswer(why.to_string()).during("getUpdates");
    let updates = result
        .as_array()
        .ok_or_else(|| bad("the result is not a list of updates"))?;
    let mut next_offset = offset;
    let mut messages = Vec::new();
    for update in updates {
        let Some(seq) = update["update_id"].as_i64() else {
            return Err(bad("an update has no update_id"));
        };
        next_offset = next_offset.max(seq + 1);
        let message = &update["message"];
        let Some(chat) = message["chat"]["id"].as_i64() else {
            continue;
        };
        let from = &message["from"];
        let sender = from["username"]
            .as_str()
            .map(|u| format!("@{u}"))
            .or_else(|| from["first_name"].as_str().map(str::to_string));
        let text = message["text"]
            .as_str()
            .or_else(|| message["caption"].as_str())
            .unwrap_or_default();
        messages.push(Received {
            seq,
            chat_id: chat.to_string(),
            sender,
            text: text.to_string(),
        });
    }
    Ok(Batch {
        messages,
        next_offset,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn every_update_moves_the_offset_and_text_messages_are_kept() {
        let result = json!([
            {"update_id": 10, "message": {"message_id": 1, "chat": {"id": 42, "type": "private"},
             "from": {"id": 42, "username": "ann"}, "text": "hi"}},
            {"update_id": 11, "edited_message": {"chat": {"id": 42}}},
            {"update_id": 12, "message": {"message_id": 2, "chat": {"id": -100}, "photo": [],
             "caption": "look", "from": {"first_name": "Bo"}}},
        ]);
        let batch = batch(&result, 10).unwrap();
        assert_eq!(batch.next_offset, 13);
        assert_eq!(batch.messages.len(), 2);
        assert_eq!(batch.messages[0].sender.as_deref(), Some("@ann"));
        assert_eq!(batch.messages[1].chat_id, "-100");
        assert_eq!(batch.messages[1].text, "look");
        assert_eq!(super::batch(&json!([]), 7).unwrap().next_offset, 7);
        assert!(super::batch(&json!({"x": 1}), 7).is_err());
    }
}
