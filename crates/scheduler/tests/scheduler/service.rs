//! The job service over a real SQLite file: views with RFC 3339 next runs in the job's zone,
//! the cap of 20 enabled jobs, unique names, authorization invalidated by each bound field,
//! validation of every input, previews and the scheduler's liveness.

use hearth_scheduler::{JobEdit, JobError, JobFilter, Schedule};
use hearth_store::{AuthorizationState, JobsError, MAX_ENABLED_JOBS};

use crate::support::{spec, Env};
use crate::utc;

fn env() -> Env {
    Env::new(utc(2025, 3, 8, 12, 0))
}

#[test]
fn views_show_the_next_run_in_the_jobs_zone() {
    let env = env();
    let mut new = spec("standup", "every weekday at 9:30");
    new.tz = Some("America/New_York".into());
    let view = env
        .service()
        .blocking()
        .create(new)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(view.tz, "America/New_York");
    // 2025-03-08 is a Saturday; Monday 10 March is after the change to EDT.
    assert_eq!(view.next_run.as_deref(), Some("2025-03-10T09:30:00-04:00"));
    assert_eq!(
        view.schedule,
        serde_json::json!({"type": "cron", "expr": "30 9 * * 1-5"})
    );
    assert_eq!(view.authorization, AuthorizationState::NotAuthorized);
    let json = serde_json::to_value(&view).unwrap_or_default();
    assert_eq!(json["authorization"], "not_authorized");
    let zoned = Schedule::parse(r#"{"type":"cron","expr":"0 0 9 * * *","tz":"Asia/Shanghai"}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut new = spec("shanghai", "0 9 * * *");
    new.schedule = zoned;
    let view = env
        .service()
        .blocking()
        .create(new)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(view.tz, "Asia/Shanghai");
    assert_eq!(view.next_run.as_deref(), Some("2025-03-09T09:00:00+08:00"));
}

#[test]
fn at_most_twenty_enabled_jobs() {
    let env = env();
    let service = env.service();
    for i in 0..MAX_ENABLED_JOBS {
        service
            .blocking()
            .create(spec(&format!("job {i}"), "0 8 * * *"))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let refused = service.blocking().create(spec("one too many", "0 8 * * *"));
    assert!(matches!(
        refused,
        Err(JobError::Jobs(JobsError::TooManyEnabled { limit: 20 }))
    ));
    let mut disabled = spec("parked", "0 8 * * *");
    disabled.enabled = false;
    let parked = service
        .blocking()
        .create(disabled)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parked.next_run, None);
    assert!(service.blocking().set_enabled(&parked.id, true).is_err());
    service
        .blocking()
        .set_enabled("job 0", false)
        .unwrap_or_else(|e| panic!("{e}"));
    let enabled = service
        .blocking()
        .set_enabled("parked", true)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        enabled.next_run.as_deref(),
        Some("2025-03-09T08:00:00+00:00")
    );
    assert_eq!(
        service
            .blocking()
            .list(JobFilter::Enabled)
            .map(|l| l.len())
            .ok(),
        Some(20)
    );
    assert_eq!(
        service
            .blocking()
            .list(JobFilter::Disabled)
            .map(|l| l.len())
            .ok(),
        Some(1)
    );
    assert_eq!(
        service
            .blocking()
            .list(JobFilter::All)
            .map(|l| l.len())
            .ok(),
        Some(21)
    );
}

#[test]
fn names_are_unique_ignoring_case() {
    let env = env();
    let service = env.service();
    service
        .blocking()
        .create(spec("Report", "0 8 * * *"))
        .unwrap_or_else(|e| panic!("{e}"));
    let other = service
        .blocking()
        .create(spec("other", "0 8 * * *"))
        .unwrap_or_else(|e| panic!("{e}"));
    let taken = service.blocking().create(spec("report", "0 9 * * *"));
    assert!(matches!(
        taken,
        Err(JobError::Jobs(JobsError::NameTaken(_)))
    ));
    let rename = JobEdit {
        name: Some("REPORT".into()),
        ..JobEdit::default()
    };
    let refused = service.blocking().edit(&other.id, rename).err();
    assert_eq!(refused.as_ref().and_then(JobError::field), Some("name"));
}

#[test]
fn changing_any_bound_field_needs_reapproval() {
    let env = env();
    let service = env.service();
    let job = service
        .blocking()
        .create(spec("bound", "0 8 * * *"))
        .unwrap_or_else(|e| panic!("{e}"));
    let tools = ["exec".to_string(), "pty".to_string()];
    let edits: Vec<(&str, JobEdit)> = vec![
        (
            "prompt",
            JobEdit {
                prompt: Some("new instruction".into()),
                ..JobEdit::default()
            },
        ),
        (
            "schedule",
            JobEdit {
                schedule: Schedule::parse("0 9 * * *").ok(),
                ..JobEdit::default()
            },
        ),
        (
            "tz",
            JobEdit {
                tz: Some("Europe/Berlin".into()),
                ..JobEdit::default()
            },
        ),
        (
            "target",
            JobEdit {
                target: Some(Some("webhook:ops".into())),
                ..JobEdit::default()
            },
        ),
        (
            "no target",
            JobEdit {
                target: Some(None),
                ..JobEdit::default()
            },
        ),
    ];
    for (field, edit) in edits {
        let grant = service
            .blocking()
            .authorize(&job.id, &tools)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(grant.job.authorization, AuthorizationState::Authorized);
        let edited = service
            .blocking()
            .edit(&job.id, edit)
            .unwrap_or_else(|e| panic!("{field}: {e}"));
        assert_eq!(
            edited.authorization,
            AuthorizationState::NeedsReapproval,
            "{field}"
        );
        assert!(edited.authorized_tools.is_empty(), "{field}");
    }
    // Fields outside the binding keep it.
    let grant = service
        .blocking()
        .authorize(&job.id, &tools)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(grant.tools, tools);
    let kept = JobEdit {
        name: Some("renamed".into()),
        model: Some(Some("gpt-x".into())),
        notify: Some(false),
        ..JobEdit::default()
    };
    let edited = service
        .blocking()
        .edit(&job.id, kept)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(edited.authorization, AuthorizationState::Authorized);
    assert_eq!(edited.authorized_tools, tools);
    // A different tool scope is a different binding.
    let stored = service
        .blocking()
        .find(&job.id)
        .unwrap_or_else(|e| panic!("{e}"));
    let fewer = stored.binding_hash(&["exec".to_string()]);
    assert_ne!(Some(fewer), stored.authorization.map(|a| a.hash));
    let revoked = service
        .blocking()
        .revoke("renamed")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(revoked.authorization, AuthorizationState::NotAuthorized);
}

#[test]
fn authorization_grant_shows_what_it_binds() {
    let env = env();
    let service = env.service();
    let job = service
        .blocking()
        .create(spec("brief", "every 6 hours"))
        .unwrap_or_else(|e| panic!("{e}"));
    let grant = service
        .blocking()
        .authorize(&job.id, &["exec".to_string()])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(grant.instruction, "do the brief thing");
    assert_eq!(
        grant.delivery_target.as_deref(),
        Some("desktop:target-session")
    );
    assert_eq!(
        grant.frequency.description,
        "At minute 0, of every 6 hours."
    );
    assert_eq!(
        grant.frequency.next_runs,
        [
            "2025-03-08T18:00:00+00:00",
            "2025-03-09T00:00:00+00:00",
            "2025-03-09T06:00:00+00:00",
            "2025-03-09T12:00:00+00:00",
            "2025-03-09T18:00:00+00:00"
        ]
    );
}

#[test]
fn bad_input_names_the_field() {
    let env = env();
    let service = env.service();
    type Mutation = Box<dyn Fn(&mut hearth_scheduler::JobSpec)>;
    let cases: Vec<(&str, Mutation)> = vec![
        ("name", Box::new(|s| s.name = "  ".into())),
        ("name", Box::new(|s| s.name = "x".repeat(101))),
        ("name", Box::new(|s| s.name = "bad\nname".into())),
        ("prompt", Box::new(|s| s.prompt = String::new())),
        ("prompt", Box::new(|s| s.prompt = "p".repeat(20_001))),
        ("target", Box::new(|s| s.target = Some("no-colon".into()))),
        ("target", Box::new(|s| s.target = Some(":chat".into()))),
        (
            "target",
            Box::new(|s| s.target = Some("bad channel:chat".into())),
        ),
        ("tz", Box::new(|s| s.tz = Some("Mars/Base".into()))),
        (
            "schedule",
            Box::new(|s| s.schedule = hearth_scheduler::Schedule::At { at: 0 }),
        ),
        (
            "schedule",
            Box::new(|s| {
                s.schedule = hearth_scheduler::Schedule::Cron {
                    expr: "*/5 * * * * *".into(),
                    tz: None,
                }
            }),
        ),
    ];
    for (field, mutate) in cases {
        let mut new = spec("x", "0 8 * * *");
        mutate(&mut new);
        let error = service.blocking().create(new).err();
        assert_eq!(
            error.as_ref().and_then(JobError::field),
            Some(field),
            "{error:?}"
        );
    }
    assert!(matches!(
        service.blocking().get("nope"),
        Err(JobError::Jobs(JobsError::NotFound(_)))
    ));
    assert!(service.blocking().trigger("nope").is_err());
    assert!(service.blocking().delete("nope").is_err());
    assert!(service.blocking().revoke("nope").is_err());
    assert!(service.blocking().history("nope", 5).is_err());
}

#[test]
fn preview_and_liveness() {
    let env = env();
    let service = env.service();
    let schedule = Schedule::parse("每周一上午9点").unwrap_or_else(|e| panic!("{e}"));
    let preview = service
        .preview(&schedule, Some("Asia/Shanghai"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(preview.next_runs.len(), 5);
    assert_eq!(preview.next_runs[0], "2025-03-10T09:00:00+08:00");
    assert_eq!(preview.tz, "Asia/Shanghai");
    let status = service
        .blocking()
        .scheduler_status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!status.alive);
    let now = utc(2025, 3, 8, 12, 0).timestamp_millis();
    env.store
        .scheduler_heartbeat("other", 4242, now - 60_000, 90_000)
        .unwrap_or_else(|e| panic!("{e}"));
    let status = service
        .blocking()
        .scheduler_status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(status.alive);
    assert_eq!(status.pid, Some(4242));
    env.clock.advance(std::time::Duration::from_secs(60));
    assert!(!service.blocking().scheduler_status().is_ok_and(|s| s.alive));
    let deleted = service
        .blocking()
        .create(spec("gone", "0 8 * * *"))
        .unwrap_or_else(|e| panic!("{e}"));
    service
        .blocking()
        .delete("gone")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(service.blocking().get(&deleted.id).is_err());
}
