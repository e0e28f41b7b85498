//! Giving memory back once the hidden window has been torn down (see [`crate::parking`]). On
//! Linux, WebKit's network process is ended once the window's web process has exited, and the
//! heap the window freed is handed back to the OS; elsewhere this does nothing.
//!
//! WebKitGTK ends its network process only when the last `WebKitWebContext` is finalized, and
//! the Tauri runtime keeps its context for the app's lifetime on Linux (tauri-apps/tauri#14626,
//! tauri-apps/wry#590); WebKitGTK has no call to end that process, so it is sent SIGTERM. It
//! holds nothing the app needs while there is no window (the UI keeps no web storage, and what
//! WebKit stores on disk is in crash-safe SQLite), and WebKit launches a new one when the next
//! window is built. Together this takes about 18 MB off the idle app. Under WebDriver (tauri-driver
//! sets `TAURI_WEBVIEW_AUTOMATION`) the network process is kept: WebKit ends the automation
//! session when its network process goes.

/// Ends WebKit's network process and trims the heap once the torn-down window's web process is
/// gone, as long as `still_hidden` says no window is being built again (it is asked again right
/// before the network process is ended: a new window needs it).
pub async fn release_after_teardown(still_hidden: impl Fn() -> bool) {
    #[cfg(target_os = "linux")]
    linux::release_after_teardown(still_hidden).await;
    #[cfg(not(target_os = "linux"))]
    let _ = still_hidden;
}

#[cfg(target_os = "linux")]
mod linux {
    use std::time::{Duration, Instant};

    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;

    /// The executable of WebKit's web content process.
    const WEB_PROCESS: &str = "WebKitWebProcess";
    /// The executable of WebKit's network process.
    const NETWORK_PROCESS: &str = "WebKitNetworkProcess";
    /// Set by tauri-driver for an app it drives over WebDriver.
    const AUTOMATION_ENV: &str = "TAURI_WEBVIEW_AUTOMATION";
    /// How long the torn-down window's web process gets to exit; the network process is left
    /// alone while one still runs (WebKit would only launch another for it).
    const WEB_PROCESS_PATIENCE: Duration = Duration::from_secs(10);
    const POLL: Duration = Duration::from_millis(200);

    pub async fn release_after_teardown(still_hidden: impl Fn() -> bool) {
        let deadline = Instant::now() + WEB_PROCESS_PATIENCE;
        let mut web_process_gone = false;
        while still_hidden() && Instant::now() < deadline {
            if children_running(WEB_PROCESS).is_empty() {
                web_process_gone = true;
                break;
            }
            tokio::time::sleep(POLL).await;
        }
        if web_process_gone && still_hidden() {
            if std::env::var(AUTOMATION_ENV).is_ok_and(|v| v == "true") {
                tracing::info!("WebKit's network process kept for the WebDriver session");
            } else {
                end_network_process();
            }
        }
        trim_heap();
    }

    fn end_network_process() {
        for pid in children_running(NETWORK_PROCESS) {
            match end(pid) {
                Ok(()) => tracing::info!(pid, "WebKit's network process ended to free memory"),
                Err(error) => tracing::warn!(pid, %error, "cannot end WebKit's network process"),
            }
        }
    }

    /// This process's running children whose executable is named `name`.
    pub(super) fn children_running(name: &str) -> Vec<u32> {
        let me = std::process::id();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| running_child_of(pid, me) && executable_is(pid, name))
            .collect()
    }

    /// Whether `pid` runs (is not a zombie) with `parent` as its parent, from /proc/PID/stat.
    fn running_child_of(pid: u32, parent: u32) -> bool {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return false;
        };
        // The command name is in parentheses and may hold anything: fields follow the last ')'.
        let Some(rest) = stat.rfind(')').map(|end| &stat[end + 1..]) else {
            return false;
        };
        let mut fields = rest.split_whitespace();
        let running = fields
            .next()
            .is_some_and(|state| state != "Z" && state != "X");
        running && fields.next().and_then(|p| p.parse::<u32>().ok()) == Some(parent)
    }

    fn executable_is(pid: u32, name: &str) -> bool {
        std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| {
            let file = exe.file_name().and_then(|f| f.to_str()).unwrap_or_default();
            file.trim_end_matches(" (deleted)") == name
        })
    }

    pub(super) fn end(pid: u32) -> nix::Result<()> {
        let pid = i32::try_from(pid).map_err(|_| nix::Error::ESRCH)?;
        kill(Pid::from_raw(pid), Signal::SIGTERM)
    }

    /// Hands the heap's free pages back to the OS: glibc keeps what the window's teardown freed
    /// (a few MB) for later allocations.
    #[cfg(target_env = "gnu")]
    #[allow(unsafe_code)]
    fn trim_heap() {
        // SAFETY: malloc_trim takes no pointers and only works on glibc's own allocator state,
        // under the allocator's locks; it may be called from any thread at any time.
        unsafe {
            libc::malloc_trim(0);
        }
    }

    #[cfg(not(target_env = "gnu"))]
    fn trim_heap() {}
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::os::unix::process::ExitStatusExt;
    use std::process::Command;
    use std::time::{Duration, Instant};

    use super::linux::{children_running, end};

    #[test]
    fn finds_a_running_child_by_its_executable_and_ends_it() {
        let mut child = Command::new("sleep").arg("30").spawn().unwrap();
        assert!(children_running("sleep").contains(&child.id()));
        assert!(!children_running("sleepy").contains(&child.id()));
        assert!(children_running("WebKitNetworkProcess").is_empty());

        end(child.id()).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(libc::SIGTERM));
        assert!(!children_running("sleep").contains(&child.id()));
    }

    #[test]
    fn an_exited_child_is_not_running_and_an_impossible_pid_is_refused() {
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        // Not yet reaped, the child stays in /proc as a zombie: it does not count as running.
        let deadline = Instant::now() + Duration::from_secs(20);
        while !zombie(pid) {
            assert!(Instant::now() < deadline, "`true` did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!children_running("true").contains(&pid));
        child.wait().unwrap();
        assert!(end(u32::MAX).is_err());
    }

    fn zombie(pid: u32) -> bool {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        stat[stat.rfind(')').unwrap() + 1..]
            .trim_start()
            .starts_with('Z')
    }
}
