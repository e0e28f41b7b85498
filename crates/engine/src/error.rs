//! The engine's error type: every variant's message says what happened and what to do.

use hearth_llm::LlmError;
use hearth_protocol::AppError;
use hearth_store::{DbError, StoreError};

use hearth_core::SecretError;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    Config(String),
    #[error("no model provider is configured: add one in the app's Settings or config.toml, or pass --provider openai|anthropic|ollama|gemini (with --base-url and --model) to hearth-cli")]
    NoProvider,
    #[error("no model chosen for provider '{0}': set a default model in Settings")]
    NoModel(String),
    #[error("nothing to regenerate: the chat has no message yet")]
    NothingToRegenerate,
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Model(#[from] LlmError),
    #[error("unknown session '{0}': list sessions with `hearth-cli sessions list`")]
    UnknownSession(String),
    #[error("a turn is already running in session '{0}'; wait for it or cancel it")]
    Busy(String),
    #[error("another Hearth process (the app or hearth-cli) is running a turn in session '{0}'; wait for it to finish")]
    BusyElsewhere(String),
    #[error("the provider sent nothing for {} s, so the reply was stopped and kept as failed; try again, or check the provider's status", .0.as_secs())]
    Stalled(std::time::Duration),
    #[error("the server closed the connection right after a long request (about {tokens} tokens): the message is probably too long for this model's context ({window} tokens); shorten it, start a new chat, or set the model's context window in Settings")]
    ProbablyTooLong { tokens: u64, window: u64 },
    #[error("the message is too long for this model: about {tokens} tokens with the system prompt and tools, and the model's context window is {window} tokens; shorten it, attach less, or pick a model with a larger context")]
    MessageTooLong { tokens: u64, window: u64 },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<DbError> for EngineError {
    /// Store work that panicked or was cancelled is the store failing.
    fn from(error: DbError) -> EngineError {
        EngineError::Store(StoreError::Db(error))
    }
}

impl From<&EngineError> for AppError {
    fn from(error: &EngineError) -> AppError {
        match error {
            EngineError::NoProvider => AppError::NoProvider,
            EngineError::NoModel(provider) => AppError::NoModel {
                provider: provider.clone(),
            },
            EngineError::NothingToRegenerate => AppError::NothingToRegenerate,
            EngineError::UnknownSession(id) => AppError::UnknownSession {
                session_id: id.clone(),
            },
            EngineError::Busy(id) => AppError::Busy {
                session_id: id.clone(),
            },
            EngineError::BusyElsewhere(id) => AppError::BusyElsewhere {
                session_id: id.clone(),
            },
            EngineError::Stalled(idle) => AppError::Stalled {
                seconds: idle.as_secs(),
            },
            EngineError::Secret(SecretError::Unavailable(message)) => {
                AppError::KeychainUnavailable {
                    message: message.clone(),
                }
            }
            EngineError::Secret(SecretError::Failed(message)) => AppError::KeychainFailed {
                message: message.clone(),
            },
            EngineError::Store(error) => AppError::Store {
                message: error.to_string(),
            },
            EngineError::Model(error) => AppError::from(error),
            EngineError::Config(message) => AppError::Settings {
                message: message.clone(),
            },
            EngineError::ProbablyTooLong { tokens, window } => AppError::ProbablyTooLong {
                tokens: *tokens,
                window: *window,
            },
            EngineError::MessageTooLong { tokens, window } => AppError::MessageTooLong {
                tokens: *tokens,
                window: *window,
            },
            EngineError::Io(error) => AppError::FileSystem {
                message: error.to_string(),
            },
        }
    }
}

impl From<EngineError> for AppError {
    fn from(error: EngineError) -> AppError {
        AppError::from(&error)
    }
}
