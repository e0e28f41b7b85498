//! Sub-agents: one runtime behind `delegate_task`, `spawn_task`, `agents_route` and PicoBot's
//! `delegate`. A child is its own session (`task:<id>`) with a run row written before it
//! starts; it gets the parent's tools narrowed to what was asked (never the delegation tools,
//! unless nesting is configured), the parent's security profile and model (or its persona's);
//! at most `max_running` children of one parent run at once and one turn starts at most
//! `max_per_turn` (past a cap the model reads an error, nothing is queued); each child has an
//! iteration cap and a wall-clock timeout, stops when its parent's turn is cancelled, and ends
//! with the status the runtime saw and what it had produced.

mod child;
mod parent;
mod picobot;
mod plan;
mod recover;
mod relay;
mod tools;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use std::time::{Duration, Instant};

use hearth_protocol::{
    EngineEvent, Settings, SubAgentMode, SubAgentProgress, SubAgentRun, SubAgentStatus,
};
use hearth_store::Db;
use hearth_tools::{ErrorKind, ToolError};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::builder::ModelChoice;
use crate::EngineError;

pub(crate) use parent::ParentTurn;
pub use picobot::PICOBOT_DEFAULT_TOOLS;
pub use recover::recover_agent_runs;
pub(crate) use relay::pump;
pub use tools::register_agents;

/// Receives every sub-agent's progress (the desktop forwards it to the window).
pub type ProgressListener = Arc<dyn Fn(&SubAgentProgress) + Send + Sync>;

/// Builds the client of a persona's model (`<provider id>:<model>` or a model of the default
/// provider) from the settings. May block on the keychain.
pub type ModelSource =
    Arc<dyn Fn(&Settings, &str) -> Result<ModelChoice, EngineError> + Send + Sync>;

/// How long cancelling waits for children to store how they ended.
pub const CANCEL_GRACE: Duration = Duration::from_secs(2);

/// A child running in this process.
struct Running {
    cancel: CancellationToken,
    progress: SubAgentProgress,
    started: Instant,
}

/// The sub-agent runtime of one process, shared by every engine its builder makes.
pub struct Agents {
    db: Db,
    settings: RwLock<Settings>,
    models: Option<ModelSource>,
    listener: RwLock<Option<ProgressListener>>,
    /// Parent turns running now, by session id.
    parents: Mutex<HashMap<String, Arc<ParentTurn>>>,
    running: Mutex<HashMap<String, Running>>,
    /// How many children run; watched by [`Agents::shutdown`] and [`Agents::wait_idle`].
    count: watch::Sender<usize>,
}

impl Agents {
    /// A runtime over `store` with the default bounds and no personas (see
    /// [`Agents::configure`]); personas with a model of their own need [`Agents::with_models`].
    pub fn new(db: impl Into<Db>) -> Agents {
        Agents {
            db: db.into(),
            settings: RwLock::new(Settings::default()),
            models: None,
            listener: RwLock::new(None),
            parents: Mutex::new(HashMap::new()),
            running: Mutex::new(HashMap::new()),
            count: watch::Sender::new(0),
        }
    }

    /// Builds persona models with `models`.
    pub fn with_models(mut self, models: ModelSource) -> Agents {
        self.models = Some(models);
        self
    }

    /// Takes the bounds and personas of `settings` for the children started from now on.
    pub fn configure(&self, settings: &Settings) {
        let mut current = self
            .settings
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        if *current != *settings {
            *current = settings.clone();
        }
    }

    /// Sends every child's progress to `listener` as well as to its parent's turn.
    pub fn set_listener(&self, listener: ProgressListener) {
        *self
            .listener
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Some(listener);
    }

    pub(crate) fn settings(&self) -> Settings {
        self.settings
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// The live progress of the children running in this process, oldest first.
    pub fn running(&self) -> Vec<SubAgentProgress> {
        let running = self.lock_running();
        let mut all: Vec<(Instant, SubAgentProgress)> = running
            .values()
            .map(|r| (r.started, with_elapsed(r)))
            .collect();
        all.sort_by_key(|(started, _)| *started);
        all.into_iter().map(|(_, progress)| progress).collect()
    }

    /// The live progress of one running child.
    pub fn progress(&self, run_id: &str) -> Option<SubAgentProgress> {
        self.lock_running().get(run_id).map(with_elapsed)
    }

    /// Cancels a child running in this process and waits (at most [`CANCEL_GRACE`]) until it
    /// has stored how it ended; returns its run, or `None` if it does not run here.
    pub async fn cancel(&self, run_id: &str) -> Result<Option<SubAgentRun>, EngineError> {
        let Some(cancel) = self.lock_running().get(run_id).map(|r| r.cancel.clone()) else {
            return Ok(None);
        };
        cancel.cancel();
        let mut count = self.count.subscribe();
        let deadline = tokio::time::Instant::now() + CANCEL_GRACE;
        while self.lock_running().contains_key(run_id) {
            if tokio::time::timeout_at(deadline, count.changed())
                .await
                .is_err()
            {
                break;
            }
        }
        let id = run_id.to_string();
        Ok(self.db.read(move |store| store.agent_run(&id)).await?)
    }

    /// Cancels every child (the app quits) and waits at most `grace` for them to store how
    /// they ended; returns how many were running.
    pub async fn shutdown(&self, grace: Duration) -> usize {
        let tokens: Vec<CancellationToken> = self
            .lock_running()
            .values()
            .map(|r| r.cancel.clone())
            .collect();
        for token in &tokens {
            token.cancel();
        }
        let _ = tokio::time::timeout(grace, self.wait_idle()).await;
        tokens.len()
    }

    /// Waits until no child runs in this process.
    pub async fn wait_idle(&self) {
        let mut count = self.count.subscribe();
        let _ = count.wait_for(|n| *n == 0).await;
    }

    /// The parent turn running in `session_id`, for a delegation tool called there.
    pub(crate) fn parent(&self, session_id: &str) -> Result<Arc<ParentTurn>, ToolError> {
        self.lock_parents().get(session_id).cloned().ok_or_else(|| {
            ToolError::new(
                ErrorKind::Unavailable,
                "sub-agents can only be started from an agent turn (a chat, a job run), \
                 not by calling the tool directly",
            )
        })
    }

    /// Reserves room for `wanted` children of `parent` under both caps, or says which cap
    /// refuses them (`wait_hint` says how to wait, in the caller's dialect). Then `begin`
    /// writes their rows while the reservation is held.
    fn reserve<T>(
        &self,
        parent: &ParentTurn,
        wanted: usize,
        wait_hint: &str,
        begin: impl FnOnce() -> Result<Vec<(SubAgentRun, CancellationToken, T)>, ToolError>,
    ) -> Result<Vec<(SubAgentRun, T)>, ToolError> {
        let limits = self.settings().subagents;
        let mut running = self.lock_running();
        let busy = running
            .values()
            .filter(|r| r.progress.parent_session_id == parent.session.id)
            .count();
        let max = limits.max_running as usize;
        if busy + wanted > max {
            let message = if busy >= max {
                format!("{busy} sub-agents are already running; {wait_hint}")
            } else {
                format!(
                    "{wanted} sub-agents asked for, but at most {max} may run at once and \
                     {busy} already run; ask for fewer, or {wait_hint}"
                )
            };
            return Err(ToolError::new(ErrorKind::RateLimited, message));
        }
        let started = parent.started();
        let per_turn = limits.max_per_turn as usize;
        if started + wanted > per_turn {
            return Err(ToolError::new(
                ErrorKind::RateLimited,
                format!(
                    "this turn has started {started} sub-agents and may start at most \
                     {per_turn}; finish with what you have"
                ),
            ));
        }
        let begun = begin()?;
        parent.add_started(begun.len());
        let now = Instant::now();
        let mut out = Vec::with_capacity(begun.len());
        for (run, cancel, extra) in begun {
            let progress = SubAgentProgress {
                run_id: run.id.clone(),
                parent_session_id: run.parent_session_id.clone(),
                session_id: run.session_id.clone(),
                goal: run.goal.clone(),
                mode: run.mode,
                status: SubAgentStatus::Running,
                iterations: 0,
                current_tool: None,
                elapsed_ms: 0,
                usage: Default::default(),
            };
            running.insert(
                run.id.clone(),
                Running {
                    cancel,
                    progress,
                    started: now,
                },
            );
            out.push((run, extra));
        }
        self.count.send_replace(running.len());
        Ok(out)
    }

    /// Changes a running child's progress and reports it to its parent's turn and the listener.
    fn update(
        &self,
        run_id: &str,
        parent: &ParentTurn,
        change: impl FnOnce(&mut SubAgentProgress),
    ) {
        let progress = {
            let mut running = self.lock_running();
            let Some(entry) = running.get_mut(run_id) else {
                return;
            };
            change(&mut entry.progress);
            with_elapsed(entry)
        };
        self.report_progress(parent, progress);
    }

    /// Forgets an ended child, reporting its last progress with `run`'s final status.
    fn forget(&self, run: &SubAgentRun, parent: &ParentTurn) {
        let last = {
            let mut running = self.lock_running();
            let last = running.remove(&run.id).map(|entry| {
                let mut progress = with_elapsed(&entry);
                progress.status = run.status;
                progress.current_tool = None;
                progress.usage = run.usage;
                progress.iterations = run.iterations;
                progress
            });
            self.count.send_replace(running.len());
            last
        };
        if let Some(progress) = last {
            self.report_progress(parent, progress);
        }
    }

    fn report_progress(&self, parent: &ParentTurn, progress: SubAgentProgress) {
        let listener = self
            .listener
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(listener) = listener {
            listener(&progress);
        }
        parent.relay(EngineEvent::SubAgent { progress });
    }

    fn lock_running(&self) -> MutexGuard<'_, HashMap<String, Running>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock_parents(&self) -> MutexGuard<'_, HashMap<String, Arc<ParentTurn>>> {
        self.parents.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn with_elapsed(running: &Running) -> SubAgentProgress {
    SubAgentProgress {
        elapsed_ms: u64::try_from(running.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        ..running.progress.clone()
    }
}

/// The JSON a tool returns about a run: what the parent model reads.
pub(crate) fn run_json(run: &SubAgentRun) -> serde_json::Value {
    let duration_ms = run.finished_at.map(|end| end - run.created_at);
    serde_json::json!({
        "task_id": run.id,
        "session_id": run.session_id,
        "goal": run.goal,
        "agent": run.agent,
        "model": run.model,
        "status": run.status.as_str(),
        "result": run.result,
        "error": run.error,
        "iterations": run.iterations,
        "usage": run.usage,
        "duration_ms": duration_ms,
        "tools": run.tools,
    })
}

/// Whether a run waits for its child within the tool call.
pub(crate) fn waits(mode: SubAgentMode) -> bool {
    mode != SubAgentMode::Background
}
