//! The store as the tools reach it: every call through the app's [`Db`] (tokio's blocking pool,
//! writes queued in order), never inline on an async worker thread; and the tool error a store
//! failure becomes.

use hearth_store::{Db, Store, StoreError};

use crate::error::{ErrorKind, ToolError};

/// Runs `read` (queries only) through `db`; a store failure becomes [`store_error`]'s error.
pub(crate) async fn read<T, F>(db: &Db, read: F) -> Result<T, ToolError>
where
    F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    T: Send + 'static,
{
    db.read(move |store| read(store).map_err(store_error)).await
}

/// Runs `write` (anything that changes the store) through `db`, after the writes queued before
/// it; a store failure becomes [`store_error`]'s error.
pub(crate) async fn write<T, F>(db: &Db, write: F) -> Result<T, ToolError>
where
    F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    T: Send + 'static,
{
    db.write(move |store| write(store).map_err(store_error))
        .await
}

/// Runs `work`, which answers with the tool's own errors, through `db`: as a write when the
/// call `mutates` (its [`crate::CallFacts`] say so), else as a read.
pub(crate) async fn run<T, F>(db: &Db, mutates: bool, work: F) -> Result<T, ToolError>
where
    F: FnOnce(&Store) -> Result<T, ToolError> + Send + 'static,
    T: Send + 'static,
{
    if mutates {
        db.write(work).await
    } else {
        db.read(work).await
    }
}

/// The tool error for a store failure: unknown records are `not_found`, refused values
/// `invalid_arguments` naming the field, anything else `internal`.
pub(crate) fn store_error(error: StoreError) -> ToolError {
    match error {
        StoreError::NotFound { what, id } => {
            ToolError::new(ErrorKind::NotFound, format!("{what} {id} not found"))
        }
        StoreError::Invalid { field, message } => ToolError::invalid(field, message),
        other => ToolError::internal(other.to_string()),
    }
}
