//! The knowledge service: its folders, one incremental indexing pass at a time (in the
//! background, with progress told to a listener as it moves), the index's status and search
//! with citations.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use hearth_documents::{load, read, DocumentError, Limits};
use hearth_protocol::{Citation, FileError, FileProblem, IndexReport, KnowledgeStatus, Progress};
use hearth_store::{Db, FileStamp, KnowledgeFile, StoreError};
use sha2::{Digest, Sha256};

use crate::citation::citation;
use crate::error::KnowledgeError;
use crate::scan::{scan, Found};
use crate::watch::Watching;

/// Told each change of the progress (a pass starting, its files counted, each file done, the
/// pass ending); the app sends it to the window.
pub type ProgressListener = Arc<dyn Fn(&Progress) + Send + Sync>;

/// The knowledge base of one process (the app or the CLI).
#[derive(Clone)]
pub struct Knowledge {
    db: Db,
    inner: Arc<Inner>,
}

struct Inner {
    folders: RwLock<Vec<PathBuf>>,
    progress: Mutex<Progress>,
    listener: Mutex<Option<ProgressListener>>,
    /// Held for a whole pass: passes never overlap.
    pass: Arc<tokio::sync::Mutex<()>>,
    /// A pass was asked for with [`Knowledge::start_index`] and has not begun yet (it waits
    /// for the running one): asking again adds nothing.
    queued: AtomicBool,
    watching: Mutex<Option<Watching>>,
    runtime: Mutex<Option<tokio::runtime::Handle>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Knowledge {
    /// The knowledge base over `db` (the app's, so the index's writes queue with its other
    /// writes; an `Arc<Store>` becomes a [`Db`] of its own).
    pub fn new(db: impl Into<Db>) -> Knowledge {
        Knowledge {
            db: db.into(),
            inner: Arc::new(Inner {
                folders: RwLock::new(Vec::new()),
                progress: Mutex::new(Progress::default()),
                listener: Mutex::new(None),
                pass: Arc::new(tokio::sync::Mutex::new(())),
                queued: AtomicBool::new(false),
                watching: Mutex::new(None),
                runtime: Mutex::new(None),
            }),
        }
    }

    /// Sets the folders (files of folders no longer listed leave the index at the next pass);
    /// when watching, the watch follows. Whether they changed.
    pub fn set_folders(&self, folders: Vec<PathBuf>) -> bool {
        let changed = {
            let mut current = self
                .inner
                .folders
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let changed = *current != folders;
            *current = folders;
            changed
        };
        if changed && lock(&self.inner.watching).is_some() {
            self.watch();
        }
        changed
    }

    pub fn folders(&self) -> Vec<PathBuf> {
        self.inner
            .folders
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    pub fn progress(&self) -> Progress {
        lock(&self.inner.progress).clone()
    }

    /// Tells `listener` every change of the progress from now on (replacing any listener).
    pub fn on_progress(&self, listener: ProgressListener) {
        *lock(&self.inner.listener) = Some(listener);
    }

    /// Changes the progress and tells the listener.
    fn update(&self, change: impl FnOnce(&mut Progress)) {
        let now = {
            let mut progress = lock(&self.inner.progress);
            change(&mut progress);
            progress.clone()
        };
        let listener = lock(&self.inner.listener).clone();
        if let Some(listener) = listener {
            listener(&now);
        }
    }

    /// Starts a pass in the background, on the folders as they are when it begins: at once, or
    /// after the running one (a pass already waiting covers this call). The progress says
    /// `running` from this call on. False when there is no async runtime to run it on.
    pub fn start_index(&self) -> bool {
        let Some(runtime) = self.runtime() else {
            return false;
        };
        if self.inner.queued.swap(true, Ordering::SeqCst) {
            return true;
        }
        self.update(|progress| progress.running = true);
        let this = self.clone();
        runtime.spawn(async move {
            let _pass = this.inner.pass.lock().await;
            this.inner.queued.store(false, Ordering::SeqCst);
            if let Err(error) = this.pass().await {
                tracing::warn!(%error, "knowledge indexing failed");
            }
        });
        true
    }

    /// Runs one incremental pass over every folder (after the running one, if any).
    pub async fn index(&self) -> Result<IndexReport, KnowledgeError> {
        let _pass = self.inner.pass.lock().await;
        self.pass().await
    }

    /// One pass, its progress from start to end: `running` until it ends (or, with a pass
    /// waiting, until that one ends), failed or not.
    async fn pass(&self) -> Result<IndexReport, KnowledgeError> {
        self.update(|progress| {
            *progress = Progress {
                running: true,
                last: progress.last.take(),
                ..Progress::default()
            }
        });
        let outcome = self.walk().await;
        let queued = self.inner.queued.load(Ordering::SeqCst);
        self.update(|progress| {
            progress.running = queued;
            progress.current = None;
            if let Ok(report) = &outcome {
                progress.last = Some(report.clone());
            }
        });
        outcome
    }

    async fn walk(&self) -> Result<IndexReport, KnowledgeError> {
        let started = Instant::now();
        let folders = self.folders();
        // A folder that is missing or cannot be listed fails the pass before anything changes,
        // rather than leaving the index as if the folder were empty (an unmounted drive).
        for folder in &folders {
            let checked = folder.clone();
            tokio::task::spawn_blocking(move || crate::scan::check_folder(&checked)).await??;
        }
        let known: Vec<KnowledgeFile> = self.db.read(|s| s.knowledge_files(None)).await?;
        let mut report = IndexReport::default();
        // Files of folders no longer configured.
        let listed: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
        let unlisted = known.iter().filter(|f| !listed.contains(&f.folder));
        report.removed += self.remove(unlisted).await?;
        let by_path: HashMap<&str, &KnowledgeFile> =
            known.iter().map(|f| (f.path.as_str(), f)).collect();
        let mut found_by_folder = Vec::new();
        for folder in &folders {
            let scan_folder = folder.clone();
            let found = tokio::task::spawn_blocking(move || scan(&scan_folder)).await?;
            found_by_folder.push((folder.display().to_string(), found));
        }
        let total = found_by_folder.iter().map(|(_, f)| f.len() as u64).sum();
        self.update(|progress| progress.total = total);
        for (folder, found) in &found_by_folder {
            for file in found {
                let path = file.path.display().to_string();
                lock(&self.inner.progress).current = Some(path.clone());
                self.one(
                    folder,
                    file,
                    by_path.get(path.as_str()).copied(),
                    &mut report,
                )
                .await?;
                self.update(|progress| progress.done += 1);
            }
            let present: Vec<String> = found.iter().map(|f| f.path.display().to_string()).collect();
            let gone = known
                .iter()
                .filter(|k| &k.folder == folder && !present.contains(&k.path));
            report.removed += self.remove(gone).await?;
        }
        report.millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        Ok(report)
    }

    /// Removes `files` from the index in one write; how many were there.
    async fn remove<'a>(
        &self,
        files: impl Iterator<Item = &'a KnowledgeFile>,
    ) -> Result<u64, KnowledgeError> {
        let paths: Vec<String> = files.map(|f| f.path.clone()).collect();
        if paths.is_empty() {
            return Ok(0);
        }
        let removed = self
            .db
            .write(move |s| {
                let mut removed = 0;
                for path in &paths {
                    removed += u64::from(s.remove_knowledge_file(path)?);
                }
                Ok::<_, StoreError>(removed)
            })
            .await?;
        Ok(removed)
    }

    /// Indexes one file if it changed.
    async fn one(
        &self,
        folder: &str,
        file: &Found,
        known: Option<&KnowledgeFile>,
        report: &mut IndexReport,
    ) -> Result<(), KnowledgeError> {
        let path = file.path.display().to_string();
        if known.is_some_and(|k| k.size == file.size && k.mtime == file.mtime) {
            report.unchanged += 1;
            return Ok(());
        }
        let source = file.path.clone();
        let loaded = tokio::task::spawn_blocking(move || load(&source, &Limits::default())).await?;
        let (hash, parsed) = match loaded {
            Ok(bytes) => {
                let hash = sha256(&bytes);
                if let Some(known) = known.filter(|k| k.sha256 == hash) {
                    let (p, size, mtime) = (known.path.clone(), file.size, file.mtime);
                    self.db
                        .write(move |s| s.restamp_knowledge_file(&p, size, mtime))
                        .await?;
                    report.unchanged += 1;
                    return Ok(());
                }
                report.bytes += bytes.len() as u64;
                let name = file
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (hash, read(bytes, name, Limits::default()).await)
            }
            // Gone since the scan: the next pass removes it.
            Err(DocumentError::Unreadable { .. }) => return Ok(()),
            // Refused unread (too large): recorded as unreadable like a file that fails.
            Err(error) => (String::new(), Err(error)),
        };
        // A file the reader cannot read (damaged, too slow, its worker crashed) is recorded
        // with why, and the pass goes on.
        let (chunks, error) = match parsed {
            Ok(document) => (crate::chunks::chunks(&document), None),
            Err(error) => (Vec::new(), Some(FileProblem::stored(&error))),
        };
        if error.is_some() {
            report.failed += 1;
        } else {
            report.indexed += 1;
        }
        let stamp = FileStamp {
            folder: folder.to_string(),
            path,
            size: file.size,
            mtime: file.mtime,
            sha256: hash,
        };
        self.db
            .write(move |s| s.index_knowledge_file(&stamp, &chunks, error.as_deref()))
            .await?;
        Ok(())
    }

    /// The runtime of this thread, remembered; else the one remembered (a caller off the
    /// runtime, such as the window's main thread, reaches it too).
    fn runtime(&self) -> Option<tokio::runtime::Handle> {
        let mut remembered = lock(&self.inner.runtime);
        if let Ok(current) = tokio::runtime::Handle::try_current() {
            *remembered = Some(current);
        }
        remembered.clone()
    }

    /// Starts (or restarts, on the current folders) following changes; without an async
    /// runtime nothing is followed, which is logged.
    pub fn watch(&self) {
        let Some(runtime) = self.runtime() else {
            tracing::warn!("knowledge folders are not watched: no async runtime");
            return;
        };
        let watching = Watching::start(self.clone(), &self.folders(), &runtime);
        *lock(&self.inner.watching) = Some(watching);
    }

    /// Follows changes (as [`Knowledge::watch`]) or stops following them; nothing changes when
    /// it already does as asked.
    pub fn set_watching(&self, on: bool) {
        let watching = lock(&self.inner.watching).is_some();
        if on && !watching {
            self.watch();
        } else if !on {
            *lock(&self.inner.watching) = None;
        }
    }

    /// The index's counts and unreadable files (read together), the folders and the progress.
    pub async fn status(&self) -> Result<KnowledgeStatus, KnowledgeError> {
        let (counts, files) = self
            .db
            .read(|s| Ok::<_, StoreError>((s.knowledge_counts()?, s.knowledge_files(None)?)))
            .await?;
        let file_errors = files
            .into_iter()
            .filter_map(|f| {
                f.error.map(|error| FileError {
                    path: f.path,
                    error: FileProblem::from_stored(error),
                })
            })
            .collect();
        Ok(KnowledgeStatus {
            folders: self
                .folders()
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            files: counts.files,
            chunks: counts.chunks,
            errors: counts.errors,
            last_indexed: counts.last_indexed,
            watching: lock(&self.inner.watching).is_some(),
            progress: self.progress(),
            file_errors,
        })
    }

    /// The best `limit` chunks for `query`, as citations.
    pub async fn search(&self, query: &str, limit: usize) -> Result<Vec<Citation>, KnowledgeError> {
        let q = query.to_string();
        let hits = self.db.read(move |s| s.search_knowledge(&q, limit)).await?;
        Ok(hits.into_iter().map(|hit| citation(query, hit)).collect())
    }
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
