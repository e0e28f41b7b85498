//! `hearth-cli jobs run`: with a scheduler alive (the app or a daemon) the run is queued there,
//! since that process holds the scheduler lease and keeps runs of one job from overlapping;
//! with none, this process becomes the scheduler for the duration (taking and then releasing
//! the lease), so the run is recorded in the history exactly like a scheduled one. Runs already
//! due at that moment run too — they would otherwise wait for the next start of a scheduler.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use hearth_scheduler::{JobService, RunView};
use hearth_store::RunStatus;
use serde_json::json;

use crate::daemon;
use crate::pipe::outln;
use crate::setup::Home;
use crate::GlobalArgs;

/// How often the history is read while waiting.
const POLL: Duration = Duration::from_millis(300);
/// Re-check interval of the temporary in-process scheduler.
const LOCAL_TICK: Duration = Duration::from_secs(5);

pub struct RunOptions {
    pub wait: bool,
    pub timeout: Duration,
    pub json: bool,
}

pub async fn run(
    home: &Home,
    global: &GlobalArgs,
    jobs: &JobService,
    key: &str,
    options: RunOptions,
) -> anyhow::Result<ExitCode> {
    let job = jobs.blocking().find(key)?;
    let last_before = jobs
        .blocking()
        .history(&job.id, 1)?
        .first()
        .map_or(0, |run| run.id);
    let scheduler = jobs.blocking().scheduler_status()?;
    let run = if scheduler.alive {
        jobs.blocking().trigger(&job.id)?;
        let pid = scheduler.pid.unwrap_or_default();
        if !options.wait {
            outln!("queued for the running scheduler (pid {pid})");
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!("queued for the running scheduler (pid {pid}); waiting for the result…");
        wait_for_run(jobs, &job.id, last_before, options.timeout).await
    } else {
        if !options.wait {
            return Err(anyhow!(
                "--no-wait needs a running scheduler (the app or `hearth-cli daemon`); without \
                 one the run happens in this process, so drop --no-wait"
            ));
        }
        let runner = daemon::runner(home, global, LOCAL_TICK);
        let local = jobs.clone().with_signal(runner.signal());
        local.blocking().trigger(&job.id)?;
        let handle = runner.start();
        let run = wait_for_run(jobs, &job.id, last_before, options.timeout).await;
        handle.stop().await;
        run
    }?;
    if options.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({"job": job.name, "run": run}))?
        );
    } else if let Some(output) = &run.output {
        outln!("{output}");
    }
    match run.status {
        RunStatus::Ok => Ok(ExitCode::SUCCESS),
        RunStatus::SkippedOverlap => Err(anyhow!(
            "the previous run of \"{}\" is still going, so this one was skipped; try again later",
            job.name
        )),
        _ => Err(anyhow!(
            "the run of \"{}\" failed: {}",
            job.name,
            run.error.as_deref().unwrap_or("no reason recorded")
        )),
    }
}

/// Waits for the first finished manual run of `job_id` newer than `after`.
async fn wait_for_run(
    jobs: &JobService,
    job_id: &str,
    after: i64,
    timeout: Duration,
) -> anyhow::Result<RunView> {
    let started = Instant::now();
    loop {
        let finished = jobs
            .blocking()
            .history(job_id, 20)?
            .into_iter()
            .filter(|run| run.id > after && run.manual && run.status != RunStatus::Running)
            .min_by_key(|run| run.id);
        if let Some(run) = finished {
            return Ok(run);
        }
        if started.elapsed() > timeout {
            return Err(anyhow!(
                "the run did not finish within {} s; see `hearth-cli jobs history {job_id}`",
                timeout.as_secs()
            ));
        }
        tokio::time::sleep(POLL).await;
    }
}
