//! Why the knowledge base could not index, report or search, and whether trying again can help.

use hearth_protocol::AppError;
use hearth_store::StoreError;

/// What went wrong in [`crate::Knowledge`]'s `index`, `status` or `search`. A file the readers
/// cannot read is not one: it is recorded with its problem and the pass goes on.
#[derive(Debug, thiserror::Error)]
pub enum KnowledgeError {
    /// A knowledge folder does not exist (or is not a folder). Permanent until the user makes it
    /// or removes it from the settings.
    #[error("the knowledge folder {folder} does not exist: make it, or remove it in Settings → Knowledge")]
    FolderMissing { folder: String },
    /// A knowledge folder cannot be listed (its permissions). Permanent until they change.
    #[error("the knowledge folder {folder} cannot be read: {reason}")]
    FolderUnreadable { folder: String, reason: String },
    /// The index in Hearth's database failed (busy, full disk…). Retryable.
    #[error("the knowledge index failed: {0}")]
    Store(#[from] StoreError),
    /// A background task of the pass ended badly (it panicked or was cancelled). Retryable.
    #[error("a knowledge indexing task failed: {0}")]
    Task(String),
}

impl KnowledgeError {
    /// Whether the same call can succeed later without anyone changing anything.
    pub fn retryable(&self) -> bool {
        match self {
            KnowledgeError::FolderMissing { .. } | KnowledgeError::FolderUnreadable { .. } => false,
            KnowledgeError::Store(_) | KnowledgeError::Task(_) => true,
        }
    }
}

impl From<tokio::task::JoinError> for KnowledgeError {
    fn from(error: tokio::task::JoinError) -> KnowledgeError {
        KnowledgeError::Task(error.to_string())
    }
}

impl From<KnowledgeError> for AppError {
    /// The typed error the window translates.
    fn from(error: KnowledgeError) -> AppError {
        match error {
            KnowledgeError::FolderMissing { folder } => AppError::NotAFolder { path: folder },
            KnowledgeError::FolderUnreadable { folder, reason } => AppError::CannotOpen {
                path: folder,
                reason,
            },
            KnowledgeError::Store(error) => AppError::Store {
                message: error.to_string(),
            },
            KnowledgeError::Task(reason) => AppError::KnowledgeFailed { reason },
        }
    }
}
