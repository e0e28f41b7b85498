//! `[browser]` in `config.toml`: which Chrome the `browser` tool runs, whether its window shows,
//! and when an idle browser is closed.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The agent's managed browser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct BrowserSettings {
    /// The Chrome, Chromium, Edge or Brave program to run; empty finds one (`HEARTH_BROWSER`,
    /// then the usual install places, then `PATH`).
    pub executable: String,
    /// Shows the browser window (to log in to a site or watch); headless otherwise.
    pub visible: bool,
    /// Minutes without a browser call after which the browser is closed.
    pub idle_minutes: u32,
}

impl Default for BrowserSettings {
    fn default() -> Self {
        BrowserSettings {
            executable: String::new(),
            visible: false,
            idle_minutes: 10,
        }
    }
}
