//! One terminal session: a program on a pseudo-terminal (portable-pty), a reader thread that
//! fills a bounded ring and a vt100 screen and feeds live watchers, input written to it, and the
//! kill of its whole session (the program and every job it started) when killed or dropped.

use crate::error::{ErrorKind, ToolError};
use crate::exec::env::ChildEnv;
use crate::exec::kill::kill_session;
use crate::exec::lock;
use crate::exec::ring::{Ring, Taken};
use crate::exec::sandboxed::refused;
use hearth_sandbox::{Isolation, Sandbox};
use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, Notify};

/// Bytes of terminal output kept between reads.
pub(crate) const RING_CAPACITY: usize = 1024 * 1024;
/// Terminal size: vt100's default screen, 24×80.
pub(crate) const ROWS: u16 = vt100::Parser::DEFAULT_ROWS.get();
pub(crate) const COLS: u16 = vt100::Parser::DEFAULT_COLS.get();
/// How long `read` waits for output when there is none yet.
const READ_WAIT: Duration = Duration::from_secs(1);
/// Once output arrives, how long `read` keeps collecting the rest of the burst.
const READ_SETTLE: Duration = Duration::from_millis(100);
/// How long `write` waits for the terminal to take the input.
const WRITE_WAIT: Duration = Duration::from_secs(5);
/// Output chunks a slow watcher may fall behind by before it misses some.
const FEED_CAPACITY: usize = 1024;

/// What the reader thread produced.
struct Screen {
    raw: Ring,
    parser: vt100::Parser,
    /// Live output for watchers; `None` once the terminal closed (every program in it has
    /// exited), which ends their feeds.
    feed: Option<broadcast::Sender<Arc<[u8]>>>,
}

/// A watcher's view of a session: the screen as it looked when watching began (escape codes
/// that redraw it), then every output chunk after it. `live` ends when the terminal closes; it
/// is `None` when it had already closed.
pub struct TerminalFeed {
    pub rows: u16,
    pub cols: u16,
    pub screen: String,
    pub live: Option<broadcast::Receiver<Arc<[u8]>>>,
}

/// What `read` returns.
pub(crate) struct Output {
    pub(crate) taken: Taken,
    /// The current screen as plain text (trailing blank lines removed).
    pub(crate) screen: String,
    pub(crate) cursor: (u16, u16),
}

pub(crate) struct Session {
    pub(crate) id: String,
    pub(crate) command: String,
    pub(crate) pid: u32,
    /// The sandbox the program runs in.
    pub(crate) isolation: Isolation,
    screen: Arc<Mutex<Screen>>,
    arrived: Arc<Notify>,
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    child: Mutex<Box<dyn Child + Send + Sync>>,
    /// Held so that the terminal stays open for the session's life.
    _master: Mutex<Box<dyn MasterPty + Send>>,
}

impl Session {
    /// Starts `program args` on a new 24×80 terminal in `cwd`, with `env` and TERM=xterm-256color,
    /// inside `sandbox`.
    pub(crate) fn spawn(
        id: String,
        command: String,
        argv: &[&str],
        (env, cwd): (&ChildEnv, &Path),
        sandbox: &Sandbox,
    ) -> Result<Self, ToolError> {
        let failed = |what: &str, e: &dyn std::fmt::Display| {
            ToolError::internal(format!("could not {what} a terminal: {e}"))
        };
        let size = PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        };
        let pair = native_pty_system()
            .openpty(size)
            .map_err(|e| failed("open", &e))?;
        let mut builder = CommandBuilder::from_argv(argv.iter().map(Into::into).collect());
        builder.env_clear();
        for (name, value) in env.vars() {
            builder.env(name, value);
        }
        builder.env("TERM", "xterm-256color");
        builder.cwd(cwd);
        let slave = pair.slave;
        let (child, isolation) =
            hearth_sandbox::confine(sandbox, "a terminal program", move || {
                slave
                    .spawn_command(builder)
                    .map_err(|e| std::io::Error::other(e.to_string()))
                // Only the child keeps the terminal's far end open: its exit ends the reader.
            })
            .map_err(refused)?;
        let pid = child
            .process_id()
            .ok_or_else(|| ToolError::internal("the terminal program has no process id"))?;
        // A session leader on its terminal: recorded like every child, so it is ended even if
        // Hearth is killed.
        hearth_children::spawned(Some(pid));
        let reader = pair
            .master
            .try_clone_reader()
            .map_err(|e| failed("read from", &e))?;
        let writer = pair
            .master
            .take_writer()
            .map_err(|e| failed("write to", &e))?;
        let screen = Arc::new(Mutex::new(Screen {
            raw: Ring::new(RING_CAPACITY),
            parser: vt100::Parser::default(),
            feed: Some(broadcast::channel(FEED_CAPACITY).0),
        }));
        let arrived = Arc::new(Notify::new());
        let session = Self {
            id,
            command,
            pid,
            isolation,
            screen: screen.clone(),
            arrived: arrived.clone(),
            writer: Arc::new(Mutex::new(writer)),
            child: Mutex::new(child),
            _master: Mutex::new(pair.master),
        };
        std::thread::Builder::new()
            .name("hearth-pty-read".to_string())
            .spawn(move || pump(reader, &screen, &arrived))
            .map_err(|e| failed("start the reader of", &e))?;
        Ok(session)
    }

    /// `running`, or `exited` with the exit code (and signal name when a signal ended it).
    pub(crate) fn status(&self) -> Value {
        match lock(&self.child).try_wait() {
            Ok(None) => json!({"status": "running"}),
            Ok(Some(status)) => {
                let mut value = json!({"status": "exited", "exit_code": status.exit_code()});
                if let Some(signal) = status.signal() {
                    value["signal"] = json!(signal);
                }
                value
            }
            Err(e) => json!({"status": "unknown", "status_error": e.to_string()}),
        }
    }

    fn exited(&self) -> bool {
        matches!(lock(&self.child).try_wait(), Ok(Some(_)))
    }

    /// Sends `input` as typed (newlines, control characters such as `\u0003` for Ctrl-C).
    pub(crate) async fn write(&self, input: String) -> Result<usize, ToolError> {
        let writer = self.writer.clone();
        let writing = tokio::task::spawn_blocking(move || {
            let mut writer = lock(&writer);
            writer.write_all(input.as_bytes())?;
            writer.flush().map(|()| input.len())
        });
        match tokio::time::timeout(WRITE_WAIT, writing).await {
            Ok(Ok(Ok(written))) => Ok(written),
            Ok(Ok(Err(e))) => Err(ToolError::new(
                ErrorKind::Unavailable,
                format!("the terminal {} does not take input: {e}", self.id),
            )),
            Ok(Err(e)) => Err(ToolError::internal(format!(
                "writing to the terminal failed: {e}"
            ))),
            Err(_) => Err(ToolError::new(
                ErrorKind::Timeout,
                format!(
                    "the program in {} has not read its input for {} s",
                    self.id,
                    WRITE_WAIT.as_secs()
                ),
            )),
        }
    }

    /// The output since the last read, waiting up to a second for some when there is none.
    pub(crate) async fn read(&self) -> Output {
        let arrived = self.arrived.notified();
        let waiting = {
            let screen = lock(&self.screen);
            !screen.raw.has_new() && screen.feed.is_some()
        };
        if waiting && tokio::time::timeout(READ_WAIT, arrived).await.is_ok() {
            tokio::time::sleep(READ_SETTLE).await;
        }
        let mut screen = lock(&self.screen);
        let closed = screen.feed.is_none();
        let taken = screen.raw.take_new(!closed);
        let contents = screen.parser.screen().contents();
        Output {
            taken,
            screen: contents.trim_end().to_string(),
            cursor: screen.parser.screen().cursor_position(),
        }
    }

    /// The current screen and, while the terminal is open, its output from now on.
    pub(crate) fn watch(&self) -> TerminalFeed {
        let screen = lock(&self.screen);
        TerminalFeed {
            rows: ROWS,
            cols: COLS,
            screen: screen.parser.screen().contents_formatted(),
            live: screen.feed.as_ref().map(broadcast::Sender::subscribe),
        }
    }

    /// Kills the program and everything in its terminal session; waits up to `wait` for it to
    /// be reaped. Returns false when it had already exited.
    pub(crate) async fn kill(&self, wait: Duration) -> bool {
        let was_running = !self.exited();
        // Jobs the program left behind die too, even when the program itself has exited.
        kill_session(self.pid);
        if !was_running {
            return false;
        }
        let deadline = tokio::time::Instant::now() + wait;
        while !self.exited() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        true
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        kill_session(self.pid);
    }
}

/// The reader thread: terminal output into the ring and the screen until the terminal closes.
fn pump(mut reader: Box<dyn Read + Send>, screen: &Mutex<Screen>, arrived: &Notify) {
    let mut buffer = [0u8; 16 * 1024];
    while let Ok(read @ 1..) = reader.read(&mut buffer) {
        let mut screen = lock(screen);
        screen.raw.push(&buffer[..read]);
        screen.parser.process(&buffer[..read]);
        if let Some(feed) = &screen.feed {
            // No watcher is not an error.
            let _ = feed.send(Arc::from(&buffer[..read]));
        }
        drop(screen);
        arrived.notify_waiters();
    }
    lock(screen).feed = None;
    arrived.notify_waiters();
}
