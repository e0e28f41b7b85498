//! What the desktop suite needs before it can start the app: an X display, a session bus,
//! tauri-driver, WebKitWebDriver, python3-gi, xdotool, gnome-keyring, a StatusNotifier watcher
//! and the built `hearth` binary. A missing
//! piece fails the test with what is missing and how to run the suite.

use std::path::{Path, PathBuf};

/// How to run this suite, shown whenever something it needs is missing.
pub const HOW_TO_RUN: &str = "run the suite with: bash scripts/e2e-setup.sh && cargo build --workspace --bins && bash scripts/with-headless-session.sh cargo test -p hearth-tests --test app_e2e";

/// Names another build of the app to drive instead of `target/debug/hearth` (the latency
/// benchmark's release figures: `HEARTH_E2E_APP=target/release/hearth`).
pub const APP_ENV: &str = "HEARTH_E2E_APP";

/// The system Python (the one python3-gi is installed for).
pub const PYTHON: &str = "/usr/bin/python3";

/// Paths of everything the suite runs.
#[derive(Debug, Clone)]
pub struct Tools {
    /// The workspace root.
    pub root: PathBuf,
    /// `target/debug/hearth`, or the binary named by [`APP_ENV`].
    pub app: PathBuf,
    pub tauri_driver: PathBuf,
    pub native_driver: PathBuf,
    /// `target/debug/desktop-e2e`: homes and logs of each test, kept for inspection.
    pub scratch: PathBuf,
}

impl Tools {
    /// A helper script in `tests/desktop/`.
    pub fn script(&self, name: &str) -> PathBuf {
        self.root.join("tests/desktop").join(name)
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Checks every precondition; panics with all missing pieces and [`HOW_TO_RUN`].
pub fn require() -> Tools {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf();
    // The test executable is target/debug/deps/desktop_e2e-<hash>; the app is target/debug/hearth.
    // With a separate build dir (CARGO_BUILD_BUILD_DIR) test executables live there, while the
    // app binary is in CARGO_TARGET_DIR.
    let debug_dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(target) if std::env::var_os("CARGO_BUILD_BUILD_DIR").is_some() => {
            Path::new(&target).join("debug")
        }
        _ => std::env::current_exe()
            .expect("current_exe")
            .parent()
            .and_then(Path::parent)
            .expect("the test executable lives in target/<profile>/deps")
            .to_path_buf(),
    };
    let app = match std::env::var_os(APP_ENV) {
        Some(app) => root.join(app),
        None => debug_dir.join("hearth"),
    };
    let tauri_driver = Some(root.join(".tools/bin/tauri-driver"))
        .filter(|p| executable(p))
        .or_else(|| on_path("tauri-driver"));
    let native_driver = on_path("WebKitWebDriver");

    let mut missing = Vec::new();
    if std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        missing.push("DISPLAY is not set: no X server (Xvfb) to show the window on".to_string());
    }
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none_or(|d| d.is_empty()) {
        missing.push(
            "DBUS_SESSION_BUS_ADDRESS is not set: no D-Bus session for the tray, notifications and the keychain"
                .to_string(),
        );
    }
    if tauri_driver.is_none() {
        missing.push(
            "tauri-driver is not in .tools/bin or on PATH (scripts/e2e-setup.sh installs it)"
                .to_string(),
        );
    }
    if native_driver.is_none() {
        missing
            .push("WebKitWebDriver is not on PATH (Debian package webkit2gtk-driver)".to_string());
    }
    if !executable(&app) {
        missing.push(format!(
            "the app binary {} is missing (cargo build --workspace --bins)",
            app.display()
        ));
    }
    for tool in [
        "xdotool",
        "gdbus",
        "secret-tool",
        "gnome-keyring-daemon",
        "dbus-daemon",
        super::tray_host::PROGRAM,
    ] {
        if on_path(tool).is_none() {
            missing.push(format!(
                "{tool} is not on PATH (scripts/setup.sh installs it)"
            ));
        }
    }
    let gi = std::process::Command::new(PYTHON)
        .args(["-c", "import gi"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !gi {
        missing.push(format!(
            "{PYTHON} cannot import gi (Debian package python3-gi)"
        ));
    }
    if !missing.is_empty() {
        panic!(
            "the desktop end-to-end suite cannot run:\n  - {}\n{HOW_TO_RUN}",
            missing.join("\n  - ")
        );
    }
    Tools {
        root,
        app,
        tauri_driver: tauri_driver.expect("checked above"),
        native_driver: native_driver.expect("checked above"),
        scratch: debug_dir.join("desktop-e2e"),
    }
}
