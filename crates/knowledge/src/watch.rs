//! Following the knowledge folders while Hearth runs: filesystem events (the OS's own watcher,
//! through `notify`), gathered for a moment, start an incremental pass, which reads only what
//! changed and drops what is gone.

use std::path::PathBuf;
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

use crate::index::Knowledge;

/// How long events are gathered before a pass starts (an editor's save is several events).
const SETTLE: Duration = Duration::from_millis(300);

/// A running watch; dropping it stops it.
pub(crate) struct Watching {
    _watcher: Option<RecommendedWatcher>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

impl Watching {
    /// Watches every folder of `folders` that exists (recursively), passes running on
    /// `runtime`; without an OS watcher nothing is followed, which is logged.
    pub(crate) fn start(
        knowledge: Knowledge,
        folders: &[PathBuf],
        runtime: &tokio::runtime::Handle,
    ) -> Watching {
        // One nudge waiting is enough: more events before the pass starts add nothing, so a
        // burst (a checkout of thousands of files) queues nothing while a pass runs.
        let (send, mut receive) = mpsc::channel::<()>(1);
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            if event.is_ok_and(|e| !e.kind.is_access()) {
                let _ = send.try_send(());
            }
        });
        let mut watcher = match watcher {
            Ok(watcher) => watcher,
            Err(error) => {
                tracing::warn!(%error, "knowledge folders are not watched");
                return Watching {
                    _watcher: None,
                    task: None,
                };
            }
        };
        for folder in folders.iter().filter(|f| f.is_dir()) {
            if let Err(error) = watcher.watch(folder, RecursiveMode::Recursive) {
                tracing::warn!(%error, folder = %folder.display(), "knowledge folder not watched");
            }
        }
        let task = runtime.spawn(async move {
            while receive.recv().await.is_some() {
                tokio::time::sleep(SETTLE).await;
                while receive.try_recv().is_ok() {}
                // On a task of its own: a watch stopped mid-pass (see [`Watching`]'s drop)
                // lets the pass finish rather than leave it half done and "running".
                let pass = knowledge.clone();
                match tokio::spawn(async move { pass.index().await }).await {
                    Ok(Ok(_)) => {}
                    Ok(Err(error)) => {
                        tracing::warn!(%error, "knowledge reindexing after a change failed");
                    }
                    Err(error) => tracing::warn!(%error, "knowledge reindexing stopped"),
                }
            }
        });
        Watching {
            _watcher: Some(watcher),
            task: Some(task),
        }
    }
}
