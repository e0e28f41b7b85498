//! Helpers for the store's unit tests: a store in a temporary directory and sample rows.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hearth_protocol::{ContentPart, Message, Role, Session, ToolCall};
use rusqlite::Connection;
use tempfile::TempDir;

use crate::{ManualClock, NewMessage, NewSession, Store};

/// A tool call with these fields.
pub(crate) fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
        signature: None,
    }
}

/// A store backed by a real file in a directory deleted on drop, its timestamps from a clock
/// that moves only when the test says ([`TempStore::tick`]).
pub(crate) struct TempStore {
    pub(crate) dir: TempDir,
    pub(crate) store: Store,
    pub(crate) clock: Arc<ManualClock>,
}

impl TempStore {
    pub(crate) fn new() -> TempStore {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::starting_now());
        let store = Store::open(&dir.path().join("hearth.db"))
            .unwrap()
            .with_clock(clock.clone());
        TempStore { dir, store, clock }
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.path().join("hearth.db")
    }

    /// Closes the store and opens the same file again.
    pub(crate) fn reopen(self) -> TempStore {
        let TempStore { dir, store, clock } = self;
        drop(store);
        let store = Store::open(&dir.path().join("hearth.db"))
            .unwrap()
            .with_clock(clock.clone());
        TempStore { dir, store, clock }
    }

    /// Moves the store's clock on by a millisecond, so the next write's timestamp differs.
    pub(crate) fn tick(&self) {
        self.clock.advance(Duration::from_millis(1));
    }

    pub(crate) fn session(&self, id: &str) -> Session {
        self.store.create_session(&new_session(id)).unwrap()
    }

    /// Stores a complete text message.
    pub(crate) fn say(&self, session_id: &str, role: Role, text: &str) -> Message {
        let new = NewMessage::new(session_id, role, vec![ContentPart::text(text)]);
        self.store.insert_message(&new).unwrap()
    }
}

pub(crate) fn new_session(id: &str) -> NewSession {
    NewSession {
        id: id.to_string(),
        title: format!("Chat {id}"),
        model: Some("gpt-test".to_string()),
        workspace: Some("/tmp/ws".to_string()),
        tool_profile: "coding".to_string(),
    }
}

/// FTS5's own check of both message indexes against the messages table (`rank` 1: the content
/// too). It holds only with no message streaming and an empty backlog (`search::backlog`).
pub(crate) fn assert_search_indexes_exact(conn: &Connection) {
    for table in ["messages_fts", "messages_trigram"] {
        conn.execute(
            &format!("INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)"),
            [],
        )
        .unwrap_or_else(|e| panic!("{table}: {e}"));
    }
}

/// Writes session `s` and one message with this status and text straight into a database file
/// opened without the store, as an older version or another process would have.
pub(crate) fn insert_raw_message(conn: &Connection, role: &str, status: &str, text: &str) {
    conn.execute(
        "INSERT OR IGNORE INTO sessions (id, title, tool_profile, created_at, updated_at) \
         VALUES ('s', 'S', 'coding', 0, 0)",
        [],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO messages (session_id, role, kind, content, tool_calls, status, text, \
             words, created_at, updated_at) \
         VALUES ('s', ?1, 'normal', '[]', '[]', ?2, ?3, ?3, 0, 0)",
        [role, status, text],
    )
    .unwrap();
}
