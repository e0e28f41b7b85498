//! Where Hearth keeps its files: the data dir (`HEARTH_HOME` or the platform app-data dir) and
//! the folders inside it.

use std::path::{Path, PathBuf};

/// Same identifier as the desktop app's bundle id, so the app and `hearth-cli` share one data dir.
pub const APP_IDENTIFIER: &str = "dev.hearth.desktop";

/// The platform has no data folder (no home directory) and `HEARTH_HOME` is not set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cannot find the platform data folder; set HEARTH_HOME to a folder Hearth may use")]
pub struct NoDataDir;

/// The per-user data dir and its well-known children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    root: PathBuf,
}

impl DataDir {
    /// `HEARTH_HOME` when set, else the platform app-data dir.
    pub fn resolve() -> Result<DataDir, NoDataDir> {
        if let Some(home) = std::env::var_os("HEARTH_HOME").filter(|v| !v.is_empty()) {
            return Ok(DataDir::at(PathBuf::from(home)));
        }
        let base = dirs::data_dir().ok_or(NoDataDir)?;
        Ok(DataDir::at(base.join(APP_IDENTIFIER)))
    }

    pub fn at(root: PathBuf) -> DataDir {
        DataDir { root }
    }

    /// Creates the data dir and its standard sub-folders.
    pub fn ensure(&self) -> std::io::Result<()> {
        for dir in [
            self.root.clone(),
            self.workspace(),
            self.skills(),
            self.artifacts(),
            self.spill(),
            self.logs(),
        ] {
            std::fs::create_dir_all(dir)?;
        }
        Ok(())
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn database(&self) -> PathBuf {
        self.root.join("hearth.db")
    }
    pub fn config(&self) -> PathBuf {
        self.root.join("config.toml")
    }
    pub fn workspace(&self) -> PathBuf {
        self.root.join("workspace")
    }
    pub fn skills(&self) -> PathBuf {
        self.root.join("skills")
    }
    pub fn artifacts(&self) -> PathBuf {
        self.root.join("artifacts")
    }
    pub fn spill(&self) -> PathBuf {
        self.root.join("spill")
    }
    pub fn logs(&self) -> PathBuf {
        self.root.join("logs")
    }
    /// GGUF models the `local` provider runs.
    pub fn models(&self) -> PathBuf {
        self.root.join("models")
    }
    /// What running Hearth processes keep about themselves (the ledgers of their children).
    pub fn run(&self) -> PathBuf {
        self.root.join("run")
    }
}
