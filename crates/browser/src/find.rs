//! Finding a Chromium-family browser: the `browser.executable` setting, `HEARTH_BROWSER`, the
//! usual install places of Chrome, Chromium, Edge and Brave on Linux, macOS and Windows, then
//! `PATH`.

use std::path::{Path, PathBuf};

/// A browser program and where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub path: PathBuf,
    /// `setting`, `HEARTH_BROWSER`, `install` or `PATH`.
    pub source: &'static str,
}

/// Program names looked up on `PATH`.
const NAMES: &[&str] = &[
    "google-chrome",
    "google-chrome-stable",
    "chromium",
    "chromium-browser",
    "microsoft-edge",
    "microsoft-edge-stable",
    "brave-browser",
    "chrome",
    "msedge",
];

/// The usual install places on this system.
fn install_places() -> Vec<PathBuf> {
    let mut places: Vec<PathBuf> = Vec::new();
    if cfg!(target_os = "macos") {
        for app in [
            "Google Chrome.app/Contents/MacOS/Google Chrome",
            "Chromium.app/Contents/MacOS/Chromium",
            "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
            "Brave Browser.app/Contents/MacOS/Brave Browser",
        ] {
            places.push(Path::new("/Applications").join(app));
            if let Some(home) = std::env::var_os("HOME") {
                places.push(Path::new(&home).join("Applications").join(app));
            }
        }
    } else if cfg!(windows) {
        for var in ["ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA"] {
            if let Some(base) = std::env::var_os(var) {
                let base = PathBuf::from(base);
                places.push(base.join("Google/Chrome/Application/chrome.exe"));
                places.push(base.join("Microsoft/Edge/Application/msedge.exe"));
                places.push(base.join("BraveSoftware/Brave-Browser/Application/brave.exe"));
                places.push(base.join("Chromium/Application/chrome.exe"));
            }
        }
    } else {
        for place in [
            "/usr/bin/google-chrome",
            "/usr/bin/google-chrome-stable",
            "/opt/google/chrome/chrome",
            "/usr/bin/chromium",
            "/usr/bin/chromium-browser",
            "/snap/bin/chromium",
            "/usr/bin/microsoft-edge",
            "/opt/microsoft/msedge/msedge",
            "/usr/bin/brave-browser",
            "/opt/brave.com/brave/brave",
        ] {
            places.push(PathBuf::from(place));
        }
    }
    places
}

/// What to install when no browser is found, for this system.
pub fn install_hint() -> &'static str {
    if cfg!(target_os = "macos") {
        "install Google Chrome (google.com/chrome), Chromium, Microsoft Edge or Brave, or set \
         browser.executable to the browser program"
    } else if cfg!(windows) {
        "install Google Chrome (google.com/chrome) or Microsoft Edge, or set browser.executable \
         to chrome.exe or msedge.exe"
    } else {
        "install Chromium (e.g. `sudo apt install chromium`) or Google Chrome, or set \
         browser.executable (or HEARTH_BROWSER) to the browser program"
    }
}

/// The browser to run: `setting` (the `browser.executable` setting; empty for none), then
/// `HEARTH_BROWSER`, install places, `PATH`. A named program that does not exist is an error
/// saying so; none found is an error saying what to install.
pub fn find_browser(setting: &str) -> Result<Found, String> {
    let env = std::env::var("HEARTH_BROWSER").unwrap_or_default();
    let path = std::env::var_os("PATH").unwrap_or_default();
    find_in(setting, &env, &path, &install_places())
}

fn find_in(
    setting: &str,
    env: &str,
    path_var: &std::ffi::OsStr,
    places: &[PathBuf],
) -> Result<Found, String> {
    for (value, source, what) in [
        (setting.trim(), "setting", "the browser.executable setting"),
        (env.trim(), "HEARTH_BROWSER", "HEARTH_BROWSER"),
    ] {
        if value.is_empty() {
            continue;
        }
        let named = PathBuf::from(value);
        if named.is_file() {
            return Ok(Found {
                path: named,
                source,
            });
        }
        if let Some(on_path) = on_path(value, path_var) {
            return Ok(Found {
                path: on_path,
                source,
            });
        }
        return Err(format!(
            "{what} names `{value}`, which is not a program on this computer; {}",
            install_hint()
        ));
    }
    if let Some(place) = places.iter().find(|p| p.is_file()) {
        return Ok(Found {
            path: place.clone(),
            source: "install",
        });
    }
    NAMES
        .iter()
        .find_map(|name| on_path(name, path_var))
        .map(|path| Found {
            path,
            source: "PATH",
        })
        .ok_or_else(|| {
            format!(
                "no Chrome, Chromium, Edge or Brave was found on this computer; {}",
                install_hint()
            )
        })
}

fn on_path(name: &str, path_var: &std::ffi::OsStr) -> Option<PathBuf> {
    if name.contains(['/', '\\']) {
        return None;
    }
    std::env::split_paths(path_var).find_map(|dir| {
        let exe = dir.join(name);
        if exe.is_file() {
            return Some(exe);
        }
        let windows = dir.join(format!("{name}.exe"));
        windows.is_file().then_some(windows)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    #[test]
    fn the_setting_wins_and_a_missing_one_says_what_to_install() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("chromium");
        std::fs::write(&exe, "").unwrap();
        let path = OsString::from(dir.path());
        let found = find_in(exe.to_str().unwrap(), "", &path, &[]).unwrap();
        assert_eq!(found.source, "setting");
        let by_name = find_in("", "chromium", &path, &[]).unwrap();
        assert_eq!(
            (by_name.path, by_name.source),
            (exe.clone(), "HEARTH_BROWSER")
        );
        let error = find_in("/nowhere/chrome", "", &path, &[]).unwrap_err();
        assert!(
            error.contains("/nowhere/chrome") && error.contains("install"),
            "{error}"
        );
        let on_path = find_in("", "", &path, &[dir.path().join("missing")]).unwrap();
        assert_eq!(on_path.source, "PATH");
        let none = find_in("", "", &OsString::new(), &[]).unwrap_err();
        assert!(
            none.contains("no Chrome, Chromium, Edge or Brave"),
            "{none}"
        );
    }
}
