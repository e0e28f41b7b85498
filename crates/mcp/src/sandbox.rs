//! The sandbox of a stdio MCP server: the network on (most servers need it), the home's
//! secrets and Hearth's data folder unreadable, writes only in a folder of its own, its
//! configured working folder, the temp folder and the package caches `npx` and `uvx` fill.

use hearth_sandbox::{Sandbox, Settings};
use std::path::{Path, PathBuf};

/// The sandbox of the server `name` started in `cwd` (when configured).
pub(crate) fn server_sandbox(name: &str, cwd: Option<&Path>) -> Result<Sandbox, String> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let data = hearth_core::DataDir::resolve().map_err(|e| e.to_string())?;
    let own = data.root().join("mcp").join(crate::names::sanitize(name));
    std::fs::create_dir_all(&own)
        .map_err(|e| format!("cannot create the server's folder {}: {e}", own.display()))?;
    let settings = Settings {
        network: true,
        ..Settings::default()
    };
    let mut sandbox = Sandbox::new(&settings, home.as_deref(), Some(data.root()))
        .writable(own)
        .writable(std::env::temp_dir());
    if let Some(home) = &home {
        sandbox = sandbox
            .writable(home.join(".npm"))
            .writable(home.join(".cache"));
    }
    if let Some(cwd) = cwd {
        sandbox = sandbox.writable(cwd);
    }
    Ok(sandbox)
}
