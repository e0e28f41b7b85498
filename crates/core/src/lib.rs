//! The seams Hearth is extended through: what a channel, a run-time tool source, a secret store
//! and a notifier must do, and where Hearth keeps its files. The engine is written against these;
//! plug-in crates (`hearth-channels`, `hearth-mcp`) implement them without depending on it.

mod channel;
mod data_dir;
mod secrets;
mod tool_source;

pub use channel::{Batch, Channel, ChannelFactory, Inbound, Receipt};
pub use data_dir::{DataDir, NoDataDir, APP_IDENTIFIER};
pub use secrets::{KeyringStore, SecretError, SecretStore, KEYCHAIN_SERVICE};
pub use tool_source::{SourceTools, ToolSource};
// Declared where the tools that deliver and notify use them; plug-ins find them here.
pub use hearth_tools::{ChannelError, Notice, Notifier, NotifyError, OnClick};
