//! The channel tools — `message`, `send_message`, `send_file` and `notify` — over a
//! [`ChannelSink`] the engine provides: each writes into the target session, waits for the
//! channel's real delivery result and reports a failure as `delivery_failed` (never "queued" as
//! "delivered"). Files come from the workspace sandbox only. [`media_delivery`] carries
//! `text_to_speech`'s `deliver` the same way.

mod error;
mod files;
mod media;
mod notify;
pub(crate) mod send;
mod send_file;
mod target;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{json, Value};

use crate::dialect::Dialect;
use crate::error::{ErrorKind, ToolError};
use crate::registry::{Registry, RegistryError};

pub use error::ChannelError;
pub use files::{MAX_FILES, MAX_FILE_BYTES};
pub use media::media_delivery;
pub use target::Target;

/// The longest a tool waits for a channel's delivery result.
pub const DELIVERY_LIMIT: Duration = Duration::from_secs(120);

/// A file to send: one read from the workspace, or a finished artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutFile {
    /// The file name (no folders).
    pub name: String,
    pub origin: FileOrigin,
    pub mime_type: String,
    pub bytes: Vec<u8>,
    /// Send as a picture (shown inline) rather than a document.
    pub as_image: bool,
}

/// Where a file sent to a chat comes from: what the chat's record keeps of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOrigin {
    /// A file of the workspace, by its path relative to it.
    Workspace(String),
    /// The artifact with this id (the desktop shows it as an artifact card).
    Artifact(String),
}

/// A message for a channel's chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outbound {
    pub target: Target,
    pub text: String,
    pub files: Vec<OutFile>,
    /// The session (or job) the message comes from.
    pub origin: String,
    /// The model that wrote the text, recorded on the stored message.
    pub model: Option<String>,
}

/// What a channel confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivered {
    /// The Hearth session the message was written into.
    pub session_id: String,
    /// The channel's kind (`desktop`, `webhook`, `telegram`).
    pub kind: String,
    /// The ids the channel gave the delivered messages.
    pub message_ids: Vec<String>,
}

/// Delivers messages to channels (the engine's channel layer).
#[async_trait]
pub trait ChannelSink: Send + Sync + 'static {
    /// Whether `channel` takes files; `None` when no such channel is configured (`desktop`
    /// always is).
    fn supports_files(&self, channel: &str) -> Option<bool>;

    /// The configured channel names, `desktop` first.
    fn names(&self) -> Vec<String>;

    /// Writes `outbound` into its target session, then sends it and waits for the channel's
    /// answer; the error says what failed and whether trying again can help.
    async fn deliver(&self, outbound: Outbound) -> Result<Delivered, ChannelError>;
}

/// Registers `message`, `notify`, `send_file` (Hearth, Echo) and `send_message` (Hearth,
/// PicoBot) over `sink`.
pub fn register_channels(
    registry: &mut Registry,
    sink: Arc<dyn ChannelSink>,
) -> Result<(), RegistryError> {
    use Dialect::{Echo, Hearth, Picobot};
    let sender = Sender { sink };
    registry.register_for(&[Hearth, Echo], send::Message(sender.clone()))?;
    registry.register_for(&[Hearth, Picobot], send::SendMessage(sender.clone()))?;
    registry.register_for(&[Hearth, Echo], send_file::SendFile(sender.clone()))?;
    registry.register_for(&[Hearth, Echo], notify::Notify(sender))?;
    Ok(())
}

/// What every channel tool shares: the sink, and delivery within [`DELIVERY_LIMIT`].
#[derive(Clone)]
pub(crate) struct Sender {
    sink: Arc<dyn ChannelSink>,
}

impl Sender {
    pub(crate) fn new(sink: Arc<dyn ChannelSink>) -> Sender {
        Sender { sink }
    }

    /// Refuses a channel that is not configured, naming those that are.
    pub(crate) fn known(&self, field: &str, channel: &str) -> Result<bool, ToolError> {
        self.sink.supports_files(channel).ok_or_else(|| {
            ToolError::invalid(
                field,
                format!(
                    "no channel `{channel}` is configured (configured: {}); add one in \
                     Settings → Channels or with `hearth-cli channels add`",
                    self.sink.names().join(", ")
                ),
            )
        })
    }

    /// Delivers and waits at most [`DELIVERY_LIMIT`]; the result states what the channel
    /// confirmed.
    pub(crate) async fn deliver(&self, outbound: Outbound) -> Result<Value, ToolError> {
        let target = outbound.target.to_string();
        let files = outbound.files.len();
        let delivery = tokio::time::timeout(DELIVERY_LIMIT, self.sink.deliver(outbound)).await;
        match delivery {
            Ok(Ok(delivered)) => Ok(json!({
                "status": "delivered",
                "target": target,
                "channel_kind": delivered.kind,
                "session_id": delivered.session_id,
                "message_ids": delivered.message_ids,
                "files": files,
            })),
            Ok(Err(error)) => Err(ToolError::new(
                ErrorKind::DeliveryFailed,
                format!("not delivered to {target}: {error} ({})", next_step(&error)),
            )),
            Err(_) => Err(ToolError::new(
                ErrorKind::DeliveryFailed,
                format!(
                    "not delivered to {target}: the channel gave no delivery result within {} s \
                     (the message is written in the session but may not have arrived)",
                    DELIVERY_LIMIT.as_secs()
                ),
            )),
        }
    }
}

/// What the model can do about a failed delivery, from the error's kind.
fn next_step(error: &ChannelError) -> String {
    match (error.retryable(), error.retry_after()) {
        (true, Some(wait)) => format!("it can be sent again after {} s", wait.as_secs()),
        (true, None) => "sending it again later may work".to_string(),
        (false, _) => "sending it again will fail the same way until this is fixed".to_string(),
    }
}
