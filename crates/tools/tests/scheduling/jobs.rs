//! `cronjob` and `schedule_task`: names and schemas per dialect, facts, the full action cycle,
//! the honest "nothing will run it" result, and malformed arguments.

use hearth_policy::{canonical_tool, ToolProfile};
use hearth_tools::{authorizable_tools, Dialect, ErrorKind, NOT_RUNNING};

use crate::scheduling::{err, jobs_registry, ok, Env};

#[test]
fn names_schemas_and_facts_per_dialect() {
    let env = Env::create();
    let expected: [(Dialect, &[&str]); 4] = [
        (Dialect::Hearth, &["cronjob"]),
        (Dialect::Echo, &["cronjob"]),
        (Dialect::Ceecore, &["schedule_task"]),
        (
            Dialect::Picobot,
            &[
                "cron_add",
                "cron_disable",
                "cron_enable",
                "cron_list",
                "cron_remove",
                "cron_update",
            ],
        ),
    ];
    for (dialect, names) in expected {
        let registry = jobs_registry(dialect, &env);
        let specs = registry.specs(ToolProfile::Full);
        let listed: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(listed, names, "{dialect}");
        for spec in &specs {
            let facts = registry.facts(&spec.name);
            assert_eq!(
                facts,
                canonical_tool("cronjob").map(|c| c.facts()),
                "{}",
                spec.name
            );
        }
        insta::assert_json_snapshot!(format!("jobs_{dialect}"), specs);
    }
    let scope = authorizable_tools();
    assert!(scope.contains(&"exec".to_string()) && !scope.contains(&"cronjob".to_string()));
}

#[tokio::test]
async fn cronjob_cycle_without_and_with_a_scheduler() {
    let env = Env::create();
    let registry = jobs_registry(Dialect::Hearth, &env);
    let created = ok(
        &registry,
        &env,
        "cronjob",
        r#"{"action":"create","name":"news","schedule":"every weekday at 9:30","command":"Summarise today's headlines"}"#,
    )
    .await;
    assert_eq!(created["status"], "saved_not_scheduled");
    assert_eq!(created["scheduler"]["running"], false);
    assert_eq!(created["scheduler"]["note"], NOT_RUNNING);
    assert_eq!(created["job"]["target"], "desktop:test");
    assert_eq!(created["job"]["authorization"], "not_authorized");
    assert_eq!(created["next_runs"].as_array().map(Vec::len), Some(5));
    let next = created["job"]["next_run"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        chrono::DateTime::parse_from_rfc3339(&next).is_ok(),
        "{next}"
    );
    assert!(
        next.contains('+') || next.rfind('-').is_some_and(|i| i > 10),
        "{next}"
    );
    let id = created["job"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();

    env.scheduler_alive();
    let second = ok(
        &registry,
        &env,
        "cronjob",
        r#"{"action":"create","name":"ping","schedule":"{\"type\":\"every\",\"every_ms\":3600000}","command":"ping","target_channel":"desktop","target_chat_id":"other"}"#,
    )
    .await;
    assert_eq!(second["status"], "scheduled");
    assert_eq!(second["job"]["target"], "desktop:other");

    let listed = ok(&registry, &env, "cronjob", r#"{"action":"list"}"#).await;
    assert_eq!(listed["count"], 2);
    assert_eq!(listed["scheduler"]["running"], true);
    for job in listed["jobs"].as_array().into_iter().flatten() {
        let next = job["next_run"].as_str().unwrap_or_default();
        assert!(chrono::DateTime::parse_from_rfc3339(next).is_ok(), "{next}");
    }

    let grant = ok(
        &registry,
        &env,
        "cronjob",
        &format!(r#"{{"action":"authorize","job_id":"{id}"}}"#),
    )
    .await;
    assert_eq!(grant["instruction"], "Summarise today's headlines");
    assert_eq!(grant["delivery_target"], "desktop:test");
    assert_eq!(
        grant["frequency"]["next_runs"].as_array().map(Vec::len),
        Some(5)
    );
    assert!(grant["frequency"]["description"]
        .as_str()
        .is_some_and(|d| d.contains("09:30")));
    assert_eq!(grant["job"]["authorization"], "authorized");
    assert_eq!(grant["tools"], serde_json::json!(authorizable_tools()));

    let triggered = ok(
        &registry,
        &env,
        "cronjob",
        r#"{"action":"trigger","job_id":"news"}"#,
    )
    .await;
    assert_eq!(triggered["status"], "queued");
    assert_eq!(triggered["job"]["run_requested"], true);
    let revoked = ok(
        &registry,
        &env,
        "cronjob",
        r#"{"action":"revoke","job_id":"news"}"#,
    )
    .await;
    assert_eq!(revoked["job"]["authorization"], "not_authorized");
    let deleted = ok(
        &registry,
        &env,
        "cronjob",
        &format!(r#"{{"action":"delete","job_id":"{id}"}}"#),
    )
    .await;
    assert_eq!(deleted["deleted"]["name"], "news");
    let gone = err(
        &registry,
        &env,
        "cronjob",
        &format!(r#"{{"action":"trigger","job_id":"{id}"}}"#),
    )
    .await;
    assert_eq!(gone.kind, ErrorKind::NotFound);
}

#[tokio::test]
async fn cronjob_refuses_malformed_arguments() {
    let env = Env::create();
    let registry = jobs_registry(Dialect::Echo, &env);
    let create = |extra: &str| {
        format!(r#"{{"action":"create","name":"n","schedule":"0 8 * * *","command":"c"{extra}}}"#)
    };
    let cases: Vec<(String, Option<&str>)> = vec![
        ("{}".into(), Some("action")),
        (r#"{"action":"explode"}"#.into(), Some("action")),
        (r#"{"action":"list","bogus":1}"#.into(), Some("bogus")),
        (r#"{"action":"create","schedule":"0 8 * * *","command":"c"}"#.into(), Some("name")),
        (r#"{"action":"create","name":"n","command":"c"}"#.into(), Some("schedule")),
        (r#"{"action":"create","name":"n","schedule":"0 8 * * *"}"#.into(), Some("command")),
        (r#"{"action":"create","name":"n","schedule":"  ","command":"c"}"#.into(), Some("schedule")),
        (r#"{"action":"create","name":"n","schedule":"when pigs fly","command":"c"}"#.into(), Some("schedule")),
        (r#"{"action":"create","name":"n","schedule":"*/10 * * * * *","command":"c"}"#.into(), Some("schedule")),
        (r#"{"action":"create","name":"n","schedule":"{\"type\":\"at\",\"at\":1}","command":"c"}"#.into(), Some("schedule")),
        (r#"{"action":"create","name":"n","schedule":"{\"type\":\"cron\",\"expr\":\"0 8 * * *\",\"tz\":\"Nowhere\"}","command":"c"}"#.into(), Some("schedule")),
        (create(r#","target_channel":"desktop""#), Some("target_chat_id")),
        (create(r#","target_chat_id":"x""#), Some("target_channel")),
        (create(r#","target_channel":"bad channel","target_chat_id":"x""#), Some("target_channel")),
        (format!(r#"{{"action":"create","name":"{}","schedule":"0 8 * * *","command":"c"}}"#, "n".repeat(101)), Some("name")),
        (r#"{"action":"delete"}"#.into(), Some("job_id")),
        (r#"{"action":"trigger","job_id":""}"#.into(), Some("job_id")),
        (r#"{"action":"authorize"}"#.into(), Some("job_id")),
        (r#"{"action":"revoke","job_id":7}"#.into(), Some("job_id")),
    ];
    for (args, field) in cases {
        let error = err(&registry, &env, "cronjob", &args).await;
        assert_eq!(error.kind, ErrorKind::InvalidArguments, "{args}: {error:?}");
        if field.is_some() {
            assert_eq!(error.field.as_deref(), field, "{args}: {error:?}");
        }
    }
    let missing = err(
        &registry,
        &env,
        "cronjob",
        r#"{"action":"authorize","job_id":"nope"}"#,
    )
    .await;
    assert_eq!(missing.kind, ErrorKind::NotFound);
    ok(&registry, &env, "cronjob", &create("")).await;
    let taken = err(&registry, &env, "cronjob", &create("")).await;
    assert_eq!(
        (taken.kind, taken.field.as_deref()),
        (ErrorKind::InvalidArguments, Some("name"))
    );
    for i in 1..20 {
        ok(
            &registry,
            &env,
            "cronjob",
            &create(&format!(r#","name":"n{i}""#)),
        )
        .await;
    }
    let capped = err(
        &registry,
        &env,
        "cronjob",
        &create(r#","name":"twenty-first""#),
    )
    .await;
    assert_eq!(capped.kind, ErrorKind::NotPermitted);
    assert!(capped.message.contains("20"), "{}", capped.message);
}

#[tokio::test]
async fn schedule_task_creates_named_tasks() {
    let env = Env::create();
    let registry = jobs_registry(Dialect::Ceecore, &env);
    let made = ok(
        &registry,
        &env,
        "schedule_task",
        r#"{"name":"morning-weather","schedule":"0 8 * * *","action":"获取天气数据并推送给用户"}"#,
    )
    .await;
    assert_eq!(made["status"], "saved_not_scheduled");
    assert_eq!(made["enabled"], true);
    assert!(made["next_run"].as_str().is_some());
    let parked = ok(
        &registry,
        &env,
        "schedule_task",
        r#"{"name":"later","schedule":"每周一上午9点","action":"周报","enabled":false}"#,
    )
    .await;
    assert_eq!(parked["status"], "disabled");
    assert_eq!(parked["next_run"], serde_json::Value::Null);
    assert_eq!(parked["schedule"]["expr"], "0 9 * * 1");
    let cases = [
        (r#"{"schedule":"0 8 * * *","action":"a"}"#, "name"),
        (r#"{"name":"x","action":"a"}"#, "schedule"),
        (r#"{"name":"x","schedule":"0 8 * * *"}"#, "action"),
        (
            r#"{"name":"x","schedule":"0 8 * * *","action":""}"#,
            "action",
        ),
        (
            r#"{"name":"x","schedule":"sometimes","action":"a"}"#,
            "schedule",
        ),
        (
            r#"{"name":"x","schedule":"0 8 * * *","action":"a","enabled":"yes"}"#,
            "enabled",
        ),
        (
            r#"{"name":"morning-weather","schedule":"0 8 * * *","action":"a"}"#,
            "name",
        ),
        (
            r#"{"name":"x","schedule":"0 8 * * *","action":"a","priority":1}"#,
            "priority",
        ),
    ];
    for (args, field) in cases {
        let error = err(&registry, &env, "schedule_task", args).await;
        assert_eq!(error.kind, ErrorKind::InvalidArguments, "{args}");
        assert_eq!(error.field.as_deref(), Some(field), "{args}: {error:?}");
    }
}
