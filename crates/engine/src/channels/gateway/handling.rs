//! Handling stored updates one by one: a chat on the allow list gets the agent's answer, any
//! other chat one refusal; how far each update got is recorded in the inbox.

use std::sync::Arc;

use hearth_core::Channel;
use hearth_protocol::Text;
use hearth_store::{InboxEntry, InboxStatus, StoreError};
use hearth_tools::channels::{Outbound, Target};
use tokio_util::sync::CancellationToken;

use super::Gateway;

/// What became of one handled update.
enum Handled {
    Done(InboxStatus, Option<String>),
    /// Stopped before the end (left to be handled again).
    Stopped,
}

impl Gateway {
    /// Handles every stored update not handled yet; `false` once stopped.
    pub(super) async fn handle_pending(
        &self,
        channel: &Arc<dyn Channel>,
        cancel: &CancellationToken,
    ) -> bool {
        let channel_name = channel.name().to_string();
        let pending = self
            .builder
            .db()
            .write(move |store| store.pending_channel_updates(&channel_name))
            .await;
        let pending = match pending {
            Ok(pending) => pending,
            Err(error) => {
                tracing::warn!(%error, "the inbox could not be read");
                return !cancel.is_cancelled();
            }
        };
        for entry in pending {
            if cancel.is_cancelled() {
                return false;
            }
            let (status, note) = match self.handle(channel, &entry, cancel).await {
                Handled::Done(status, note) => (status, note),
                Handled::Stopped => return false,
            };
            let seq = entry.received.seq;
            if let Err(error) = self.set_status(channel.name(), seq, status, note).await {
                tracing::warn!(%error, seq, "cannot record how an inbound update ended");
            }
        }
        !cancel.is_cancelled()
    }

    async fn handle(
        &self,
        channel: &Arc<dyn Channel>,
        entry: &InboxEntry,
        cancel: &CancellationToken,
    ) -> Handled {
        let name = channel.name();
        let received = &entry.received;
        let settings = match (self.settings)() {
            Ok(settings) => settings,
            Err(error) => return Handled::Done(InboxStatus::Received, Some(error.to_string())),
        };
        let language = settings.language;
        let allowed = settings
            .channels
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.allowed(&received.chat_id))
            .map(|chat| chat.profile);
        let target = Target {
            channel: name.to_string(),
            chat_id: received.chat_id.clone(),
            dialog_id: None,
        };
        let Some(profile) = allowed else {
            return self.refuse(channel, entry, target, language).await;
        };
        if received.text.trim().is_empty() {
            return Handled::Done(
                InboxStatus::Answered,
                Some("no text: only text messages are read".into()),
            );
        }
        if let Err(error) = self
            .set_status(name, received.seq, InboxStatus::Running, None)
            .await
        {
            tracing::warn!(%error, "cannot mark an inbound update running");
        }
        let answered = self
            .turn(&settings, &target, &received.text, profile, cancel)
            .await;
        if let Some(listener) = &self.listener {
            listener(&target.to_string());
        }
        let reply = match answered {
            Ok(Some(answer)) => answer,
            Ok(None) => return Handled::Stopped,
            Err(error) => Text::ChannelTurnFailed { error: &error }.in_language(language),
        };
        if let Err(error) = self
            .set_status(name, received.seq, InboxStatus::Replying, None)
            .await
        {
            tracing::warn!(%error, "cannot mark an inbound reply");
        }
        let sent = channel.send(&outbound(target, reply)).await;
        Handled::Done(
            InboxStatus::Answered,
            sent.err().map(|why| format!("reply not delivered: {why}")),
        )
    }

    /// Records how far the handling of inbound update `seq` of `channel` got.
    async fn set_status(
        &self,
        channel: &str,
        seq: i64,
        status: InboxStatus,
        note: Option<String>,
    ) -> Result<(), StoreError> {
        let channel = channel.to_string();
        self.builder
            .db()
            .write(move |store| {
                store.set_channel_update_status(&channel, seq, status, note.as_deref())
            })
            .await
    }

    /// One refusal per chat that is not on the allow list; every refused update is logged.
    async fn refuse(
        &self,
        channel: &Arc<dyn Channel>,
        entry: &InboxEntry,
        target: Target,
        language: hearth_protocol::Language,
    ) -> Handled {
        let received = &entry.received;
        tracing::warn!(
            channel = %channel.name(),
            chat_id = %received.chat_id,
            sender = ?received.sender,
            "message from a chat not on the allow list refused"
        );
        let (channel_name, chat_id, seq) = (
            channel.name().to_string(),
            received.chat_id.clone(),
            received.seq,
        );
        let told = self
            .builder
            .db()
            .read(move |store| store.channel_chat_refused_before(&channel_name, &chat_id, seq))
            .await
            .unwrap_or(false);
        if told {
            return Handled::Done(InboxStatus::Refused, Some("not on the allow list".into()));
        }
        let text = Text::ChannelChatRefused {
            chat_id: &received.chat_id,
        }
        .in_language(language);
        let note = match channel.send(&outbound(target, text)).await {
            Ok(_) => "not on the allow list; refusal sent".to_string(),
            Err(why) => format!("not on the allow list; the refusal was not delivered: {why}"),
        };
        Handled::Done(InboxStatus::Refused, Some(note))
    }
}

/// A plain reply to `target`.
fn outbound(target: Target, text: String) -> Outbound {
    Outbound {
        origin: target.to_string(),
        target,
        text,
        files: Vec::new(),
        model: None,
    }
}
