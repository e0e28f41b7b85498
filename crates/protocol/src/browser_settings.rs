//! `[browser]` in `config.toml`: which Chrome the `browser` tool runs, whether its window shows,
//! when an idle browser is closed, and (opt-in) the user's own Chrome to attach to instead.

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
    #[serde(deserialize_with = "crate::bounds::idle_minutes")]
    pub idle_minutes: u32,
    /// Attach to the user's own Chrome at this DevTools address on this computer
    /// (`http://127.0.0.1:9222`, started with `--remote-debugging-port=9222`) instead of
    /// running the managed browser. Its traffic does not go through the egress guard, so every
    /// call asks, and unattended runs (`daemon`, `public_gateway`) refuse it. Empty: off.
    pub cdp_url: String,
}

impl Default for BrowserSettings {
    fn default() -> Self {
        BrowserSettings {
            executable: String::new(),
            visible: false,
            idle_minutes: 10,
            cdp_url: String::new(),
        }
    }
}

/// What Settings → Browser shows about the agent's browser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct BrowserStatus {
    /// The browser program that would run (none found: the UI says what to install).
    pub executable: Option<String>,
    /// Where it was found: `setting`, `HEARTH_BROWSER`, `install` or `PATH`.
    pub source: Option<String>,
    /// Whether the agent's browser is running now.
    pub running: bool,
}
