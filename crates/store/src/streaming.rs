//! Writes to a message while it streams: flushes of its content, its final status, and both in
//! one transaction at the end of a response (one commit fewer per model response).

use hearth_protocol::{AppError, ContentPart, MessageStatus, ToolCall, ToolResult, Usage};
use rusqlite::{params, OptionalExtension, Transaction};

use crate::messages::optional_json;
use crate::search::text::{searchable_text, word_form};
use crate::{Result, Store, StoreError};

/// How a streamed message ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageEnd<'a> {
    pub status: MessageStatus,
    pub usage: Option<Usage>,
    /// The typed error of a failed message: its English text and its code are both stored.
    pub error: Option<&'a AppError>,
}

impl Store {
    /// Replaces the content and tool calls of a message being streamed (one flush); the search
    /// index follows. `NotFound` for an unknown id.
    pub fn update_streaming(
        &self,
        id: i64,
        content: &[ContentPart],
        tool_calls: &[ToolCall],
    ) -> Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        write_content(&tx, id, content, tool_calls, self.now_ms())?;
        tx.commit()?;
        Ok(())
    }

    /// Sets a message's final status, usage and error (each replacing what was stored) and marks
    /// its session active. `NotFound` for an unknown id.
    pub fn finish_message(
        &self,
        id: i64,
        status: MessageStatus,
        usage: Option<Usage>,
        error: Option<&AppError>,
    ) -> Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        write_end(
            &tx,
            id,
            MessageEnd {
                status,
                usage,
                error,
            },
            self.now_ms(),
        )?;
        tx.commit()?;
        Ok(())
    }

    /// [`Store::update_streaming`] then [`Store::finish_message`], committed together.
    pub fn finish_streaming(
        &self,
        id: i64,
        content: &[ContentPart],
        tool_calls: &[ToolCall],
        end: MessageEnd<'_>,
    ) -> Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        write_content(&tx, id, content, tool_calls, self.now_ms())?;
        write_end(&tx, id, end, self.now_ms())?;
        tx.commit()?;
        Ok(())
    }
}

fn write_content(
    tx: &Transaction<'_>,
    id: i64,
    content: &[ContentPart],
    tool_calls: &[ToolCall],
    now: i64,
) -> Result<()> {
    let stored: Option<String> = tx
        .prepare_cached("SELECT tool_result FROM messages WHERE id = ?1")?
        .query_row([id], |row| row.get(0))
        .optional()?
        .ok_or_else(|| StoreError::not_found("message", id))?;
    let tool_result: Option<ToolResult> = stored.map(|s| serde_json::from_str(&s)).transpose()?;
    let text = searchable_text(content, tool_calls, tool_result.as_ref());
    let words = word_form(&text);
    tx.prepare_cached(
        "UPDATE messages SET content = ?2, tool_calls = ?3, text = ?4, words = ?5, \
         updated_at = ?6 WHERE id = ?1",
    )?
    .execute(params![
        id,
        serde_json::to_string(content)?,
        serde_json::to_string(tool_calls)?,
        text,
        words,
        now
    ])?;
    Ok(())
}

fn write_end(tx: &Transaction<'_>, id: i64, end: MessageEnd<'_>, now: i64) -> Result<()> {
    let usage = optional_json(end.usage.as_ref())?;
    let changed = tx
        .prepare_cached(
            "UPDATE messages SET status = ?2, usage = ?3, error = ?4, updated_at = ?5, \
             error_code = ?6 WHERE id = ?1",
        )?
        .execute(params![
            id,
            end.status.as_str(),
            usage,
            end.error.map(ToString::to_string),
            now,
            optional_json(end.error)?
        ])?;
    if changed == 0 {
        return Err(StoreError::not_found("message", id));
    }
    tx.prepare_cached(
        "UPDATE sessions SET updated_at = ?2 \
         WHERE id = (SELECT session_id FROM messages WHERE id = ?1)",
    )?
    .execute(params![id, now])?;
    Ok(())
}

#[cfg(test)]
#[path = "streaming_tests.rs"]
mod tests;
