//! Giving memory back once the hidden window has been torn down (see [`crate::parking`]). On
//! Linux, WebKit's network process is ended once the window's web process has exited, the heap
//! the window freed is handed back to the OS, and the pages of program files this process alone
//! maps are paged out; elsewhere this does nothing.
//!
//! WebKitGTK ends its network process only when the last `WebKitWebContext` is finalized, and
//! the Tauri runtime keeps its context for the app's lifetime on Linux (tauri-apps/tauri#14626,
//! tauri-apps/wry#590); WebKitGTK has no call to end that process, so it is sent SIGTERM. It
//! holds nothing the app needs while there is no window (the UI keeps no web storage, and what
//! WebKit stores on disk is in crash-safe SQLite), and WebKit launches a new one when the next
//! window is built. Together this takes about 18 MB off the idle app. Under WebDriver (tauri-driver
//! sets `TAURI_WEBVIEW_AUTOMATION`) the network process is kept: WebKit ends the automation
//! session when its network process goes.
//!
//! Paging out: starting up and building the window touch tens of megabytes of the executable's
//! and the GUI libraries' code and read-only data (Mesa's software renderer, WebKit, GTK), which
//! then stay mapped although an app hidden in the tray runs almost none of it. Those pages are
//! clean copies of files, so `MADV_PAGEOUT` (Linux 5.4+, as Android does for cached apps) drops
//! them at no risk: the kernel skips pages other processes map too, and a page needed again is
//! read back from the page cache (or the file) on first touch, when the window is built again.

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
        if still_hidden() {
            page_out_program_files();
        }
    }

    /// Advises the kernel to page out every read-only mapping of a file (code and constants of
    /// the executable and its libraries; see the module notes).
    #[allow(unsafe_code)]
    fn page_out_program_files() {
        let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
            return;
        };
        let (mut ranges, mut bytes) = (0usize, 0usize);
        for (start, length) in maps.lines().filter_map(read_only_file_mapping) {
            // SAFETY: MADV_PAGEOUT never changes what memory holds: a clean file page paged out
            // is read back from its file on the next access, and the kernel refuses (EINVAL,
            // ignored here) mappings it cannot page out. A range unmapped by another thread
            // since /proc/self/maps was read fails with ENOMEM; one mapped anew there is paged
            // out under the same guarantee.
            let advised =
                unsafe { libc::madvise(start as *mut libc::c_void, length, libc::MADV_PAGEOUT) };
            if advised == 0 {
                ranges += 1;
                bytes += length;
            }
        }
        tracing::info!(
            ranges,
            mapped_mb = bytes / (1024 * 1024),
            "program files' pages advised out while hidden"
        );
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

    /// The start and length of a line of /proc/self/maps that maps a file read-only (not
    /// writable; a path, not `[heap]`, `[vdso]` or an anonymous mapping).
    pub(super) fn read_only_file_mapping(line: &str) -> Option<(usize, usize)> {
        let mut fields = line.split_whitespace();
        let (range, permissions) = (fields.next()?, fields.next()?);
        let path = fields.nth(3)?;
        if !path.starts_with('/') || permissions.contains('w') {
            return None;
        }
        let (start, end) = range.split_once('-')?;
        let start = usize::from_str_radix(start, 16).ok()?;
        let end = usize::from_str_radix(end, 16).ok()?;
        Some((start, end.checked_sub(start).filter(|&length| length > 0)?))
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

    use super::linux::{children_running, end, read_only_file_mapping};

    #[test]
    fn only_read_only_mappings_of_files_are_paged_out() {
        let lines = [
            ("55d0c0a00000-55d0c0e00000 r-xp 00200000 fd:01 1234 /usr/bin/hearth", Some((0x55d0_c0a0_0000, 0x40_0000))),
            ("7f00aa000000-7f00aa001000 r--p 00000000 fd:01 99 /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1", Some((0x7f00_aa00_0000, 0x1000))),
            ("7f00aa001000-7f00aa002000 rw-p 00001000 fd:01 99 /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1", None),
            ("7f00ab000000-7f00ab100000 rw-p 00000000 00:00 0 ", None),
            ("55d0c1000000-55d0c2000000 rw-p 00000000 00:00 0 [heap]", None),
            ("7ffd3b9fe000-7ffd3ba00000 r-xp 00000000 00:00 0 [vdso]", None),
            ("7f00ac000000-7f00ac000000 r--p 00000000 fd:01 7 /usr/share/fonts/a.ttf", None),
            ("not a line", None),
        ];
        for (line, expected) in lines {
            assert_eq!(read_only_file_mapping(line), expected, "{line}");
        }
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
        let this = std::env::current_exe().unwrap().display().to_string();
        assert!(maps
            .lines()
            .filter(|line| line.ends_with(&this))
            .any(|line| read_only_file_mapping(line).is_some()));
    }

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
