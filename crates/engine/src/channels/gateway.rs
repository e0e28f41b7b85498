//! The inbound gateway of the desktop app and `hearth-cli daemon`: one long-polling loop per
//! inbound channel. Each batch is stored (with the new offset) before it is handled, so a
//! restart neither loses an update nor answers one twice; a chat on the channel's allow list
//! gets an agent turn in its session `<channel>:<chat_id>` under its security profile
//! (`public_gateway` unless raised; nobody approves, so asks are denied) and the answer is sent
//! back; any other chat gets one refusal and is logged. Failures that can pass (the network, a
//! server error, a rate limit) back off (0.5 s doubling to 60 s, or the wait the service asked
//! for); a permanent one (a refused token, a blocked address) stops that channel's polling, and
//! the handle says why.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_policy::SecurityProfile;
use hearth_protocol::ApprovalDecision;
use hearth_protocol::{ContentPart, Settings, Text, TurnEnd};
use hearth_store::{DbError, InboxEntry, InboxStatus, StoreError};
use hearth_tools::channels::{Outbound, Target};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::record;
use crate::approval::FixedApprover;
use crate::builder::EngineBuilder;
use crate::jobs::final_answer;
use crate::EngineError;
use hearth_core::{Channel, ChannelError};

/// The first wait after a failed poll; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// The longest wait a rate-limited channel's `retry_after` is followed for.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(15 * 60);

/// The channels whose polling stopped for good, each with why.
type Stopped = Arc<Mutex<BTreeMap<String, String>>>;

/// Where the gateway reads the settings from at every update.
type SettingsSource = Arc<dyn Fn() -> Result<Settings, EngineError> + Send + Sync>;

/// Told the session id of a chat whose session got new messages (the app refreshes it).
type SessionListener = Arc<dyn Fn(&str) + Send + Sync>;

/// Serves the inbound channels of a builder's [`super::Channels`].
pub struct Gateway {
    builder: Arc<EngineBuilder>,
    settings: SettingsSource,
    listener: Option<SessionListener>,
}

/// The running loops; [`GatewayHandle::stop`] ends them.
pub struct GatewayHandle {
    cancel: CancellationToken,
    tasks: Vec<JoinHandle<()>>,
    /// The channels polled, in the order of `tasks`.
    names: Vec<String>,
    stopped: Stopped,
}

impl GatewayHandle {
    /// How many channels are being polled.
    pub fn polling(&self) -> usize {
        self.tasks.len()
    }

    /// Whether channel `name` is being polled (it was started and not stopped by a permanent
    /// failure).
    pub fn polls(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name) && self.stopped(name).is_none()
    }

    /// Why polling channel `name` stopped, when a permanent failure (a refused token, a
    /// blocked address) stopped it.
    pub fn stopped(&self, name: &str) -> Option<String> {
        self.stopped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned()
    }

    /// Stops polling; a turn in progress is cancelled (and run again at the next start).
    pub async fn stop(self) {
        self.cancel.cancel();
        for task in self.tasks {
            if let Err(error) = task.await {
                tracing::warn!(%error, "an inbound channel loop ended badly");
            }
        }
    }
}

/// What became of one handled update.
enum Handled {
    Done(InboxStatus, Option<String>),
    /// Stopped before the end (left to be handled again).
    Stopped,
}

impl Gateway {
    /// A gateway over `builder`'s channels, reading the settings from `settings` at every
    /// update (so allow lists and profiles changed in the app apply at once).
    pub fn new(
        builder: Arc<EngineBuilder>,
        settings: impl Fn() -> Result<Settings, EngineError> + Send + Sync + 'static,
    ) -> Gateway {
        Gateway {
            builder,
            settings: Arc::new(settings),
            listener: None,
        }
    }

    /// Tells `listener` the session id of every chat whose session got new messages (an
    /// inbound message and its answer).
    pub fn with_listener(mut self, listener: impl Fn(&str) + Send + Sync + 'static) -> Gateway {
        self.listener = Some(Arc::new(listener));
        self
    }

    /// Starts a loop for every enabled channel with `inbound = true` that can receive.
    /// Call inside a tokio runtime.
    pub fn serve(self) -> GatewayHandle {
        let gateway = Arc::new(self);
        let cancel = CancellationToken::new();
        let stopped = Stopped::default();
        let settings = match (gateway.settings)() {
            Ok(settings) => settings,
            Err(error) => {
                tracing::error!(%error, "inbound channels not served");
                return GatewayHandle {
                    cancel,
                    tasks: Vec::new(),
                    names: Vec::new(),
                    stopped,
                };
            }
        };
        let channels = gateway.builder.channels();
        let (names, tasks) = settings
            .channels
            .iter()
            .filter(|c| c.enabled && c.inbound)
            .filter_map(|c| channels.external(&c.name))
            .filter(|channel| channel.inbound().is_some())
            .map(|channel| {
                let gateway = gateway.clone();
                let cancel = cancel.clone();
                let stopped = stopped.clone();
                let name = channel.name().to_string();
                (
                    name,
                    tokio::spawn(async move { gateway.poll(channel, cancel, stopped).await }),
                )
            })
            .unzip();
        GatewayHandle {
            cancel,
            tasks,
            names,
            stopped,
        }
    }

    async fn poll(
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

    /// Handles every stored update not handled yet; `false` once stopped.
    async fn handle_pending(&self, channel: &Arc<dyn Channel>, cancel: &CancellationToken) -> bool {
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

    /// The agent's answer to `text` in the chat's session, under `profile`; `None` when
    /// stopped.
    async fn turn(
        &self,
        settings: &Settings,
        target: &Target,
        text: &str,
        profile: SecurityProfile,
        cancel: &CancellationToken,
    ) -> Result<Option<String>, String> {
        let session_id = target.to_string();
        let title = format!("{} · {}", target.channel, target.chat_id);
        let id = session_id.clone();
        self.builder
            .db()
            .write(move |store| Ok::<_, DbError>(record::ensure_session(store, &id, &title)))
            .await
            .map_err(|e| e.to_string())??;
        let (choice, registry) = self
            .builder
            .unattended(settings, None)
            .await
            .map_err(|e| e.to_string())?;
        let tools = Arc::new(self.builder.tool_runner(
            Arc::new(registry),
            settings,
            profile,
            Arc::new(FixedApprover(ApprovalDecision::Deny)),
        ));
        let engine = self.builder.engine(settings, choice, tools);
        let prompt = vec![ContentPart::text(text)];
        let summary = engine
            .send(&session_id, prompt, &|_| {}, cancel.child_token())
            .await
            .map_err(|e| e.to_string())?;
        match summary.end {
            TurnEnd::Completed => final_answer(self.builder.db(), &session_id)
                .await
                .map(Some)
                .map_err(|failure| failure.text),
            TurnEnd::Cancelled => Ok(None),
            TurnEnd::MaxIterations => Err(format!(
                "the turn stopped after {} tool iterations without an answer",
                summary.iterations
            )),
        }
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
