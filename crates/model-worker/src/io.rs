//! The worker's two pipes: requests read on a thread of their own (so a `Cancel` is seen while a
//! reply is generated) and replies written one JSON line each.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;

use hearth_local::wire::{Reply, Request};

/// The longest request line read (a prompt filling a large context).
const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// Requests in arrival order, with `Cancel`s taken out and counted as they arrive.
pub(super) struct Incoming {
    requests: Receiver<Result<Request, String>>,
    /// How many `Generate`s have arrived.
    generates: Arc<AtomicU64>,
    /// The number of the last `Generate` a `Cancel` (or the end of stdin) stopped.
    cancelled: Arc<AtomicU64>,
}

impl Incoming {
    pub(super) fn from_stdin() -> Incoming {
        let (send, requests) = channel();
        let generates = Arc::new(AtomicU64::new(0));
        let cancelled = Arc::new(AtomicU64::new(0));
        let (counted, stopping) = (generates.clone(), cancelled.clone());
        let reader = std::thread::Builder::new()
            .name("model-worker-stdin".into())
            .spawn(move || {
                let stdin = std::io::stdin();
                let mut line = String::new();
                loop {
                    line.clear();
                    match stdin.lock().read_line(&mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) if line.len() > MAX_LINE_BYTES => {
                            let _ = send.send(Err("request line too long".into()));
                        }
                        Ok(_) => match serde_json::from_str::<Request>(&line) {
                            Ok(Request::Cancel) => {
                                stopping.store(counted.load(Ordering::SeqCst), Ordering::SeqCst);
                            }
                            Ok(request) => {
                                if matches!(request, Request::Generate(_)) {
                                    counted.fetch_add(1, Ordering::SeqCst);
                                }
                                if send.send(Ok(request)).is_err() {
                                    break;
                                }
                            }
                            Err(e) => {
                                let _ = send.send(Err(format!("bad request: {e}")));
                            }
                        },
                    }
                }
                // Stdin closed: the parent is gone or done; stop whatever runs.
                stopping.store(u64::MAX, Ordering::SeqCst);
            });
        if let Err(error) = reader {
            tracing::error!(%error, "the model worker could not read its requests");
        }
        Incoming {
            requests,
            generates,
            cancelled,
        }
    }

    /// The next request; `None` once stdin has closed.
    pub(super) fn next(&self) -> Option<Result<Request, String>> {
        self.requests.recv().ok()
    }

    /// A check that turns true once the `Generate` being served now is cancelled.
    pub(super) fn cancel_check(&self) -> impl Fn() -> bool + '_ {
        let number = self.generates.load(Ordering::SeqCst);
        move || self.cancelled.load(Ordering::SeqCst) >= number
    }
}

/// Replies, one JSON object per line, flushed as written.
pub(super) struct Output {
    stdout: std::io::Stdout,
}

impl Output {
    pub(super) fn stdout() -> Output {
        Output {
            stdout: std::io::stdout(),
        }
    }

    pub(super) fn send(&mut self, reply: &Reply) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(reply).map_err(std::io::Error::other)?;
        line.push(b'\n');
        let mut stdout = self.stdout.lock();
        stdout.write_all(&line)?;
        stdout.flush()
    }
}
