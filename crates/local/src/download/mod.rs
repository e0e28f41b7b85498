//! Model downloads into the models folder: through Hearth's network guard, resumable with HTTP
//! `Range` from a `.part` file kept on pause, checked against the SHA-256 the source gives and
//! the free disk space, stopped when the server stalls, and added to the catalog only once the
//! finished file passed the GGUF header check.

mod active;
mod source;
mod space;
mod transfer;

use std::path::{Path, PathBuf};
use std::time::Duration;

use hearth_protocol::{AppError, LocalModel};
use hearth_tools::net::{GuardedClient, SystemResolver};
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::watch;

use crate::catalog::Catalog;
pub use active::{DownloadListener, Downloads};
pub use source::DownloadSource;

/// How long a server may send nothing before a download fails.
const DEFAULT_STALL: Duration = Duration::from_secs(60);

/// What the caller wants of a running download; it is watched between chunks. Dropping the
/// sender cancels the download.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Run,
    /// Stop and keep the `.part` file: the next download of the same source resumes it.
    Pause,
    /// Stop and delete the `.part` file.
    Cancel,
}

/// How far a download is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Bytes in the `.part` file (a resumed download starts with what it held).
    pub done: u64,
    /// The file's size when the server says it.
    pub total: Option<u64>,
    /// The speed of this download (not counting resumed bytes).
    pub bytes_per_second: u64,
    /// At the current speed, when the total is known.
    pub seconds_left: Option<u64>,
}

/// How a download ended when it did not fail.
#[derive(Debug, Clone, PartialEq)]
pub enum Downloaded {
    /// The model is in the catalog.
    Finished(LocalModel),
    /// Paused with `done` bytes in the `.part` file.
    Paused { done: u64 },
}

/// Downloads models with the guarded client.
pub struct Downloader {
    client: GuardedClient,
    stall: Duration,
}

impl Downloader {
    /// A downloader reaching local hosts only where `allow_local` says (the user's
    /// `allow_local_hosts`).
    pub fn new(allow_local: &[String]) -> Result<Self, AppError> {
        let client = GuardedClient::new(allow_local, Arc::new(SystemResolver)).map_err(|e| {
            AppError::DownloadFailed {
                url: String::new(),
                detail: format!("no HTTP client: {e}"),
            }
        })?;
        Ok(Self {
            client,
            stall: DEFAULT_STALL,
        })
    }

    /// Fails a download when the server sends nothing for `stall`.
    pub fn stall_after(mut self, stall: Duration) -> Self {
        self.stall = stall;
        self
    }

    /// Downloads `source` into `catalog`'s folder, checked against `sha256` when given (else
    /// against the SHA-256 the server sends, if any), reporting to `progress` and watching
    /// `signal`. A failure or a cancel deletes the partial file; a pause keeps it.
    pub async fn download(
        &self,
        catalog: &Catalog,
        source: &DownloadSource,
        sha256: Option<&str>,
        signal: watch::Receiver<Signal>,
        progress: impl FnMut(Progress) + Send,
    ) -> Result<Downloaded, AppError> {
        let Checked {
            url,
            expected,
            name,
        } = check(catalog, source, sha256)?;
        let folder = catalog.folder();
        let target = folder.join(&name);
        std::fs::create_dir_all(folder).map_err(|e| AppError::DownloadFailed {
            url: url.clone(),
            detail: format!("cannot create {}: {e}", folder.display()),
        })?;
        let job = transfer::Job {
            client: &self.client,
            url: &url,
            part: partial_file(folder, &name),
            folder,
            stall: self.stall,
            expected,
        };
        let result = job.run(signal, progress).await;
        match result {
            Ok(transfer::Ended::Paused { done }) => Ok(Downloaded::Paused { done }),
            Ok(transfer::Ended::Complete) => self.finish(catalog, &job.part, &target).await,
            Err(error) => {
                let _ = std::fs::remove_file(&job.part);
                Err(error)
            }
        }
    }

    /// Checks the finished `.part`, renames it to `target` and describes it.
    async fn finish(
        &self,
        catalog: &Catalog,
        part: &Path,
        target: &Path,
    ) -> Result<Downloaded, AppError> {
        let unusable = |detail: String| AppError::LocalModelUnusable {
            file: target.display().to_string(),
            detail,
        };
        let placed = crate::gguf::check_header(part)
            .and_then(|()| std::fs::rename(part, target).map_err(|e| e.to_string()));
        if let Err(detail) = placed {
            let _ = std::fs::remove_file(part);
            return Err(unusable(detail));
        }
        let name = target
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Downloaded::Finished(catalog.describe(&name).await?))
    }
}

/// What a download is checked to be before it starts.
pub(crate) struct Checked {
    pub url: String,
    /// The SHA-256 the caller gave, in lower case.
    pub expected: Option<String>,
    /// The file's name in the models folder.
    pub name: String,
}

/// Refuses `source` when `sha256` is given and not a SHA-256, its address does not end in a
/// plain file name, or a model of that name is already in `catalog`'s folder.
pub(crate) fn check(
    catalog: &Catalog,
    source: &DownloadSource,
    sha256: Option<&str>,
) -> Result<Checked, AppError> {
    let url = source.url();
    let expected = match sha256.map(str::trim).filter(|s| !s.is_empty()) {
        Some(text) => Some(
            source::as_sha256(text).ok_or_else(|| AppError::DownloadRefused {
                url: url.clone(),
                detail: format!("`{text}` is not a SHA-256 (64 hexadecimal digits)"),
            })?,
        ),
        None => None,
    };
    let Some(name) = source.file_name() else {
        return Err(AppError::DownloadRefused {
            url,
            detail: "its address does not end in a plain file name".into(),
        });
    };
    let folder = catalog.folder();
    if folder.join(&name).exists() {
        return Err(AppError::LocalModelExists {
            name,
            folder: folder.display().to_string(),
        });
    }
    Ok(Checked {
        url,
        expected,
        name,
    })
}

/// Deletes what a paused download of `source` kept (a cancel while paused).
pub fn discard_partial(catalog: &Catalog, source: &DownloadSource) {
    if let Some(name) = source.file_name() {
        let _ = std::fs::remove_file(partial_file(catalog.folder(), &name));
    }
}

/// The `.part` file of the model file `name` in `folder`.
fn partial_file(folder: &Path, name: &str) -> PathBuf {
    folder.join(format!("{name}.part"))
}
