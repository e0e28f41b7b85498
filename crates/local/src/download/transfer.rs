//! One download's transfer into its `.part` file: the guarded request (with `Range` when a
//! `.part` is there), the disk check, the chunks hashed as they are written, the stall timer,
//! the pause and cancel signals and the progress reports.

use std::path::Path;
use std::time::{Duration, Instant};

use hearth_protocol::AppError;
use hearth_tools::net::GuardedClient;
use hearth_tools::{ErrorKind, ToolError};
use reqwest::header::{HeaderMap, HeaderValue, CONTENT_RANGE, LOCATION, RANGE};
use reqwest::{Response, StatusCode};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;
use tokio::sync::watch;

use super::space;
use super::{Progress, Signal};

/// The least time between two progress reports (the first and last are always sent).
const REPORT_EVERY: Duration = Duration::from_millis(200);

const MB: u64 = 1024 * 1024;

/// Redirects followed (Hugging Face sends its large files from a CDN), each through the guard.
const MAX_REDIRECTS: usize = 5;

/// What one download needs.
pub(super) struct Job<'a> {
    pub(super) client: &'a GuardedClient,
    pub(super) url: &'a str,
    pub(super) part: std::path::PathBuf,
    pub(super) folder: &'a Path,
    pub(super) stall: Duration,
    pub(super) expected: Option<String>,
}

/// How the transfer stopped without failing.
pub(super) enum Ended {
    /// The whole file is in the `.part` and its checksum (if any) matched.
    Complete,
    Paused {
        done: u64,
    },
}

impl Job<'_> {
    pub(super) async fn run(
        &self,
        mut signal: watch::Receiver<Signal>,
        mut progress: impl FnMut(Progress) + Send,
    ) -> Result<Ended, AppError> {
        let (mut response, mut vouched) = self.request().await?;
        let mut offset = std::fs::metadata(&self.part).map_or(0, |m| m.len());
        if offset > 0 && !resumes_at(&response, offset) {
            // The server ignored the Range (or cannot satisfy it): start again from 0.
            offset = 0;
            let _ = std::fs::remove_file(&self.part);
            if response.status() == StatusCode::RANGE_NOT_SATISFIABLE {
                (response, vouched) = self.request().await?;
            }
        }
        self.check_status(&response)?;
        let remaining = response.content_length();
        let total = remaining.map(|n| n + offset);
        self.check_space(remaining)?;
        let expected = self.expected.clone().or(vouched);
        let mut hasher = Sha256::new();
        if offset > 0 {
            hash_file(&self.part, &mut hasher).map_err(|e| self.failed(e))?;
        }
        let mut file = tokio::fs::OpenOptions::new()
            .create(true)
            .append(offset > 0)
            .write(true)
            .truncate(offset == 0)
            .open(&self.part)
            .await
            .map_err(|e| self.failed(e))?;
        let mut report = Reporter::new(offset, total);
        loop {
            let chunk = tokio::select! {
                biased;
                changed = signal.changed() => {
                    let now = if changed.is_ok() { *signal.borrow_and_update() } else { Signal::Cancel };
                    match now {
                        Signal::Run => continue,
                        Signal::Pause => {
                            file.flush().await.map_err(|e| self.failed(e))?;
                            return Ok(Ended::Paused { done: report.done });
                        }
                        Signal::Cancel => return Err(AppError::DownloadCancelled),
                    }
                }
                chunk = tokio::time::timeout(self.stall, response.chunk()) => chunk,
            };
            let chunk = chunk
                .map_err(|_| self.stalled())?
                .map_err(|e| self.failed(e))?;
            let Some(bytes) = chunk else { break };
            file.write_all(&bytes).await.map_err(|e| self.failed(e))?;
            hasher.update(&bytes);
            report.add(bytes.len() as u64, &mut progress);
        }
        file.flush().await.map_err(|e| self.failed(e))?;
        report.send(&mut progress);
        if let Some(total) = total.filter(|&t| t != report.done) {
            return Err(self.failed(format!(
                "the connection ended after {} of {total} bytes",
                report.done
            )));
        }
        let actual = hex(&hasher.finalize());
        match expected {
            Some(expected) if expected != actual => {
                Err(AppError::DownloadChecksum { expected, actual })
            }
            _ => Ok(Ended::Complete),
        }
    }

    /// The guarded GET, with `Range` from the `.part`'s length, following redirects (each hop
    /// through the guard), and the SHA-256 the first answers vouched for; each answer must come
    /// within the stall time.
    async fn request(&self) -> Result<(Response, Option<String>), AppError> {
        let mut headers = HeaderMap::new();
        let offset = std::fs::metadata(&self.part).map_or(0, |m| m.len());
        if offset > 0 {
            let range =
                HeaderValue::from_str(&format!("bytes={offset}-")).map_err(|e| self.failed(e))?;
            headers.insert(RANGE, range);
        }
        let mut url = self.url.to_string();
        let mut vouched = None;
        for _ in 0..=MAX_REDIRECTS {
            let opened = tokio::time::timeout(self.stall, self.client.open(&url, headers.clone()))
                .await
                .map_err(|_| self.stalled())?;
            let response = opened.map_err(|e| self.refused_or_failed(e))?;
            vouched = vouched.or_else(|| super::source::sha256_of(response.headers()));
            let next = response
                .status()
                .is_redirection()
                .then(|| response.headers().get(LOCATION))
                .flatten()
                .and_then(|v| v.to_str().ok())
                .and_then(|location| response.url().join(location).ok());
            match next {
                Some(next) => url = next.to_string(),
                None => return Ok((response, vouched)),
            }
        }
        Err(self.failed(format!("more than {MAX_REDIRECTS} redirects")))
    }

    fn check_status(&self, response: &Response) -> Result<(), AppError> {
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let detail = match status {
            StatusCode::NOT_FOUND => "the server has no such file (404)".to_string(),
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => format!(
                "the server refused access ({status}); the file may need an account or accepting its licence on the website"
            ),
            _ if status.is_redirection() => {
                format!("the server redirects ({status}) without a usable address")
            }
            _ => format!("the server answered {status}"),
        };
        Err(self.failed(detail))
    }

    /// Refuses a download larger than the free space, before any byte is written.
    fn check_space(&self, needed: Option<u64>) -> Result<(), AppError> {
        let (Some(needed), Some(available)) = (needed, space::available(self.folder)) else {
            return Ok(());
        };
        if needed <= available {
            return Ok(());
        }
        Err(AppError::DiskTooSmall {
            folder: self.folder.display().to_string(),
            needed_mb: needed.div_ceil(MB),
            available_mb: available / MB,
        })
    }

    fn failed(&self, detail: impl ToString) -> AppError {
        AppError::DownloadFailed {
            url: self.url.to_string(),
            detail: detail.to_string(),
        }
    }

    fn stalled(&self) -> AppError {
        AppError::DownloadStalled {
            url: self.url.to_string(),
            seconds: self.stall.as_secs().max(1),
        }
    }

    fn refused_or_failed(&self, error: ToolError) -> AppError {
        match error.kind {
            ErrorKind::BlockedAddress | ErrorKind::InvalidArguments => AppError::DownloadRefused {
                url: self.url.to_string(),
                detail: error.message,
            },
            _ => self.failed(error.message),
        }
    }
}

/// The response continues a `.part` of `offset` bytes: 206 with a range starting there.
fn resumes_at(response: &Response, offset: u64) -> bool {
    response.status() == StatusCode::PARTIAL_CONTENT
        && response
            .headers()
            .get(CONTENT_RANGE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("bytes "))
            .and_then(|v| v.split('-').next())
            .and_then(|start| start.trim().parse::<u64>().ok())
            == Some(offset)
}

fn hash_file(path: &Path, hasher: &mut Sha256) -> std::io::Result<()> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut buffer = vec![0u8; 1024 * 1024];
    loop {
        match file.read(&mut buffer)? {
            0 => return Ok(()),
            read => hasher.update(&buffer[..read]),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Sends progress at most every [`REPORT_EVERY`], and always the first and last time.
struct Reporter {
    done: u64,
    resumed: u64,
    total: Option<u64>,
    started: Instant,
    sent: Option<Instant>,
}

impl Reporter {
    fn new(resumed: u64, total: Option<u64>) -> Self {
        Self {
            done: resumed,
            resumed,
            total,
            started: Instant::now(),
            sent: None,
        }
    }

    fn add(&mut self, bytes: u64, progress: &mut impl FnMut(Progress)) {
        self.done += bytes;
        if self.sent.is_none_or(|at| at.elapsed() >= REPORT_EVERY) {
            self.send(progress);
        }
    }

    fn send(&mut self, progress: &mut impl FnMut(Progress)) {
        self.sent = Some(Instant::now());
        let seconds = self.started.elapsed().as_secs_f64().max(0.001);
        let speed = ((self.done - self.resumed) as f64 / seconds) as u64;
        progress(Progress {
            done: self.done,
            total: self.total,
            bytes_per_second: speed,
            seconds_left: self
                .total
                .filter(|_| speed > 0)
                .map(|t| t.saturating_sub(self.done) / speed),
        });
    }
}
