//! A channel's polling loop: each batch is stored (with the new offset) before it is handled;
//! failures that can pass back off, a permanent one stops the channel.

use std::sync::Arc;
use std::time::Duration;

use hearth_core::{Channel, ChannelError};
use tokio_util::sync::CancellationToken;

use super::{Gateway, Stopped};

/// The first wait after a failed poll; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// The longest wait a rate-limited channel's `retry_after` is followed for.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(15 * 60);

impl Gateway {
    pub(super) async fn poll(
        self: Arc<Self>,
        channel: Arc<dyn Channel>,
        cancel: CancellationToken,
        stopped: Stopped,
    ) {
        let name = channel.name().to_string();
        tracing::info!(channel = %name, "polling for inbound messages");
        let db = self.builder.db().clone();
        let mut backoff = FIRST_BACKOFF;
        loop {
            if !self.handle_pending(&channel, &cancel).await {
                return;
            }
            let Some(inbound) = channel.inbound() else {
                return;
            };
            let channel_name = name.clone();
            let offset = db
                .read(move |store| store.channel_offset(&channel_name))
                .await;
            let polled = match offset {
                Ok(offset) => tokio::select! {
                    () = cancel.cancelled() => return,
                    batch = inbound.receive(offset) => batch,
                },
                Err(error) => Err(ChannelError::Local(format!(
                    "the offset could not be read: {error}"
                ))),
            };
            let stored = match polled {
                Ok(batch) => {
                    let channel_name = name.clone();
                    db.write(move |store| {
                        store.receive_channel_updates(
                            &channel_name,
                            &batch.messages,
                            batch.next_offset,
                        )
                    })
                    .await
                    .map_err(|e| {
                        ChannelError::Local(format!("the updates could not be stored: {e}"))
                    })
                }
                Err(why) => Err(why),
            };
            match stored {
                Ok(_) => backoff = FIRST_BACKOFF,
                Err(why) if !why.retryable() => {
                    tracing::error!(channel = %name, %why, "polling stopped: the failure will not pass by itself");
                    stopped
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .insert(name, format!("polling stopped: {why}"));
                    return;
                }
                Err(why) => {
                    let wait = why
                        .retry_after()
                        .map_or(backoff, |asked| asked.clamp(backoff, MAX_RETRY_AFTER));
                    tracing::warn!(channel = %name, %why, ?wait, "polling failed");
                    tokio::select! {
                        () = cancel.cancelled() => return,
                        () = tokio::time::sleep(wait) => {}
                    }
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }
}
