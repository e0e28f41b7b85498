//! Message pages for the chat window: the newest messages of a session, or those before a message
//! the window already shows, reaching back to a given message when asked (a search hit).

use hearth_protocol::{MessagePage, Usage};
use rusqlite::{params, Connection, OptionalExtension};

use crate::messages::{message_from_row, MESSAGE_SELECT};
use crate::{Result, Store, StoreError};

/// The most messages one page may ask for.
pub const MAX_PAGE_MESSAGES: i64 = 1000;

fn require(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<bool> {
    Ok(conn
        .prepare_cached(sql)?
        .query_row(params, |_| Ok(()))
        .optional()?
        .is_some())
}

/// `NotFound` unless message `id` belongs to `session_id`.
fn require_message(conn: &Connection, session_id: &str, id: i64) -> Result<()> {
    let sql = "SELECT 1 FROM messages WHERE id = ?1 AND session_id = ?2";
    if require(conn, sql, params![id, session_id])? {
        Ok(())
    } else {
        Err(StoreError::not_found(
            "message",
            format!("{id} in session {session_id}"),
        ))
    }
}

/// The id the page starts at: `limit` messages back from `top` (exclusive), moved back to the
/// nearest message that is not a tool result, so a page never starts with the result of a call
/// that lies in an older page. 0 when fewer messages are left (the page reaches the start).
fn page_floor(conn: &Connection, session_id: &str, top: i64, limit: i64) -> Result<i64> {
    let nth: Option<i64> = conn
        .prepare_cached(
            "SELECT id FROM messages WHERE session_id = ?1 AND id < ?2 \
             ORDER BY id DESC LIMIT 1 OFFSET ?3",
        )?
        .query_row(params![session_id, top, limit - 1], |row| row.get(0))
        .optional()?;
    let Some(nth) = nth else { return Ok(0) };
    let start: Option<i64> = conn
        .prepare_cached(
            "SELECT max(id) FROM messages WHERE session_id = ?1 AND id <= ?2 AND role != 'tool'",
        )?
        .query_row(params![session_id, nth], |row| row.get(0))?;
    Ok(start.unwrap_or(0))
}

/// Sums the usage of a session's messages before an id, from the `messages_usage` index.
const USAGE_BEFORE: &str = "SELECT coalesce(sum(usage ->> 'input_tokens'), 0), \
     coalesce(sum(usage ->> 'output_tokens'), 0) \
     FROM messages WHERE session_id = ?1 AND id < ?2 AND usage IS NOT NULL";

/// The token usage summed over the session's messages before message `id`.
fn usage_before(conn: &Connection, session_id: &str, id: i64) -> Result<Usage> {
    let (input, output): (i64, i64) = conn
        .prepare_cached(USAGE_BEFORE)?
        .query_row(params![session_id, id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
    Ok(Usage {
        input_tokens: u64::try_from(input).unwrap_or(0),
        output_tokens: u64::try_from(output).unwrap_or(0),
    })
}

impl Store {
    /// A page of `session_id`'s messages, oldest first: the `limit` newest ones before message
    /// `before` (all of the session when `None`); with `through`, every message from `through`
    /// on plus up to `limit - 1` older ones. `NotFound` for an unknown session or a `before` /
    /// `through` message not in it; `Invalid` for a limit outside 1..=[`MAX_PAGE_MESSAGES`] or a
    /// `through` not older than `before`.
    pub fn message_page(
        &self,
        session_id: &str,
        before: Option<i64>,
        through: Option<i64>,
        limit: i64,
    ) -> Result<MessagePage> {
        if !(1..=MAX_PAGE_MESSAGES).contains(&limit) {
            return Err(StoreError::Invalid {
                field: "limit",
                message: format!("{limit} is not between 1 and {MAX_PAGE_MESSAGES}"),
            });
        }
        let mut conn = self.reader();
        let tx = conn.transaction()?;
        if !require(&tx, "SELECT 1 FROM sessions WHERE id = ?1", [session_id])? {
            return Err(StoreError::not_found("session", session_id));
        }
        for id in before.into_iter().chain(through) {
            require_message(&tx, session_id, id)?;
        }
        let end = before.unwrap_or(i64::MAX);
        if through.is_some_and(|t| t >= end) {
            return Err(StoreError::Invalid {
                field: "through",
                message: format!("message {through:?} is not older than message {end}"),
            });
        }
        let top = through.map_or(end, |t| t + 1);
        let floor = page_floor(&tx, session_id, top, limit)?;
        let messages = tx
            .prepare_cached(&format!(
                "{MESSAGE_SELECT} WHERE session_id = ?1 AND id >= ?2 AND id < ?3 ORDER BY id"
            ))?
            .query_map(params![session_id, floor, end], message_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let has_older = match messages.first() {
            Some(first) => require(
                &tx,
                "SELECT 1 FROM messages WHERE session_id = ?1 AND id < ?2 LIMIT 1",
                params![session_id, first.id],
            )?,
            None => false,
        };
        let older_usage = match messages.first() {
            Some(first) if has_older => usage_before(&tx, session_id, first.id)?,
            _ => Usage::default(),
        };
        Ok(MessagePage {
            messages,
            has_older,
            older_usage,
        })
    }
}

#[cfg(test)]
#[path = "pages_tests.rs"]
mod tests;
