//! The `browser` tool: finds and runs one managed Chrome/Chromium per app over CDP
//! (chromiumoxide), one tab per session, page snapshots (an in-page walk of each frame) in
//! Playwright's "ai" grammar with stable refs, and every page action with the right amount of
//! waiting.

mod actions;
mod capture;
mod cdp;
mod downloads;
mod error;
mod find;
mod journal;
mod launch;
mod manager;
pub mod snapshot;
mod tab;
mod tool;
mod wire;

pub use downloads::{DOWNLOADS_FOLDER, MAX_DOWNLOAD_BYTES};
pub use find::{find_browser, Found};
pub use launch::LaunchOptions;
pub use manager::Browsers;
pub use tool::{
    loopback_cdp_url, register_browser, screenshot_result, BrowserArgs, BrowserConfig, BrowserTool,
    PicobotBrowserArgs, Screenshot,
};
