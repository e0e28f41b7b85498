//! The app's downloads (what Settings → Models drives) against the same 127.0.0.1 server: the
//! changes told to the listener, pause and resume by id, a second download of one file refused,
//! a failed one listed with its error until dismissed, cancelling running and paused ones.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_local::{DownloadSource, LocalModels};
use hearth_protocol::{AppError, DownloadState, ModelDownload};
use tokio::sync::mpsc;

use super::download::{allowed, files_in, models, serve, sha_of_file, Mode, Served};

/// What the listener does the first time a running download has bytes.
#[derive(Clone, Copy)]
enum OnBytes {
    Nothing,
    Pause,
    Cancel,
}

/// Every change told, and `on_bytes` done once.
fn listen(models: &LocalModels, on_bytes: OnBytes) -> mpsc::UnboundedReceiver<ModelDownload> {
    let (send, receive) = mpsc::unbounded_channel();
    let downloads = models.downloads().clone();
    let actor = models.clone();
    let acted = Mutex::new(false);
    models
        .downloads()
        .on_change(Arc::new(move |view: &ModelDownload| {
            let _ = send.send(view.clone());
            let running = view.state == DownloadState::Running && view.done > 0;
            let mut acted = acted.lock().unwrap();
            if running && !*acted {
                *acted = true;
                match on_bytes {
                    OnBytes::Nothing => {}
                    OnBytes::Pause => downloads.pause(&view.id),
                    OnBytes::Cancel => downloads.cancel(&actor, &view.id),
                }
            }
        }));
    receive
}

/// The changes told until (and with) the first in `state`.
async fn until(
    told: &mut mpsc::UnboundedReceiver<ModelDownload>,
    state: DownloadState,
) -> Vec<ModelDownload> {
    let mut seen = Vec::new();
    loop {
        let view = tokio::time::timeout(Duration::from_secs(30), told.recv())
            .await
            .expect("a change within 30 s")
            .expect("the listener is alive");
        let reached = view.state == state;
        seen.push(view);
        if reached {
            return seen;
        }
    }
}

fn url_source(url: &str) -> DownloadSource {
    DownloadSource::Url(url.to_string())
}

/// The test server, its URL, an empty models folder (kept while the tempdir lives) and the
/// changes its downloads tell.
struct Setup {
    served: Arc<Served>,
    url: String,
    _dir: tempfile::TempDir,
    models: LocalModels,
    told: mpsc::UnboundedReceiver<ModelDownload>,
}

impl Setup {
    /// Starts downloading the served file.
    fn start(&self, sha256: Option<&str>) -> Result<ModelDownload, AppError> {
        self.models.downloads().start(
            &self.models,
            allowed(&self.url),
            url_source(&self.url),
            sha256,
        )
    }
}

async fn setup(on_bytes: OnBytes) -> Setup {
    let (served, url) = serve(Mode::Ranges).await;
    let dir = tempfile::tempdir().unwrap();
    let models = models(&dir);
    let told = listen(&models, on_bytes);
    Setup {
        served,
        url,
        _dir: dir,
        models,
        told,
    }
}

#[tokio::test]
async fn a_download_pauses_and_resumes_by_id_and_leaves_the_list_as_a_model() {
    let mut s = setup(OnBytes::Pause).await;
    let downloads = s.models.downloads();
    let started = s.start(None).unwrap();
    assert_eq!(
        (
            started.state,
            started.file_name.as_str(),
            started.url.as_str()
        ),
        (DownloadState::Running, "SmolLM2.gguf", s.url.as_str())
    );

    let paused = until(&mut s.told, DownloadState::Paused).await;
    let done = paused.last().unwrap().done;
    let size = s.served.bytes.len() as u64;
    assert!(done > 0 && done < size, "{done}");
    assert_eq!(downloads.list(), vec![paused.last().unwrap().clone()]);
    let folder = s.models.catalog().folder();
    assert_eq!(files_in(folder), vec!["SmolLM2.gguf.part".to_string()]);

    downloads.resume(&s.models, allowed(&s.url), &started.id);
    let resumed = until(&mut s.told, DownloadState::Finished).await;
    let running: Vec<&ModelDownload> = resumed
        .iter()
        .filter(|v| v.state == DownloadState::Running)
        .collect();
    assert!(running.iter().all(|v| v.total == Some(size)), "{running:?}");
    assert!(running.windows(2).all(|w| w[0].done <= w[1].done));
    let finished = resumed.last().unwrap();
    assert_eq!(finished.id, started.id);
    assert_eq!(finished.done, size);
    assert_eq!(finished.model.as_ref().unwrap().name, "SmolLM2");
    assert!(downloads.list().is_empty());
    assert_eq!(
        *s.served.ranges.lock().unwrap(),
        vec![None, Some(format!("bytes={done}-"))]
    );
    assert_eq!(files_in(folder), vec!["SmolLM2.gguf".to_string()]);
    assert_eq!(sha_of_file(&folder.join("SmolLM2.gguf")), s.served.sha256);

    let again = s.start(None);
    assert!(
        matches!(&again, Err(AppError::LocalModelExists { name, .. }) if name == "SmolLM2.gguf"),
        "{again:?}"
    );
}

#[tokio::test]
async fn a_second_download_of_a_file_and_a_bad_sha256_are_refused_and_a_paused_one_cancelled() {
    let mut s = setup(OnBytes::Pause).await;
    let downloads = s.models.downloads();
    let first = s.start(None).unwrap();
    let twice = s.start(None);
    assert_eq!(
        twice.unwrap_err(),
        AppError::DownloadRunning {
            file: "SmolLM2.gguf".into()
        }
    );
    let other = s.url.replace("SmolLM2", "Other");
    let bad = downloads.start(&s.models, allowed(&s.url), url_source(&other), Some("abc"));
    assert!(
        matches!(&bad, Err(AppError::DownloadRefused { detail, .. }) if detail.contains("SHA-256")),
        "{bad:?}"
    );
    until(&mut s.told, DownloadState::Paused).await;
    assert_eq!(downloads.list().len(), 1);

    downloads.cancel(&s.models, &first.id);
    let cancelled = until(&mut s.told, DownloadState::Cancelled).await;
    assert_eq!(cancelled.last().unwrap().id, first.id);
    assert!(downloads.list().is_empty());
    assert!(files_in(s.models.catalog().folder()).is_empty());
}

#[tokio::test]
async fn a_failed_download_stays_listed_with_its_error_until_dismissed() {
    let mut s = setup(OnBytes::Nothing).await;
    let downloads = s.models.downloads();
    let wrong = "0".repeat(64);
    let started = s.start(Some(&wrong)).unwrap();
    let failed = until(&mut s.told, DownloadState::Failed).await;
    let failed = failed.last().unwrap();
    assert_eq!(
        failed.error,
        Some(AppError::DownloadChecksum {
            expected: wrong,
            actual: s.served.sha256.clone()
        })
    );
    assert_eq!(downloads.list(), vec![failed.clone()]);
    assert!(files_in(s.models.catalog().folder()).is_empty());

    downloads.cancel(&s.models, &started.id);
    until(&mut s.told, DownloadState::Cancelled).await;
    assert!(downloads.list().is_empty());
}

#[tokio::test]
async fn cancelling_a_running_download_deletes_its_partial_file() {
    let mut s = setup(OnBytes::Cancel).await;
    s.start(None).unwrap();
    let seen = until(&mut s.told, DownloadState::Cancelled).await;
    assert!(seen.iter().all(|v| v.state != DownloadState::Finished));
    assert!(s.models.downloads().list().is_empty());
    assert!(files_in(s.models.catalog().folder()).is_empty());
}
