//! The sandbox policy as a value: the user's choice ([`Settings`]) and, per program,
//! the folders it may write, the paths it may not read and whether it reaches the network.

use std::path::{Path, PathBuf};

/// Secrets in the home folder that no sandboxed program may read: keys, cloud credentials,
/// the desktop keyring's files and browser profiles (cookies, saved passwords).
pub const PROTECTED_IN_HOME: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".kube",
    ".netrc",
    ".git-credentials",
    ".password-store",
    ".config/gcloud",
    ".config/gh",
    ".local/share/keyrings",
    ".config/chromium",
    ".config/google-chrome",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    ".mozilla",
    ".thunderbird",
];

/// How much of the computer a sandboxed program may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Writes only in the folders the policy names (the workspace, a temp folder).
    #[default]
    WorkspaceWrite,
    /// No writes at all (besides `/dev/null` and the terminal).
    ReadOnly,
    /// No sandbox: the user chose to run programs with all of their rights.
    Off,
}

/// What the user chose for the programs the agent starts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Settings {
    pub mode: Mode,
    /// Whether commands reach the network (off by default).
    pub network: bool,
    /// Folders commands may write besides the workspace.
    pub writable: Vec<PathBuf>,
    /// Paths commands may not read, besides [`PROTECTED_IN_HOME`] and Hearth's data folder.
    pub denied: Vec<PathBuf>,
}

/// What one program may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    pub(crate) mode: Mode,
    pub(crate) writable: Vec<PathBuf>,
    pub(crate) denied: Vec<PathBuf>,
    pub(crate) network: bool,
}

impl Sandbox {
    /// The sandbox `settings` describe: nothing under `home`'s [`PROTECTED_IN_HOME`] nor in
    /// Hearth's `data_dir` readable, the settings' extra folders writable; add the program's
    /// own folders with [`Sandbox::writable`].
    pub fn new(settings: &Settings, home: Option<&Path>, data_dir: Option<&Path>) -> Self {
        let mut denied: Vec<PathBuf> = home
            .map(|home| PROTECTED_IN_HOME.iter().map(|p| home.join(p)).collect())
            .unwrap_or_default();
        denied.extend(data_dir.map(Path::to_path_buf));
        denied.extend(settings.denied.iter().cloned());
        Sandbox {
            mode: settings.mode,
            writable: settings.writable.clone(),
            denied,
            network: settings.network,
        }
    }

    /// Lets the program write (and read) inside `folder`, even inside a denied path: a skill's
    /// folder in the data folder, for one.
    pub fn writable(mut self, folder: impl Into<PathBuf>) -> Self {
        self.writable.push(folder.into());
        self
    }

    /// Turns the network on or off for this program.
    pub fn network(mut self, on: bool) -> Self {
        self.network = on;
        self
    }
}
