//! A test's home under `target/debug/desktop-e2e/<name>`: `data/` is the app's `HEARTH_HOME`,
//! configured for the scripted model server; logs of every launch sit next to it. Plus the
//! suite's generic waiting and file-scanning helpers.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::env::Tools;

/// How long UI conditions may take on a loaded 2-core machine.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// Recreated empty for each run and kept afterwards for inspection.
pub struct Home {
    pub dir: PathBuf,
    launches: usize,
}

impl Home {
    /// A fresh home whose `config.toml` points the default provider at `openai_base`.
    pub fn new(tools: &Tools, name: &str, openai_base: &str) -> Home {
        let dir = tools.scratch.join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data")).unwrap();
        let config = format!(
            "default_provider = \"scripted\"\ndefault_model = \"scripted-small\"\n\
             language = \"en\"\ntheme = \"light\"\n\n[[providers]]\nid = \"scripted\"\n\
             name = \"Scripted\"\nkind = \"openai\"\nbase_url = \"{openai_base}\"\n"
        );
        std::fs::write(dir.join("data/config.toml"), config).unwrap();
        Home { dir, launches: 0 }
    }

    /// Sets the UI language in `config.toml` (before a launch): `en` or `zh-CN`.
    pub fn set_language(&self, language: &str) {
        let path = self.data().join("config.toml");
        let config = std::fs::read_to_string(&path).unwrap();
        let config = config.replace("language = \"en\"", &format!("language = \"{language}\""));
        std::fs::write(path, config).unwrap();
    }

    /// `HEARTH_HOME`.
    pub fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// A new log file for the next launch: `<kind>-<n>.log`.
    pub fn next_log(&mut self, kind: &str) -> PathBuf {
        self.launches += 1;
        self.dir.join(format!("{kind}-{}.log", self.launches))
    }
}

/// The last lines of a log, for failure messages.
pub fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    format!(
        "--- {} (last lines) ---\n{}",
        path.display(),
        lines[lines.len().saturating_sub(15)..].join("\n")
    )
}

/// Polls `check` until it yields a value; panics naming `what` after `timeout`.
pub async fn eventually<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            Instant::now() < deadline,
            "timed out after {timeout:?} waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every file below `dir` (recursively) whose bytes contain `needle`.
pub fn files_containing(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    let mut hits = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return hits;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            hits.extend(files_containing(&path, needle));
        } else if std::fs::read(&path)
            .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
        {
            hits.push(path);
        }
    }
    hits
}
