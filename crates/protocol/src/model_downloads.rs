//! Model downloads of Settings → Models: what the UI asks to download and how far each is.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{AppError, LocalModel};

/// `start_model_download`: a URL, or a Hugging Face repository (`owner/repo`) and its file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct StartDownloadParams {
    /// An http(s) URL of a `.gguf` file, or `owner/repo` on Hugging Face.
    pub source: String,
    /// The repository's file (required with `owner/repo`).
    pub file: Option<String>,
    /// The file's SHA-256 (64 hexadecimal digits), checked when given.
    pub sha256: Option<String>,
}

/// Where a download is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum DownloadState {
    Running,
    /// Stopped with its partial file kept: resuming continues it.
    Paused,
    /// Stopped by an error, its partial file deleted: resuming starts it again.
    Failed,
    /// The model is in the models folder (the download has left the list).
    Finished,
    /// Stopped and its partial file deleted (the download has left the list).
    Cancelled,
}

/// One download, as `model_downloads` lists it and the `models://download` event sends each
/// change of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ModelDownload {
    pub id: String,
    pub url: String,
    /// The model's file in the models folder.
    pub file_name: String,
    pub state: DownloadState,
    /// Bytes downloaded so far (with those of an earlier, paused try).
    pub done: u64,
    /// The file's size when the server says it.
    pub total: Option<u64>,
    pub bytes_per_second: u64,
    /// At the current speed, when the size is known.
    pub seconds_left: Option<u64>,
    /// Why it failed (state `failed`).
    pub error: Option<AppError>,
    /// The model it became (state `finished`).
    pub model: Option<LocalModel>,
}
