//! Running a command to its end under a time limit: a scrubbed environment, no stdin, its own
//! process group (killed on timeout, on cancellation and once the command returns), both output
//! streams captured up to a bound, and the `{exit_code, stdout, stderr, timed_out, duration_ms}`
//! result fitted to the model-facing cap.

use super::env::ChildEnv;
use super::kill::GroupGuard;
use super::streams::{fit_streams, Stream};
use crate::error::ToolError;
use serde_json::{json, Map, Value};
use std::ffi::OsStr;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::{Child, Command};
use tokio::sync::Notify;

/// Bytes kept per stream; the rest is counted and discarded.
pub(crate) const MAX_CAPTURE_BYTES: usize = 16 * 1024 * 1024;

/// How long output is still read after the command's group was killed. Only a process that
/// left the group (`setsid`) can hold a pipe open longer; it is not waited for.
const READ_GRACE: Duration = Duration::from_secs(2);

/// A command starting `program` in `sandbox` with `env` only, no stdin and piped output, to
/// start with [`hearth_sandbox::spawn`] (which makes it the leader of its own process group).
pub(crate) fn command<I, S>(
    sandbox: &hearth_sandbox::Sandbox,
    program: &Path,
    args: I,
    env: &ChildEnv,
    cwd: &Path,
) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = sandbox.tokio_command(program);
    command
        .args(args)
        .env_clear()
        .envs(env.vars())
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    command
}

/// One stream's captured bytes.
#[derive(Debug, Default)]
struct Captured {
    bytes: Vec<u8>,
    dropped: u64,
}

impl Captured {
    fn push(&mut self, data: &[u8]) {
        let room = MAX_CAPTURE_BYTES.saturating_sub(self.bytes.len());
        let kept = data.len().min(room);
        self.bytes.extend_from_slice(&data[..kept]);
        self.dropped += (data.len() - kept) as u64;
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// How a command ended.
#[derive(Debug)]
pub(crate) struct Finished {
    exit_code: Option<i32>,
    signal: Option<i32>,
    stdout: Captured,
    stderr: Captured,
    timed_out: bool,
    duration: Duration,
    /// A process outside the group still held the output open after the grace period.
    abandoned: bool,
}

/// How a supervised child ended.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) status: ExitStatus,
    pub(crate) timed_out: bool,
    /// A process outside the group still held the output open after the grace period.
    pub(crate) abandoned: bool,
}

/// Waits for `child` (spawned by [`command`]) for at most `limit` while feeding its output to
/// the two sinks; kills its whole process group on timeout and once it has exited. Dropping
/// this future (cancellation, shutdown) kills the group too.
pub(crate) async fn supervise(
    mut child: Child,
    limit: Duration,
    mut on_stdout: impl FnMut(&[u8]),
    mut on_stderr: impl FnMut(&[u8]),
) -> Result<Outcome, ToolError> {
    let guard = GroupGuard::new(child.id());
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(ToolError::internal("the command's output was not captured"));
    };
    let exited = Notify::new();
    let waiting = async {
        let outcome = match tokio::time::timeout(limit, child.wait()).await {
            Ok(status) => (status, false),
            Err(_) => {
                guard.kill();
                (child.wait().await, true)
            }
        };
        // Whatever the command left running in its group ends with it.
        guard.kill();
        exited.notify_one();
        outcome
    };
    let reading = async {
        let both = async {
            tokio::join!(
                capture(stdout, &mut on_stdout),
                capture(stderr, &mut on_stderr)
            )
        };
        tokio::select! {
            _ = both => false,
            () = async {
                exited.notified().await;
                tokio::time::sleep(READ_GRACE).await;
            } => true,
        }
    };
    let ((status, timed_out), abandoned) = tokio::join!(waiting, reading);
    let status =
        status.map_err(|e| ToolError::internal(format!("waiting for the command failed: {e}")))?;
    Ok(Outcome {
        status,
        timed_out,
        abandoned,
    })
}

async fn capture(mut stream: impl AsyncRead + Unpin, sink: &mut impl FnMut(&[u8])) {
    let mut buffer = vec![0u8; 64 * 1024];
    while let Ok(read @ 1..) = stream.read(&mut buffer).await {
        sink(&buffer[..read]);
    }
}

/// Runs `child` to its end (see [`supervise`]), keeping its output.
pub(crate) async fn run_to_end(
    child: Child,
    limit: Duration,
    started: Instant,
) -> Result<Finished, ToolError> {
    let (mut out, mut err) = (Captured::default(), Captured::default());
    let outcome = supervise(child, limit, |data| out.push(data), |data| err.push(data)).await?;
    Ok(Finished {
        exit_code: outcome.status.code(),
        signal: outcome.status.signal(),
        stdout: out,
        stderr: err,
        timed_out: outcome.timed_out,
        duration: started.elapsed(),
        abandoned: outcome.abandoned,
    })
}

impl Finished {
    /// `{exit_code, stdout, stderr, timed_out, duration_ms}` (plus `signal` when a signal ended
    /// the command, `dropped_bytes` past the capture bound, and the spill fields when cut).
    pub(crate) async fn into_result(
        self,
        data_dir: &Path,
    ) -> Result<Map<String, Value>, ToolError> {
        let mut out = Map::new();
        out.insert("exit_code".into(), json!(self.exit_code));
        if let Some(signal) = self.signal {
            out.insert("signal".into(), json!(signal));
        }
        out.insert("timed_out".into(), json!(self.timed_out));
        let millis = u64::try_from(self.duration.as_millis()).unwrap_or(u64::MAX);
        out.insert("duration_ms".into(), json!(millis));
        if self.stdout.dropped + self.stderr.dropped > 0 {
            out.insert(
                "dropped_bytes".into(),
                json!({"stdout": self.stdout.dropped, "stderr": self.stderr.dropped,
                       "note": format!("only the first {MAX_CAPTURE_BYTES} bytes of each stream are kept")}),
            );
        }
        if self.abandoned {
            out.insert(
                "output_note".into(),
                json!(
                    "a process that left the command's process group still held its output \
                       open; output after the command ended is missing"
                ),
            );
        }
        let streams = vec![
            Stream {
                name: "stdout",
                text: self.stdout.text(),
            },
            Stream {
                name: "stderr",
                text: self.stderr.text(),
            },
        ];
        fit_streams(streams, data_dir, &mut out).await?;
        Ok(out)
    }
}
