//! PicoBot's `cron_*` tools: add with each schedule form and a model, list by status, update
//! (voiding an authorization), enable/disable/remove, and malformed arguments for each.

use hearth_tools::{Dialect, ErrorKind};
use serde_json::Value;

use crate::scheduling::{err, jobs_registry, ok, Env};

#[tokio::test]
async fn cron_tools_cycle() {
    let env = Env::create();
    let registry = jobs_registry(Dialect::Picobot, &env);
    let added = ok(
        &registry,
        &env,
        "cron_add",
        r#"{"schedule":{"type":"cron","expr":"0 0 9 * * *","tz":"Asia/Shanghai"},"prompt":"daily report","channel":"desktop","chat_id":"abc","name":"report","model":"small-model"}"#,
    )
    .await;
    assert_eq!(added["status"], "saved_not_scheduled");
    let job = &added["job"];
    assert_eq!(job["model"], "small-model");
    assert_eq!(job["tz"], "Asia/Shanghai");
    assert_eq!(job["target"], "desktop:abc");
    assert!(job["next_run"]
        .as_str()
        .is_some_and(|t| t.ends_with("T09:00:00+08:00")));
    let id = added["job_id"].as_str().unwrap_or_default().to_string();
    let every = ok(
        &registry,
        &env,
        "cron_add",
        r#"{"schedule":{"type":"every","every_ms":3600000},"prompt":"p","channel":"desktop","chat_id":"desktop:abc"}"#,
    )
    .await;
    assert!(every["job"]["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("cron-")));
    assert_eq!(every["job"]["target"], "desktop:abc");
    let at = chrono::Utc::now().timestamp_millis() + 3_600_000;
    ok(
        &registry,
        &env,
        "cron_add",
        &format!(r#"{{"schedule":{{"type":"at","at":{at}}},"prompt":"p","channel":"desktop","chat_id":"x","name":"once"}}"#),
    )
    .await;
    ok(&registry, &env, "cron_add", r#"{"schedule":"every 6 hours","prompt":"p","channel":"desktop","chat_id":"x","name":"text"}"#).await;

    let disabled = ok(&registry, &env, "cron_disable", r#"{"job_id":"text"}"#).await;
    assert_eq!(disabled["enabled"], false);
    let count = |v: &Value| v["count"].as_u64();
    assert_eq!(
        count(&ok(&registry, &env, "cron_list", "{}").await),
        Some(4)
    );
    assert_eq!(
        count(&ok(&registry, &env, "cron_list", r#"{"status":"enabled"}"#).await),
        Some(3)
    );
    assert_eq!(
        count(&ok(&registry, &env, "cron_list", r#"{"status":"disabled"}"#).await),
        Some(1)
    );
    let enabled = ok(&registry, &env, "cron_enable", r#"{"job_id":"text"}"#).await;
    assert!(enabled["next_run"].as_str().is_some());

    let service = hearth_scheduler::JobService::new(
        env.store.clone(),
        std::sync::Arc::new(hearth_scheduler::SystemClock),
        hearth_scheduler::system_zone(),
    );
    service
        .blocking()
        .authorize(&id, &["exec".to_string()])
        .unwrap_or_else(|e| panic!("{e}"));
    let updated = ok(
        &registry,
        &env,
        "cron_update",
        &format!(r#"{{"job_id":"{id}","chat_id":"elsewhere","model":"big-model"}}"#),
    )
    .await;
    assert_eq!(updated["job"]["target"], "desktop:elsewhere");
    assert_eq!(updated["job"]["model"], "big-model");
    assert_eq!(updated["job"]["authorization"], "needs_reapproval");
    let rescheduled = ok(
        &registry,
        &env,
        "cron_update",
        &format!(r#"{{"job_id":"{id}","schedule":"0 30 7 * * *"}}"#),
    )
    .await;
    assert_eq!(rescheduled["job"]["schedule"]["expr"], "0 30 7 * * *");
    assert!(rescheduled["job"]["next_run"]
        .as_str()
        .is_some_and(|t| t.ends_with("T07:30:00+08:00")));

    let removed = ok(
        &registry,
        &env,
        "cron_remove",
        &format!(r#"{{"job_id":"{id}"}}"#),
    )
    .await;
    assert_eq!(removed["removed"], true);
    let again = err(
        &registry,
        &env,
        "cron_remove",
        &format!(r#"{{"job_id":"{id}"}}"#),
    )
    .await;
    assert_eq!(again.kind, ErrorKind::NotFound);
}

#[tokio::test]
async fn cron_tools_refuse_malformed_arguments() {
    let env = Env::create();
    let registry = jobs_registry(Dialect::Picobot, &env);
    ok(
        &registry,
        &env,
        "cron_add",
        r#"{"schedule":"0 8 * * *","prompt":"p","channel":"desktop","chat_id":"x","name":"base"}"#,
    )
    .await;
    let add = |schedule: &str| {
        format!(r#"{{"schedule":{schedule},"prompt":"p","channel":"desktop","chat_id":"x"}}"#)
    };
    let cases: Vec<(&str, String, Option<&str>)> = vec![
        ("cron_add", r#"{"prompt":"p","channel":"desktop","chat_id":"x"}"#.into(), Some("schedule")),
        ("cron_add", r#"{"schedule":"0 8 * * *","channel":"desktop","chat_id":"x"}"#.into(), Some("prompt")),
        ("cron_add", r#"{"schedule":"0 8 * * *","prompt":"p","chat_id":"x"}"#.into(), Some("channel")),
        ("cron_add", r#"{"schedule":"0 8 * * *","prompt":"p","channel":"desktop"}"#.into(), Some("chat_id")),
        ("cron_add", r#"{"schedule":"0 8 * * *","prompt":"p","channel":"desktop","chat_id":""}"#.into(), Some("chat_id")),
        ("cron_add", add(r#"{"type":"every","every_ms":1000}"#), None),
        ("cron_add", add(r#"{"type":"weekly"}"#), None),
        ("cron_add", add(r#"{"type":"cron","expr":"bad"}"#), Some("schedule")),
        ("cron_add", add(r#"{"type":"cron","expr":"0 8 * * *","tz":"Mars/Base"}"#), Some("schedule")),
        ("cron_add", add(r#"{"type":"at","at":5}"#), Some("schedule")),
        ("cron_add", add("42"), Some("schedule")),
        ("cron_add", add(r#""someday""#), Some("schedule")),
        ("cron_add", r#"{"schedule":"0 8 * * *","prompt":"p","channel":"desktop","chat_id":"x","name":"BASE"}"#.into(), Some("name")),
        ("cron_list", r#"{"status":"paused"}"#.into(), Some("status")),
        ("cron_list", r#"{"extra":true}"#.into(), Some("extra")),
        ("cron_update", r#"{"prompt":"p"}"#.into(), Some("job_id")),
        ("cron_update", r#"{"job_id":"base"}"#.into(), Some("job_id")),
        ("cron_update", r#"{"job_id":"base","prompt":""}"#.into(), Some("prompt")),
        ("cron_update", r#"{"job_id":"base","schedule":"never"}"#.into(), Some("schedule")),
        ("cron_remove", "{}".into(), Some("job_id")),
        ("cron_enable", r#"{"job_id":""}"#.into(), Some("job_id")),
        ("cron_disable", r#"{"job_id":["base"]}"#.into(), Some("job_id")),
    ];
    for (tool, args, field) in cases {
        let error = err(&registry, &env, tool, &args).await;
        assert_eq!(
            error.kind,
            ErrorKind::InvalidArguments,
            "{tool} {args}: {error:?}"
        );
        if field.is_some() {
            assert_eq!(error.field.as_deref(), field, "{tool} {args}: {error:?}");
        }
    }
    for tool in ["cron_update", "cron_remove", "cron_enable", "cron_disable"] {
        let missing = err(&registry, &env, tool, r#"{"job_id":"nope","prompt":"x"}"#).await;
        // cron_update accepts prompt; the others refuse it as unknown.
        let expected = if tool == "cron_update" {
            ErrorKind::NotFound
        } else {
            ErrorKind::InvalidArguments
        };
        assert_eq!(missing.kind, expected, "{tool}");
    }
    for tool in ["cron_remove", "cron_enable", "cron_disable"] {
        let missing = err(&registry, &env, tool, r#"{"job_id":"nope"}"#).await;
        assert_eq!(missing.kind, ErrorKind::NotFound, "{tool}");
    }
}
