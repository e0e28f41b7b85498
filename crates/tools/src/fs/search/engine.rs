//! The parallel search behind `search_files`: an `ignore` walk (gitignore, no hidden files, no
//! links) whose files are opened beneath the sandbox root and grepped with `grep-searcher`.

use crate::fs::sandbox::Sandbox;
use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt, OpenOptionsSyncExt};
use cap_std::fs::OpenOptions;
use globset::GlobMatcher;
use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{DirEntry, WalkBuilder, WalkState};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Matched lines are cut to this many characters.
pub(crate) const LINE_MAX_CHARS: usize = 300;

/// One matched line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct LineHit {
    pub path: String,
    pub line_number: u64,
    pub line: String,
}

/// One file or folder whose name matched.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct NameHit {
    pub path: String,
    pub kind: &'static str,
}

/// Results, sorted, and whether the search stopped at the limit.
pub(crate) struct Found<T> {
    pub hits: Vec<T>,
    pub truncated: bool,
}

/// What a search collects, shared by the walking threads.
struct Collector<T> {
    hits: Mutex<Vec<T>>,
    count: AtomicUsize,
    max: usize,
    truncated: AtomicBool,
}

impl<T: Ord> Collector<T> {
    fn new(max: usize) -> Arc<Self> {
        Arc::new(Self {
            hits: Mutex::new(Vec::new()),
            count: AtomicUsize::new(0),
            max,
            truncated: AtomicBool::new(false),
        })
    }

    /// Records a hit; false once the limit is reached (the hit is then dropped).
    fn push(&self, hit: T) -> bool {
        if self.count.fetch_add(1, Ordering::Relaxed) >= self.max {
            self.truncated.store(true, Ordering::Relaxed);
            return false;
        }
        if let Ok(mut hits) = self.hits.lock() {
            hits.push(hit);
        }
        true
    }

    /// How many more hits fit (one more, so that going over the limit is noticed).
    fn room(&self) -> usize {
        (self.max + 1).saturating_sub(self.count.load(Ordering::Relaxed))
    }

    fn full(&self) -> bool {
        self.count.load(Ordering::Relaxed) >= self.max
    }

    fn finish(self: Arc<Self>) -> Found<T> {
        let truncated = self.truncated.load(Ordering::Relaxed);
        let mut hits = match Arc::try_unwrap(self) {
            Ok(collector) => collector.hits.into_inner().unwrap_or_default(),
            Err(shared) => shared
                .hits
                .lock()
                .map(|mut h| std::mem::take(&mut *h))
                .unwrap_or_default(),
        };
        hits.sort();
        Found { hits, truncated }
    }
}

/// The walk over `base` (relative to the sandbox root): ignore files inside the root only.
fn walker(sandbox: &Sandbox, base: &str) -> WalkBuilder {
    let root = sandbox.root_path().to_path_buf();
    let start = root.join(base);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(12));
    let mut builder = WalkBuilder::new(&start);
    builder
        .hidden(true)
        .parents(false)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .threads(threads);
    let ancestors = ancestor_ignores(&root, base);
    let start_ignored = ancestors
        .iter()
        .any(|gi| gi.matched_path_or_any_parents(&start, true).is_ignore());
    if !ancestors.is_empty() && !start_ignored {
        builder.filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !ancestors.iter().any(|gi| {
                gi.matched_path_or_any_parents(entry.path(), is_dir)
                    .is_ignore()
            })
        });
    }
    builder
}

/// The .gitignore and .ignore rules of the folders between the root and `base` (the walk reads
/// `base`'s own and those below it; it never looks above the root).
fn ancestor_ignores(root: &Path, base: &str) -> Vec<Gitignore> {
    let mut folders: Vec<PathBuf> = Vec::new();
    let mut folder = root.to_path_buf();
    let parts: Vec<&str> = base
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    for part in parts {
        folders.push(folder.clone());
        folder.push(part);
    }
    folders
        .into_iter()
        .filter_map(|folder| {
            let mut builder = GitignoreBuilder::new(&folder);
            for name in [".gitignore", ".ignore"] {
                let file = folder.join(name);
                if file.is_file() {
                    if let Some(error) = builder.add(&file) {
                        tracing::debug!(%error, "ignore file partly unreadable");
                    }
                }
            }
            builder
                .build()
                .ok()
                .filter(|gi| gi.num_ignores() + gi.num_whitelists() > 0)
        })
        .collect()
}

/// The path of a walked entry relative to the sandbox root, with `/` separators.
fn relative(root: &Path, entry: &DirEntry) -> Option<String> {
    let rel = entry.path().strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

fn cut(line: &str) -> String {
    let line = line.trim_end_matches(['\n', '\r']);
    match line.char_indices().nth(LINE_MAX_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

/// Collects one file's matching lines; a file found to be binary contributes none.
struct FileSink<'a> {
    path: &'a str,
    hits: Vec<LineHit>,
    room: usize,
    binary: bool,
}

impl Sink for FileSink<'_> {
    type Error = io::Error;

    fn matched(&mut self, _searcher: &Searcher, found: &SinkMatch<'_>) -> Result<bool, io::Error> {
        self.hits.push(LineHit {
            path: self.path.to_string(),
            line_number: found.line_number().unwrap_or(0),
            line: cut(&String::from_utf8_lossy(found.bytes())),
        });
        Ok(self.hits.len() < self.room)
    }

    fn binary_data(&mut self, _searcher: &Searcher, _offset: u64) -> Result<bool, io::Error> {
        self.binary = true;
        Ok(false)
    }
}

/// Lines of files under `base` matching `matcher`, up to `max`.
pub(crate) fn content(
    sandbox: &Sandbox,
    base: &str,
    matcher: &RegexMatcher,
    max: usize,
) -> Found<LineHit> {
    let collector = Collector::new(max);
    let root = sandbox.root_path().to_path_buf();
    let walk = walker(sandbox, base).build_parallel();
    walk.run(|| {
        let collector = Arc::clone(&collector);
        let root = root.clone();
        let matcher = matcher.clone();
        let dir = sandbox.root_dir().try_clone().ok();
        let mut searcher = SearcherBuilder::new()
            .binary_detection(BinaryDetection::quit(0))
            .line_number(true)
            .build();
        let mut options = OpenOptions::new();
        options.read(true).follow(FollowSymlinks::No).nonblock(true);
        Box::new(move |entry| {
            if collector.full() {
                return WalkState::Quit;
            }
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return WalkState::Continue;
            }
            let (Some(rel), Some(dir)) = (relative(&root, &entry), dir.as_ref()) else {
                return WalkState::Continue;
            };
            // Opened beneath the root: a folder swapped for a link mid-walk cannot lead out.
            let Ok(file) = dir.open_with(&rel, &options) else {
                return WalkState::Continue;
            };
            if !file.metadata().is_ok_and(|m| m.is_file()) {
                return WalkState::Continue;
            }
            let file = file.into_std();
            let mut sink = FileSink {
                path: &rel,
                hits: Vec::new(),
                room: collector.room(),
                binary: false,
            };
            match searcher.search_file(&matcher, &file, &mut sink) {
                Ok(()) if !sink.binary => {
                    for hit in sink.hits {
                        if !collector.push(hit) {
                            return WalkState::Quit;
                        }
                    }
                }
                Ok(()) => {}
                Err(error) => tracing::debug!(%error, path = %rel, "file skipped by search"),
            }
            if collector.full() {
                WalkState::Quit
            } else {
                WalkState::Continue
            }
        })
    });
    collector.finish()
}

/// Files and folders under `base` whose name (or, when `whole_path`, whole relative path)
/// matches `glob`, up to `max`.
pub(crate) fn names(
    sandbox: &Sandbox,
    base: &str,
    glob: &GlobMatcher,
    whole_path: bool,
    max: usize,
) -> Found<NameHit> {
    let collector = Collector::new(max);
    let root = sandbox.root_path().to_path_buf();
    let walk = walker(sandbox, base).build_parallel();
    walk.run(|| {
        let collector = Arc::clone(&collector);
        let root = root.clone();
        let dir = sandbox.root_dir().try_clone().ok();
        Box::new(move |entry| {
            if collector.full() {
                return WalkState::Quit;
            }
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if entry.depth() == 0 {
                return WalkState::Continue;
            }
            let Some(rel) = relative(&root, &entry) else {
                return WalkState::Continue;
            };
            let subject = if whole_path {
                rel.as_str()
            } else {
                rel.rsplit('/').next().unwrap_or(&rel)
            };
            if !glob.is_match(subject) {
                return WalkState::Continue;
            }
            // Confirmed beneath the root, so a name seen through a swapped link is not shown.
            let Some(meta) = dir.as_ref().and_then(|d| d.symlink_metadata(&rel).ok()) else {
                return WalkState::Continue;
            };
            let kind = if meta.is_dir() {
                "dir"
            } else if meta.is_file() {
                "file"
            } else if meta.is_symlink() {
                "symlink"
            } else {
                "other"
            };
            if collector.push(NameHit { path: rel, kind }) {
                WalkState::Continue
            } else {
                WalkState::Quit
            }
        })
    });
    collector.finish()
}
