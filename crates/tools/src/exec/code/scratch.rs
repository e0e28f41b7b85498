//! The scratch folder `execute_code` runs in: a temporary copy of the workspace (without `.git`,
//! symlinks or files over the per-file cap, and refused past a total cap), a folder for the code
//! file and a private temp folder; removed when dropped.

use crate::error::{ErrorKind, ToolError};
use serde::Serialize;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// Files larger than this are not copied (listed as skipped).
pub(crate) const MAX_FILE_BYTES: u64 = 50 * 1024 * 1024;
/// A workspace holding more than this (in files that would be copied) is refused.
pub(crate) const MAX_TOTAL_BYTES: u64 = 200 * 1024 * 1024;
/// A workspace with more files than this is refused.
const MAX_FILES: u64 = 100_000;
/// Skipped entries named in the result; the rest are only counted.
const LISTED_SKIPS: usize = 20;

/// What was copied into the scratch folder.
#[derive(Debug, Default, Serialize)]
pub(crate) struct CopyReport {
    pub(crate) files: u64,
    pub(crate) bytes: u64,
    /// The first skipped entries, each with the reason.
    pub(crate) skipped: Vec<String>,
    pub(crate) skipped_count: u64,
}

impl CopyReport {
    fn skip(&mut self, relative: &Path, reason: &str) {
        self.skipped_count += 1;
        if self.skipped.len() < LISTED_SKIPS {
            self.skipped
                .push(format!("{} ({reason})", relative.display()));
        }
    }
}

/// A prepared scratch folder: `root/work` (the workspace copy, the working folder), `root/code`
/// (the code file) and `root/tmp` (TMPDIR).
#[derive(Debug)]
pub(crate) struct Scratch {
    dir: TempDir,
    pub(crate) report: CopyReport,
}

impl Scratch {
    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn work(&self) -> PathBuf {
        self.root().join("work")
    }

    pub(crate) fn code_dir(&self) -> PathBuf {
        self.root().join("code")
    }

    pub(crate) fn tmp(&self) -> PathBuf {
        self.root().join("tmp")
    }
}

/// Copies `workspace` into a new scratch folder (blocking: run it off the async runtime). The
/// workspace is surveyed first, so an oversized one is refused before anything is copied.
pub(crate) fn prepare(workspace: &Path) -> Result<Scratch, ToolError> {
    let mut report = CopyReport::default();
    let (folders, files) = survey(workspace, &mut report)?;
    let dir = tempfile::Builder::new()
        .prefix("hearth-code-")
        .tempdir()
        .map_err(|e| ToolError::internal(format!("could not create a scratch folder: {e}")))?;
    let scratch = Scratch { dir, report };
    let work = scratch.work();
    let created = [scratch.work(), scratch.code_dir(), scratch.tmp()]
        .into_iter()
        .chain(folders.iter().map(|relative| work.join(relative)));
    for folder in created {
        std::fs::create_dir(&folder).map_err(|e| io_error("could not create", &folder, e))?;
    }
    for relative in &files {
        let from = workspace.join(relative);
        std::fs::copy(&from, work.join(relative))
            .map_err(|e| io_error("could not copy", &from, e))?;
    }
    Ok(scratch)
}

/// The folders (parents first) and files to copy, relative to `workspace`; skips recorded in
/// `report`, and `too_large` past the caps.
fn survey(
    workspace: &Path,
    report: &mut CopyReport,
) -> Result<(Vec<PathBuf>, Vec<PathBuf>), ToolError> {
    let (mut folders, mut files) = (Vec::new(), Vec::new());
    let mut pending = vec![PathBuf::new()];
    while let Some(folder) = pending.pop() {
        let source = workspace.join(&folder);
        let entries =
            std::fs::read_dir(&source).map_err(|e| io_error("could not list", &source, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| io_error("could not list", &source, e))?;
            let relative = folder.join(entry.file_name());
            let meta = entry
                .metadata()
                .map_err(|e| io_error("could not inspect", &entry.path(), e))?;
            if meta.is_dir() && entry.file_name() == ".git" {
                report.skip(&relative, "git metadata");
            } else if meta.is_dir() {
                folders.push(relative.clone());
                pending.push(relative);
            } else if !meta.is_file() {
                report.skip(&relative, "symlink or special file");
            } else if meta.len() > MAX_FILE_BYTES {
                let reason = format!(
                    "{} bytes, over the {MAX_FILE_BYTES}-byte file limit",
                    meta.len()
                );
                report.skip(&relative, &reason);
            } else {
                report.files += 1;
                report.bytes += meta.len();
                if report.bytes > MAX_TOTAL_BYTES || report.files > MAX_FILES {
                    return Err(too_large(workspace));
                }
                files.push(relative);
            }
        }
    }
    Ok((folders, files))
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> ToolError {
    ToolError::internal(format!("{what} {}: {e}", path.display()))
}

fn too_large(workspace: &Path) -> ToolError {
    ToolError::new(
        ErrorKind::TooLarge,
        format!(
            "the workspace {} holds more than {} MB (or {MAX_FILES} files) to copy; execute_code \
             runs in a scratch copy of the workspace: move large data out of it, or use exec, \
             which runs in the workspace itself",
            workspace.display(),
            MAX_TOTAL_BYTES / (1024 * 1024)
        ),
    )
}
