//! The notification log: every OS notification attempt, so that the rolling-hour limit holds
//! across restarts. A slot is reserved before showing and settled afterwards.

use rusqlite::{params, TransactionBehavior};
use serde::{Deserialize, Serialize};

use super::JobsError;
use crate::Store;

/// OS notifications allowed per rolling window (`send_notification` and job runs together).
pub const NOTIFICATIONS_PER_HOUR: usize = 10;
/// The rolling window of the notification limit: one hour.
pub const NOTIFICATION_WINDOW_MS: i64 = 3_600_000;

/// How a notification attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotificationStatus {
    /// Reserved, not yet shown.
    Pending,
    /// The OS notification service accepted it and returned an id.
    Delivered,
    Failed,
    /// Refused by the rate limit.
    RateLimited,
}

impl NotificationStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Delivered => "delivered",
            Self::Failed => "failed",
            Self::RateLimited => "rate_limited",
        }
    }
}

/// The answer to a reservation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotificationReservation {
    /// A slot is held: show the notification, then settle slot `id`. `used` counts this one.
    Granted { id: i64, used: usize },
    /// The window is full; the oldest counted notification leaves it at `oldest_at + window`.
    Limited { used: usize, oldest_at: i64 },
}

impl Store {
    /// Reserves a notification slot if fewer than `limit` were delivered (or are being shown)
    /// in the `window_ms` before `now`; a refusal is logged as `rate_limited`.
    pub fn reserve_notification(
        &self,
        title: &str,
        now: i64,
        window_ms: i64,
        limit: usize,
    ) -> Result<NotificationReservation, JobsError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let (count, oldest): (i64, Option<i64>) = tx
            .prepare_cached(
                "SELECT COUNT(*), MIN(created_at) FROM notification_log \
                 WHERE created_at > ?1 AND status IN ('pending', 'delivered')",
            )?
            .query_row([now - window_ms], |row| Ok((row.get(0)?, row.get(1)?)))?;
        let used = usize::try_from(count).unwrap_or(usize::MAX);
        let status = if used >= limit {
            NotificationStatus::RateLimited
        } else {
            NotificationStatus::Pending
        };
        tx.prepare_cached(
            "INSERT INTO notification_log (title, created_at, status) VALUES (?1, ?2, ?3)",
        )?
        .execute(params![title, now, status.as_str()])?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(match status {
            NotificationStatus::RateLimited => NotificationReservation::Limited {
                used,
                oldest_at: oldest.unwrap_or(now),
            },
            _ => NotificationReservation::Granted { id, used: used + 1 },
        })
    }

    /// Settles a reserved slot as `Delivered` (with the OS id) or `Failed` (with the reason).
    pub fn settle_notification(
        &self,
        id: i64,
        status: NotificationStatus,
        os_id: Option<&str>,
        error: Option<&str>,
    ) -> Result<(), JobsError> {
        let changed = self
            .conn()
            .prepare_cached(
                "UPDATE notification_log SET status = ?2, os_id = ?3, error = ?4 \
                 WHERE id = ?1 AND status = 'pending'",
            )?
            .execute(params![id, status.as_str(), os_id, error])?;
        match changed {
            0 => Err(JobsError::NotFound(format!("pending notification {id}"))),
            _ => Ok(()),
        }
    }
}
