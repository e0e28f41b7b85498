//! The channels of one process: `desktop` — Hearth's own chats — is built in; webhooks and
//! Telegram bots come from `[[channels]]` through a [`ChannelFactory`] (the `hearth-channels`
//! crate). [`Channels`] is the handle the tools, the job executor and the inbound gateway share.

mod desktop;
mod gateway;
mod record;

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use async_trait::async_trait;
use hearth_core::{Channel, ChannelError, ChannelFactory, SecretStore};
use hearth_protocol::{ChannelSettings, Settings};
use hearth_store::Db;
use hearth_tools::channels::{Delivered, Outbound};
use hearth_tools::ChannelSink;

pub use desktop::DESKTOP;
pub use gateway::{Gateway, GatewayHandle};

/// The channels of one process: `desktop` and the configured ones, shared by every tool
/// registry, the job executor and the inbound gateway. Cheap to clone.
#[derive(Clone)]
pub struct Channels {
    db: Db,
    desktop: Arc<desktop::Desktop>,
    external: Arc<RwLock<BTreeMap<String, Arc<dyn Channel>>>>,
    factory: Option<Arc<dyn ChannelFactory>>,
}

impl Channels {
    /// Only `desktop` (Hearth's own chats in `db`; an `Arc<Store>` becomes a [`Db`] of its own).
    pub fn new(db: impl Into<Db>) -> Channels {
        let db = db.into();
        Channels {
            desktop: Arc::new(desktop::Desktop::new(db.clone())),
            db,
            external: Arc::new(RwLock::new(BTreeMap::new())),
            factory: None,
        }
    }

    /// Builds the configured channels with `factory` at each [`Channels::reload`].
    pub fn with_factory(mut self, factory: Arc<dyn ChannelFactory>) -> Channels {
        self.factory = Some(factory);
        self
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Replaces the configured channels with those of `settings` (enabled ones), their tokens
    /// read from `token_env` or the keychain (this blocks on the keychain). Returns the
    /// channels that could not be built, each with the reason (they are left out).
    pub fn reload(&self, settings: &Settings, secrets: &dyn SecretStore) -> Vec<(String, String)> {
        let mut built = BTreeMap::new();
        let mut problems = Vec::new();
        for entry in settings.channels.iter().filter(|c| c.enabled) {
            let opened = match &self.factory {
                None => Err(ChannelError::Misconfigured(
                    "this program has no channel adapters".to_string(),
                )),
                Some(factory) => factory.open(
                    entry,
                    &settings.allow_local_hosts,
                    channel_token(entry, secrets),
                ),
            };
            match opened {
                Ok(channel) => {
                    built.insert(entry.name.clone(), channel);
                }
                Err(why) => {
                    tracing::warn!(channel = %entry.name, %why, "channel left out");
                    problems.push((entry.name.clone(), why.to_string()));
                }
            }
        }
        *self
            .external
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = built;
        problems
    }

    /// Adds or replaces one channel (tests, and adapters built elsewhere).
    pub fn insert(&self, channel: Arc<dyn Channel>) {
        self.external
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(channel.name().to_string(), channel);
    }

    /// The configured channel `name` (not `desktop`).
    pub fn external(&self, name: &str) -> Option<Arc<dyn Channel>> {
        self.external
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned()
    }

    /// Every channel, `desktop` first.
    pub fn list(&self) -> Vec<Arc<dyn Channel>> {
        let external = self
            .external
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let desktop: Arc<dyn Channel> = self.desktop.clone();
        std::iter::once(desktop)
            .chain(external.values().cloned())
            .collect()
    }

    /// Delivers `message`: to a configured channel it is first written into the chat's
    /// session (`<channel>:<chat_id>[:<dialog_id>]`, created when new), then sent, and the
    /// stored message is marked failed when the channel refuses it; any other target is a
    /// Hearth session (`desktop:<id>`, `cli:<id>`…), which must exist.
    pub async fn send(&self, message: &Outbound) -> Result<Delivered, ChannelError> {
        let Some(channel) = self.external(&message.target.channel) else {
            return self.desktop.deliver(message).await;
        };
        let session_id = message.target.to_string();
        let stored = record::write(&self.db, message, channel.name()).await?;
        let sent = channel.send(message).await;
        record::settle(&self.db, stored, &session_id, sent.as_ref().err()).await;
        sent.map(|receipt| Delivered {
            session_id,
            kind: channel.kind().to_string(),
            message_ids: receipt.message_ids,
        })
    }
}

#[async_trait]
impl ChannelSink for Channels {
    fn supports_files(&self, channel: &str) -> Option<bool> {
        if channel == DESKTOP {
            return Some(true);
        }
        self.external(channel).map(|c| c.supports_files())
    }

    fn names(&self) -> Vec<String> {
        self.list().iter().map(|c| c.name().to_string()).collect()
    }

    async fn deliver(&self, outbound: Outbound) -> Result<Delivered, ChannelError> {
        self.send(&outbound).await
    }
}

/// The token of `channel`: the `token_env` variable when set and not empty, else the keychain
/// entry `channel:<name>`, else none (also when the keychain cannot be read, which is logged).
pub fn channel_token(channel: &ChannelSettings, secrets: &dyn SecretStore) -> Option<String> {
    if let Some(var) = channel.token_env.as_deref().filter(|v| !v.is_empty()) {
        if let Some(value) = std::env::var(var).ok().filter(|v| !v.trim().is_empty()) {
            return Some(value.trim().to_string());
        }
    }
    // A channel without a token (a webhook) still works when the keychain is unreachable; one
    // that needs a token says it has none.
    crate::read_secret(secrets, &channel.token_account())
}
