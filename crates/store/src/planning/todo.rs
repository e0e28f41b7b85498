//! Each session's checklist: one row per session with its items as JSON and a revision that
//! grows by one with every change.

use hearth_protocol::{TodoItem, TodoList};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

use crate::{Result, Store, StoreError};

fn load(conn: &Connection, session_id: &str) -> Result<Option<TodoList>> {
    let row = conn
        .prepare_cached(
            "SELECT revision, next_id, items, updated_at FROM todo_lists WHERE session_id = ?1",
        )?
        .query_row([session_id], |row| {
            Ok((
                row.get::<_, u32>(0)?,
                row.get::<_, u32>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, i64>(3)?,
            ))
        })
        .optional()?;
    let Some((revision, next_id, items, updated_at)) = row else {
        return Ok(None);
    };
    let items: Vec<TodoItem> = serde_json::from_str(&items)?;
    Ok(Some(TodoList {
        session_id: session_id.to_string(),
        revision,
        items,
        next_id,
        updated_at,
    }))
}

impl Store {
    /// The session's checklist, `None` when it never had one.
    pub fn todo_list(&self, session_id: &str) -> Result<Option<TodoList>> {
        load(&self.conn(), session_id)
    }

    /// Lets `change` turn the session's checklist (`None` when it has none) into its new items
    /// and next id, and stores them with the revision one higher, in one immediate transaction.
    /// Nothing is written when `change` fails.
    pub fn change_todo_list<E: From<StoreError>>(
        &self,
        session_id: &str,
        change: impl FnOnce(Option<TodoList>) -> Result<TodoList, E>,
    ) -> Result<TodoList, E> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let current = load(&tx, session_id)?;
        let revision = current.as_ref().map_or(0, |list| list.revision) + 1;
        let changed = change(current)?;
        let items = serde_json::to_string(&changed.items).map_err(StoreError::from)?;
        let list = TodoList {
            session_id: session_id.to_string(),
            revision,
            updated_at: self.now_ms(),
            ..changed
        };
        tx.prepare_cached(
            "INSERT OR REPLACE INTO todo_lists (session_id, revision, next_id, items, updated_at) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .map_err(StoreError::from)?
        .execute(params![
            session_id,
            list.revision,
            list.next_id,
            items,
            list.updated_at
        ])
        .map_err(StoreError::from)?;
        tx.commit().map_err(StoreError::from)?;
        Ok(list)
    }
}
