//! Unit tests of the jobs aggregate: creation limits, edits and the authorization binding, run
//! claiming (overlap, stale claims, one-shot completion), the lease, and the notification log
//! across a reopen of the same file.

use super::*;

fn store_at(dir: &tempfile::TempDir) -> Store {
    match Store::open(&dir.path().join("hearth.db")) {
        Ok(store) => store,
        Err(e) => panic!("open: {e}"),
    }
}

fn temp() -> tempfile::TempDir {
    match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => panic!("tempdir: {e}"),
    }
}

fn new_job(name: &str, enabled: bool) -> NewJob {
    NewJob {
        name: name.to_string(),
        schedule: r#"{"type":"cron","expr":"0 8 * * *"}"#.to_string(),
        tz: "UTC".to_string(),
        prompt: "summarise the news".to_string(),
        target: Some("desktop:abc".to_string()),
        model: None,
        enabled,
        notify: true,
        next_run_at: enabled.then_some(1_000),
        skill: None,
    }
}

fn create(store: &Store, name: &str, enabled: bool) -> Job {
    match store.create_job(&new_job(name, enabled), 10) {
        Ok(job) => job,
        Err(e) => panic!("create {name}: {e}"),
    }
}

#[test]
fn create_enforces_unique_names_and_the_enabled_cap() {
    let dir = temp();
    let store = store_at(&dir);
    for i in 0..MAX_ENABLED_JOBS {
        create(&store, &format!("job{i}"), true);
    }
    assert!(matches!(
        store.create_job(&new_job("JOB0", false), 10),
        Err(JobsError::NameTaken(_))
    ));
    assert!(matches!(
        store.create_job(&new_job("extra", true), 10),
        Err(JobsError::TooManyEnabled { limit: 20 })
    ));
    let parked = create(&store, "parked", false);
    assert!(matches!(
        store.set_job_enabled(&parked.id, true, Some(5), 11),
        Err(JobsError::TooManyEnabled { .. })
    ));
    let first = store
        .find_job("job0")
        .ok()
        .flatten()
        .map(|j| j.id)
        .unwrap_or_default();
    assert!(store.set_job_enabled(&first, false, None, 11).is_ok());
    let enabled = store.set_job_enabled(&parked.id, true, Some(5), 11);
    assert_eq!(enabled.ok().and_then(|j| j.next_run_at), Some(5));
    assert_eq!(store.list_jobs().map(|l| l.len()).ok(), Some(21));
    assert!(matches!(
        store.delete_job("nope"),
        Err(JobsError::NotFound(_))
    ));
}

#[test]
fn each_bound_field_voids_the_authorization() {
    let dir = temp();
    let store = store_at(&dir);
    let job = create(&store, "bound", true);
    assert_eq!(job.authorization_state(), AuthorizationState::NotAuthorized);
    let tools = vec!["pty".to_string(), "exec".to_string(), "exec".to_string()];
    let patches = [
        JobPatch {
            prompt: Some("other".into()),
            ..JobPatch::default()
        },
        JobPatch {
            schedule: Some(r#"{"type":"every","every_ms":60000}"#.into()),
            ..JobPatch::default()
        },
        JobPatch {
            tz: Some("Asia/Shanghai".into()),
            ..JobPatch::default()
        },
        JobPatch {
            target: Some(Some("desktop:other".into())),
            ..JobPatch::default()
        },
    ];
    for patch in patches {
        let authorized = store
            .authorize_job(&job.id, &tools, 20)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            authorized.authorization_state(),
            AuthorizationState::Authorized
        );
        let auth = authorized
            .authorization
            .clone()
            .unwrap_or_else(|| panic!("no auth"));
        assert_eq!(auth.tools, ["exec", "pty"]);
        assert_eq!(authorized.authorized_tools().map(<[String]>::len), Some(2));
        let edited = store
            .update_job(&job.id, &patch, 30)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            edited.authorization_state(),
            AuthorizationState::NeedsReapproval,
            "{patch:?}"
        );
        assert_eq!(edited.authorized_tools(), None);
    }
    let authorized = store
        .authorize_job(&job.id, &tools, 40)
        .unwrap_or_else(|e| panic!("{e}"));
    let unbound = JobPatch {
        name: Some("renamed".into()),
        model: Some(Some("m".into())),
        notify: Some(false),
        next_run_at: Some(None),
        ..JobPatch::default()
    };
    let edited = store
        .update_job(&authorized.id, &unbound, 50)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(edited.authorization_state(), AuthorizationState::Authorized);
    assert_eq!(edited.updated_at, 50);
    let revoked = store
        .revoke_job_authorization(&job.id, 60)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(revoked.authorization, None);
    let hashes = [
        authorization_hash("a", "s", "z", None, &[]),
        authorization_hash("a", "s", "z", Some(""), &[]),
        authorization_hash("as", "", "z", None, &[]),
        authorization_hash("a", "s", "z", None, &["exec".into()]),
    ];
    assert_eq!(
        hashes[0], hashes[1],
        "a missing target hashes as an empty one"
    );
    assert_ne!(hashes[0], hashes[2], "fields are length-prefixed");
    assert_ne!(hashes[0], hashes[3]);
    assert_eq!(hashes[0].len(), 64);
}

#[test]
fn claiming_runs_overlap_and_staleness() {
    let dir = temp();
    let store = store_at(&dir);
    let job = create(&store, "claim", true);
    let scheduled = |due, next| RunStart {
        job_id: job.id.clone(),
        kind: RunKind::Scheduled {
            due,
            next,
            catch_up: false,
        },
        authorized: false,
        now: due,
    };
    assert_eq!(store.due_jobs(999).map(|j| j.len()).ok(), Some(0));
    assert_eq!(store.due_jobs(1_000).map(|j| j.len()).ok(), Some(1));
    let first = store
        .begin_job_run(&scheduled(1_000, Some(2_000)))
        .unwrap_or_else(|e| panic!("{e}"));
    let RunBegin::Started {
        run_id,
        job: claimed,
    } = first
    else {
        panic!("{first:?}")
    };
    assert_eq!(
        (claimed.next_run_at, claimed.last_run_at),
        (Some(2_000), Some(1_000))
    );
    // The same fire time again is stale; the next one overlaps the running run.
    assert_eq!(
        store.begin_job_run(&scheduled(1_000, Some(2_000))).ok(),
        Some(RunBegin::Stale)
    );
    let overlap = store
        .begin_job_run(&scheduled(2_000, Some(3_000)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(overlap, RunBegin::SkippedOverlap { .. }));
    store
        .finish_job_run(run_id, RunStatus::Ok, Some("out"), None, 2_500)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(store
        .finish_job_run(run_id, RunStatus::Ok, None, None, 2_600)
        .is_err());
    store
        .request_job_run(&job.id, 2_700)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.next_wake_at().ok().flatten(), Some(2_700));
    let manual = RunStart {
        job_id: job.id.clone(),
        kind: RunKind::Manual,
        authorized: true,
        now: 2_700,
    };
    let begun = store
        .begin_job_run(&manual)
        .unwrap_or_else(|e| panic!("{e}"));
    let RunBegin::Started {
        run_id: manual_id, ..
    } = begun
    else {
        panic!("{begun:?}")
    };
    assert_eq!(store.begin_job_run(&manual).ok(), Some(RunBegin::Stale));
    assert_eq!(
        store
            .interrupt_running_runs(&hearth_protocol::AppError::RunInterrupted, 2_800)
            .ok(),
        Some(1)
    );
    // A finished schedule (no next run) disables the job.
    let last = store
        .begin_job_run(&scheduled(3_000, None))
        .unwrap_or_else(|e| panic!("{e}"));
    let RunBegin::Started {
        job: done,
        run_id: last_id,
    } = last
    else {
        panic!("{last:?}")
    };
    assert!(!done.enabled);
    let cancelled = hearth_protocol::AppError::RunCancelled;
    store
        .finish_job_run(
            last_id,
            RunStatus::Failed,
            None,
            Some(("the run was cancelled (session job:1)", &cancelled)),
            3_100,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let runs = store
        .list_job_runs(&job.id, 10)
        .unwrap_or_else(|e| panic!("{e}"));
    let seen: Vec<(RunStatus, bool, bool)> = runs
        .iter()
        .rev()
        .map(|r| (r.status, r.manual, r.authorized))
        .collect();
    assert_eq!(
        seen,
        [
            (RunStatus::Ok, false, false),
            (RunStatus::SkippedOverlap, false, false),
            (RunStatus::Failed, true, true),
            (RunStatus::Failed, false, false),
        ]
    );
    // A failure keeps its English text and its typed error; so does an interruption.
    assert_eq!(
        runs[0].error.as_deref(),
        Some("the run was cancelled (session job:1)")
    );
    assert_eq!(runs[0].error_code, Some(cancelled));
    assert_eq!(
        runs[1].error.as_deref(),
        Some("interrupted: the scheduler stopped before the run ended")
    );
    assert_eq!(
        runs[1].error_code,
        Some(hearth_protocol::AppError::RunInterrupted)
    );
    assert_eq!(runs[1].id, manual_id);
    assert_eq!(runs[3].output.as_deref(), Some("out"));
    store.delete_job(&job.id).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        store.list_job_runs(&job.id, 10).map(|r| r.len()).ok(),
        Some(0)
    );
}

#[test]
fn the_lease_goes_to_one_runner_at_a_time() {
    let dir = temp();
    let store = store_at(&dir);
    let beat = |owner: &str, now| {
        store
            .scheduler_heartbeat(owner, 7, now, 90_000)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert_eq!(beat("a", 0), LeaseOutcome::Held { acquired: true });
    assert_eq!(beat("a", 30_000), LeaseOutcome::Held { acquired: false });
    assert!(matches!(beat("b", 60_000), LeaseOutcome::Standby { .. }));
    assert_eq!(beat("b", 120_001), LeaseOutcome::Held { acquired: true });
    assert!(matches!(beat("a", 120_002), LeaseOutcome::Standby { .. }));
    store
        .release_scheduler("a")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        store.scheduler_status().ok().flatten().map(|b| b.owner),
        Some("b".into())
    );
    store
        .release_scheduler("b")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.scheduler_status().ok().flatten(), None);
}

#[test]
fn the_notification_limit_survives_a_reopen() {
    let dir = temp();
    let hour = 3_600_000;
    {
        let store = store_at(&dir);
        for i in 0..10 {
            let slot = store
                .reserve_notification("t", 1_000 + i, hour, 10)
                .unwrap_or_else(|e| panic!("{e}"));
            let NotificationReservation::Granted { id, used } = slot else {
                panic!("{slot:?}")
            };
            // The failed first one stops counting once settled.
            assert_eq!(used, usize::try_from(i.max(1)).unwrap_or(0));
            let status = if i == 0 {
                NotificationStatus::Failed
            } else {
                NotificationStatus::Delivered
            };
            store
                .settle_notification(id, status, Some("7"), None)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        // The failed one does not count: one more fits.
        assert!(matches!(
            store.reserve_notification("t", 2_000, hour, 10),
            Ok(NotificationReservation::Granted { used: 10, .. })
        ));
    }
    let store = store_at(&dir);
    assert_eq!(
        store.reserve_notification("t", 3_000, hour, 10).ok(),
        Some(NotificationReservation::Limited {
            used: 10,
            oldest_at: 1_001
        })
    );
    assert!(matches!(
        store.reserve_notification("t", 1_001 + hour, hour, 10),
        Ok(NotificationReservation::Granted { .. })
    ));
    assert!(store
        .settle_notification(999, NotificationStatus::Delivered, None, None)
        .is_err());
}
