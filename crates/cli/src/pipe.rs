//! A closed output pipe (`hearth-cli … | head`) ends the process quietly, as it does for other
//! command-line tools, instead of a panic in the next `println!`.

/// Restores the default action of SIGPIPE, which the Rust runtime ignores: a write to a pipe
/// whose reader has gone then ends the process at once, silently, like `cat` or `grep`.
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn end_quietly_on_closed_pipe() {
    // SAFETY: called first thing in `main`, before any thread exists; `SIG_DFL` installs no
    // handler code, so nothing runs in signal context. It fails only for an invalid signal.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}

/// Elsewhere a closed pipe is an ordinary write error.
#[cfg(not(unix))]
pub fn end_quietly_on_closed_pipe() {}
