//! The tool registry every front end uses: the built-in tools plus the families that need the
//! store or the OS (memory, history, jobs, notifications).

use std::sync::Arc;

use hearth_store::Store;
use hearth_tools::{
    builtin_registry, register_history, register_jobs, register_memory, register_notifications,
    Dialect, NotificationSink, Registry,
};

use crate::notify::{Notice, Notifier};

/// Adapts the engine's [`Notifier`] to the tools' notification sink.
struct NotifierSink(Arc<dyn Notifier>);

impl NotificationSink for NotifierSink {
    fn show(&self, title: &str, body: &str, urgent: bool, sound: bool) -> Result<String, String> {
        let notice = Notice {
            title: title.to_string(),
            body: body.to_string(),
            urgent,
            sound,
        };
        self.0.show(&notice).map_err(|e| e.to_string())
    }
}

/// Builds the registry of `dialect` with every tool family wired to `store` and `notifier`.
pub fn tool_registry(
    dialect: Dialect,
    store: &Arc<Store>,
    notifier: Arc<dyn Notifier>,
) -> Registry {
    let mut registry = builtin_registry(dialect);
    let outcomes = [
        register_memory(&mut registry, store.clone()),
        register_history(&mut registry, store.clone()),
        register_jobs(&mut registry, store.clone(), None),
        register_notifications(
            &mut registry,
            store.clone(),
            Arc::new(NotifierSink(notifier)),
        ),
    ];
    for error in outcomes.into_iter().filter_map(Result::err) {
        tracing::error!(%error, %dialect, "tool family left out");
    }
    registry
}
