//! Why the data dir could not be opened, as the start-up error screen explains it: which kind of
//! problem (settings, a database from a newer Hearth, a damaged database, a denied or unusable
//! folder) and the path it is about.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use hearth_protocol::{Settings, StartupProblem, StartupProblemKind};
use hearth_store::{Store, StoreError};
use rusqlite::ErrorCode;

use crate::EngineError;
use hearth_core::DataDir;

/// Opens what the app needs from `dir` before anything starts: its folders, `config.toml`, then
/// `hearth.db` (migrated; a database from a newer Hearth is refused and left untouched).
pub fn open_data(dir: &DataDir) -> Result<(Settings, Store), EngineError> {
    dir.ensure()?;
    let settings = crate::load_settings(&dir.config())?;
    let store = Store::open(&dir.database())?;
    Ok((settings, store))
}

/// The start-up problem for an error from opening `dir` (its folders, `config.toml`, then
/// `hearth.db`).
pub fn startup_problem(dir: &DataDir, error: &EngineError) -> StartupProblem {
    let (kind, path) = classify(dir, error);
    StartupProblem {
        kind,
        message: error.to_string(),
        path: path.display().to_string(),
        config_path: dir.config().display().to_string(),
        data_dir: dir.root().display().to_string(),
    }
}

fn classify(dir: &DataDir, error: &EngineError) -> (StartupProblemKind, PathBuf) {
    match error {
        EngineError::Config(_) => (StartupProblemKind::InvalidSettings, dir.config()),
        EngineError::Store(StoreError::SchemaTooNew { found, supported }) => (
            StartupProblemKind::DatabaseTooNew {
                found: *found,
                supported: *supported,
            },
            dir.database(),
        ),
        EngineError::Store(StoreError::Sqlite(error)) => match error.sqlite_error_code() {
            Some(ErrorCode::PermissionDenied | ErrorCode::ReadOnly | ErrorCode::CannotOpen) => {
                (StartupProblemKind::DataDirDenied, dir.database())
            }
            _ => (StartupProblemKind::DatabaseUnreadable, dir.database()),
        },
        EngineError::Store(StoreError::Io { path, source }) => (folder_kind(source), path.clone()),
        EngineError::Io(source) => (folder_kind(source), dir.root().to_path_buf()),
        _ => (
            StartupProblemKind::DataDirUnusable,
            dir.root().to_path_buf(),
        ),
    }
}

fn folder_kind(error: &std::io::Error) -> StartupProblemKind {
    match error.kind() {
        ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => {
            StartupProblemKind::DataDirDenied
        }
        _ => StartupProblemKind::DataDirUnusable,
    }
}

/// The nearest folder of `path` that exists (itself, or a parent): what "Open folder" can show
/// even when the data dir could not be created.
pub fn existing_folder(path: &Path) -> Option<&Path> {
    path.ancestors().find(|p| p.is_dir())
}

#[cfg(test)]
#[path = "startup_tests.rs"]
mod tests;
