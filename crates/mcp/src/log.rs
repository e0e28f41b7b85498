//! A stdio server's stderr: appended to `logs/mcp/<server>.log` (kept under 1 MiB by moving
//! the full file to `.log.1`), its last lines kept in memory for the status shown to the user.
//! The pipe is always drained, so a server that floods stderr never blocks on it.

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// Lines kept for the status.
pub const TAIL_LINES: usize = 20;
/// A log file is rotated when it passes this size.
pub const MAX_LOG_BYTES: u64 = 1024 * 1024;
/// Longest line kept (a longer one is cut).
const MAX_LINE: usize = 2000;

/// The log of one server.
#[derive(Clone)]
pub struct ServerLog {
    path: PathBuf,
    tail: Arc<Mutex<VecDeque<String>>>,
}

impl ServerLog {
    /// The log of `server` in the folder `dir` (created when the first line is written).
    pub fn new(dir: &Path, server: &str) -> ServerLog {
        ServerLog {
            path: dir.join(format!("{server}.log")),
            tail: Arc::new(Mutex::new(VecDeque::with_capacity(TAIL_LINES))),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The last lines written, oldest first.
    pub fn tail(&self) -> Vec<String> {
        self.tail
            .lock()
            .map(|tail| tail.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Records one line (from the server, or Hearth's own note such as "started").
    pub fn line(&self, line: &str) {
        let line: String = line.chars().take(MAX_LINE).collect();
        if let Ok(mut tail) = self.tail.lock() {
            if tail.len() == TAIL_LINES {
                tail.pop_front();
            }
            tail.push_back(line.clone());
        }
        if let Err(error) = self.append(&line) {
            tracing::debug!(%error, path = %self.path.display(), "MCP log not written");
        }
    }

    fn append(&self, line: &str) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        if std::fs::metadata(&self.path).is_ok_and(|m| m.len() > MAX_LOG_BYTES) {
            std::fs::rename(&self.path, self.path.with_extension("log.1"))?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        writeln!(file, "{line}")
    }

    /// Drains `stderr` into the log until it closes.
    pub fn drain<R: AsyncRead + Unpin + Send + 'static>(&self, stderr: R) {
        let log = self.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                log.line(&line);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_lines_and_the_file_rotates() {
        let dir = tempfile::tempdir().unwrap();
        let log = ServerLog::new(dir.path(), "s");
        let long = "x".repeat(MAX_LINE);
        let lines = (MAX_LOG_BYTES as usize / MAX_LINE) + 10;
        for i in 0..lines {
            log.line(&format!("{i} {long}"));
        }
        let tail = log.tail();
        assert_eq!(tail.len(), TAIL_LINES);
        assert!(tail[TAIL_LINES - 1].starts_with(&format!("{} ", lines - 1)));
        assert!(dir.path().join("s.log.1").exists());
        assert!(std::fs::metadata(log.path()).unwrap().len() <= MAX_LOG_BYTES);
    }
}
