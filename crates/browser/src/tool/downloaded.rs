//! The downloads an action's tab started: each finished one moved into the workspace's
//! `downloads/` folder (through the file tools' sandbox, never over an existing file), and
//! every one listed in the result (`downloads`: saved with its path and size, refused over the
//! limit, failed, or still running).

use crate::downloads::{Download, Downloads, Progress, DOWNLOADS_FOLDER, MAX_DOWNLOAD_BYTES};
use crate::tab::Tab;
use hearth_tools::fs::{workspace_file, write_workspace_file};
use hearth_tools::ToolError;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// How long an action waits for the downloads it started to end.
pub const WAIT: Duration = Duration::from_secs(10);

/// Takes `tab`'s downloads from `downloads`, saves the finished ones in `workspace` and lists
/// them all in `result`.
pub async fn report(result: &mut Value, tab: &Tab, downloads: &Downloads, workspace: &Path) {
    let mut frames: Vec<String> = tab.frames.keys().cloned().collect();
    frames.push(tab.page.target_id().as_ref().to_string());
    frames.extend(tab.events.lock().main_frame.clone());
    let taken = downloads
        .take(&|frame| frames.iter().any(|f| f == frame), WAIT)
        .await;
    let Some(fields) = result.as_object_mut().filter(|_| !taken.is_empty()) else {
        return;
    };
    let mut listed = Vec::new();
    for download in taken {
        listed.push(entry(&download, downloads, workspace).await);
    }
    fields.insert("downloads".into(), Value::Array(listed));
}

async fn entry(download: &Download, downloads: &Downloads, workspace: &Path) -> Value {
    let staged = downloads.staged(&download.guid);
    let mut out = json!({"name": download.name, "url": download.url});
    match &download.progress {
        Progress::Done => match save(&staged, &download.name, workspace).await {
            Ok((path, bytes)) => {
                out["path"] = json!(path);
                out["bytes"] = json!(bytes);
            }
            Err(error) => out["failed"] = json!(error.message),
        },
        Progress::TooLarge(size) => {
            out["refused"] = json!(format!(
                "larger than the {} MiB limit for downloads (at least {size} bytes): cancelled, \
                 nothing kept",
                MAX_DOWNLOAD_BYTES / (1024 * 1024)
            ));
        }
        Progress::Failed => out["failed"] = json!("the download was cancelled or interrupted"),
        Progress::Running => {
            out["running"] = json!(format!(
                "still downloading ({} bytes so far); a later browser action reports it",
                download.received
            ));
            return out;
        }
    }
    // A cancelled one may leave its partial `<id>.crdownload` behind.
    let _ = tokio::fs::remove_file(&staged).await;
    let _ = tokio::fs::remove_file(staged.with_extension("crdownload")).await;
    out
}

/// Moves the finished download at `staged` to a free name in the workspace's downloads folder
/// made from `suggested`; returns its workspace path and size.
async fn save(
    staged: &Path,
    suggested: &str,
    workspace: &Path,
) -> Result<(String, u64), ToolError> {
    let bytes = tokio::fs::read(staged)
        .await
        .map_err(|e| ToolError::internal(format!("the downloaded file could not be read: {e}")))?;
    let (workspace, name) = (workspace.to_path_buf(), file_name(suggested));
    tokio::task::spawn_blocking(move || {
        let path = free_path(&workspace, &name);
        write_workspace_file(&workspace, "path", &path, &bytes)?;
        Ok::<_, ToolError>((path, bytes.len() as u64))
    })
    .await
    .map_err(|e| ToolError::internal(format!("saving the download failed: {e}")))?
}

/// `suggested` as a plain file name (its last path component, no leading dots or control
/// characters), or `download`.
fn file_name(suggested: &str) -> String {
    let last = suggested.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean: String = last
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .trim_start_matches('.')
        .chars()
        .take(120)
        .collect();
    if clean.is_empty() {
        "download".to_string()
    } else {
        clean
    }
}

/// `downloads/<name>`, or `downloads/<stem> (2).<ext>` and on while that is taken.
fn free_path(workspace: &Path, name: &str) -> String {
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem, format!(".{extension}")),
        _ => (name, String::new()),
    };
    let mut path = format!("{DOWNLOADS_FOLDER}/{name}");
    let mut n = 2;
    while workspace_file(workspace, "path", &path).is_ok() {
        path = format!("{DOWNLOADS_FOLDER}/{stem} ({n}){extension}");
        n += 1;
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggested_names_become_plain_file_names() {
        assert_eq!(file_name("report.csv"), "report.csv");
        assert_eq!(file_name("../../etc/passwd"), "passwd");
        assert_eq!(file_name("..\\evil.bat"), "evil.bat");
        assert_eq!(file_name(".bashrc"), "bashrc");
        assert_eq!(file_name(""), "download");
        assert_eq!(file_name("a\nb.txt"), "ab.txt");
    }

    #[test]
    fn a_taken_name_gets_a_number() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(free_path(dir.path(), "r.csv"), "downloads/r.csv");
        std::fs::create_dir(dir.path().join("downloads")).unwrap();
        std::fs::write(dir.path().join("downloads/r.csv"), "1").unwrap();
        std::fs::write(dir.path().join("downloads/r (2).csv"), "2").unwrap();
        assert_eq!(free_path(dir.path(), "r.csv"), "downloads/r (3).csv");
    }
}
