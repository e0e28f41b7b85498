//! Channels: every place a message can be delivered implements [`Channel`] (send text and
//! files, report the real delivery result, say whether it takes files, optionally receive
//! through [`Inbound`]); a [`ChannelFactory`] builds them from their settings.

use std::sync::Arc;

use async_trait::async_trait;
use hearth_protocol::ChannelSettings;
use hearth_store::Received;
use hearth_tools::channels::Outbound;

use crate::ChannelError;

/// What a channel confirmed for one message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Receipt {
    /// The ids the channel gave what it delivered (one per part sent).
    pub message_ids: Vec<String>,
}

/// A place messages are delivered to.
#[async_trait]
pub trait Channel: Send + Sync {
    /// The configured name (`desktop`, `telegram`, a webhook's name).
    fn name(&self) -> &str;

    /// `desktop`, `webhook` or `telegram`.
    fn kind(&self) -> &'static str;

    /// Whether files and pictures can be sent.
    fn supports_files(&self) -> bool;

    /// Sends `message` and waits for the channel's answer: `Ok` only once the channel
    /// confirmed delivery; the error says why (status, first bytes of the answer…) and
    /// whether sending again can help.
    async fn send(&self, message: &Outbound) -> Result<Receipt, ChannelError>;

    /// The channel's inbound side, if it receives messages.
    fn inbound(&self) -> Option<&dyn Inbound> {
        None
    }
}

/// Updates an inbound channel received.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    /// The messages (text) among them.
    pub messages: Vec<Received>,
    /// The offset to ask from next (past every update seen, text or not).
    pub next_offset: i64,
}

/// The receiving side of a channel.
#[async_trait]
pub trait Inbound: Send + Sync {
    /// Waits (long polling) for the updates from `offset` on; an empty batch when none came
    /// in time. The gateway stores them before asking again, so none is lost; it asks again
    /// after a [`ChannelError::retryable`] error and stops polling after a permanent one.
    async fn receive(&self, offset: i64) -> Result<Batch, ChannelError>;
}

/// Builds channels from their settings.
pub trait ChannelFactory: Send + Sync {
    /// The channel `settings` describes, reaching local hosts only where `allow_local` says,
    /// with its token (from `token_env` or the keychain) if it has one.
    fn open(
        &self,
        settings: &ChannelSettings,
        allow_local: &[String],
        token: Option<String>,
    ) -> Result<Arc<dyn Channel>, ChannelError>;
}
