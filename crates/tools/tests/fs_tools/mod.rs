//! Integration tests of the file tools and the workspace sandbox on the real file system,
//! through `builtin_registry(dialect).dispatch(...)` as the engine calls them.

mod dialects;
mod diffs;
mod document;
mod edit;
mod encodings;
mod list;
mod patch;
mod protected;
mod race;
mod read;
mod search;
mod special;
mod spill;
mod symlinks;
mod traversal;
mod write;

use crate::support::{failed, succeeded};
use hearth_tools::{builtin_registry, Dialect, ErrorKind, Registry, ToolContext, ToolError};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

/// The planted file outside the workspace that no tool may read or change.
pub const CANARY: &str = "CANARY: outside the workspace";

/// A temporary root holding `ws/` (the workspace), `data/` (the data dir) and `outside/` (a
/// sibling folder with the canary).
pub struct Env {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub ctx: ToolContext,
    canary_mtime: SystemTime,
}

pub fn env() -> Env {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => panic!("tempdir: {e}"),
    };
    let root = match std::fs::canonicalize(dir.path()) {
        Ok(root) => root,
        Err(e) => panic!("canonicalize: {e}"),
    };
    for sub in ["ws", "data", "outside"] {
        mkdir(&root.join(sub));
    }
    put(&root.join("outside/canary.txt"), CANARY.as_bytes());
    let canary_mtime = mtime(&root.join("outside/canary.txt"));
    let ctx = ToolContext::new(root.join("ws"), root.join("data"), "desktop:fs-test");
    Env {
        _dir: dir,
        root,
        ctx,
        canary_mtime,
    }
}

impl Env {
    pub fn ws(&self, rel: &str) -> PathBuf {
        self.root.join("ws").join(rel)
    }

    pub fn outside(&self) -> PathBuf {
        self.root.join("outside")
    }

    /// Dispatches `tool` of `dialect` with JSON arguments.
    pub async fn call_in(
        &self,
        dialect: Dialect,
        tool: &str,
        args: &Value,
    ) -> Result<Value, ToolError> {
        registry(dialect)
            .dispatch(tool, &args.to_string(), &self.ctx)
            .await
    }

    pub async fn call(&self, tool: &str, args: &Value) -> Result<Value, ToolError> {
        self.call_in(Dialect::Hearth, tool, args).await
    }

    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        succeeded(self.call(tool, &args).await, tool, &args)
    }

    pub async fn err(&self, tool: &str, args: Value) -> ToolError {
        failed(self.call(tool, &args).await, tool, &args)
    }

    /// Asserts the outside folder holds only the untouched canary.
    pub fn assert_outside_untouched(&self) {
        self.assert_outside_untouched_but(&[]);
    }

    /// Asserts the outside folder holds only the untouched canary and the `planted` files.
    pub fn assert_outside_untouched_but(&self, planted: &[&str]) {
        let canary = self.outside().join("canary.txt");
        assert_eq!(read(&canary), CANARY.as_bytes(), "canary content changed");
        assert_eq!(mtime(&canary), self.canary_mtime, "canary modified");
        let mut expected: Vec<&str> = planted.to_vec();
        expected.push("canary.txt");
        expected.sort_unstable();
        assert_eq!(
            entries(&self.outside()),
            expected,
            "files appeared outside the workspace"
        );
    }
}

/// The built-in registry of each dialect, built once per test binary.
pub fn registry(dialect: Dialect) -> &'static Registry {
    static REGISTRIES: [OnceLock<Registry>; 4] = [const { OnceLock::new() }; 4];
    let index = Dialect::ALL.iter().position(|d| *d == dialect).unwrap_or(0);
    REGISTRIES[index].get_or_init(|| builtin_registry(dialect))
}

/// The whole result behind a spill envelope (results over the model output cap are saved to
/// `spill/` by the registry); other results unchanged.
pub fn unspill(result: Value) -> Value {
    let Some(path) = result.get("spill_path").and_then(Value::as_str) else {
        return result;
    };
    match serde_json::from_slice(&read(Path::new(path))) {
        Ok(whole) => whole,
        Err(e) => panic!("spill file {path} is not JSON: {e}"),
    }
}

/// Asserts `error` is of `kind` and its message quotes `path` as given.
pub fn assert_refused(error: &ToolError, kind: ErrorKind, path: &str) {
    assert_eq!(error.kind, kind, "{error:?}");
    assert!(
        error.message.contains(&format!("`{path}`")),
        "message does not name `{path}`: {error:?}"
    );
}

pub fn mkdir(path: &Path) {
    if let Err(e) = std::fs::create_dir_all(path) {
        panic!("mkdir {}: {e}", path.display());
    }
}

pub fn put(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        mkdir(parent);
    }
    if let Err(e) = std::fs::write(path, bytes) {
        panic!("write {}: {e}", path.display());
    }
}

pub fn read(path: &Path) -> Vec<u8> {
    match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => panic!("read {}: {e}", path.display()),
    }
}

pub fn text(path: &Path) -> String {
    String::from_utf8_lossy(&read(path)).into_owned()
}

pub fn mtime(path: &Path) -> SystemTime {
    match std::fs::metadata(path).and_then(|m| m.modified()) {
        Ok(time) => time,
        Err(e) => panic!("mtime {}: {e}", path.display()),
    }
}

/// The sorted names in a folder.
pub fn entries(path: &Path) -> Vec<String> {
    let mut names: Vec<String> = match std::fs::read_dir(path) {
        Ok(read) => read
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(e) => panic!("read_dir {}: {e}", path.display()),
    };
    names.sort();
    names
}

#[cfg(unix)]
pub fn symlink(target: impl AsRef<Path>, link: &Path) {
    if let Err(e) = std::os::unix::fs::symlink(target, link) {
        panic!("symlink {}: {e}", link.display());
    }
}
