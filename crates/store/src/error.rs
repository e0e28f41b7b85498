//! The store's error type.

use std::path::PathBuf;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{what} not found: {id}")]
    NotFound { what: &'static str, id: String },
    /// A value the store refuses to keep (empty, too long, out of range), naming its field.
    #[error("invalid {field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error("stored data is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("cannot create {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the database was written by a newer Hearth (schema version {found}; this version \
         understands up to {supported}); update Hearth to open it"
    )]
    SchemaTooNew { found: i64, supported: i64 },
    /// Work handed to [`crate::Db`] panicked or was cancelled.
    #[error(transparent)]
    Db(#[from] crate::DbError),
}

impl StoreError {
    pub(crate) fn not_found(what: &'static str, id: impl ToString) -> StoreError {
        StoreError::NotFound {
            what,
            id: id.to_string(),
        }
    }
}

impl From<StoreError> for hearth_protocol::AppError {
    /// The typed error the window translates: a missing row and a refused value say so, the
    /// rest is the database failing.
    fn from(error: StoreError) -> hearth_protocol::AppError {
        use hearth_protocol::AppError;
        match error {
            StoreError::NotFound { what, id } => AppError::NotFound {
                what: what.to_string(),
                id,
            },
            StoreError::Invalid { field, message } => AppError::InvalidValue {
                field: field.to_string(),
                message,
            },
            other => AppError::Store {
                message: other.to_string(),
            },
        }
    }
}

impl From<crate::DbError> for hearth_protocol::AppError {
    fn from(error: crate::DbError) -> hearth_protocol::AppError {
        hearth_protocol::AppError::from(StoreError::Db(error))
    }
}
