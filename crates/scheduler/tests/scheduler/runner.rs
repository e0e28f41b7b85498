//! The runner over a real SQLite file with a fake clock: on-time runs, one catch-up after a
//! simulated sleep and after a restart, no overlap, run now, one-shot jobs, authorization passed
//! to the executor, the lease between two schedulers, interruption, crashes and the 30 s tick.

use std::time::Duration;

use hearth_scheduler::{JobEdit, JobFilter, RunnerHandle};
use hearth_store::RunStatus;

use crate::support::{eventually, open, spec, Env, Recorder};
use crate::utc;

const MINUTE: Duration = Duration::from_secs(60);

fn statuses(env: &Env, job: &str) -> Vec<(RunStatus, bool)> {
    match env.store.list_job_runs(job, 100) {
        Ok(runs) => runs.iter().rev().map(|r| (r.status, r.catch_up)).collect(),
        Err(e) => panic!("{e}"),
    }
}

fn finished(env: &Env, job: &str, n: usize) -> bool {
    env.store
        .list_job_runs(job, 100)
        .is_ok_and(|runs| runs.len() >= n && runs.iter().all(|r| r.status != RunStatus::Running))
}

async fn stop(handle: RunnerHandle) {
    handle.stop().await;
}

#[tokio::test]
async fn runs_on_time_and_advances() {
    let env = Env::new(utc(2025, 6, 2, 12, 0));
    let job = env
        .service()
        .blocking()
        .create(spec("tick", "*/5 * * * *"))
        .map_err(|e| e.to_string());
    let job = job.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(job.next_run.as_deref(), Some("2025-06-02T12:05:00+00:00"));
    let recorder = Recorder::ok();
    let runner = env.runner(recorder.clone());
    env.advance(5 * MINUTE).await;
    eventually("the run", || finished(&env, &job.id, 1)).await;
    assert_eq!(statuses(&env, &job.id), [(RunStatus::Ok, false)]);
    let request = recorder.request(0);
    assert!(!request.catch_up && !request.manual);
    assert_eq!(request.job.prompt, "do the tick thing");
    assert_eq!(request.authorized_tools, None);
    let view = env
        .service()
        .blocking()
        .get(&job.id)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(view.next_run.as_deref(), Some("2025-06-02T12:10:00+00:00"));
    assert_eq!(view.last_status, Some(RunStatus::Ok));
    let history = env
        .service()
        .blocking()
        .history(&job.id, 10)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(history[0].output.as_deref(), Some("done"));
    stop(runner).await;
}

#[tokio::test]
async fn a_sleep_through_many_fire_times_runs_once_as_catch_up() {
    let env = Env::new(utc(2025, 6, 2, 12, 30));
    let service = env.service();
    let job = service
        .blocking()
        .create(spec("hourly", "0 * * * *"))
        .unwrap_or_else(|e| panic!("{e}"));
    let recorder = Recorder::ok();
    let runner = env.runner(recorder.clone());
    // The machine sleeps from 12:30 to 18:10: five fire times pass unseen.
    env.advance(Duration::from_secs(5 * 3600 + 40 * 60)).await;
    eventually("the catch-up run", || finished(&env, &job.id, 1)).await;
    env.settled(&[&runner]).await;
    assert_eq!(recorder.count(), 1, "a burst of runs");
    assert_eq!(statuses(&env, &job.id), [(RunStatus::Ok, true)]);
    let view = service
        .blocking()
        .get(&job.id)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(view.next_run.as_deref(), Some("2025-06-02T19:00:00+00:00"));
    let history = service
        .blocking()
        .history(&job.id, 1)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        history[0].scheduled_for.as_deref(),
        Some("2025-06-02T13:00:00+00:00")
    );
    // The next fire time is on time again.
    env.advance(50 * MINUTE).await;
    eventually("the next run", || finished(&env, &job.id, 2)).await;
    assert_eq!(
        statuses(&env, &job.id),
        [(RunStatus::Ok, true), (RunStatus::Ok, false)]
    );
    stop(runner).await;
}

#[tokio::test]
async fn a_run_missed_while_closed_runs_once_after_a_restart() {
    let env = Env::new(utc(2025, 6, 2, 7, 0));
    let job = env
        .service()
        .blocking()
        .create(spec("morning", "every morning at 8:00"))
        .unwrap_or_else(|e| panic!("{e}"));
    let first = env.runner(Recorder::ok());
    env.advance(MINUTE).await;
    stop(first).await;
    // Closed for three days; then a new process opens the same database file.
    env.clock.advance(Duration::from_secs(3 * 86_400));
    let reopened = open(&env.db());
    let recorder = Recorder::ok();
    let second =
        hearth_scheduler::Runner::new(reopened.clone(), env.clock.clone(), recorder.clone())
            .start();
    eventually("the catch-up run", || {
        reopened
            .list_job_runs(&job.id, 10)
            .is_ok_and(|runs| runs.len() == 1 && runs[0].status == RunStatus::Ok)
    })
    .await;
    env.settled(&[&second]).await;
    assert_eq!(recorder.count(), 1);
    assert!(recorder.request(0).catch_up);
    let runs = reopened
        .list_job_runs(&job.id, 10)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(runs[0].catch_up);
    stop(second).await;
}

#[tokio::test]
async fn a_run_never_overlaps_the_previous_one() {
    let env = Env::new(utc(2025, 6, 2, 12, 0));
    let job = env
        .service()
        .blocking()
        .create(spec("slow", "every minute"))
        .unwrap_or_else(|e| panic!("{e}"));
    let recorder = Recorder::held();
    let runner = env.runner(recorder.clone());
    env.advance(MINUTE).await;
    eventually("the first run", || recorder.count() == 1).await;
    for _ in 0..2 {
        env.advance(MINUTE).await;
    }
    eventually("two skipped runs", || statuses(&env, &job.id).len() == 3).await;
    recorder.release(1);
    eventually("the first run to end", || finished(&env, &job.id, 3)).await;
    env.advance(MINUTE).await;
    eventually("the next run", || recorder.count() == 2).await;
    recorder.release(1);
    eventually("the second run to end", || finished(&env, &job.id, 4)).await;
    assert_eq!(
        statuses(&env, &job.id),
        [
            (RunStatus::Ok, false),
            (RunStatus::SkippedOverlap, false),
            (RunStatus::SkippedOverlap, false),
            (RunStatus::Ok, false)
        ]
    );
    assert_eq!(*crate::support::lock(&recorder.max_parallel), 1);
    stop(runner).await;
}

#[tokio::test]
async fn run_now_and_one_shot_jobs() {
    let env = Env::new(utc(2025, 6, 2, 12, 0));
    let service = env.service();
    let daily = service
        .blocking()
        .create(spec("daily", "daily at 7pm"))
        .unwrap_or_else(|e| panic!("{e}"));
    let at = utc(2025, 6, 2, 12, 30).timestamp_millis();
    let once = service
        .blocking()
        .create(spec("once", &format!(r#"{{"type":"at","at":{at}}}"#)))
        .unwrap_or_else(|e| panic!("{e}"));
    let recorder = Recorder::ok();
    let runner = env.runner(recorder.clone());
    let service = service.with_signal(runner.signal());
    let triggered = service
        .blocking()
        .trigger("DAILY")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(triggered.run_requested);
    eventually("the manual run", || finished(&env, &daily.id, 1)).await;
    assert!(recorder.request(0).manual);
    let view = service
        .blocking()
        .get(&daily.id)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!view.run_requested);
    assert_eq!(view.next_run.as_deref(), Some("2025-06-02T19:00:00+00:00"));
    env.advance(30 * MINUTE).await;
    eventually("the one-shot run", || finished(&env, &once.id, 1)).await;
    let view = service
        .blocking()
        .get(&once.id)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!view.enabled, "a finished one-shot job stays enabled");
    assert_eq!(view.next_run, None);
    let enabled = service
        .blocking()
        .list(JobFilter::Enabled)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(enabled.len(), 1);
    stop(runner).await;
}

#[tokio::test]
async fn runs_carry_the_authorization_only_while_it_matches() {
    let env = Env::new(utc(2025, 6, 2, 12, 0));
    let service = env.service();
    let job = service
        .blocking()
        .create(spec("auth", "*/10 * * * *"))
        .unwrap_or_else(|e| panic!("{e}"));
    let tools = vec!["exec".to_string()];
    service
        .blocking()
        .authorize(&job.id, &tools)
        .unwrap_or_else(|e| panic!("{e}"));
    let recorder = Recorder::ok();
    let runner = env.runner(recorder.clone());
    env.advance(10 * MINUTE).await;
    eventually("the first run", || finished(&env, &job.id, 1)).await;
    assert_eq!(recorder.request(0).authorized_tools, Some(tools));
    let edit = JobEdit {
        prompt: Some("something else".into()),
        ..JobEdit::default()
    };
    service
        .blocking()
        .edit(&job.id, edit)
        .unwrap_or_else(|e| panic!("{e}"));
    env.advance(10 * MINUTE).await;
    eventually("the second run", || finished(&env, &job.id, 2)).await;
    assert_eq!(recorder.request(1).authorized_tools, None);
    let runs = env
        .store
        .list_job_runs(&job.id, 10)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        runs.iter().map(|r| r.authorized).collect::<Vec<_>>(),
        [false, true]
    );
    stop(runner).await;
}

#[tokio::test]
async fn failures_and_crashes_are_recorded() {
    for (recorder, expected) in [
        (Recorder::failing("model unreachable"), "model unreachable"),
        (Recorder::panicking(), "the run crashed"),
    ] {
        let env = Env::new(utc(2025, 6, 2, 12, 0));
        let job = env
            .service()
            .blocking()
            .create(spec("bad", "*/5 * * * *"))
            .unwrap_or_else(|e| panic!("{e}"));
        let runner = env.runner(recorder);
        env.advance(5 * MINUTE).await;
        eventually("the run", || finished(&env, &job.id, 1)).await;
        let runs = env
            .store
            .list_job_runs(&job.id, 10)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(runs[0].status, RunStatus::Failed);
        let error = runs[0].error.clone().unwrap_or_default();
        assert!(error.contains(expected), "{error}");
        // The typed error is kept beside the text, for the viewer's language.
        let code = runs[0]
            .error_code
            .clone()
            .unwrap_or_else(|| panic!("no code"));
        assert!(code.to_string().contains(expected), "{code:?}");
        stop(runner).await;
    }
}

#[tokio::test]
async fn stopping_interrupts_a_run_and_releases_the_lease() {
    let env = Env::new(utc(2025, 6, 2, 12, 0));
    let job = env
        .service()
        .blocking()
        .create(spec("long", "*/5 * * * *"))
        .unwrap_or_else(|e| panic!("{e}"));
    let recorder = Recorder::held();
    let runner = env.runner(recorder.clone());
    eventually("a heartbeat", || {
        env.service()
            .blocking()
            .scheduler_status()
            .is_ok_and(|s| s.alive)
    })
    .await;
    env.advance(5 * MINUTE).await;
    eventually("the run", || recorder.count() == 1).await;
    stop(runner).await;
    let runs = env
        .store
        .list_job_runs(&job.id, 10)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(runs[0].status, RunStatus::Failed);
    assert!(runs[0]
        .error
        .as_deref()
        .unwrap_or_default()
        .contains("interrupted"));
    let status = env
        .service()
        .blocking()
        .scheduler_status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!status.alive);
}

#[tokio::test]
async fn only_the_lease_holder_fires_and_a_standby_takes_over() {
    let env = Env::new(utc(2025, 6, 2, 12, 0));
    let job = env
        .service()
        .blocking()
        .create(spec("shared", "*/5 * * * *"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (a, b) = (Recorder::ok(), Recorder::ok());
    let first = env.runner(a.clone());
    eventually("a heartbeat", || {
        env.service()
            .blocking()
            .scheduler_status()
            .is_ok_and(|s| s.alive)
    })
    .await;
    let second = env.runner(b.clone());
    eventually("both asleep", || env.clock.sleepers() >= 2).await;
    env.clock.advance(5 * MINUTE);
    eventually("the run", || finished(&env, &job.id, 1)).await;
    env.settled(&[&first, &second]).await;
    // Exactly one of them fired. (After a jump longer than the stale limit either may hold the
    // lease: the one that wakes first takes over a heartbeat that looks stale.)
    assert_eq!(a.count() + b.count(), 1);
    let (holder, standby, idle) = if a.count() == 1 {
        (first, second, b)
    } else {
        (second, first, a)
    };
    stop(holder).await;
    // The standby notices at its next tick (≤ 30 s) and fires the next run.
    eventually("the standby asleep", || env.clock.sleepers() >= 1).await;
    env.clock.advance(5 * MINUTE);
    eventually("the takeover run", || finished(&env, &job.id, 2)).await;
    assert_eq!(idle.count(), 1);
    stop(standby).await;
}

#[tokio::test]
async fn the_wall_clock_is_read_at_least_every_30_seconds() {
    let env = Env::new(utc(2025, 6, 2, 12, 0));
    env.service()
        .blocking()
        .create(spec("late", "daily at 7pm"))
        .unwrap_or_else(|e| panic!("{e}"));
    let runner = env.runner(Recorder::ok());
    let beat = |env: &Env| {
        env.store
            .scheduler_status()
            .ok()
            .flatten()
            .map(|b| b.beat_at)
            .unwrap_or_default()
    };
    for step in 1..=4 {
        env.advance(Duration::from_secs(30)).await;
        let expected = utc(2025, 6, 2, 12, 0).timestamp_millis() + step * 30_000;
        eventually("a heartbeat after 30 s", || beat(&env) == expected).await;
    }
    stop(runner).await;
}
