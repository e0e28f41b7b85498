//! The engine's error type: every variant's message says what happened and what to do.

use hearth_llm::LlmError;
use hearth_store::StoreError;

use crate::secrets::SecretError;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    Config(String),
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
    #[error("the provider sent nothing for {} s, so the reply was stopped and kept as failed; try again, or check the provider's status", .0.as_secs())]
    Stalled(std::time::Duration),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
