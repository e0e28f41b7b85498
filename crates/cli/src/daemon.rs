//! `hearth-cli daemon`: the scheduler without a window — the same runner and agent executor as
//! the desktop app, until SIGINT or SIGTERM (runs in progress are recorded as interrupted and
//! the scheduler lease is released at once). Logs go to stderr. It honours "Pause all jobs"
//! (`jobs_paused` in `config.toml`), following changes while it runs.

mod pause;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::anyhow;
use hearth_engine::{choose_provider, load_settings, AgentJobExecutor, EngineError, Gateway};
use hearth_protocol::Settings;
use hearth_scheduler::{system_zone, JobService, Runner, RunnerConfig, RunnerPause, SystemClock};

use pause::PauseWatch;

use crate::setup::{open_home_logging, settings_with_flags, Home, LogTo};
use crate::GlobalArgs;

/// The longest allowed wall-clock re-check interval (jobs are re-checked at least every 30 s).
pub const MAX_TICK_SECS: u64 = 30;

/// `config.toml` read at every call, with the provider flags applied on top.
fn settings_source(
    home: &Home,
    global: &GlobalArgs,
) -> impl Fn() -> Result<Settings, EngineError> + Send + Sync + 'static {
    let config = home.dir.config();
    let global = global.clone();
    move || {
        settings_with_flags(&global, load_settings(&config)?)
            .map_err(|e| EngineError::Config(format!("{e:#}")))
    }
}

/// The agent executor over `home`, reading the settings at every run.
pub fn executor(home: &Home, global: &GlobalArgs) -> AgentJobExecutor {
    AgentJobExecutor::from_builder(home.builder.clone())
        .with_settings(settings_source(home, global))
}

/// A runner over `home` re-reading the wall clock every `tick`.
pub fn runner(home: &Home, global: &GlobalArgs, tick: Duration) -> Runner {
    Runner::new(
        home.store.clone(),
        Arc::new(SystemClock),
        Arc::new(executor(home, global)),
    )
    .with_config(RunnerConfig {
        tick,
        ..RunnerConfig::default()
    })
}

pub async fn run(global: &GlobalArgs, tick_secs: u64) -> anyhow::Result<ExitCode> {
    if !(1..=MAX_TICK_SECS).contains(&tick_secs) {
        return Err(anyhow!(
            "--tick {tick_secs}: the re-check interval must be 1 to {MAX_TICK_SECS} seconds"
        ));
    }
    let home = open_home_logging(LogTo::Stderr)?;
    let settings = settings_with_flags(global, home.settings.clone())?;
    if let Err(error) = choose_provider(&settings, None) {
        tracing::warn!(%error, "jobs without a model of their own will fail until this is fixed");
    }
    let service = JobService::new(home.store.clone(), Arc::new(SystemClock), system_zone());
    let status = service.blocking().scheduler_status()?;
    if status.alive {
        tracing::warn!(
            pid = status.pid,
            "another scheduler (the app or a daemon) is running; this one stands by until it stops"
        );
    }
    let tick = Duration::from_secs(tick_secs);
    let pause = RunnerPause::default();
    let runner = runner(&home, global, tick).with_pause(pause.clone());
    let watch = PauseWatch::start(home.dir.config(), pause, runner.signal());
    let handle = runner.start();
    // Inbound channels: allow lists and profiles are read from config.toml at every message.
    let inbound = Gateway::new(home.builder.clone(), settings_source(&home, global)).serve();
    let enabled = service
        .blocking()
        .list(hearth_scheduler::JobFilter::Enabled)
        .map(|jobs| jobs.len())
        .unwrap_or(0);
    tracing::info!(
        pid = std::process::id(),
        owner = handle.owner(),
        enabled_jobs = enabled,
        inbound_channels = inbound.polling(),
        data_dir = %home.dir.root().display(),
        "hearth daemon started; stop it with Ctrl-C or SIGTERM"
    );
    let signal = tokio::select! {
        signal = shutdown_signal() => signal,
        never = watch.follow(tick) => match never {},
    };
    tracing::info!(
        signal,
        "stopping: runs in progress are recorded as interrupted"
    );
    inbound.stop().await;
    handle.stop().await;
    tracing::info!("hearth daemon stopped; scheduler lease released");
    Ok(ExitCode::SUCCESS)
}

/// Waits for SIGINT or (on Unix) SIGTERM, and names the one that came.
async fn shutdown_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = tokio::signal::ctrl_c() => "SIGINT",
                _ = term.recv() => "SIGTERM",
            },
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM; stop with Ctrl-C");
                let _ = tokio::signal::ctrl_c().await;
                "SIGINT"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}
