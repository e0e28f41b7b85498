//! OS notifications: the [`Notifier`] trait and its notify-rust adapter (D-Bus
//! `org.freedesktop.Notifications` on Linux, Notification Center on macOS, toasts on Windows).

/// A notification to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub title: String,
    pub body: String,
    pub urgent: bool,
    pub sound: bool,
}

/// Why a notification was not shown.
#[derive(Debug, thiserror::Error)]
#[error("the OS notification service did not accept the notification: {0}")]
pub struct NotifyError(pub String);

/// Shows notifications. `show` returns the id the OS assigned once it accepted the notification.
/// Calls may block: from async code, run them on a blocking thread.
pub trait Notifier: Send + Sync {
    fn show(&self, notice: &Notice) -> Result<String, NotifyError>;
}

/// The real adapter over notify-rust.
#[derive(Debug, Clone, Default)]
pub struct OsNotifier;

impl Notifier for OsNotifier {
    fn show(&self, notice: &Notice) -> Result<String, NotifyError> {
        let mut n = notify_rust::Notification::new();
        n.appname("Hearth")
            .summary(&notice.title)
            .body(&notice.body);
        #[cfg(all(unix, not(target_os = "macos")))]
        {
            n.urgency(if notice.urgent {
                notify_rust::Urgency::Critical
            } else {
                notify_rust::Urgency::Normal
            });
            if notice.sound {
                n.sound_name("message-new-instant");
            }
        }
        let handle = n.show().map_err(|e| NotifyError(e.to_string()))?;
        #[cfg(all(unix, not(target_os = "macos")))]
        let id = handle.id().to_string();
        #[cfg(not(all(unix, not(target_os = "macos"))))]
        let id = {
            drop(handle);
            "shown".to_string()
        };
        Ok(id)
    }
}
