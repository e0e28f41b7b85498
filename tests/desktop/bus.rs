//! The session bus through `gdbus`: calling methods, finding a process's connections and the
//! objects they export, and waiting for a well-known name to be released.

use std::process::Command;
use std::time::{Duration, Instant};

/// The name the single-instance plugin owns while Hearth runs (identifier + ".SingleInstance").
pub const SINGLE_INSTANCE: &str = "dev.hearth.desktop.SingleInstance";

fn gdbus(args: &[&str]) -> Result<String, String> {
    let out = Command::new("gdbus")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run gdbus: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Calls `method` (`interface.Member`) on `dest` at `path`; the reply in GVariant text form.
pub fn call(dest: &str, path: &str, method: &str, args: &[&str]) -> Result<String, String> {
    let mut all = vec![
        "call",
        "--session",
        "--dest",
        dest,
        "--object-path",
        path,
        "--method",
        method,
        // Arguments such as -1 must not be read as options.
        "--",
    ];
    all.extend_from_slice(args);
    gdbus(&all)
}

fn daemon(method: &str, args: &[&str]) -> String {
    call(
        "org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        &format!("org.freedesktop.DBus.{method}"),
        args,
    )
    .unwrap_or_default()
}

fn digits_after(text: &str, marker: &str) -> Option<u32> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// Unique bus names owned by process `pid`.
pub fn names_of(pid: u32) -> Vec<String> {
    // "(['org.freedesktop.DBus', ':1.0', ...],)": the names are the quoted pieces.
    daemon("ListNames", &[])
        .split('\'')
        .skip(1)
        .step_by(2)
        .filter(|name| name.starts_with(':'))
        .filter(|name| {
            digits_after(&daemon("GetConnectionUnixProcessID", &[name]), "uint32 ") == Some(pid)
        })
        .map(str::to_string)
        .collect()
}

/// Object paths of connection `name` that implement `interface`.
pub fn objects_with(name: &str, interface: &str) -> Vec<String> {
    let args = [
        "introspect",
        "--session",
        "--dest",
        name,
        "--object-path",
        "/",
        "--recurse",
    ];
    let Ok(tree) = gdbus(&args) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut current = String::new();
    for line in tree.lines().map(str::trim) {
        if let Some(path) = line
            .strip_prefix("node ")
            .and_then(|l| l.strip_suffix(" {"))
        {
            current = path.to_string();
        } else if line == format!("interface {interface} {{") {
            found.push(current.clone());
        }
    }
    found
}

/// Whether someone owns the well-known `name`.
pub fn has_owner(name: &str) -> bool {
    daemon("NameHasOwner", &[name]).contains("true")
}

/// Waits until nobody owns `name` (the bus notices a dead owner a little after it exits).
pub fn wait_released(name: &str, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while has_owner(name) {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}
