//! Model downloads against a server on 127.0.0.1 serving the built-in model with `Range`
//! support: progress, pause and resume (through a redirect), a server ignoring `Range`, checksums, a stalled
//! server, the network guard, the disk check and cancelling.

use std::future::IntoFuture;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use futures::stream;
use hearth_local::{DownloadSource, Downloaded, Downloader, LocalModels, Progress, Signal};
use hearth_protocol::AppError;
use sha2::{Digest, Sha256};
use tokio::sync::watch;

/// How the test server answers.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Mode {
    /// `Range` honoured with 206.
    Ranges,
    /// Always the whole file with 200.
    IgnoresRanges,
    /// Headers and 1 KiB, then nothing.
    Stalls,
}

pub(super) struct Served {
    pub(super) bytes: Bytes,
    pub(super) sha256: String,
    mode: Mode,
    /// The `Range` header of every request, in order.
    pub(super) ranges: Mutex<Vec<Option<String>>>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn sha_of_file(path: &Path) -> String {
    hex(&Sha256::digest(std::fs::read(path).unwrap()))
}

/// Serves the built-in model at `/m/SmolLM2.gguf`; returns the state and the URL.
pub(super) async fn serve(mode: Mode) -> (Arc<Served>, String) {
    let bytes = Bytes::from(std::fs::read(super::builtin_file()).unwrap());
    let served = Arc::new(Served {
        sha256: hex(&Sha256::digest(&bytes)),
        bytes,
        mode,
        ranges: Mutex::new(Vec::new()),
    });
    let state = Arc::clone(&served);
    let sha256 = served.sha256.clone();
    let app = axum::Router::new()
        .route(
            "/m/SmolLM2.gguf",
            axum::routing::get(move |headers: HeaderMap| answer(Arc::clone(&state), headers)),
        )
        .route(
            "/hf/SmolLM2.gguf",
            axum::routing::get(move || async move {
                Response::builder()
                    .status(StatusCode::FOUND)
                    .header(header::LOCATION, "/m/SmolLM2.gguf")
                    .header("x-linked-etag", format!("\"{sha256}\""))
                    .body(Body::empty())
                    .unwrap()
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(axum::serve(listener, app).into_future());
    (served, format!("http://127.0.0.1:{port}/m/SmolLM2.gguf"))
}

async fn answer(served: Arc<Served>, headers: HeaderMap) -> Response {
    let range = headers
        .get(header::RANGE)
        .map(|v| v.to_str().unwrap().to_string());
    served.ranges.lock().unwrap().push(range.clone());
    let len = served.bytes.len();
    let start = match (served.mode, range) {
        (Mode::Ranges, Some(range)) => range
            .strip_prefix("bytes=")
            .and_then(|r| r.strip_suffix('-'))
            .unwrap()
            .parse::<usize>()
            .unwrap(),
        _ => 0,
    };
    let rest = served.bytes.slice(start..);
    let chunks: Vec<Result<Bytes, std::io::Error>> = if served.mode == Mode::Stalls {
        vec![Ok(rest.slice(..1024))]
    } else {
        (0..rest.len())
            .step_by(64 * 1024)
            .map(|at| Ok(rest.slice(at..(at + 64 * 1024).min(rest.len()))))
            .collect()
    };
    let body = stream::iter(chunks);
    let body = if served.mode == Mode::Stalls {
        Body::from_stream(futures::StreamExt::chain(body, stream::pending()))
    } else {
        Body::from_stream(body)
    };
    let mut response = Response::builder()
        .header(header::CONTENT_LENGTH, rest.len())
        .header("x-linked-etag", format!("\"{}\"", served.sha256));
    response = if start > 0 {
        response.status(StatusCode::PARTIAL_CONTENT).header(
            header::CONTENT_RANGE,
            format!("bytes {start}-{}/{len}", len - 1),
        )
    } else {
        response.status(StatusCode::OK)
    };
    response.body(body).unwrap()
}

/// An empty models folder's catalog owner.
pub(super) fn models(dir: &tempfile::TempDir) -> LocalModels {
    LocalModels::new(dir.path().join("models"), super::worker_program())
}

pub(super) fn allowed(url: &str) -> Downloader {
    let port = url.split(':').nth(2).unwrap().split('/').next().unwrap();
    Downloader::new(&[format!("127.0.0.1:{port}")]).unwrap()
}

/// The names in `folder` (none when it does not exist).
pub(super) fn files_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A download signalled `on_first_progress` once the first bytes arrived.
async fn download_then(
    downloader: &Downloader,
    models: &LocalModels,
    url: &str,
    sha256: Option<&str>,
    on_first_progress: Signal,
) -> (Result<Downloaded, AppError>, Vec<Progress>) {
    let (signal, watched) = watch::channel(Signal::Run);
    let mut seen = Vec::new();
    let source = DownloadSource::Url(url.to_string());
    let result = downloader
        .download(models.catalog(), &source, sha256, watched, |p| {
            if seen.is_empty() {
                signal.send_replace(on_first_progress);
            }
            seen.push(p);
        })
        .await;
    (result, seen)
}

#[tokio::test]
async fn a_download_reports_progress_to_the_end_and_lands_in_the_catalog() {
    let (served, url) = serve(Mode::Ranges).await;
    let dir = tempfile::tempdir().unwrap();
    let models = models(&dir);
    let (result, seen) = download_then(&allowed(&url), &models, &url, None, Signal::Run).await;
    let Downloaded::Finished(model) = result.unwrap() else {
        panic!("not finished")
    };
    let size = served.bytes.len() as u64;
    assert_eq!(model.name, "SmolLM2");
    assert_eq!(model.problem, None, "{model:?}");
    let last = seen.last().unwrap();
    assert_eq!((last.done, last.total), (size, Some(size)));
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done));
    let folder = models.catalog().folder();
    assert_eq!(files_in(folder), vec!["SmolLM2.gguf".to_string()]);
    assert_eq!(sha_of_file(&folder.join("SmolLM2.gguf")), served.sha256);
}

#[tokio::test]
async fn a_paused_download_resumes_with_range_into_the_same_bytes() {
    let (served, url) = serve(Mode::Ranges).await;
    // Through a redirect, as Hugging Face sends its files from a CDN.
    let url = url.replace("/m/", "/hf/");
    let dir = tempfile::tempdir().unwrap();
    let models = models(&dir);
    let downloader = allowed(&url);
    let (paused, _) = download_then(&downloader, &models, &url, None, Signal::Pause).await;
    let Ok(Downloaded::Paused { done }) = paused else {
        panic!("not paused: {paused:?}")
    };
    let folder = models.catalog().folder();
    assert!(done > 0 && done < served.bytes.len() as u64, "{done}");
    assert_eq!(files_in(folder), vec!["SmolLM2.gguf.part".to_string()]);
    assert_eq!(
        std::fs::metadata(folder.join("SmolLM2.gguf.part"))
            .unwrap()
            .len(),
        done
    );
    let (resumed, seen) = download_then(&downloader, &models, &url, None, Signal::Run).await;
    assert!(
        matches!(resumed, Ok(Downloaded::Finished(_))),
        "{resumed:?}"
    );
    assert_eq!(seen.first().unwrap().total, Some(served.bytes.len() as u64));
    assert_eq!(
        *served.ranges.lock().unwrap(),
        vec![None, Some(format!("bytes={done}-"))]
    );
    assert_eq!(files_in(folder), vec!["SmolLM2.gguf".to_string()]);
    assert_eq!(sha_of_file(&folder.join("SmolLM2.gguf")), served.sha256);
}

#[tokio::test]
async fn a_server_ignoring_range_restarts_the_file_from_the_start() {
    let (served, url) = serve(Mode::IgnoresRanges).await;
    let dir = tempfile::tempdir().unwrap();
    let models = models(&dir);
    let folder = models.catalog().folder();
    std::fs::create_dir_all(folder).unwrap();
    std::fs::write(
        folder.join("SmolLM2.gguf.part"),
        b"stale bytes of another try",
    )
    .unwrap();
    let (result, _) = download_then(&allowed(&url), &models, &url, None, Signal::Run).await;
    assert!(matches!(result, Ok(Downloaded::Finished(_))), "{result:?}");
    assert_eq!(
        served.ranges.lock().unwrap()[0].as_deref(),
        Some("bytes=26-")
    );
    assert_eq!(sha_of_file(&folder.join("SmolLM2.gguf")), served.sha256);
}

#[tokio::test]
async fn a_checksum_mismatch_is_refused_and_nothing_kept() {
    let (served, url) = serve(Mode::Ranges).await;
    let dir = tempfile::tempdir().unwrap();
    let models = models(&dir);
    let wrong = "0".repeat(64);
    let (result, _) = download_then(&allowed(&url), &models, &url, Some(&wrong), Signal::Run).await;
    assert_eq!(
        result.unwrap_err(),
        AppError::DownloadChecksum {
            expected: wrong,
            actual: served.sha256.clone()
        }
    );
    assert!(files_in(models.catalog().folder()).is_empty());
}

#[tokio::test]
async fn a_stalled_server_fails_clearly_and_leaves_no_partial_file() {
    let (_, url) = serve(Mode::Stalls).await;
    let dir = tempfile::tempdir().unwrap();
    let models = models(&dir);
    let downloader = allowed(&url).stall_after(Duration::from_millis(300));
    let (result, seen) = download_then(&downloader, &models, &url, None, Signal::Run).await;
    assert!(
        matches!(&result, Err(AppError::DownloadStalled { url: u, .. }) if *u == url),
        "{result:?}"
    );
    assert_eq!(seen.last().unwrap().done, 1024);
    assert!(files_in(models.catalog().folder()).is_empty());
}

#[tokio::test]
async fn a_private_address_the_guard_does_not_allow_is_refused() {
    let (served, url) = serve(Mode::Ranges).await;
    let dir = tempfile::tempdir().unwrap();
    let models = models(&dir);
    let downloader = Downloader::new(&[]).unwrap();
    let (result, _) = download_then(&downloader, &models, &url, None, Signal::Run).await;
    let Err(AppError::DownloadRefused { detail, .. }) = result else {
        panic!("not refused: {result:?}")
    };
    assert!(detail.contains("allow_local"), "{detail}");
    assert!(served.ranges.lock().unwrap().is_empty());
    assert!(files_in(models.catalog().folder()).is_empty());
}

/// A 16 MiB tmpfs mounted on a fresh folder for as long as it lives (unmounted on drop).
struct SmallDisk(tempfile::TempDir);

impl SmallDisk {
    fn mount() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=16m", "hearth-small-disk"])
            .arg(dir.path())
            .status()
            .unwrap();
        assert!(
            mounted.success(),
            "mounting a small tmpfs needs root (CI runs as root)"
        );
        Self(dir)
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.0.path())
            .status();
    }
}

#[tokio::test]
async fn a_disk_too_small_for_the_model_is_refused_before_a_byte_is_written() {
    let (served, url) = serve(Mode::Ranges).await;
    let disk = SmallDisk::mount();
    let models = models(&disk.0);
    let (result, seen) = download_then(&allowed(&url), &models, &url, None, Signal::Run).await;
    let needed_mb = (served.bytes.len() as u64).div_ceil(1024 * 1024);
    assert!(
        matches!(result, Err(AppError::DiskTooSmall { needed_mb: n, available_mb, .. })
            if n == needed_mb && available_mb <= 16),
        "{result:?}"
    );
    assert!(seen.is_empty());
    assert!(files_in(models.catalog().folder()).is_empty());
}

#[tokio::test]
async fn a_cancelled_download_deletes_its_partial_file() {
    let (_, url) = serve(Mode::Ranges).await;
    let dir = tempfile::tempdir().unwrap();
    let models = models(&dir);
    let (result, _) = download_then(&allowed(&url), &models, &url, None, Signal::Cancel).await;
    assert_eq!(result.unwrap_err(), AppError::DownloadCancelled);
    assert!(files_in(models.catalog().folder()).is_empty());
}
