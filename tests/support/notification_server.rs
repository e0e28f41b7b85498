//! A fake `org.freedesktop.Notifications` server (zbus) on the session bus that records every
//! `Notify` call and can refuse them, for suites that check OS notifications end to end. Needs a
//! D-Bus session (`scripts/with-headless-session.sh`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use zbus::OwnedVariant;

/// One recorded `Notify` call.
#[derive(Debug, Clone)]
pub struct NotifyCall {
    pub app_name: String,
    pub summary: String,
    pub body: String,
    pub urgency: Option<u8>,
    pub sound: Option<String>,
}

struct FakeServer {
    calls: Arc<Mutex<Vec<NotifyCall>>>,
    refuse: Arc<Mutex<bool>>,
    next_id: u32,
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl FakeServer {
    #[allow(clippy::too_many_arguments)]
    fn notify(
        &mut self,
        app_name: String,
        _replaces_id: u32,
        _app_icon: String,
        summary: String,
        body: String,
        _actions: Vec<String>,
        hints: HashMap<String, OwnedVariant>,
        _expire_timeout: i32,
    ) -> zbus::fdo::Result<u32> {
        if *lock(&self.refuse) {
            return Err(zbus::fdo::Error::Failed("notifications are paused".into()));
        }
        let urgency = hints.get("urgency").and_then(|v| u8::try_from(v).ok());
        let sound = hints
            .get("sound-name")
            .and_then(|v| String::try_from(v.try_clone().ok()?).ok());
        lock(&self.calls).push(NotifyCall {
            app_name,
            summary,
            body,
            urgency,
            sound,
        });
        self.next_id += 1;
        Ok(self.next_id)
    }

    fn get_capabilities(&self) -> Vec<String> {
        vec!["body".to_string(), "sound".to_string()]
    }

    fn get_server_information(&self) -> (String, String, String, String) {
        (
            "hearth-fake".into(),
            "hearth".into(),
            "1.0".into(),
            "1.2".into(),
        )
    }

    fn close_notification(&self, _id: u32) {}
}

pub fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Taken by each [`NotificationServer`] for its life: the tests of one binary that own the name
/// take turns (the bus gives it to one connection at a time).
static OWNER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The fake server, owning the well-known name while it lives.
pub struct NotificationServer {
    pub calls: Arc<Mutex<Vec<NotifyCall>>>,
    pub refuse: Arc<Mutex<bool>>,
    _bus: zbus::Connection,
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

impl NotificationServer {
    /// Owns `org.freedesktop.Notifications` on the session bus, once no other server of this
    /// process does; ids start after `first_id`. Panics with a hint when there is no D-Bus
    /// session.
    pub async fn start(first_id: u32) -> NotificationServer {
        if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
            panic!(
                "DBUS_SESSION_BUS_ADDRESS is not set: this test needs a D-Bus session. Run it \
                 under scripts/with-headless-session.sh, e.g. `bash \
                 scripts/with-headless-session.sh cargo test -p hearth-tests --test integration`"
            );
        }
        let turn = OWNER.lock().await;
        let calls = Arc::new(Mutex::new(Vec::new()));
        let refuse = Arc::new(Mutex::new(false));
        let server = FakeServer {
            calls: calls.clone(),
            refuse: refuse.clone(),
            next_id: first_id,
        };
        let bus = zbus::connection::Builder::session()
            .name("org.freedesktop.Notifications")
            .serve_at("/org/freedesktop/Notifications", server)
            .build()
            .await
            .unwrap_or_else(|e| panic!("cannot own org.freedesktop.Notifications: {e}"));
        NotificationServer {
            calls,
            refuse,
            _bus: bus,
            _turn: turn,
        }
    }

    /// Every call recorded so far.
    pub fn calls(&self) -> Vec<NotifyCall> {
        lock(&self.calls).clone()
    }
}
