//! The seams Hearth is extended through: what a channel, a run-time tool source, a secret store
//! and a notifier must do, and where Hearth keeps its files. The engine is written against these;
//! plug-in crates (`hearth-channels`, `hearth-mcp`) implement them without depending on it.

mod channel;
mod channel_error;
mod data_dir;
mod notify;
mod secrets;
mod tool_source;

pub use channel::{Batch, Channel, ChannelFactory, Inbound, Receipt};
pub use channel_error::ChannelError;
pub use data_dir::{DataDir, NoDataDir, APP_IDENTIFIER};
pub use notify::{Notice, Notifier, NotifyError, OnClick};
pub use secrets::{KeyringStore, SecretError, SecretStore, KEYCHAIN_SERVICE};
pub use tool_source::{SourceTools, ToolSource};
