//! OS notifications: `send_notification` shows one through a [`Notifier`] (at most 10
//! per rolling hour, counted in the store so a restart does not reset it; `delivered` only once
//! the OS service returned an id). `notify`, a note into a chat, is a channel tool.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_store::{Db, JobsError, NotificationReservation, NotificationStatus};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::dialect::Dialect;
use crate::error::{ErrorKind, ToolError};
use crate::registry::{Registry, RegistryError};
use crate::tool::{Tool, ToolContext};

pub use hearth_store::NOTIFICATIONS_PER_HOUR;
use hearth_store::NOTIFICATION_WINDOW_MS as WINDOW_MS;
/// How long the OS notification service may take to answer.
const SHOW_TIMEOUT: Duration = Duration::from_secs(30);

mod notifier;

pub use notifier::{Notice, Notifier, NotifyError, OnClick};

/// Registers `send_notification` (Hearth, Echo, CeeCore), counting through `db`.
pub fn register_notifications(
    registry: &mut Registry,
    db: impl Into<Db>,
    sink: Arc<dyn Notifier>,
) -> Result<(), RegistryError> {
    use Dialect::{Ceecore, Echo, Hearth};
    let db = db.into();
    registry.register_for(&[Hearth, Echo, Ceecore], SendNotification { db, sink })?;
    Ok(())
}

/// `send_notification`.
pub struct SendNotification {
    db: Db,
    sink: Arc<dyn Notifier>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Silent: shown in the notification centre only.
    Low,
    /// A banner with sound.
    #[default]
    Normal,
    /// Urgent (breaks through do-not-disturb): only for real emergencies.
    High,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendNotificationArgs {
    /// The notification's title.
    #[schemars(length(min = 1, max = 200))]
    pub title: String,
    /// The text, at most 500 characters.
    #[schemars(length(min = 1, max = 500))]
    pub message: String,
    /// `low` (silent), `normal` (default) or `high` (urgent cases only).
    pub priority: Option<Priority>,
    /// Play a sound (default true; `low` is always silent).
    pub sound: Option<bool>,
    /// App badge number, where the OS has app badges.
    #[schemars(range(min = 0, max = 9999))]
    pub badge: Option<u32>,
}

#[async_trait]
impl Tool for SendNotification {
    type Args = SendNotificationArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SEND_NOTIFICATION
    }

    fn description(&self) -> &str {
        "Show a desktop notification to the user (title and message up to 500 characters). At \
         most 10 per hour; use priority high only for urgent matters. The result says whether \
         the operating system accepted it."
    }

    async fn run(
        &self,
        _ctx: &ToolContext,
        args: SendNotificationArgs,
    ) -> Result<Value, ToolError> {
        let title = args.title.trim().to_string();
        let message = args.message.trim().to_string();
        if title.is_empty() {
            return Err(ToolError::invalid("title", "`title` must not be blank"));
        }
        if message.is_empty() {
            return Err(ToolError::invalid("message", "`message` must not be blank"));
        }
        let priority = args.priority.unwrap_or_default();
        let urgent = priority == Priority::High;
        let sound = args.sound.unwrap_or(true) && priority != Priority::Low;
        let now = Utc::now().timestamp_millis();
        let reserved = title.clone();
        let reservation = self
            .db
            .write(move |s| {
                s.reserve_notification(&reserved, now, WINDOW_MS, NOTIFICATIONS_PER_HOUR)
                    .map_err(internal)
            })
            .await?;
        let (slot, used) = match reservation {
            NotificationReservation::Granted { id, used } => (id, used),
            NotificationReservation::Limited { used, oldest_at } => {
                let free_at = DateTime::<Utc>::from_timestamp_millis(oldest_at + WINDOW_MS)
                    .map(|t| t.to_rfc3339())
                    .unwrap_or_default();
                return Err(ToolError::new(
                    ErrorKind::RateLimited,
                    format!(
                        "{used} notifications were shown in the last hour, the most allowed \
                         ({NOTIFICATIONS_PER_HOUR}); the next can be sent after {free_at}"
                    ),
                ));
            }
        };
        let outcome = self.show(title, message, urgent, sound).await;
        let settled = match &outcome {
            Ok(os_id) => (NotificationStatus::Delivered, Some(os_id.clone()), None),
            Err(NotifyError(reason)) => (NotificationStatus::Failed, None, Some(reason.clone())),
        };
        self.db
            .write(move |s| {
                let (status, os_id, reason) = settled;
                s.settle_notification(slot, status, os_id.as_deref(), reason.as_deref())
                    .map_err(internal)
            })
            .await?;
        let os_id = outcome
            .map_err(|e| ToolError::new(ErrorKind::DeliveryFailed, format!("failed: {e}")))?;
        let mut result = json!({
            "status": "delivered",
            "notification_id": os_id,
            "priority": priority_str(priority),
            "sound": sound,
            "sent_this_hour": used,
            "limit_per_hour": NOTIFICATIONS_PER_HOUR,
        });
        if let Some(badge) = args.badge {
            result["badge"] = json!({
                "requested": badge,
                "shown": false,
                "reason": "the notification service takes no badge count; the tray shows none",
            });
        }
        Ok(result)
    }
}

impl SendNotification {
    /// Calls the (blocking) notifier on a blocking thread, with a time limit.
    async fn show(
        &self,
        title: String,
        body: String,
        urgent: bool,
        sound: bool,
    ) -> Result<String, NotifyError> {
        let sink = self.sink.clone();
        let notice = Notice {
            title,
            body,
            urgent,
            sound,
        };
        let task = tokio::task::spawn_blocking(move || sink.show(&notice));
        match tokio::time::timeout(SHOW_TIMEOUT, task).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(e)) => Err(NotifyError(format!("the notifier crashed: {e}"))),
            Err(_) => Err(NotifyError(format!(
                "no answer within {} s",
                SHOW_TIMEOUT.as_secs()
            ))),
        }
    }
}

/// A failure of the notification ledger: Hearth's own, whatever the store says it was.
fn internal(error: JobsError) -> ToolError {
    ToolError::internal(error.to_string())
}

fn priority_str(priority: Priority) -> &'static str {
    match priority {
        Priority::Low => "low",
        Priority::Normal => "normal",
        Priority::High => "high",
    }
}
