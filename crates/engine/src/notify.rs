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

/// Called at most once, on whatever thread the notification service reports the click.
pub type OnClick = Box<dyn FnOnce() + Send + 'static>;

/// Shows notifications. `show` returns the id the OS assigned once it accepted the notification.
/// Calls may block: from async code, run them on a blocking thread.
pub trait Notifier: Send + Sync {
    fn show(&self, notice: &Notice) -> Result<String, NotifyError>;

    /// Like [`Notifier::show`], and runs `on_click` when the user clicks the notification, where
    /// the OS reports clicks. The default ignores clicks.
    fn show_clickable(&self, notice: &Notice, on_click: OnClick) -> Result<String, NotifyError> {
        drop(on_click);
        self.show(notice)
    }
}

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
