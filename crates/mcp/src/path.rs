//! The `PATH` stdio servers start with: the login shell's (so `npx`, `uvx` and `docker` are
//! found when Hearth was started from the desktop, not a terminal), then the process's own.

use std::sync::OnceLock;
use std::time::Duration;

const MARKER: &str = "__HEARTH_PATH__=";

/// The login shell's `PATH` entries followed by this process's, without repeats. Asked once
/// (at most 5 s); a shell that fails or hangs leaves the process's `PATH`.
pub fn server_path() -> String {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| merge(login_shell_path().as_deref(), &own_path()))
        .clone()
}

fn own_path() -> String {
    std::env::var("PATH").unwrap_or_default()
}

/// `first`'s entries, then `second`'s not already there.
fn merge(first: Option<&str>, second: &str) -> String {
    let mut entries: Vec<&str> = Vec::new();
    for entry in first.unwrap_or("").split(':').chain(second.split(':')) {
        if !entry.is_empty() && !entries.contains(&entry) {
            entries.push(entry);
        }
    }
    entries.join(":")
}

#[cfg(unix)]
fn login_shell_path() -> Option<String> {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    use std::process::{Command, Stdio};
    let shell = std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".to_string());
    let child = hearth_children::spawn_std(
        Command::new(shell)
            .args(["-l", "-c", &format!("printf '\\n{MARKER}%s\\n' \"$PATH\"")])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    )
    .ok()?;
    let pid = Pid::from_raw(i32::try_from(child.id()).ok()?);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    let Ok(Ok(output)) = receiver.recv_timeout(Duration::from_secs(5)) else {
        let _ = killpg(pid, Signal::SIGKILL);
        return None;
    };
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|line| line.strip_prefix(MARKER))
        .map(str::to_string)
}

#[cfg(not(unix))]
fn login_shell_path() -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_login_shell_entries_come_first_without_repeats() {
        assert_eq!(
            merge(Some("/opt/node/bin:/usr/bin"), "/usr/bin:/bin"),
            "/opt/node/bin:/usr/bin:/bin"
        );
        assert_eq!(merge(None, "/usr/bin"), "/usr/bin");
    }

    #[cfg(unix)]
    #[test]
    fn the_login_shell_is_asked() {
        let path = server_path();
        for entry in own_path().split(':').filter(|e| !e.is_empty()) {
            assert!(
                path.split(':').any(|p| p == entry),
                "{entry} lost from {path}"
            );
        }
        assert!(login_shell_path().is_some_and(|p| !p.is_empty()));
    }
}
