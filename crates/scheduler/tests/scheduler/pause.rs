//! Pausing the runner (the tray's "Pause all jobs"): nothing fires while paused, not even a run
//! requested with "run now", and resuming runs each overdue job once, as a catch-up, never a
//! burst.

use std::sync::Arc;
use std::time::Duration;

use hearth_scheduler::{Runner, RunnerPause, RunnerSignal};
use hearth_store::RunStatus;

use crate::support::{eventually, spec, Env, Recorder};
use crate::utc;

#[tokio::test]
async fn a_paused_runner_fires_nothing_and_resuming_catches_up_once_per_job() {
    let env = Env::new(utc(2025, 6, 2, 12, 0));
    let service = env.service();
    let every_five = service.blocking().create(spec("five", "*/5 * * * *"));
    let hourly = service.blocking().create(spec("hourly", "0 * * * *"));
    let yearly = service.blocking().create(spec("yearly", "0 0 1 1 *"));
    let (every_five, hourly, yearly) = match (every_five, hourly, yearly) {
        (Ok(a), Ok(b), Ok(c)) => (a, b, c),
        (a, b, c) => panic!("{:?} {:?} {:?}", a.err(), b.err(), c.err()),
    };
    let recorder = Recorder::ok();
    let (pause, signal) = (RunnerPause::default(), RunnerSignal::default());
    pause.set(true);
    let runner = Runner::new(env.store.clone(), env.clock.clone(), recorder.clone())
        .with_pause(pause.clone())
        .with_signal(signal.clone())
        .start();
    let service = service.with_signal(signal.clone());
    if let Err(e) = service.blocking().trigger(&yearly.id) {
        panic!("{e}");
    }
    // Three hours pass paused: 36 fire times of one job, 3 of another, and a "run now".
    for _ in 0..6 {
        env.advance(Duration::from_secs(30 * 60)).await;
    }
    assert_eq!(recorder.count(), 0, "a paused runner fired");
    assert!(env
        .store
        .list_job_runs(&every_five.id, 10)
        .is_ok_and(|r| r.is_empty()));

    pause.set(false);
    signal.wake();
    let ran = |id: &str| {
        env.store
            .list_job_runs(id, 100)
            .is_ok_and(|runs| !runs.is_empty() && runs.iter().all(|r| r.status == RunStatus::Ok))
    };
    let all_ran = || ran(&every_five.id) && ran(&hourly.id) && ran(&yearly.id);
    eventually("the catch-up runs", all_ran).await;
    env.settled(&[&runner]).await;
    let runs = |id: &str| env.store.list_job_runs(id, 100).unwrap_or_default();
    for job in [&every_five, &hourly] {
        let done = runs(&job.id);
        assert_eq!(done.len(), 1, "a burst after resuming: {done:?}");
        assert!(done[0].catch_up && !done[0].manual);
    }
    // The "run now" requested while paused runs once on resuming.
    let manual = runs(&yearly.id);
    assert_eq!(manual.len(), 1, "{manual:?}");
    assert!(manual[0].manual);
    let view = service.blocking().get(&every_five.id);
    let next = view.map(|v| v.next_run).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(next.as_deref(), Some("2025-06-02T15:05:00+00:00"));
    runner.stop().await;
    assert_eq!(Arc::strong_count(&recorder), 1);
}
