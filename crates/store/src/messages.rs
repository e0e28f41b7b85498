//! Messages: insert, read, page and prune a session's messages (streaming writes: `streaming`).

use hearth_protocol::{
    AppError, ContentPart, Message, MessageKind, MessageStatus, Role, Session, ToolCall,
    ToolResult, Usage,
};
use rusqlite::types::Type;
use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::de::DeserializeOwned;

use crate::search::text::{searchable_text, word_form};
use crate::sessions::NewSession;
use crate::{owner, sessions, Result, Store, StoreError};

/// What a new message is made of; ids and timestamps are assigned by the store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMessage {
    pub session_id: String,
    pub role: Role,
    pub kind: MessageKind,
    pub content: Vec<ContentPart>,
    pub tool_calls: Vec<ToolCall>,
    pub tool_result: Option<ToolResult>,
    pub status: MessageStatus,
    pub model: Option<String>,
    pub usage: Option<Usage>,
    pub error: Option<String>,
    pub error_code: Option<AppError>,
    pub summary_through: Option<i64>,
}

impl NewMessage {
    /// A complete, normal message with `content` and nothing else; set other fields as needed.
    pub fn new(session_id: impl Into<String>, role: Role, content: Vec<ContentPart>) -> Self {
        NewMessage {
            session_id: session_id.into(),
            role,
            kind: MessageKind::Normal,
            content,
            tool_calls: Vec::new(),
            tool_result: None,
            status: MessageStatus::Complete,
            model: None,
            usage: None,
            error: None,
            error_code: None,
            summary_through: None,
        }
    }
}

pub(crate) const MESSAGE_SELECT: &str = "SELECT id, session_id, role, kind, content, tool_calls, \
     tool_result, status, model, usage, error, summary_through, created_at, updated_at, error_code \
     FROM messages";

fn kind_str(kind: MessageKind) -> &'static str {
    match kind {
        MessageKind::Normal => "normal",
        MessageKind::Summary => "summary",
    }
}

fn parse_kind(value: &str) -> Option<MessageKind> {
    match value {
        "normal" => Some(MessageKind::Normal),
        "summary" => Some(MessageKind::Summary),
        _ => None,
    }
}

/// Reads a text column holding one of a fixed set of names.
pub(crate) fn enum_column<T>(
    row: &Row<'_>,
    idx: usize,
    parse: fn(&str) -> Option<T>,
) -> rusqlite::Result<T> {
    let value: String = row.get(idx)?;
    parse(&value).ok_or_else(|| {
        let message = format!("unexpected value {value:?}");
        rusqlite::Error::FromSqlConversionFailure(idx, Type::Text, message.into())
    })
}

/// Reads a JSON text column (NULL reads as `None` when `T` is an `Option`).
pub(crate) fn json_column<T: DeserializeOwned>(row: &Row<'_>, idx: usize) -> rusqlite::Result<T> {
    let value: Option<String> = row.get(idx)?;
    serde_json::from_str(value.as_deref().unwrap_or("null"))
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(idx, Type::Text, Box::new(e)))
}

pub(crate) fn message_from_row(row: &Row<'_>) -> rusqlite::Result<Message> {
    Ok(Message {
        id: row.get(0)?,
        session_id: row.get(1)?,
        role: enum_column(row, 2, Role::parse)?,
        kind: enum_column(row, 3, parse_kind)?,
        content: json_column(row, 4)?,
        tool_calls: json_column(row, 5)?,
        tool_result: json_column(row, 6)?,
        status: enum_column(row, 7, MessageStatus::parse)?,
        model: row.get(8)?,
        usage: json_column(row, 9)?,
        error: row.get(10)?,
        summary_through: row.get(11)?,
        created_at: row.get(12)?,
        updated_at: row.get(13)?,
        error_code: json_column(row, 14)?,
    })
}

fn query_messages(
    conn: &Connection,
    filter: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<Message>> {
    let mut stmt = conn.prepare_cached(&format!("{MESSAGE_SELECT} {filter}"))?;
    let messages = stmt
        .query_map(params, message_from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(messages)
}

pub(crate) fn optional_json<T: serde::Serialize>(value: Option<&T>) -> Result<Option<String>> {
    Ok(value.map(serde_json::to_string).transpose()?)
}

/// SQLite integers are signed; counts past `i64::MAX` mean "no limit".
fn sql_count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Store {
    /// Stores a message at the end of its session and marks the session active. `NotFound` if the
    /// session does not exist.
    pub fn insert_message(&self, new: &NewMessage) -> Result<Message> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let message = insert(&tx, new, self.now_ms())?;
        tx.commit()?;
        Ok(message)
    }

    /// Stores several messages, in order, in one transaction: all of them or, on the first error,
    /// none (one commit for a response's tool results instead of one each).
    pub fn insert_messages(&self, news: &[NewMessage]) -> Result<Vec<Message>> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let messages = insert_all(&tx, news, self.now_ms())?;
        tx.commit()?;
        Ok(messages)
    }

    /// Creates session `new` holding `messages` (stored under the new session's id, in order)
    /// in one transaction: a fork is whole or, on the first error, not there at all.
    pub fn fork_session(&self, new: &NewSession, messages: &[NewMessage]) -> Result<Session> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let now = self.now_ms();
        sessions::insert(&tx, new, now)?;
        let copies: Vec<NewMessage> = messages
            .iter()
            .map(|m| NewMessage {
                session_id: new.id.clone(),
                ..m.clone()
            })
            .collect();
        insert_all(&tx, &copies, now)?;
        let session = sessions::get(&tx, &new.id)?
            .ok_or_else(|| StoreError::not_found("session", &new.id))?;
        tx.commit()?;
        Ok(session)
    }

    pub fn get_message(&self, id: i64) -> Result<Option<Message>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!("{MESSAGE_SELECT} WHERE id = ?1"))?;
        Ok(stmt.query_row([id], message_from_row).optional()?)
    }

    /// A session's messages, oldest first (empty for an unknown session).
    pub fn list_messages(&self, session_id: &str) -> Result<Vec<Message>> {
        query_messages(
            &self.conn(),
            "WHERE session_id = ?1 ORDER BY id",
            [session_id],
        )
    }

    /// A session's messages newer than message `after`, oldest first: what a turn adds to the
    /// history it already holds.
    pub fn list_messages_after(&self, session_id: &str, after: i64) -> Result<Vec<Message>> {
        query_messages(
            &self.conn(),
            "WHERE session_id = ?1 AND id > ?2 ORDER BY id",
            params![session_id, after],
        )
    }

    /// At most `limit` of a session's messages, oldest first, skipping the first `offset`.
    pub fn list_messages_page(
        &self,
        session_id: &str,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Message>> {
        query_messages(
            &self.conn(),
            "WHERE session_id = ?1 ORDER BY id LIMIT ?3 OFFSET ?2",
            params![session_id, sql_count(offset), sql_count(limit)],
        )
    }

    /// The session's newest summary message, if it was ever compacted.
    pub fn latest_summary(&self, session_id: &str) -> Result<Option<Message>> {
        let filter = "WHERE session_id = ?1 AND kind = 'summary' ORDER BY id DESC LIMIT 1";
        Ok(query_messages(&self.conn(), filter, [session_id])?.pop())
    }

    /// Turns `streaming` messages whose writer is gone into `interrupted` and returns how many
    /// there were. Call at start-up, before this process streams: rows marked with this
    /// process are stale (a dead process had its pid), rows of another live process (the app
    /// while `hearth-cli daemon` runs a job, or the other way round) are left streaming.
    pub fn mark_streaming_interrupted(&self) -> Result<usize> {
        let conn = self.conn();
        let owners: Vec<Option<String>> = conn
            .prepare_cached("SELECT DISTINCT owner FROM messages WHERE status = 'streaming'")?
            .query_map([], |row| row.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut changed = 0;
        for owner in owners {
            if owner.as_deref().is_some_and(owner::is_other_live_process) {
                continue;
            }
            changed += conn
                .prepare_cached(
                    "UPDATE messages SET status = 'interrupted', updated_at = ?1 \
                     WHERE status = 'streaming' AND owner IS ?2",
                )?
                .execute(params![self.now_ms(), owner])?;
        }
        if changed > 0 {
            tracing::info!(count = changed, "marked interrupted streaming messages");
        }
        Ok(changed)
    }

    /// Deletes the session's messages newer than `message_id` (to regenerate or fork from it)
    /// and returns how many went. `NotFound` if the session does not exist.
    pub fn delete_messages_after(&self, session_id: &str, message_id: i64) -> Result<usize> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        sessions::touch(&tx, session_id, self.now_ms())?;
        let deleted = tx
            .prepare_cached("DELETE FROM messages WHERE session_id = ?1 AND id > ?2")?
            .execute(params![session_id, message_id])?;
        tx.commit()?;
        Ok(deleted)
    }
}

/// Inserts `news` in order inside `conn`'s transaction, stopping at the first error.
fn insert_all(conn: &Connection, news: &[NewMessage], now: i64) -> Result<Vec<Message>> {
    news.iter().map(|new| insert(conn, new, now)).collect()
}

/// Inserts `new` at the end of its session and marks the session active, inside `conn`'s
/// transaction.
fn insert(conn: &Connection, new: &NewMessage, now: i64) -> Result<Message> {
    let text = searchable_text(&new.content, &new.tool_calls, new.tool_result.as_ref());
    let words = word_form(&text);
    sessions::touch(conn, &new.session_id, now)?;
    conn.prepare_cached(
        "INSERT INTO messages (session_id, role, kind, content, tool_calls, tool_result, \
         status, model, usage, error, summary_through, text, words, created_at, updated_at, \
         owner, error_code) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14, ?15, ?16)",
    )?
    .execute(params![
        new.session_id,
        new.role.as_str(),
        kind_str(new.kind),
        serde_json::to_string(&new.content)?,
        serde_json::to_string(&new.tool_calls)?,
        optional_json(new.tool_result.as_ref())?,
        new.status.as_str(),
        new.model,
        optional_json(new.usage.as_ref())?,
        new.error,
        new.summary_through,
        text,
        words,
        now,
        (new.status == MessageStatus::Streaming).then(owner::current),
        optional_json(new.error_code.as_ref())?
    ])?;
    Ok(Message {
        id: conn.last_insert_rowid(),
        session_id: new.session_id.clone(),
        role: new.role,
        kind: new.kind,
        content: new.content.clone(),
        tool_calls: new.tool_calls.clone(),
        tool_result: new.tool_result.clone(),
        status: new.status,
        model: new.model.clone(),
        usage: new.usage,
        error: new.error.clone(),
        error_code: new.error_code.clone(),
        summary_through: new.summary_through,
        created_at: now,
        updated_at: now,
    })
}

#[cfg(test)]
#[path = "messages_tests.rs"]
mod tests;
