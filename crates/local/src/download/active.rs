//! The downloads under way in the app: started, paused, resumed and cancelled by id, each change
//! told to one listener (the window), a finished one leaving the list as a model of the folder.

use std::sync::{Arc, Mutex, MutexGuard};

use hearth_protocol::{AppError, DownloadState, ModelDownload};
use tokio::sync::watch;

use super::{discard_partial, DownloadSource, Downloaded, Downloader, Progress, Signal};
use crate::LocalModels;

/// Told each change of a download (its progress at most every report interval).
pub type DownloadListener = Arc<dyn Fn(&ModelDownload) + Send + Sync>;

/// The app's downloads. Clones share them.
#[derive(Clone, Default)]
pub struct Downloads {
    inner: Arc<Mutex<Active>>,
}

#[derive(Default)]
struct Active {
    entries: Vec<Entry>,
    listener: Option<DownloadListener>,
    next_id: u64,
}

struct Entry {
    view: ModelDownload,
    source: DownloadSource,
    sha256: Option<String>,
    /// Set while its task runs; dropping it cancels the task.
    signal: Option<watch::Sender<Signal>>,
}

impl Downloads {
    /// Tells `listener` every change from now on (replacing the one before).
    pub fn on_change(&self, listener: DownloadListener) {
        self.lock().listener = Some(listener);
    }

    /// The downloads running, paused or failed, oldest first.
    pub fn list(&self) -> Vec<ModelDownload> {
        self.lock().entries.iter().map(|e| e.view.clone()).collect()
    }

    /// Starts downloading `source` into `models`' folder with `downloader`. Refused at once when
    /// the SHA-256 or the file name is not one, the model is already in the folder, or the same
    /// file is being downloaded.
    pub fn start(
        &self,
        models: &LocalModels,
        downloader: Downloader,
        source: DownloadSource,
        sha256: Option<&str>,
    ) -> Result<ModelDownload, AppError> {
        let checked = super::check(models.catalog(), &source, sha256)?;
        let (url, sha256, file_name) = (checked.url, checked.expected, checked.name);
        let view = {
            let mut active = self.lock();
            if active.entries.iter().any(|e| e.view.file_name == file_name) {
                return Err(AppError::DownloadRunning { file: file_name });
            }
            active.next_id += 1;
            let view = ModelDownload {
                id: format!("d{}", active.next_id),
                url,
                file_name,
                state: DownloadState::Running,
                done: 0,
                total: None,
                bytes_per_second: 0,
                seconds_left: None,
                error: None,
                model: None,
            };
            active.entries.push(Entry {
                view: view.clone(),
                source,
                sha256,
                signal: None,
            });
            view
        };
        self.run(models, downloader, &view.id);
        Ok(view)
    }

    /// Asks the running download `id` to pause; it keeps its partial file. Nothing happens when
    /// it is not running.
    pub fn pause(&self, id: &str) {
        if let Some(signal) = self.lock().find(id).and_then(|e| e.signal.as_ref()) {
            signal.send_replace(Signal::Pause);
        }
    }

    /// Continues the paused download `id` where its partial file ends (or starts a failed one
    /// again). Nothing happens when it is running or gone.
    pub fn resume(&self, models: &LocalModels, downloader: Downloader, id: &str) {
        let stopped = self.lock().find(id).is_some_and(|e| e.signal.is_none());
        if stopped {
            self.run(models, downloader, id);
        }
    }

    /// Cancels the download `id`: a running one stops and deletes its partial file; a paused
    /// or failed one is deleted and leaves the list at once.
    pub fn cancel(&self, models: &LocalModels, id: &str) {
        let stopped = {
            let mut active = self.lock();
            let Some(at) = active.entries.iter().position(|e| e.view.id == id) else {
                return;
            };
            if let Some(signal) = &active.entries[at].signal {
                signal.send_replace(Signal::Cancel);
                return;
            }
            active.entries.remove(at)
        };
        discard_partial(models.catalog(), &stopped.source);
        let mut view = stopped.view;
        view.state = DownloadState::Cancelled;
        self.tell(&view);
    }

    /// Runs the download `id` in a task until it finishes, pauses or fails.
    fn run(&self, models: &LocalModels, downloader: Downloader, id: &str) {
        let (signal, watched) = watch::channel(Signal::Run);
        let Some((source, sha256)) = self.change(id, |entry| {
            entry.signal = Some(signal);
            entry.view.state = DownloadState::Running;
            entry.view.error = None;
            (entry.source.clone(), entry.sha256.clone())
        }) else {
            return;
        };
        let (this, models, id) = (self.clone(), models.clone(), id.to_string());
        tokio::spawn(async move {
            let result = downloader
                .download(models.catalog(), &source, sha256.as_deref(), watched, |p| {
                    this.progressed(&id, p)
                })
                .await;
            this.ended(&id, result);
        });
    }

    fn progressed(&self, id: &str, progress: Progress) {
        self.change(id, |entry| {
            let view = &mut entry.view;
            view.done = progress.done;
            view.total = progress.total;
            view.bytes_per_second = progress.bytes_per_second;
            view.seconds_left = progress.seconds_left;
        });
    }

    /// Records how the task of `id` ended: paused or failed stay listed, finished or cancelled
    /// leave the list.
    fn ended(&self, id: &str, result: Result<Downloaded, AppError>) {
        self.change(id, |entry| {
            entry.signal = None;
            let view = &mut entry.view;
            view.bytes_per_second = 0;
            view.seconds_left = None;
            match result {
                Ok(Downloaded::Paused { done }) => {
                    view.state = DownloadState::Paused;
                    view.done = done;
                }
                Ok(Downloaded::Finished(model)) => {
                    view.state = DownloadState::Finished;
                    view.done = model.size_bytes;
                    view.model = Some(model);
                }
                Err(AppError::DownloadCancelled) => view.state = DownloadState::Cancelled,
                Err(error) => {
                    view.state = DownloadState::Failed;
                    view.done = 0;
                    view.error = Some(error);
                }
            }
        });
        self.lock().entries.retain(|e| {
            !matches!(
                e.view.state,
                DownloadState::Finished | DownloadState::Cancelled
            )
        });
    }

    /// Changes the entry `id` with `change` and tells the listener; `None` when it is gone.
    fn change<T>(&self, id: &str, change: impl FnOnce(&mut Entry) -> T) -> Option<T> {
        let (out, view) = {
            let mut active = self.lock();
            let entry = active.find_mut(id)?;
            let out = change(entry);
            (out, entry.view.clone())
        };
        self.tell(&view);
        Some(out)
    }

    fn tell(&self, view: &ModelDownload) {
        let listener = self.lock().listener.clone();
        if let Some(listener) = listener {
            listener(view);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Active> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Active {
    fn find(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.view.id == id)
    }

    fn find_mut(&mut self, id: &str) -> Option<&mut Entry> {
        self.entries.iter_mut().find(|e| e.view.id == id)
    }
}
