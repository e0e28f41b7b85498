//! Sessions: create, read, list, update and delete conversations.

use hearth_protocol::Session;
use rusqlite::{params, Connection, OptionalExtension, Row, ToSql};

use crate::{Result, Store, StoreError};

/// What a new session starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    /// `<channel>:<id>`, e.g. `desktop:<uuid>`.
    pub id: String,
    pub title: String,
    pub model: Option<String>,
    pub workspace: Option<String>,
    pub tool_profile: String,
}

const SESSION_SELECT: &str = "SELECT s.id, s.title, s.model, s.workspace, s.tool_profile, \
     s.pinned, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id), \
     s.created_at, s.updated_at FROM sessions s";

fn session_from_row(row: &Row<'_>) -> rusqlite::Result<Session> {
    Ok(Session {
        id: row.get(0)?,
        title: row.get(1)?,
        model: row.get(2)?,
        workspace: row.get(3)?,
        tool_profile: row.get(4)?,
        pinned: row.get(5)?,
        message_count: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
    })
}

/// Sets `updated_at` of session `id` to `at`; `NotFound` if there is no such session.
pub(crate) fn touch(conn: &Connection, id: &str, at: i64) -> Result<()> {
    let sql = "UPDATE sessions SET updated_at = ?2 WHERE id = ?1";
    update_one(conn, sql, &[&id, &at], id)
}

/// Runs an UPDATE/DELETE whose first parameter is the session id; `NotFound` if no row matched.
fn update_one(conn: &Connection, sql: &str, params: &[&dyn ToSql], id: &str) -> Result<()> {
    match conn.prepare_cached(sql)?.execute(params)? {
        0 => Err(StoreError::not_found("session", id)),
        _ => Ok(()),
    }
}

/// Inserts a session row with no messages; fails if the id is taken.
pub(crate) fn insert(conn: &Connection, new: &NewSession, now: i64) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO sessions (id, title, model, workspace, tool_profile, pinned, created_at, \
         updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?6)",
    )?
    .execute(params![
        new.id,
        new.title,
        new.model,
        new.workspace,
        new.tool_profile,
        now
    ])?;
    Ok(())
}

pub(crate) fn get(conn: &Connection, id: &str) -> Result<Option<Session>> {
    let sql = format!("{SESSION_SELECT} WHERE s.id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([id], session_from_row)
        .optional()?)
}

impl Store {
    /// Creates a session with no messages; fails if the id is taken.
    pub fn create_session(&self, new: &NewSession) -> Result<Session> {
        let conn = self.conn();
        insert(&conn, new, self.now_ms())?;
        get(&conn, &new.id)?.ok_or_else(|| StoreError::not_found("session", &new.id))
    }

    pub fn get_session(&self, id: &str) -> Result<Option<Session>> {
        get(&self.reader(), id)
    }

    /// Every session: pinned ones first, then the most recently active.
    pub fn list_sessions(&self) -> Result<Vec<Session>> {
        let conn = self.reader();
        let sql = format!("{SESSION_SELECT} ORDER BY s.pinned DESC, s.updated_at DESC, s.id");
        let mut stmt = conn.prepare_cached(&sql)?;
        let sessions = stmt
            .query_map([], session_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(sessions)
    }

    /// Changes the title. Metadata changes leave `updated_at` (conversation activity) alone.
    pub fn rename_session(&self, id: &str, title: &str) -> Result<()> {
        let sql = "UPDATE sessions SET title = ?2 WHERE id = ?1";
        update_one(&self.conn(), sql, &[&id, &title], id)
    }

    pub fn set_session_pinned(&self, id: &str, pinned: bool) -> Result<()> {
        let sql = "UPDATE sessions SET pinned = ?2 WHERE id = ?1";
        update_one(&self.conn(), sql, &[&id, &pinned], id)
    }

    pub fn set_session_model(&self, id: &str, model: Option<&str>) -> Result<()> {
        let sql = "UPDATE sessions SET model = ?2 WHERE id = ?1";
        update_one(&self.conn(), sql, &[&id, &model], id)
    }

    pub fn set_session_workspace(&self, id: &str, workspace: Option<&str>) -> Result<()> {
        let sql = "UPDATE sessions SET workspace = ?2 WHERE id = ?1";
        update_one(&self.conn(), sql, &[&id, &workspace], id)
    }

    /// Deletes the session with its messages (and their search index entries).
    pub fn delete_session(&self, id: &str) -> Result<()> {
        update_one(
            &self.conn(),
            "DELETE FROM sessions WHERE id = ?1",
            &[&id],
            id,
        )
    }

    /// Replaces the title only while it is still `from` (a title the engine gave it), so a
    /// title the user changed meanwhile is kept; whether it was replaced.
    pub fn retitle_session(&self, id: &str, from: &str, to: &str) -> Result<bool> {
        let sql = "UPDATE sessions SET title = ?3 WHERE id = ?1 AND title = ?2";
        Ok(self
            .conn()
            .prepare_cached(sql)?
            .execute(params![id, from, to])?
            > 0)
    }

    /// The newest unpinned session whose id starts with `prefix` (e.g. `desktop:`), that has no
    /// message and still one of `titles` (the default title in each language): a new chat
    /// nobody used yet.
    pub fn find_unused_session(&self, prefix: &str, titles: &[String]) -> Result<Option<Session>> {
        let conn = self.conn();
        let sql = format!(
            "{SESSION_SELECT} WHERE substr(s.id, 1, length(?1)) = ?1 AND s.pinned = 0 \
             AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id) \
             ORDER BY s.updated_at DESC, s.id"
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut rows = stmt.query_map([prefix], session_from_row)?;
        rows.find_map(|row| match row {
            Ok(session) if !titles.contains(&session.title) => None,
            other => Some(other),
        })
        .transpose()
        .map_err(Into::into)
    }

    /// Marks the session as active now, moving it up in `list_sessions`.
    pub fn touch_session(&self, id: &str) -> Result<()> {
        touch(&self.conn(), id, self.now_ms())
    }
}

#[cfg(test)]
#[path = "sessions_tests.rs"]
mod tests;
