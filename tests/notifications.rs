//! `send_notification` end to end over D-Bus: a fake `org.freedesktop.Notifications` server
//! (zbus) owns the name on the session bus and records every `Notify` call, while the tool runs
//! through the engine's real notify-rust adapter. Needs a D-Bus session: run it under
//! `scripts/with-headless-session.sh`, which CI does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use hearth_engine::{Notice, Notifier, OsNotifier};
use hearth_store::Store;
use hearth_tools::{
    register_notifications, Dialect, ErrorKind, NotificationSink, Registry, ToolContext,
};
use tokio_util::sync::CancellationToken;
use zbus::OwnedVariant;

/// One recorded `Notify` call.
#[derive(Debug, Clone)]
struct Call {
    app_name: String,
    summary: String,
    body: String,
    urgency: Option<u8>,
    sound: Option<String>,
}

struct FakeServer {
    calls: Arc<Mutex<Vec<Call>>>,
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
        lock(&self.calls).push(Call {
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

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The engine's notify-rust notifier as the tools' sink.
struct Os(OsNotifier);

impl NotificationSink for Os {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delivery_is_recorded_by_the_notification_service() {
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
        panic!(
            "DBUS_SESSION_BUS_ADDRESS is not set: this test needs a D-Bus session. Run it under \
             scripts/with-headless-session.sh, e.g. `bash scripts/with-headless-session.sh cargo \
             test -p hearth-tests --test notifications`"
        );
    }
    let calls = Arc::new(Mutex::new(Vec::new()));
    let refuse = Arc::new(Mutex::new(false));
    let server = FakeServer {
        calls: calls.clone(),
        refuse: refuse.clone(),
        next_id: 100,
    };
    let _bus = zbus::connection::Builder::session()
        .name("org.freedesktop.Notifications")
        .serve_at("/org/freedesktop/Notifications", server)
        .build()
        .await
        .unwrap_or_else(|e| panic!("cannot own org.freedesktop.Notifications: {e}"));

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store =
        Arc::new(Store::open(&dir.path().join("hearth.db")).unwrap_or_else(|e| panic!("{e}")));
    let mut registry = Registry::new(Dialect::Hearth);
    register_notifications(&mut registry, store, Arc::new(Os(OsNotifier)))
        .unwrap_or_else(|e| panic!("{e}"));
    let ctx = ToolContext {
        workspace: dir.path().to_path_buf(),
        data_dir: dir.path().to_path_buf(),
        session_id: "desktop:test".into(),
        cancel: CancellationToken::new(),
    };
    let send = |args: &'static str| registry.dispatch("send_notification", args, &ctx);

    let first = send(r#"{"title":"今日天气","message":"北京今天晴","priority":"high"}"#)
        .await
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(first["status"], "delivered");
    assert_eq!(
        first["notification_id"], "101",
        "the id the service returned"
    );
    {
        let seen = lock(&calls);
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].app_name, "Hearth");
        assert_eq!(seen[0].summary, "今日天气");
        assert_eq!(seen[0].body, "北京今天晴");
        assert_eq!(
            seen[0].urgency,
            Some(2),
            "high priority is critical urgency"
        );
        assert!(seen[0].sound.is_some());
    }

    // A service that answers with an error: `failed` with its reason, and not counted.
    *lock(&refuse) = true;
    let refused = send(r#"{"title":"t","message":"m"}"#).await.err();
    let refused =
        refused.unwrap_or_else(|| panic!("a refused notification was reported delivered"));
    assert_eq!(refused.kind, ErrorKind::DeliveryFailed);
    assert!(refused.message.contains("paused"), "{}", refused.message);
    *lock(&refuse) = false;

    for _ in 0..9 {
        let low = send(r#"{"title":"t","message":"m","priority":"low"}"#)
            .await
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(low["status"], "delivered");
    }
    let limited = send(r#"{"title":"t","message":"m"}"#).await.err();
    assert_eq!(limited.map(|e| e.kind), Some(ErrorKind::RateLimited));
    let seen = lock(&calls);
    assert_eq!(seen.len(), 10, "the 11th never reached the service");
    assert_eq!(seen[1].urgency, Some(1));
    assert_eq!(seen[1].sound, None, "low priority is silent");
}
