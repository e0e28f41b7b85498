//! `send_notification` through a recording sink: delivered with the OS id, the 11th in an hour
//! rate-limited (also after reopening the store), failures reported and not counted, priority
//! and sound, malformed arguments. (`notify` is a channel tool: see the engine's channel tests.)

use std::sync::{Arc, Mutex};

use hearth_policy::{canonical_tool, ToolProfile};
use hearth_tools::{
    register_notifications, Dialect, ErrorKind, Notice, Notifier, NotifyError, Registry,
};

use crate::scheduling::{err, ok, open, Env};

/// A sink that records what it was asked to show and answers with a fixed outcome.
struct Recording {
    shown: Mutex<Vec<(String, String, bool, bool)>>,
    answer: Result<String, String>,
}

impl Notifier for Recording {
    fn show(&self, notice: &Notice) -> Result<String, NotifyError> {
        let mut shown = self
            .shown
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Notice {
            title,
            body,
            urgent,
            sound,
        } = notice.clone();
        shown.push((title, body, urgent, sound));
        self.answer.clone().map_err(NotifyError)
    }
}

fn sink(answer: Result<&str, &str>) -> Arc<Recording> {
    Arc::new(Recording {
        shown: Mutex::new(Vec::new()),
        answer: answer.map(str::to_string).map_err(str::to_string),
    })
}

fn registry(dialect: Dialect, env: &Env, sink: Arc<Recording>) -> Registry {
    let mut registry = Registry::new(dialect);
    if let Err(e) = register_notifications(&mut registry, env.store.clone(), sink) {
        panic!("register: {e}");
    }
    registry
}

#[test]
fn names_and_facts_per_dialect() {
    let env = Env::create();
    let expected: [(Dialect, &[&str]); 4] = [
        (Dialect::Hearth, &["send_notification"]),
        (Dialect::Echo, &["send_notification"]),
        (Dialect::Ceecore, &["send_notification"]),
        (Dialect::Picobot, &[]),
    ];
    for (dialect, names) in expected {
        let registry = registry(dialect, &env, sink(Ok("1")));
        let specs = registry.specs(ToolProfile::Full);
        let listed: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(listed, names, "{dialect}");
        for spec in &specs {
            let facts = registry.facts(&spec.name);
            assert_eq!(
                facts,
                canonical_tool(&spec.name).map(|c| c.facts()),
                "{}",
                spec.name
            );
        }
        insta::assert_json_snapshot!(format!("notify_{dialect}"), specs);
    }
}

#[tokio::test]
async fn eleventh_notification_in_an_hour_is_rate_limited_even_after_a_restart() {
    let env = Env::create();
    let recording = sink(Ok("42"));
    let tools = registry(Dialect::Hearth, &env, recording.clone());
    let args = r#"{"title":"今日天气","message":"北京今天晴，15℃~25℃，适合出行","priority":"normal","sound":true}"#;
    for i in 1..=10 {
        let result = ok(&tools, &env, "send_notification", args).await;
        assert_eq!(result["status"], "delivered");
        assert_eq!(result["notification_id"], "42");
        assert_eq!(result["sent_this_hour"], i);
    }
    let limited = err(&tools, &env, "send_notification", args).await;
    assert_eq!(limited.kind, ErrorKind::RateLimited);
    assert!(limited.message.contains("10"), "{}", limited.message);
    assert_eq!(recording.shown.lock().map(|s| s.len()).unwrap_or(0), 10);
    // A new process over the same database file still counts the last hour.
    let reopened = Env {
        store: open(env.dir.path()),
        dir: env.dir,
    };
    let tools = registry(Dialect::Ceecore, &reopened, sink(Ok("43")));
    let still = err(&tools, &reopened, "send_notification", args).await;
    assert_eq!(still.kind, ErrorKind::RateLimited);
}

#[tokio::test]
async fn failures_are_reported_and_not_counted() {
    let env = Env::create();
    let failing = registry(
        Dialect::Echo,
        &env,
        sink(Err("org.freedesktop.Notifications was not provided")),
    );
    for _ in 0..12 {
        let error = err(
            &failing,
            &env,
            "send_notification",
            r#"{"title":"t","message":"m"}"#,
        )
        .await;
        assert_eq!(error.kind, ErrorKind::DeliveryFailed);
        assert!(error.message.starts_with("failed:"), "{}", error.message);
        assert!(error.message.contains("not provided"), "{}", error.message);
    }
    let recording = sink(Ok("7"));
    let working = registry(Dialect::Hearth, &env, recording.clone());
    let low = ok(
        &working,
        &env,
        "send_notification",
        r#"{"title":"t","message":"m","priority":"low","badge":3}"#,
    )
    .await;
    assert_eq!(low["sound"], false);
    assert_eq!(low["sent_this_hour"], 1);
    assert_eq!(low["badge"]["requested"], 3);
    ok(
        &working,
        &env,
        "send_notification",
        r#"{"title":"t","message":"m","priority":"high","sound":false}"#,
    )
    .await;
    let shown = recording
        .shown
        .lock()
        .map(|s| s.clone())
        .unwrap_or_default();
    assert_eq!(shown[0], ("t".into(), "m".into(), false, false));
    assert_eq!(shown[1], ("t".into(), "m".into(), true, false));
}

#[tokio::test]
async fn send_notification_refuses_malformed_arguments() {
    let env = Env::create();
    let tools = registry(Dialect::Hearth, &env, sink(Ok("1")));
    let long = "长".repeat(501);
    let cases = [
        (r#"{"message":"m"}"#.to_string(), "title"),
        (r#"{"title":"t"}"#.to_string(), "message"),
        (format!(r#"{{"title":"t","message":"{long}"}}"#), "message"),
        (r#"{"title":"  ","message":"m"}"#.to_string(), "title"),
        (r#"{"title":"t","message":"   "}"#.to_string(), "message"),
        (
            r#"{"title":"t","message":"m","priority":"urgent"}"#.to_string(),
            "priority",
        ),
        (
            r#"{"title":"t","message":"m","sound":"loud"}"#.to_string(),
            "sound",
        ),
        (
            r#"{"title":"t","message":"m","badge":-1}"#.to_string(),
            "badge",
        ),
        (
            r#"{"title":"t","message":"m","colour":"red"}"#.to_string(),
            "colour",
        ),
    ];
    for (args, field) in cases {
        let error = err(&tools, &env, "send_notification", &args).await;
        assert_eq!(error.kind, ErrorKind::InvalidArguments, "{args}");
        assert_eq!(error.field.as_deref(), Some(field), "{args}: {error:?}");
    }
    let exactly = format!(r#"{{"title":"t","message":"{}"}}"#, "长".repeat(500));
    ok(&tools, &env, "send_notification", &exactly).await;
}
