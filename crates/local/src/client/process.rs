//! The worker process as the parent sees it: started with a request, answered line by line,
//! killed when dropped; when it dies, its exit status and the end of its stderr say why.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_protocol::AppError;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::wire::{Facts, Failure, Load, Loaded, Reply, Request};
use crate::WORKER_ARG;

/// The most of a worker's stderr kept to say why it died.
const STDERR_KEPT: usize = 4096;

/// How long reading a file's metadata may take.
const INSPECT_TIMEOUT: Duration = Duration::from_secs(60);

/// A running worker with a model loaded.
pub(crate) struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    stderr: Arc<Mutex<String>>,
    pub(crate) load: Load,
    pub(crate) loaded: Loaded,
}

impl Worker {
    /// Starts a worker and loads `load.path` in it.
    pub(crate) async fn start(program: &Path, load: Load) -> Result<Worker, AppError> {
        let file = load.path.display().to_string();
        let (child, stdin, stdout, stderr) = spawn(program, &Request::Load(load.clone()))
            .await
            .map_err(|detail| AppError::LocalWorkerCrashed { detail })?;
        let mut worker = Worker {
            child,
            stdin,
            stdout,
            stderr,
            load,
            loaded: Loaded {
                facts: Facts::default(),
                context_length: 0,
                bos_token: String::new(),
                eos_token: String::new(),
            },
        };
        match worker.reply().await? {
            Reply::Loaded(loaded) => {
                worker.loaded = loaded;
                Ok(worker)
            }
            Reply::Failed(Failure::Unusable(detail)) => {
                Err(AppError::LocalModelUnusable { file, detail })
            }
            other => Err(AppError::LocalWorkerCrashed {
                detail: format!("it answered the load with {other:?}"),
            }),
        }
    }

    pub(crate) fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    pub(crate) async fn send(&mut self, request: &Request) -> Result<(), AppError> {
        let mut line = serde_json::to_vec(request).map_err(|e| AppError::LocalWorkerCrashed {
            detail: e.to_string(),
        })?;
        line.push(b'\n');
        let written = self.stdin.write_all(&line).await;
        let flushed = match written {
            Ok(()) => self.stdin.flush().await,
            Err(e) => Err(e),
        };
        match flushed {
            Ok(()) => Ok(()),
            Err(_) => Err(self.death().await),
        }
    }

    /// The next reply; the worker's death as an error.
    pub(crate) async fn reply(&mut self) -> Result<Reply, AppError> {
        loop {
            match self.stdout.next_line().await {
                // A test binary serving as the worker prints libtest's lines first.
                Ok(Some(line)) if !line.starts_with('{') => continue,
                Ok(Some(line)) => {
                    return serde_json::from_str(&line).map_err(|e| AppError::LocalWorkerCrashed {
                        detail: format!("it said something unreadable ({e})"),
                    })
                }
                Ok(None) | Err(_) => return Err(self.death().await),
            }
        }
    }

    /// Why the worker is gone: its exit status and the end of its stderr.
    async fn death(&mut self) -> AppError {
        let status = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
        let status = match status {
            Ok(Ok(status)) => status.to_string(),
            _ => {
                let _ = self.child.kill().await;
                "it stopped answering".to_string()
            }
        };
        let stderr = self
            .stderr
            .lock()
            .map(|s| s.trim().to_string())
            .unwrap_or_default();
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        AppError::LocalWorkerCrashed {
            detail: if last.is_empty() {
                status
            } else {
                format!("{status}: {last}")
            },
        }
    }
}

/// The facts of `path`, read by a worker of their own (so a damaged file costs that worker).
pub(crate) async fn inspect(program: &Path, path: &Path) -> Result<Facts, String> {
    let asked = async {
        let (mut child, _stdin, mut stdout, stderr) = spawn(
            program,
            &Request::Inspect {
                path: path.to_path_buf(),
            },
        )
        .await?;
        let mut line = None;
        while let Ok(Some(next)) = stdout.next_line().await {
            if next.starts_with('{') {
                line = Some(next);
                break;
            }
        }
        let _ = child.wait().await;
        match line.map(|l| serde_json::from_str::<Reply>(&l)) {
            Some(Ok(Reply::Inspected(facts))) => Ok(facts),
            Some(Ok(Reply::Failed(Failure::Unusable(reason)))) => Err(reason),
            _ => {
                let stderr = stderr.lock().map(|s| s.clone()).unwrap_or_default();
                let last = stderr
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("");
                Err(format!("llama.cpp stopped while reading it {last}")
                    .trim()
                    .to_string())
            }
        }
    };
    tokio::time::timeout(INSPECT_TIMEOUT, asked)
        .await
        .unwrap_or_else(|_| Err("reading its metadata took too long".into()))
}

type Spawned = (
    Child,
    ChildStdin,
    Lines<BufReader<ChildStdout>>,
    Arc<Mutex<String>>,
);

async fn spawn(program: &Path, first: &Request) -> Result<Spawned, String> {
    let mut child = Command::new(program)
        .arg(WORKER_ARG)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("{} could not start: {e}", program.display()))?;
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err("its pipes were not set up".into());
    };
    let kept = Arc::new(Mutex::new(String::new()));
    tokio::spawn(keep_stderr(stderr, kept.clone()));
    let mut line = serde_json::to_vec(first).map_err(|e| e.to_string())?;
    line.push(b'\n');
    stdin
        .write_all(&line)
        .await
        .map_err(|e| format!("it did not take the request: {e}"))?;
    Ok((child, stdin, BufReader::new(stdout).lines(), kept))
}

/// Keeps the end of the worker's stderr (the rest is read and dropped so it never blocks).
async fn keep_stderr(mut stderr: tokio::process::ChildStderr, kept: Arc<Mutex<String>>) {
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buffer).await {
        if n == 0 {
            break;
        }
        if let Ok(mut text) = kept.lock() {
            text.push_str(&String::from_utf8_lossy(&buffer[..n]));
            if text.len() > STDERR_KEPT {
                let cut = text.len() - STDERR_KEPT;
                let cut = (cut..text.len())
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                text.drain(..cut);
            }
        }
    }
}
