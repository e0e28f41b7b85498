//! `send_notification` end to end over D-Bus: a fake `org.freedesktop.Notifications` server
//! (zbus) owns the name on the session bus and records every `Notify` call, while the tool runs
//! through the engine's real notify-rust adapter. Needs a D-Bus session: run it under
//! `scripts/with-headless-session.sh`, which CI does.

use std::sync::Arc;

use hearth_engine::OsNotifier;
use hearth_store::Store;
use hearth_tests::notification_server::{lock, NotificationServer};
use hearth_tools::{register_notifications, Dialect, ErrorKind, Registry, ToolContext};
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delivery_is_recorded_by_the_notification_service() {
    let fake = NotificationServer::start(100).await;
    let (calls, refuse) = (fake.calls.clone(), fake.refuse.clone());

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store =
        Arc::new(Store::open(&dir.path().join("hearth.db")).unwrap_or_else(|e| panic!("{e}")));
    let mut registry = Registry::new(Dialect::Hearth);
    register_notifications(&mut registry, store, Arc::new(OsNotifier))
        .unwrap_or_else(|e| panic!("{e}"));
    let ctx = ToolContext {
        workspace: dir.path().to_path_buf(),
        data_dir: dir.path().to_path_buf(),
        session_id: "desktop:test".into(),
        cancel: CancellationToken::new(),
        images: Default::default(),
        conversation: None,
        sandbox: Default::default(),
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
