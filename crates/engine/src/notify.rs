//! The OS-notification adapter of [`Notifier`] over notify-rust (D-Bus
//! `org.freedesktop.Notifications` on Linux, Notification Center on macOS, toasts on Windows).

use hearth_core::{Notice, Notifier, NotifyError, OnClick};

/// The real adapter over notify-rust.
#[derive(Debug, Clone, Default)]
pub struct OsNotifier;

/// The action key notification servers invoke when the notification itself is clicked.
#[cfg(all(unix, not(target_os = "macos")))]
const DEFAULT_ACTION: &str = "default";

fn notification(notice: &Notice) -> notify_rust::Notification {
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
    n
}

fn shown(n: &notify_rust::Notification) -> Result<notify_rust::NotificationHandle, NotifyError> {
    n.show().map_err(|e| NotifyError(e.to_string()))
}

impl Notifier for OsNotifier {
    fn show(&self, notice: &Notice) -> Result<String, NotifyError> {
        let handle = shown(&notification(notice))?;
        #[cfg(all(unix, not(target_os = "macos")))]
        let id = handle.id().to_string();
        #[cfg(not(all(unix, not(target_os = "macos"))))]
        let id = {
            drop(handle);
            "shown".to_string()
        };
        Ok(id)
    }

    /// On Linux and the BSDs the notification gets a default action; a thread keeps its D-Bus
    /// connection (some servers signal only the connection that sent it) and waits for
    /// `ActionInvoked` or `NotificationClosed`.
    #[cfg(all(unix, not(target_os = "macos")))]
    fn show_clickable(&self, notice: &Notice, on_click: OnClick) -> Result<String, NotifyError> {
        let mut n = notification(notice);
        n.action(DEFAULT_ACTION, "Open");
        let handle = shown(&n)?;
        let id = handle.id().to_string();
        let waiting = std::thread::Builder::new()
            .name("notification-click".to_string())
            .spawn(move || {
                handle.wait_for_action(|action| {
                    if action == DEFAULT_ACTION {
                        on_click();
                    }
                })
            });
        if let Err(error) = waiting {
            tracing::warn!(%error, "cannot wait for clicks on a notification");
        }
        Ok(id)
    }
}
