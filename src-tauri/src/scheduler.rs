//! The app's scheduler: the job runner, started at launch on Tauri's runtime with the agent
//! executor (a fresh `daemon` session per run, delivered to the job's chat and notified), so jobs
//! fire while the window is hidden in the tray; paused from the tray; stopped on exit. It keeps
//! the tray's next-run line and the Jobs page current.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use hearth_engine::{save_settings, AgentJobExecutor};
use hearth_scheduler::{
    JobExecutor, JobOutput, RunFailure, RunRequest, Runner, RunnerHandle, SystemClock,
};
use tauri::{AppHandle, Manager};
use tokio::sync::Notify;

use crate::events::{JOBS_CHANGED, SESSION_APPENDED};
use crate::next_run::next_run_label;
use crate::state::AppState;
use crate::tray::JobItems;

/// The next-run line is recomputed at least this often (a job's time passes).
const TRAY_REFRESH: Duration = Duration::from_secs(30);
/// A change is shown after this pause, so the runner has recorded what it just did.
const SETTLE: Duration = Duration::from_millis(300);

/// The running scheduler (managed state).
pub struct AppScheduler {
    handle: Mutex<Option<RunnerHandle>>,
    refresh: Arc<Notify>,
}

impl AppScheduler {
    /// Asks for the tray line and the Jobs page to be refreshed.
    pub fn refresh(&self) {
        self.refresh.notify_one();
    }
}

/// Tells the tray and the page when a run starts and ends, and the window which chats it wrote to.
struct Watched {
    inner: AgentJobExecutor,
    refresh: Arc<Notify>,
    app: AppHandle,
}

#[async_trait]
impl JobExecutor for Watched {
    async fn run(&self, request: RunRequest) -> Result<JobOutput, RunFailure> {
        self.refresh.notify_one();
        let target = request.job.target.clone();
        let outcome = self.inner.run(request).await;
        self.refresh.notify_one();
        if let Ok(output) = &outcome {
            for session in target.iter().chain(output.session_id.iter()) {
                let _ = SESSION_APPENDED.emit(&self.app, session);
            }
        }
        outcome
    }
}

/// Starts the runner and the tray refresher (call once, in `setup`).
pub fn start(app: &AppHandle) {
    let state = app.state::<AppState>();
    let settings_app = app.clone();
    let click_app = app.clone();
    let executor = AgentJobExecutor::from_builder(state.builder.clone())
        .with_settings(move || Ok(settings_app.state::<AppState>().settings()))
        .with_click(move |chat| crate::notices::open_chat_on_click(&click_app, chat));
    let refresh = Arc::new(Notify::new());
    let watched = Watched {
        inner: executor,
        refresh: refresh.clone(),
        app: app.clone(),
    };
    let runner = Runner::new(state.db.clone(), Arc::new(SystemClock), Arc::new(watched))
        .with_signal(state.runner_signal.clone())
        .with_pause(state.runner_pause.clone());
    let handle = tauri::async_runtime::block_on(async move { runner.start() });
    tracing::info!(owner = handle.owner(), "job runner started");
    app.manage(AppScheduler {
        handle: Mutex::new(Some(handle)),
        refresh: refresh.clone(),
    });
    tauri::async_runtime::spawn(refresh_loop(app.clone(), refresh));
}

/// Stops the runner (on exit): runs in progress are recorded as interrupted, the lease freed.
pub fn stop(app: &AppHandle) {
    let Some(scheduler) = app.try_state::<AppScheduler>() else {
        return;
    };
    let handle = scheduler.handle.lock().ok().and_then(|mut h| h.take());
    if let Some(handle) = handle {
        tauri::async_runtime::block_on(handle.stop());
        tracing::info!("job runner stopped");
    }
}

async fn refresh_loop(app: AppHandle, refresh: Arc<Notify>) {
    loop {
        show_next_run(&app).await;
        tokio::select! {
            () = refresh.notified() => {
                tokio::time::sleep(SETTLE).await;
                show_next_run(&app).await;
                let _ = JOBS_CHANGED.emit(&app, &());
            }
            () = tokio::time::sleep(TRAY_REFRESH) => {}
        }
    }
}

async fn show_next_run(app: &AppHandle) {
    let state = app.state::<AppState>();
    let label = match state.db.read(|store| store.list_jobs()).await {
        Ok(jobs) => next_run_label(&jobs, state.settings().language),
        Err(error) => {
            tracing::warn!(%error, "cannot read jobs for the tray");
            return;
        }
    };
    if let Some(items) = app.try_state::<JobItems>() {
        let _ = items.next.set_text(label);
    }
}

/// The tray's "Pause all jobs": flips the runner's pause, keeps it in the settings, and on
/// resuming wakes the runner (each overdue job then runs once, as a catch-up).
pub fn toggle_pause(app: &AppHandle) {
    let state = app.state::<AppState>();
    let paused = !state.runner_pause.is_paused();
    state.runner_pause.set(paused);
    if let Some(items) = app.try_state::<JobItems>() {
        let _ = items.pause.set_checked(paused);
    }
    let mut settings = state.settings();
    settings.jobs_paused = paused;
    if let Err(error) = save_settings(&state.dir.config(), &settings) {
        tracing::warn!(%error, "cannot keep the paused state in the settings");
    }
    state.apply_settings(settings);
    if !paused {
        state.runner_signal.wake();
    }
    tracing::info!(paused, "all jobs paused or resumed from the tray");
    crate::tray::jobs_changed(app);
}
