//! What the start-up error screen shows when Hearth cannot open its settings or data.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Why Hearth could not start (its settings file does not load, or its data cannot be opened),
/// shown on the start-up error screen instead of the app.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct StartupProblem {
    /// One line: for a settings error the file, the key, the bad value and the allowed values.
    pub message: String,
    /// The settings file (`config.toml`) to fix.
    pub config_path: String,
}
