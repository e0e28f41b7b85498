//! `Db`, the store's one async policy: SQLite work from async code runs on tokio's blocking pool.

use std::sync::Arc;

use tokio::sync::Mutex;

use crate::Store;

/// Why the database work handed to [`Db`] did not come back.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The closure panicked; the caller gets this instead of the panic (the store's connections
    /// stay usable: a transaction open at the panic was rolled back when it was dropped).
    #[error("database work panicked: {0}")]
    Panicked(String),
    /// The runtime is shutting down and no longer runs blocking work.
    #[error("database work was cancelled: the runtime is shutting down")]
    Closed,
}

impl From<tokio::task::JoinError> for DbError {
    fn from(error: tokio::task::JoinError) -> DbError {
        match error.try_into_panic() {
            Ok(payload) => DbError::Panicked(panic_message(payload.as_ref())),
            Err(_) => DbError::Closed,
        }
    }
}

/// The text a panic was raised with (`panic!("…")` payloads are `&str` or `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// The [`Store`] as async code uses it: every call runs a closure over the store on tokio's
/// blocking pool (`spawn_blocking`), so no async task runs SQLite inline and a slow statement
/// holds up no worker thread. Writes wait their turn here, in order, instead of each holding a
/// blocking thread while the writer connection is busy; reads do not wait for them (the store
/// answers the window's reads from its read-only connection, so neither a long write nor the
/// search indexer holds those up). Cheap to clone: clones share the store and the write queue.
#[derive(Clone)]
pub struct Db {
    store: Arc<Store>,
    write_turn: Arc<Mutex<()>>,
}

impl Db {
    /// The async face of `store`.
    pub fn new(store: Arc<Store>) -> Db {
        Db {
            store,
            write_turn: Arc::new(Mutex::new(())),
        }
    }

    /// Runs `read` on the blocking pool without waiting for queued writes.
    pub async fn read<T, E, F>(&self, read: F) -> Result<T, E>
    where
        F: FnOnce(&Store) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        self.run(read).await
    }

    /// Runs `write` on the blocking pool once the writes queued before it have finished.
    pub async fn write<T, E, F>(&self, write: F) -> Result<T, E>
    where
        F: FnOnce(&Store) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let _turn = self.write_turn.lock().await;
        self.run(write).await
    }

    /// The synchronous store, for code that already runs on a blocking thread (a
    /// `spawn_blocking` body, a command-line program, a test) or hands it to such code.
    pub fn blocking(&self) -> &Arc<Store> {
        &self.store
    }

    async fn run<T, E, F>(&self, work: F) -> Result<T, E>
    where
        F: FnOnce(&Store) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let store = self.store.clone();
        match tokio::task::spawn_blocking(move || work(&store)).await {
            Ok(result) => result,
            Err(error) => Err(E::from(DbError::from(error))),
        }
    }
}

impl From<Arc<Store>> for Db {
    fn from(store: Arc<Store>) -> Db {
        Db::new(store)
    }
}

#[cfg(test)]
#[path = "db_tests.rs"]
mod tests;
