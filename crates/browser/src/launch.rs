//! Starting the managed browser: its flags (no background networking, frames in one renderer
//! so cross-origin iframes are reachable, all traffic through the egress proxy), the
//! persistent profile and its stale lock after a crash.

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::handler::Handler;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How to start the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchOptions {
    pub executable: PathBuf,
    /// The persistent profile (`<data dir>/browser/profile`).
    pub profile: PathBuf,
    /// Shows the window; headless otherwise.
    pub visible: bool,
    /// What the egress proxy lets the browser reach on this computer and its network
    /// (`allow_local_hosts`).
    pub allow_local: Vec<String>,
    /// The DevTools address of the user's own Chrome to attach to instead of starting one
    /// (`browser.cdp_url`): nothing is launched and its traffic bypasses the egress proxy.
    pub attach: Option<String>,
}

/// The browser window (and headless viewport) size.
pub const WINDOW: (u32, u32) = (1280, 800);

/// The flags beyond chromiumoxide's defaults, with all traffic through the egress proxy on
/// `127.0.0.1:proxy_port` (its flags close WebRTC's and QUIC's ways around it too).
fn flags(proxy_port: u16) -> Vec<(String, Option<String>)> {
    let own = [
        ("disable-gpu", None),
        ("disable-component-update", None),
        ("disable-domain-reliability", None),
        ("no-default-browser-check", None),
        ("no-pings", None),
        // Site isolation stays on: cross-site iframes run in their own renderers and are
        // reached through their own CDP sessions (see `wire`).
        (
            "disable-features",
            Some("TranslateUI,MediaRouter,OptimizationHints"),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.map(str::to_string)));
    let egress = hearth_egress::chrome_flags(proxy_port)
        .into_iter()
        .map(|flag| {
            let flag = flag.trim_start_matches('-');
            match flag.split_once('=') {
                Some((key, value)) => (key.to_string(), Some(value.to_string())),
                None => (flag.to_string(), None),
            }
        });
    own.chain(egress).collect()
}

/// Whether this process runs as root (Chrome's sandbox refuses root).
fn running_as_root() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Removes the profile's lock when the process that held it is gone (a crashed or killed
/// browser); an error when a live process still holds it.
fn clear_stale_lock(profile: &Path) -> Result<(), String> {
    let lock = profile.join("SingletonLock");
    let Ok(target) = std::fs::read_link(&lock) else {
        return Ok(());
    };
    let owner = target
        .to_string_lossy()
        .rsplit('-')
        .next()
        .and_then(|p| p.parse::<u32>().ok());
    if let Some(pid) = owner {
        if Path::new(&format!("/proc/{pid}")).exists() {
            return Err(format!(
                "the browser profile {} is in use by another browser (process {pid}); close it \
                 or the other Hearth first",
                profile.display()
            ));
        }
    }
    for name in ["SingletonLock", "SingletonSocket", "SingletonCookie"] {
        let _ = std::fs::remove_file(profile.join(name));
    }
    Ok(())
}

/// Starts the browser sending everything through the egress proxy on `proxy_port`; the
/// handler must be polled for the connection to work.
pub async fn launch(
    options: &LaunchOptions,
    proxy_port: u16,
) -> Result<(Browser, Handler), String> {
    std::fs::create_dir_all(&options.profile).map_err(|e| {
        format!(
            "the browser profile folder {} could not be made: {e}",
            options.profile.display()
        )
    })?;
    if cfg!(target_os = "linux") {
        clear_stale_lock(&options.profile)?;
    }
    let mut builder = BrowserConfig::builder()
        .chrome_executable(&options.executable)
        .user_data_dir(&options.profile)
        .window_size(WINDOW.0, WINDOW.1)
        .viewport(None)
        .launch_timeout(Duration::from_secs(30))
        .request_timeout(Duration::from_secs(30));
    if options.visible {
        builder = builder.with_head();
    }
    if running_as_root() {
        builder = builder.no_sandbox();
    }
    for (key, value) in flags(proxy_port) {
        builder = match value {
            Some(value) => builder.arg((key.as_str(), value.as_str())),
            None => builder.arg(key.as_str()),
        };
    }
    let config = builder.build()?;
    let (mut browser, handler) = Browser::launch(config).await.map_err(|e| {
        format!(
            "the browser {} did not start: {e}",
            options.executable.display()
        )
    })?;
    // Recorded with its descendants (renderers, GPU process) so that it ends with Hearth even
    // when Hearth is killed.
    hearth_children::spawned(browser.get_mut_child().and_then(|child| child.inner.id()));
    Ok((browser, handler))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proxy_flags_come_once_and_cover_loopback() {
        let flags = flags(4321);
        let proxy = ("proxy-server".into(), Some("http://127.0.0.1:4321".into()));
        assert!(flags.contains(&proxy), "{flags:?}");
        assert!(flags.contains(&("proxy-bypass-list".into(), Some("<-loopback>".into()))));
        let mut keys: Vec<&str> = flags.iter().map(|(k, _)| k.as_str()).collect();
        let count = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), count, "a flag twice in {flags:?}");
        assert!(!keys.iter().any(|k| k.starts_with('-')), "{keys:?}");
    }
}
