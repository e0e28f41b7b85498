//! The models folder: its GGUF files described from their metadata (read in a worker, cached
//! by size and modification time), imported by copy or link, removed; and the recommended
//! downloads with what fits this machine.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use hearth_protocol::{AppError, LocalModel, LocalModelsView};

use crate::client::process::inspect;
use crate::gguf::check_header;
use crate::wire::Facts;

/// The model `scripts/setup.sh` installs for trying Hearth out offline.
pub const BUILTIN_MODEL: &str = "SmolLM2-135M-Instruct.Q4_1";

/// The context a model runs with when nothing asks for less (as the worker chooses it).
pub(crate) const RUN_CONTEXT: u64 = 8192;

/// What a model's facts were read from: a changed file is read again.
type Stamp = (u64, Option<SystemTime>);

/// A file's facts (or why it has none) and the version of the file they were read from.
type Known = (Stamp, Result<Facts, String>);

/// The models folder of one data dir.
pub struct Catalog {
    folder: PathBuf,
    program: PathBuf,
    facts: Mutex<HashMap<PathBuf, Known>>,
}

impl Catalog {
    pub(crate) fn new(folder: PathBuf, program: PathBuf) -> Catalog {
        Catalog {
            folder,
            program,
            facts: Mutex::new(HashMap::new()),
        }
    }

    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The file of the model named `name` (its file name, with or without `.gguf`).
    pub fn path_of(&self, name: &str) -> Result<PathBuf, AppError> {
        let file = if name.ends_with(".gguf") {
            name.to_string()
        } else {
            format!("{name}.gguf")
        };
        let path = self.folder.join(&file);
        let plain = Path::new(&file)
            .file_name()
            .is_some_and(|f| f == file.as_str());
        if plain && path.is_file() {
            Ok(path)
        } else {
            Err(AppError::LocalModelMissing {
                name: name.to_string(),
                folder: self.folder.display().to_string(),
            })
        }
    }

    /// Every `.gguf` of the folder, sorted by name; files that cannot be used say why.
    pub async fn list(&self) -> Vec<LocalModel> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&self.folder)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "gguf") && path.is_file())
            .collect();
        paths.sort();
        let mut models = Vec::with_capacity(paths.len());
        for path in paths {
            models.push(self.describe_file(&path).await);
        }
        models
    }

    /// The model named `name`.
    pub async fn describe(&self, name: &str) -> Result<LocalModel, AppError> {
        let path = self.path_of(name)?;
        Ok(self.describe_file(&path).await)
    }

    /// The whole of Settings → Models.
    pub async fn view(&self) -> LocalModelsView {
        let memory = total_memory_bytes();
        LocalModelsView {
            folder: self.folder.display().to_string(),
            models: self.list().await,
            recommended: crate::catalog_recommended::recommended(memory),
            memory_bytes: memory,
        }
    }

    /// Puts `source` into the folder (a copy, or a symbolic link to it with `link`), after
    /// checking it is a GGUF llama.cpp can read. Refuses a name already there.
    pub async fn import(&self, source: &Path, link: bool) -> Result<LocalModel, AppError> {
        let unusable = |detail: String| AppError::LocalModelUnusable {
            file: source.display().to_string(),
            detail,
        };
        check_header(source).map_err(unusable)?;
        let facts = inspect(&self.program, source).await.map_err(unusable)?;
        let Some(file_name) = source.file_name() else {
            return Err(unusable("it has no file name".into()));
        };
        let mut file_name = file_name.to_string_lossy().into_owned();
        if !file_name.ends_with(".gguf") {
            file_name.push_str(".gguf");
        }
        let target = self.folder.join(&file_name);
        if target.exists() {
            return Err(AppError::LocalModelExists {
                name: file_name,
                folder: self.folder.display().to_string(),
            });
        }
        std::fs::create_dir_all(&self.folder).map_err(|e| unusable(e.to_string()))?;
        let source = std::fs::canonicalize(source).map_err(|e| unusable(e.to_string()))?;
        place(&source, &target, link).map_err(|e| unusable(e.to_string()))?;
        self.remember(&target, Ok(facts));
        Ok(self.describe_file(&target).await)
    }

    /// Deletes the model named `name` (a link, not what it points to).
    pub fn remove(&self, name: &str) -> Result<(), AppError> {
        let path = self.path_of(name)?;
        std::fs::remove_file(&path).map_err(|e| AppError::LocalModelUnusable {
            file: path.display().to_string(),
            detail: e.to_string(),
        })
    }

    /// The facts of `path`, read once per version of the file.
    pub(crate) async fn facts(&self, path: &Path) -> Result<Facts, String> {
        let stamp = stamp(path);
        if let Some((seen, facts)) = self.cached(path) {
            if seen == stamp {
                return facts;
            }
        }
        let facts = match check_header(path) {
            Ok(()) => inspect(&self.program, path).await,
            Err(reason) => Err(reason),
        };
        self.remember(path, facts.clone());
        facts
    }

    fn cached(&self, path: &Path) -> Option<Known> {
        self.facts.lock().ok()?.get(path).cloned()
    }

    fn remember(&self, path: &Path, facts: Result<Facts, String>) {
        if let Ok(mut cache) = self.facts.lock() {
            cache.insert(path.to_path_buf(), (stamp(path), facts));
        }
    }

    async fn describe_file(&self, path: &Path) -> LocalModel {
        let file_name = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = file_name.trim_end_matches(".gguf").to_string();
        let facts = self.facts(path).await;
        let (facts, problem) = match facts {
            Ok(facts) => (facts, None),
            Err(problem) => (Facts::default(), Some(problem)),
        };
        LocalModel {
            builtin: name == BUILTIN_MODEL,
            size_bytes: std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
            architecture: facts.architecture,
            quantization: facts.quantization,
            run_context: facts.context_length.map(|n| n.min(RUN_CONTEXT)),
            context_length: facts.context_length,
            parameters: facts.size_label,
            name,
            file_name,
            problem,
        }
    }
}

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok();
    (
        meta.as_ref().map_or(0, |m| m.len()),
        meta.and_then(|m| m.modified().ok()),
    )
}

/// Copies through a temporary name (a half-copied model never shows), or links.
fn place(source: &Path, target: &Path, link: bool) -> std::io::Result<()> {
    if link {
        #[cfg(unix)]
        return std::os::unix::fs::symlink(source, target);
        #[cfg(windows)]
        return std::os::windows::fs::symlink_file(source, target);
    }
    let partial = target.with_extension("gguf.part");
    let copied = std::fs::copy(source, &partial).and_then(|_| std::fs::rename(&partial, target));
    if copied.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    copied
}

pub(crate) fn total_memory_bytes() -> u64 {
    let mut system = sysinfo::System::new();
    system.refresh_memory();
    system.total_memory()
}
