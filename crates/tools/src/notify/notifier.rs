//! OS notifications: the [`Notifier`] trait an adapter implements (the engine's over
//! notify-rust, a test's recorder), which `send_notification` and scheduled jobs show through.

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
