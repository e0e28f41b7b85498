//! What the start-up error screen shows when Hearth cannot open its settings or data.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Why Hearth could not start (its settings file does not load, or its data cannot be opened),
/// shown on the start-up error screen instead of the app.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct StartupProblem {
    /// Which problem it is, so the screen can explain it and say what to do (in the UI's
    /// language).
    pub kind: StartupProblemKind,
    /// One line: for a settings error the file, the key, the bad value and the allowed values.
    pub message: String,
    /// The file or folder the problem is about (`config.toml`, `hearth.db` or the data dir).
    pub path: String,
    /// The settings file (`config.toml`) to fix.
    pub config_path: String,
    /// Hearth's data dir, the folder "Open folder" shows.
    pub data_dir: String,
}

/// The kinds of start-up problem, each worded by the UI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum StartupProblemKind {
    /// `config.toml` does not load (an unknown key, a value that is not one of the choices).
    InvalidSettings,
    /// `hearth.db` was written by a newer Hearth; it is left untouched.
    DatabaseTooNew { found: i64, supported: i64 },
    /// `hearth.db` is not a database Hearth can read (damaged, or another kind of file).
    DatabaseUnreadable,
    /// The data dir (or a file in it) belongs to someone else or is read-only for this user.
    DataDirDenied,
    /// The data dir cannot be created or used (a file in its place, a full or read-only disk).
    DataDirUnusable,
}
