//! The managed browser's downloads: Chrome saves them (named by their id) in a staging folder
//! of Hearth's own, never the user's `~/Downloads`; one over [`MAX_DOWNLOAD_BYTES`] is cancelled
//! as soon as its size or its progress passes the limit; a finished one is handed to the action
//! of the tab that started it, which moves it into the workspace's `downloads/` folder.

use crate::cdp::CdpFailure;
use crate::wire::Wire;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// The largest download kept: 100 MiB.
pub const MAX_DOWNLOAD_BYTES: u64 = 100 * 1024 * 1024;
/// Where in the workspace downloads are put.
pub const DOWNLOADS_FOLDER: &str = "downloads";

const EVENTS: &[&str] = &["Browser.downloadWillBegin", "Browser.downloadProgress"];

/// How a download stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    Running,
    /// Saved whole in the staging folder under its id.
    Done,
    /// Cancelled by Hearth: its size (announced or reached) passed the limit.
    TooLarge(u64),
    /// Cancelled by the browser or the server, or interrupted.
    Failed,
}

/// One download the browser began.
#[derive(Debug, Clone)]
pub struct Download {
    pub guid: String,
    /// The frame that started it (a tab's own frame id, or one of its iframes').
    pub frame: String,
    pub url: String,
    /// The file name the page or server suggested.
    pub name: String,
    pub received: u64,
    pub progress: Progress,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Began {
    frame_id: String,
    guid: String,
    url: String,
    suggested_filename: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Step {
    guid: String,
    total_bytes: f64,
    received_bytes: f64,
    state: String,
}

#[derive(Deserialize)]
struct Event<T> {
    params: T,
}

type Table = Arc<Mutex<HashMap<String, Download>>>;

/// The downloads of one running browser, followed on a connection of their own.
pub struct Downloads {
    staging: PathBuf,
    wire: Arc<Wire>,
    table: Table,
    changed: watch::Receiver<u64>,
    task: JoinHandle<()>,
}

impl Drop for Downloads {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_dir_all(&self.staging);
    }
}

impl Downloads {
    /// Has the browser at `ws_url` save downloads in `staging` (emptied first) and report
    /// them here. Its setting lasts as long as this connection, so it is kept as long as the
    /// browser runs.
    pub async fn follow(ws_url: &str, staging: &Path) -> Result<Downloads, String> {
        let _ = std::fs::remove_dir_all(staging);
        std::fs::create_dir_all(staging).map_err(|e| {
            format!(
                "the downloads folder {} could not be made: {e}",
                staging.display()
            )
        })?;
        let (events, mut incoming) = mpsc::unbounded_channel();
        let failed = |e: CdpFailure| format!("the browser's downloads could not be set up: {e}");
        let wire = Arc::new(
            Wire::browser(ws_url, (EVENTS, events))
                .await
                .map_err(failed)?,
        );
        wire.call_browser::<Value>(
            "Browser.setDownloadBehavior",
            json!({
                "behavior": "allowAndName",
                "downloadPath": staging.display().to_string(),
                "eventsEnabled": true,
            }),
        )
        .await
        .map_err(failed)?;
        let table: Table = Arc::default();
        let (tell, changed) = watch::channel(0u64);
        let (followed, canceller) = (Arc::clone(&table), Arc::clone(&wire));
        let task = tokio::spawn(async move {
            while let Some(text) = incoming.recv().await {
                if let Some(guid) = record(&followed, &text) {
                    // Chrome stops writing and removes the part it had written.
                    let cancel = canceller
                        .call_browser::<Value>("Browser.cancelDownload", json!({"guid": guid}));
                    if let Err(error) = cancel.await {
                        tracing::warn!(%error, "a download over the limit could not be cancelled");
                    }
                }
                tell.send_modify(|n| *n += 1);
            }
        });
        Ok(Downloads {
            staging: staging.to_path_buf(),
            wire,
            table,
            changed,
            task,
        })
    }

    /// Where the finished download `guid` lies.
    pub fn staged(&self, guid: &str) -> PathBuf {
        self.staging.join(guid)
    }

    /// Takes the downloads started by frames `ours` says are the tab's, once each has ended
    /// (waiting at most `limit`; one still running then is left for a later action and
    /// returned as running).
    pub async fn take(
        &self,
        ours: &(dyn Fn(&str) -> bool + Sync),
        limit: Duration,
    ) -> Vec<Download> {
        // Every event Chrome sent before this answer has been read once it comes.
        let _ = self
            .wire
            .call_browser::<Value>("Browser.getVersion", json!({}))
            .await;
        let mut changed = self.changed.clone();
        let running = |table: &HashMap<String, Download>| {
            table
                .values()
                .any(|d| ours(&d.frame) && d.progress == Progress::Running)
        };
        let _ = tokio::time::timeout(limit, async {
            loop {
                let busy = running(&self.table.lock().unwrap_or_else(PoisonError::into_inner));
                if !busy || changed.changed().await.is_err() {
                    return;
                }
            }
        })
        .await;
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        let mine: Vec<String> = table
            .values()
            .filter(|d| ours(&d.frame))
            .map(|d| d.guid.clone())
            .collect();
        let mut taken = Vec::new();
        for guid in mine {
            let Some(download) = table.get(&guid) else {
                continue;
            };
            if download.progress == Progress::Running {
                taken.push(download.clone());
            } else if let Some(download) = table.remove(&guid) {
                taken.push(download);
            }
        }
        taken
    }
}

/// Records one download event; returns the id of a download to cancel for passing the limit.
fn record(table: &Table, text: &str) -> Option<String> {
    let mut table = table.lock().unwrap_or_else(PoisonError::into_inner);
    if let Ok(Event { params: began }) = serde_json::from_str::<Event<Began>>(text) {
        table.insert(
            began.guid.clone(),
            Download {
                guid: began.guid,
                frame: began.frame_id,
                url: began.url,
                name: began.suggested_filename,
                received: 0,
                progress: Progress::Running,
            },
        );
        return None;
    }
    let Event { params: step } = serde_json::from_str::<Event<Step>>(text).ok()?;
    let download = table.get_mut(&step.guid)?;
    // Byte counts come as JSON numbers; sizes past 2^53 are beyond any limit anyway.
    let (received, total) = (step.received_bytes as u64, step.total_bytes as u64);
    download.received = received;
    if download.progress != Progress::Running {
        return None;
    }
    let size = received.max(total);
    if size > MAX_DOWNLOAD_BYTES {
        download.progress = Progress::TooLarge(size);
        return Some(download.guid.clone());
    }
    download.progress = match step.state.as_str() {
        "completed" => Progress::Done,
        "canceled" => Progress::Failed,
        _ => Progress::Running,
    };
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn began(guid: &str) -> String {
        json!({"method": "Browser.downloadWillBegin", "params": {"frameId": "F", "guid": guid,
            "url": "http://127.0.0.1/x", "suggestedFilename": "x.bin"}})
        .to_string()
    }

    fn step(guid: &str, total: u64, received: u64, state: &str) -> String {
        json!({"method": "Browser.downloadProgress", "params": {"guid": guid,
            "totalBytes": total, "receivedBytes": received, "state": state}})
        .to_string()
    }

    #[test]
    fn a_download_past_the_limit_is_cancelled_by_its_size_or_its_progress() {
        let table = Table::default();
        record(&table, &began("a"));
        record(&table, &began("b"));
        record(&table, &began("c"));
        assert_eq!(record(&table, &step("a", 10, 5, "inProgress")), None);
        assert_eq!(record(&table, &step("a", 10, 10, "completed")), None);
        let over = MAX_DOWNLOAD_BYTES + 1;
        // Announced too large (Content-Length): cancelled before anything much arrives.
        assert_eq!(
            record(&table, &step("b", over, 0, "inProgress")),
            Some("b".into())
        );
        // No size announced: cancelled once the bytes pass the limit.
        assert_eq!(record(&table, &step("c", 0, 1024, "inProgress")), None);
        assert_eq!(
            record(&table, &step("c", 0, over, "inProgress")),
            Some("c".into())
        );
        // The cancellation Chrome reports afterwards keeps the reason.
        assert_eq!(record(&table, &step("c", 0, over, "canceled")), None);
        let table = table.lock().unwrap();
        assert_eq!(table["a"].progress, Progress::Done);
        assert_eq!(table["b"].progress, Progress::TooLarge(over));
        assert_eq!(table["c"].progress, Progress::TooLarge(over));
    }
}
