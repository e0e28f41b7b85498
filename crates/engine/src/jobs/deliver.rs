//! Where a job run's answer goes: delivered through the target's channel (a Hearth session, a
//! Telegram chat, a webhook), labelled with the job, and an OS notification per the job's setting (failures always), within
//! the hourly notification limit.

use std::sync::Arc;

use hearth_protocol::{AppError, Language, Text};
use hearth_scheduler::RunRequest;
use hearth_store::{
    Db, NotificationReservation, NotificationStatus, NOTIFICATIONS_PER_HOUR, NOTIFICATION_WINDOW_MS,
};
use hearth_tools::channels::{Outbound, Target};

use crate::channels::Channels;
use hearth_core::{Notice, Notifier, OnClick};

/// Notification bodies are cut to this many characters (the OS limit of `send_notification`).
const NOTICE_CHARS: usize = 500;

/// The label a delivered answer starts with, in `language`: the job's name and what kind of
/// run it was.
pub(super) fn label(request: &RunRequest, language: Language) -> String {
    let name = &request.job.name;
    let missed = request
        .scheduled_for
        .map(|t| t.to_rfc3339())
        .unwrap_or_default();
    let text = if request.manual {
        Text::JobReplyHeaderRunNow { name }
    } else if request.catch_up {
        Text::JobReplyHeaderCatchUp {
            name,
            missed: &missed,
        }
    } else {
        Text::JobReplyHeader { name }
    };
    text.in_language(language)
}

/// Delivers the answer to `target` through its channel (`desktop:<id>` and other Hearth
/// sessions, which must exist, or a configured channel's chat), waiting for the channel's
/// delivery result; a failure is `delivery_failed` with the channel's reason.
pub(super) async fn deliver(
    channels: &Channels,
    origin: &str,
    target: &str,
    text: &str,
    model: &str,
) -> Result<(), AppError> {
    let failed = |why: &str| AppError::DeliveryFailed {
        target: target.to_string(),
        reason: format!("{why} (edit the job's target)"),
    };
    let parsed = Target::parse("target", target)
        .map_err(|_| failed("the target is not `<channel>:<chat_id>`"))?;
    let outbound = Outbound {
        target: parsed,
        text: text.to_string(),
        files: Vec::new(),
        origin: origin.to_string(),
        model: Some(model.to_string()),
    };
    channels
        .send(&outbound)
        .await
        .map(|_| ())
        .map_err(|why| failed(&why.to_string()))
}

/// Which kind of run a notification is about: failures are always shown, successes only
/// while the hourly notification limit has room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    Finished,
    Failed,
}

/// Shows a notification (clickable with `on_click`) on a blocking thread and waits for the OS
/// answer. It counts toward the notification limit shared with `send_notification`; a finished
/// run's notice over the limit is not shown and the note saying so is returned (for the run's
/// history). A refusal by the OS is logged, never a run failure.
pub(super) async fn notify(
    db: &Db,
    notifier: &Arc<dyn Notifier>,
    outcome: Outcome,
    title: String,
    body: &str,
    on_click: Option<OnClick>,
) -> Option<String> {
    let limit = match outcome {
        Outcome::Finished => NOTIFICATIONS_PER_HOUR,
        Outcome::Failed => usize::MAX,
    };
    let now = chrono::Utc::now().timestamp_millis();
    let reserving = title.clone();
    let reserved = db
        .write(move |store| {
            store.reserve_notification(&reserving, now, NOTIFICATION_WINDOW_MS, limit)
        })
        .await;
    let slot = match reserved {
        Ok(NotificationReservation::Granted { id, .. }) => Some(id),
        Ok(NotificationReservation::Limited { used, .. }) => {
            tracing::warn!(used, %title, "job notification skipped: hourly limit reached");
            return Some(format!(
                "(No notification was shown: {used} were shown in the last hour, the most \
                 allowed.)"
            ));
        }
        Err(error) => {
            tracing::warn!(%error, "cannot count the job notification; showing it anyway");
            None
        }
    };
    let notice = Notice {
        title,
        body: excerpt(body, NOTICE_CHARS),
        urgent: false,
        sound: true,
    };
    let notifier = notifier.clone();
    let shown = tokio::task::spawn_blocking(move || match on_click {
        Some(on_click) => notifier.show_clickable(&notice, on_click),
        None => notifier.show(&notice),
    })
    .await
    .map_err(|error| format!("the notifier crashed: {error}"))
    .and_then(|shown| shown.map_err(|error| error.to_string()));
    match &shown {
        Ok(id) => tracing::info!(%id, "job notification shown"),
        Err(error) => tracing::warn!(%error, "job notification not shown"),
    }
    if let Some(slot) = slot {
        let ended = shown.clone();
        let settled = db
            .write(move |store| match &ended {
                Ok(id) => {
                    store.settle_notification(slot, NotificationStatus::Delivered, Some(id), None)
                }
                Err(error) => {
                    store.settle_notification(slot, NotificationStatus::Failed, None, Some(error))
                }
            })
            .await;
        if let Err(error) = settled {
            tracing::warn!(%error, "cannot record how the job notification ended");
        }
    }
    None
}

/// The first `max` characters of `text`, with an ellipsis when cut.
pub(super) fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max.saturating_sub(1)) {
        Some((at, _)) if text.chars().count() > max => format!("{}…", &text[..at]),
        _ => text.to_string(),
    }
}
