//! A stdio server's stderr: appended to `logs/mcp/<server>.log` (kept under 1 MiB by moving
//! the full file to `.log.1`), its last lines kept in memory for the status shown to the user.
//! The pipe is always drained, so a server that floods stderr never blocks on it.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::task::JoinHandle;

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
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    tail: VecDeque<String>,
    /// The log file, open while lines come; written when a burst of lines ends.
    file: Option<BufWriter<File>>,
    /// The file's size with what is buffered.
    size: u64,
}

impl ServerLog {
    /// The log of `server` in the folder `dir` (created when the first line is written).
    pub fn new(dir: &Path, server: &str) -> ServerLog {
        ServerLog {
            path: dir.join(format!("{server}.log")),
            state: Arc::default(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The last lines written, oldest first.
    pub fn tail(&self) -> Vec<String> {
        self.state()
            .map(|state| state.tail.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Records one line (Hearth's own note such as "started") and writes it out at once.
    pub fn line(&self, line: &str) {
        self.record(line);
        self.flush();
    }

    /// Keeps `line` in the tail and buffers it for the file.
    fn record(&self, line: &str) {
        let line: String = line.chars().take(MAX_LINE).collect();
        let Some(mut state) = self.state() else {
            return;
        };
        if state.tail.len() == TAIL_LINES {
            state.tail.pop_front();
        }
        let written = self.buffer(&mut state, &line);
        state.tail.push_back(line);
        if let Err(error) = written {
            state.file = None;
            tracing::debug!(%error, path = %self.path.display(), "MCP log not written");
        }
    }

    /// Writes what is buffered to the file.
    fn flush(&self) {
        let Some(mut state) = self.state() else {
            return;
        };
        if let Some(Err(error)) = state.file.as_mut().map(Write::flush) {
            state.file = None;
            tracing::debug!(%error, path = %self.path.display(), "MCP log not written");
        }
    }

    fn state(&self) -> Option<MutexGuard<'_, State>> {
        self.state.lock().ok()
    }

    /// Appends `line` to the file's buffer, moving a full file to `.log.1` first.
    fn buffer(&self, state: &mut State, line: &str) -> std::io::Result<()> {
        if state.size > MAX_LOG_BYTES {
            if let Some(mut file) = state.file.take() {
                file.flush()?;
            }
            std::fs::rename(&self.path, self.path.with_extension("log.1"))?;
        }
        let file = match &mut state.file {
            Some(file) => file,
            None => {
                if let Some(dir) = self.path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)?;
                state.size = file.metadata()?.len();
                state.file.insert(BufWriter::new(file))
            }
        };
        writeln!(file, "{line}")?;
        state.size += line.len() as u64 + 1;
        Ok(())
    }

    /// Drains `stderr` into the log until it closes, writing the file once per burst of lines
    /// (when no further line is waiting in the pipe's buffer).
    pub fn drain<R: AsyncRead + Unpin + Send + 'static>(&self, stderr: R) -> JoinHandle<()> {
        let log = self.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                log.record(&line);
                if lines.get_ref().buffer().is_empty() {
                    log.flush();
                }
            }
            log.flush();
        })
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

    #[tokio::test]
    async fn a_burst_of_stderr_reaches_the_file_in_order_once_the_pipe_is_drained() {
        let dir = tempfile::tempdir().unwrap();
        let log = ServerLog::new(dir.path(), "s");
        let (mut writer, reader) = tokio::io::duplex(64 * 1024);
        let draining = log.drain(reader);
        let burst: String = (0..500).map(|i| format!("line {i}\n")).collect();
        tokio::io::AsyncWriteExt::write_all(&mut writer, burst.as_bytes())
            .await
            .unwrap();
        drop(writer);
        draining.await.unwrap();
        let want: Vec<String> = (0..500).map(|i| format!("line {i}")).collect();
        let text = std::fs::read_to_string(log.path()).unwrap();
        assert_eq!(text.lines().collect::<Vec<_>>(), want);
        assert_eq!(log.tail(), want[500 - TAIL_LINES..]);
    }
}
