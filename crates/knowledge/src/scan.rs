//! The files of a knowledge folder: every readable document under it (hidden files and folders
//! skipped), with its size and modification time.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use crate::error::KnowledgeError;

/// Extensions the knowledge base reads (what `read_document` reads).
pub const INDEXABLE_EXTENSIONS: &[&str] = &[
    "pdf", "docx", "pptx", "xlsx", "xlsm", "xls", "ods", "csv", "tsv", "txt", "text", "log", "md",
    "markdown", "html", "htm",
];

/// The most files one folder contributes.
const MAX_FILES: usize = 20_000;

/// Whether `path` has an extension the knowledge base reads.
pub fn is_indexable(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| INDEXABLE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// A file found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) path: PathBuf,
    pub(crate) size: u64,
    /// Unix milliseconds.
    pub(crate) mtime: i64,
}

/// The size and modification time of `path`, if it is a file.
pub(crate) fn stat(path: &Path) -> Option<Found> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    Some(Found {
        path: path.to_path_buf(),
        size: meta.len(),
        mtime,
    })
}

fn hidden(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.') || n.starts_with("~$"))
}

/// Every indexable file under `folder`, sorted by path (symbolic links are not followed).
/// Whether `folder` is a folder that can be listed.
pub(crate) fn check_folder(folder: &Path) -> Result<(), KnowledgeError> {
    let shown = || folder.display().to_string();
    match std::fs::read_dir(folder) {
        Ok(_) => Ok(()),
        Err(error)
            if matches!(
                error.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) || !folder.is_dir() =>
        {
            Err(KnowledgeError::FolderMissing { folder: shown() })
        }
        Err(error) => Err(KnowledgeError::FolderUnreadable {
            folder: shown(),
            reason: error.to_string(),
        }),
    }
}

pub(crate) fn scan(folder: &Path) -> Vec<Found> {
    let mut out = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if hidden(&path) || kind.is_symlink() {
                continue;
            }
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() && is_indexable(&path) && out.len() < MAX_FILES {
                out.extend(stat(&path));
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}
