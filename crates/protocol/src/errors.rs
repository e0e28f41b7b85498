//! Errors that cross to the UI as data: a stable `code` with its `params`, which the UI
//! translates (`ui/src/lib/i18n`); the English `Display` text is for logs and the CLI.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What went wrong in a desktop command or a turn. Serialized as
/// `{"code": "busy", "params": {"session_id": "…"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, thiserror::Error)]
#[ts(export)]
#[serde(tag = "code", content = "params", rename_all = "snake_case")]
pub enum AppError {
    #[error("no model provider is configured yet: open Settings and add one (OpenAI-compatible, Anthropic, Ollama or Gemini)")]
    NoProvider,
    #[error("choose a default model for '{provider}' in Settings")]
    NoModel { provider: String },
    #[error("the message is empty")]
    EmptyMessage,
    #[error("unknown session '{session_id}'")]
    UnknownSession { session_id: String },
    #[error("a turn is already running in this chat; wait for it or stop it")]
    Busy { session_id: String },
    #[error("another Hearth process (the app or hearth-cli) is running a turn in this chat; wait for it to finish")]
    BusyElsewhere { session_id: String },
    #[error("this approval is no longer waiting (it timed out or the turn ended)")]
    ApprovalGone,
    #[error("this question is no longer waiting (it timed out or the turn ended)")]
    QuestionGone,
    #[error("'{field}' is required")]
    FormFieldMissing { field: String },
    #[error("the value of '{field}' does not fit the form (its type, format or limits)")]
    FormFieldInvalid { field: String },
    #[error("nothing to regenerate: the chat has no message yet")]
    NothingToRegenerate,
    #[error("provider ids must be unique and not empty ('{id}')")]
    ProviderIdTaken { id: String },
    #[error("provider id '{id}' is the name of a web search key; choose another")]
    ProviderIdReserved { id: String },
    #[error("{field}: '{url}' must start with http:// or https://")]
    NotHttpUrl { field: String, url: String },
    #[error("allowed local host '{entry}': {reason}")]
    BadLocalHost { entry: String, reason: String },
    #[error("the key is empty")]
    EmptyKey,
    #[error("{path} is not a folder")]
    NotAFolder { path: String },
    #[error("no artifact '{id}' (it was deleted, or belongs to another data folder)")]
    ArtifactNotFound { id: String },
    #[error("cannot read artifact '{id}': {reason}")]
    ArtifactUnreadable { id: String, reason: String },
    #[error("cannot save the artifact to {path}: {reason}")]
    ArtifactNotSaved { path: String, reason: String },
    #[error("the knowledge base failed: {reason}")]
    KnowledgeFailed { reason: String },
    #[error("{path} is not in the knowledge base")]
    NotInKnowledge { path: String },
    #[error("cannot open {path}: {reason}")]
    CannotOpen { path: String, reason: String },
    #[error("memory {id} does not exist (deleted elsewhere?)")]
    MemoryGone { id: i64 },
    #[error("contradiction {id} is already resolved")]
    ContradictionResolved { id: i64 },
    #[error("memory {memory_id} is not a side of contradiction {contradiction_id}")]
    NotAParty {
        memory_id: i64,
        contradiction_id: i64,
    },
    #[error("only pasted images are supported, not {mime_type}")]
    NotAnImage { mime_type: String },
    #[error("the pasted data is not valid base64")]
    BadBase64,
    #[error("the image is larger than {megabytes} MB")]
    ImageTooLarge { megabytes: u64 },
    #[error("settings: {message}")]
    Settings { message: String },
    #[error("the OS keychain is not reachable ({message}); on Linux start and unlock a Secret Service provider (gnome-keyring or KeePassXC), or set the key in an environment variable")]
    KeychainUnavailable { message: String },
    #[error("the OS keychain refused the operation: {message}")]
    KeychainFailed { message: String },
    #[error("authentication failed ({status}): check this provider's API key: {detail}")]
    ModelAuth { status: u16, detail: String },
    #[error("this server wants an API key ({status}): add one to provider '{provider_id}' in Settings → Providers, or set HEARTH_API_KEY or {env_var}: {detail}")]
    KeyRequired {
        status: u16,
        provider_id: String,
        env_var: String,
        detail: String,
    },
    #[error("rate limited by the provider: wait and retry: {detail}")]
    ModelRateLimited { detail: String },
    #[error("the conversation is too long for this model's context window: start a new chat or pick a model with a larger context")]
    ContextTooLong { detail: String },
    #[error(
        "the provider rejected the request ({status}): check the model name and settings: {detail}"
    )]
    ModelRejected { status: u16, detail: String },
    #[error("the provider had a server error ({status}); try again later: {detail}")]
    ModelServer { status: u16, detail: String },
    #[error(
        "could not reach the provider at {url}: {detail}; check the base URL and your network"
    )]
    ModelUnreachable { url: String, detail: String },
    #[error("the provider sent a response Hearth could not understand: {detail}")]
    ModelProtocol { detail: String },
    #[error("the server closed the connection right after a long request (about {tokens} tokens): the message is probably too long for this model's context ({window} tokens); shorten it, start a new chat, or set the model's context window in Settings")]
    ProbablyTooLong { tokens: u64, window: u64 },
    #[error("the message is too long for this model: about {tokens} tokens with the system prompt and tools, and the model's context window is {window} tokens; shorten it, attach less, or pick a model with a larger context")]
    MessageTooLong { tokens: u64, window: u64 },
    #[error("no local model named '{name}' in {folder}: import a .gguf file in Settings → Models, or run `hearth-cli models list`")]
    LocalModelMissing { name: String, folder: String },
    #[error("{file} cannot be used as a local model: {detail}")]
    LocalModelUnusable { file: String, detail: String },
    #[error(
        "a model named {name} is already in {folder}: remove it first, or choose another file"
    )]
    LocalModelExists { name: String, folder: String },
    #[error("cannot download {url}: {detail}")]
    DownloadFailed { url: String, detail: String },
    #[error("the download from {url} was refused: {detail}")]
    DownloadRefused { url: String, detail: String },
    #[error("the download from {url} sent nothing for {seconds} s, so it was stopped and the partial file deleted; try again later")]
    DownloadStalled { url: String, seconds: u64 },
    #[error("the downloaded file is not the expected one (its SHA-256 is {actual}, expected {expected}), so it was deleted")]
    DownloadChecksum { expected: String, actual: String },
    #[error("not enough free disk space in {folder}: the download needs {needed_mb} MB and {available_mb} MB are free")]
    DiskTooSmall {
        folder: String,
        needed_mb: u64,
        available_mb: u64,
    },
    #[error("the download was cancelled and its partial file deleted")]
    DownloadCancelled,
    #[error("{file} is already being downloaded: pause or cancel that download first")]
    DownloadRunning { file: String },
    #[error("the local model's worker stopped ({detail}); the reply was kept as failed and the next message starts it again")]
    LocalWorkerCrashed { detail: String },
    #[error("the provider sent nothing for {seconds} s, so the reply was stopped and kept as failed; try again")]
    Stalled { seconds: u64 },
    #[error("the run stopped after {iterations} tool iterations without an answer")]
    RunStoppedAtIterations { iterations: u32 },
    #[error("the run was cancelled")]
    RunCancelled,
    #[error("the run ended without an answer")]
    RunWithoutAnswer,
    #[error("the run crashed: {message}")]
    RunCrashed { message: String },
    #[error("Hearth's database failed: {message}")]
    Store { message: String },
    #[error("updates are off: set endpoint and pubkey under [updates] in config.toml")]
    UpdatesOff,
    #[error("no update is waiting to be installed: check for updates first")]
    NoPendingUpdate,
    #[error("the update failed: {message}")]
    UpdateFailed { message: String },
    #[error("interrupted: the scheduler stopped before the run ended")]
    RunInterrupted,
    #[error("a file operation failed: {message}")]
    FileSystem { message: String },
    #[error("the skill cannot be used: {message}")]
    Skill { message: String },
    #[error("MCP servers: {message}")]
    McpServers { message: String },
    #[error("no MCP server is named '{name}'")]
    UnknownMcpServer { name: String },
    #[error("channel '{name}': {reason}")]
    BadChannel { name: String, reason: String },
    #[error("not delivered to {target}: {reason}")]
    DeliveryFailed { target: String, reason: String },
    #[error("{what} not found: {id}")]
    NotFound { what: String, id: String },
    #[error("invalid {field}: {message}")]
    InvalidValue { field: String, message: String },
    #[error("the schedule cannot be read: {message}")]
    BadSchedule { message: String },
    #[error("the job was not saved: {message}")]
    JobRejected { message: String },
    #[error("the browser failed: {message}")]
    BrowserFailed { message: String },
    #[error("the terminal failed: {message}")]
    TerminalFailed { message: String },
    #[error("Hearth failed inside ({message}); try again, and report it if it keeps happening")]
    Internal { message: String },
    /// No longer made: kept so errors stored by older versions still read (shown as they are).
    #[error("{message}")]
    Other { message: String },
}

impl AppError {
    /// A background task of Hearth's that ended badly (it panicked or was cancelled).
    pub fn internal(error: impl std::fmt::Display) -> AppError {
        AppError::Internal {
            message: error.to_string(),
        }
    }
}
