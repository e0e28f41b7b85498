//! Running one child: its own engine over its session, its progress and approvals relayed to
//! the parent, the wall-clock timeout, and its end stored with the status the runtime saw and
//! what it had produced — also when its task panics or is dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hearth_protocol::{
    ApprovalDecision, ContentPart, EngineEvent, Language, MessageKind, Role, SubAgentMode,
    SubAgentRun, SubAgentStatus, Text, TurnEnd,
};
use hearth_store::{AgentRunEnd, DbError, NewMessage, Store};
use tokio_util::sync::CancellationToken;

use super::plan::Prepared;
use super::{Agents, ParentTurn};
use crate::approval::{ApprovalRequest, Approver};
use crate::engine::{Engine, TurnSummary};
use crate::EngineError;

/// How often a child checks whether another process asked to cancel it.
const CANCEL_POLL: Duration = Duration::from_millis(500);

/// What a child's result may hold, in characters (the rest stays in its transcript).
const RESULT_CHARS: usize = 20_000;

/// Why a child's request was denied without asking: its parent turn had ended (or ended while
/// it waited), so nobody could see it.
const PARENT_GONE: &str = "nobody could answer: a sub-agent's approval requests are shown in \
    its parent chat only while the parent's turn runs, and that turn has ended; finish without \
    this call, or say in your result what needs approval";

/// Asks the parent's approver for a child: its requests show in the parent's window while the
/// parent's turn runs (labelled with the child). Once that turn has ended — a background child
/// outliving it — a request is denied at once with [`PARENT_GONE`] (never left waiting on a
/// card nobody sees), and so is one still waiting when the turn ends or the child is cancelled.
struct ChildApprover {
    inner: Arc<dyn Approver>,
    parent: Arc<ParentTurn>,
    cancel: CancellationToken,
}

#[async_trait::async_trait]
impl Approver for ChildApprover {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        if !self.parent.is_live() {
            return None;
        }
        tokio::select! {
            decision = self.inner.decide(request) => decision,
            () = self.cancel.cancelled() => None,
            () = self.parent.ended() => None,
        }
    }

    fn actor(&self) -> &'static str {
        self.inner.actor()
    }

    fn unanswered(&self) -> &'static str {
        PARENT_GONE
    }
}

/// Ends a run as failed if its task stops before storing an end (a panic, an abort): in the
/// dropping thread, as a drop cannot wait. Whoever takes `ending` first ends the run: this
/// guard, or [`Agents::finish`]'s work on the blocking pool (which goes on when the task is
/// dropped while it waits for it).
struct Unfinished<'a> {
    agents: &'a Agents,
    parent: &'a ParentTurn,
    run: &'a SubAgentRun,
    ending: Arc<AtomicBool>,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if self.ending.swap(true, Ordering::SeqCst) {
            return;
        }
        let end = AgentRunEnd {
            status: SubAgentStatus::Failed,
            result: String::new(),
            error: Some("the sub-agent stopped unexpectedly".into()),
            iterations: 0,
            usage: Default::default(),
        };
        let store = self.agents.db().blocking();
        self.agents.finish_on(store, self.run, self.parent, end);
    }
}

impl Agents {
    /// Runs a started child to its end and returns its stored run.
    pub(super) async fn run_child(
        self: Arc<Self>,
        parent: Arc<ParentTurn>,
        run: SubAgentRun,
        child: Prepared,
        cancel: CancellationToken,
    ) -> SubAgentRun {
        let unfinished = Unfinished {
            agents: &self,
            parent: &parent,
            run: &run,
            ending: Arc::new(AtomicBool::new(false)),
        };
        let approver = Arc::new(ChildApprover {
            inner: Arc::clone(&parent.tools.approver),
            parent: Arc::clone(&parent),
            cancel: cancel.clone(),
        });
        let runner = parent.tools.for_child(child.allowed, approver);
        let mut engine = Engine::new(
            self.db().clone(),
            child.client,
            Arc::new(runner),
            child.options,
        );
        if child.nested {
            engine = engine.with_agents(Arc::clone(&self));
        }
        let watch = self.watch_cancel_requests(&run.id, &cancel);
        let sink = self.child_sink(&parent, &run);
        let prompt = vec![ContentPart::text(child.prompt)];
        let send = engine.send(&run.session_id, prompt, &sink, cancel.clone());
        tokio::pin!(send);
        let timeout = tokio::time::sleep(Duration::from_secs(run.timeout_secs));
        let mut timed_out = false;
        let outcome = tokio::select! {
            outcome = &mut send => outcome,
            () = timeout => {
                timed_out = true;
                cancel.cancel();
                send.await
            }
        };
        watch.abort();
        let end = self.judge(&run, outcome, timed_out, cancel.is_cancelled());
        let ending = Arc::clone(&unfinished.ending);
        self.finish(&run, &parent, end, ending).await
    }

    /// Cancels the child when another process asks to (`hearth-cli tasks cancel`), checking
    /// the store twice a second until the returned task is aborted.
    fn watch_cancel_requests(
        &self,
        run_id: &str,
        cancel: &CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let db = self.db().clone();
        let (run_id, cancel) = (run_id.to_string(), cancel.clone());
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(CANCEL_POLL);
            loop {
                tokio::select! {
                    () = cancel.cancelled() => return,
                    _ = ticks.tick() => {}
                }
                let id = run_id.clone();
                let requested = db
                    .read(move |store| store.agent_run_cancel_requested(&id))
                    .await;
                if requested.unwrap_or(false) {
                    cancel.cancel();
                    return;
                }
            }
        })
    }

    /// The child's events as progress for its card; its approval requests (labelled) and its
    /// own children's progress go to the parent's turn.
    fn child_sink(
        self: &Arc<Self>,
        parent: &Arc<ParentTurn>,
        run: &SubAgentRun,
    ) -> impl Fn(EngineEvent) + Send + Sync + 'static {
        let agents = Arc::clone(self);
        let parent = Arc::clone(parent);
        let run_id = run.id.clone();
        let label = Text::SubAgentApproval { goal: &run.goal }.in_language(parent.options.language);
        move |event: EngineEvent| match event {
            EngineEvent::AssistantStarted { .. } => {
                agents.update(&run_id, &parent, |p| p.iterations += 1);
            }
            EngineEvent::AssistantFinished { usage, .. } => {
                agents.update(&run_id, &parent, |p| p.usage.add(usage));
            }
            EngineEvent::ToolCallStarted { call, .. } => {
                agents.update(&run_id, &parent, |p| p.current_tool = Some(call.name));
            }
            EngineEvent::ToolCallFinished { .. } => {
                agents.update(&run_id, &parent, |p| p.current_tool = None);
            }
            EngineEvent::ApprovalRequested {
                request_id,
                call,
                reason,
                reason_code,
                view,
                starts_programs,
                ..
            } => {
                parent.relay(EngineEvent::ApprovalRequested {
                    request_id,
                    session_id: parent.session.id.clone(),
                    call,
                    reason: format!("{label}: {reason}"),
                    reason_code,
                    agent: Some(label.clone()),
                    view,
                    starts_programs,
                });
            }
            event @ (EngineEvent::ApprovalResolved { .. } | EngineEvent::SubAgent { .. }) => {
                parent.relay(event);
            }
            _ => {}
        }
    }

    /// How the child ended, decided by the runtime: the timer, the cancel token and the turn
    /// loop's own end — never the child's words. What it produced is read when the end is
    /// stored ([`store_end`]).
    fn judge(
        &self,
        run: &SubAgentRun,
        outcome: Result<TurnSummary, EngineError>,
        timed_out: bool,
        cancelled: bool,
    ) -> AgentRunEnd {
        let seen = self.progress(&run.id);
        let (seen_iterations, seen_usage) =
            seen.map_or((0, Default::default()), |p| (p.iterations, p.usage));
        let (status, error, iterations, usage) = match outcome {
            _ if timed_out => (
                SubAgentStatus::Timeout,
                Some(format!(
                    "stopped after its time limit of {} s",
                    run.timeout_secs
                )),
                seen_iterations,
                seen_usage,
            ),
            Ok(summary) => {
                let (status, error) = match summary.end {
                    TurnEnd::Completed => (SubAgentStatus::Completed, None),
                    TurnEnd::Cancelled => (SubAgentStatus::Cancelled, Some("cancelled".into())),
                    TurnEnd::MaxIterations => (
                        SubAgentStatus::Failed,
                        Some(format!(
                            "stopped at its limit of {} iterations before finishing",
                            run.max_iterations
                        )),
                    ),
                };
                (status, error, summary.iterations, summary.usage)
            }
            Err(_) if cancelled => (
                SubAgentStatus::Cancelled,
                Some("cancelled".into()),
                seen_iterations,
                seen_usage,
            ),
            Err(error) => (
                SubAgentStatus::Failed,
                Some(error.to_string()),
                seen_iterations,
                seen_usage,
            ),
        };
        AgentRunEnd {
            status,
            result: String::new(),
            error,
            iterations,
            usage,
        }
    }

    /// Stores the end, adds the child's usage to its parent turn, forgets it, and delivers a
    /// background child's report into the parent chat: on the blocking pool, as one piece that
    /// runs to its end even when this task is dropped meanwhile.
    async fn finish(
        self: &Arc<Self>,
        run: &SubAgentRun,
        parent: &Arc<ParentTurn>,
        end: AgentRunEnd,
        ending: Arc<AtomicBool>,
    ) -> SubAgentRun {
        let (agents, turn, ended) = (Arc::clone(self), Arc::clone(parent), run.clone());
        let finished = self
            .db()
            .write(move |store| {
                // Taken already only when the task was dropped first (nobody reads this).
                if ending.swap(true, Ordering::SeqCst) {
                    return Ok(ended);
                }
                Ok::<_, DbError>(agents.finish_on(store, &ended, &turn, end))
            })
            .await;
        finished.unwrap_or_else(|error| {
            tracing::error!(%error, run = %run.id, "sub-agent end not stored");
            SubAgentRun {
                status: SubAgentStatus::Failed,
                error: Some(error.to_string()),
                ..run.clone()
            }
        })
    }

    /// [`Agents::finish`] over `store` in the calling thread: a blocking one, or a drop.
    fn finish_on(
        &self,
        store: &Store,
        run: &SubAgentRun,
        parent: &ParentTurn,
        end: AgentRunEnd,
    ) -> SubAgentRun {
        let usage = end.usage;
        let stored = store_end(store, run, end);
        parent.add_usage(usage);
        self.forget(&stored, parent);
        if stored.mode == SubAgentMode::Background {
            self.deliver(report(&stored, parent.options.language));
        }
        stored
    }
}

/// Stores how `run` ended, with what it produced (its final answer when it completed, else all
/// it wrote); the stored run, or, when the store failed, the run as it would have been stored.
fn store_end(store: &Store, run: &SubAgentRun, mut end: AgentRunEnd) -> SubAgentRun {
    let completed = end.status == SubAgentStatus::Completed;
    end.result = produced(store, &run.session_id, completed);
    match store.finish_agent_run(&run.id, &end) {
        Ok(Some(stored)) => stored,
        Ok(None) => store
            .agent_run(&run.id)
            .ok()
            .flatten()
            .unwrap_or_else(|| run.clone()),
        Err(error) => {
            tracing::error!(%error, run = %run.id, "sub-agent end not stored");
            SubAgentRun {
                status: end.status,
                result: end.result,
                error: end.error,
                iterations: end.iterations,
                usage: end.usage,
                ..run.clone()
            }
        }
    }
}

/// The message a background child's end leaves in its parent chat.
pub(super) fn report(run: &SubAgentRun, language: Language) -> NewMessage {
    let header = Text::SubAgentReport {
        goal: &run.goal,
        status: run.status,
    }
    .in_language(language);
    let mut text = format!("{header} (task {})", run.id);
    if let Some(error) = &run.error {
        text.push_str(&format!("\n\n{error}"));
    }
    if !run.result.is_empty() {
        text.push_str(&format!("\n\n{}", run.result));
    }
    NewMessage {
        model: Some(run.model.clone()),
        ..NewMessage::new(
            &run.parent_session_id,
            Role::Assistant,
            vec![ContentPart::text(text)],
        )
    }
}

/// What a child produced: its final answer (`final_only`), or everything it wrote, cut to
/// [`RESULT_CHARS`].
pub(super) fn produced(store: &Store, session_id: &str, final_only: bool) -> String {
    let messages = match store.list_messages(session_id) {
        Ok(messages) => messages,
        Err(error) => {
            tracing::warn!(%error, session = %session_id, "sub-agent transcript unreadable");
            return String::new();
        }
    };
    let texts: Vec<String> = messages
        .iter()
        .filter(|m| m.role == Role::Assistant && m.kind == MessageKind::Normal)
        .map(|m| m.text().trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    let text = if final_only {
        texts.last().cloned().unwrap_or_default()
    } else {
        texts.join("\n\n")
    };
    match text.char_indices().nth(RESULT_CHARS) {
        Some((at, _)) => format!(
            "{}… (cut; the whole transcript is in session {session_id})",
            &text[..at]
        ),
        None => text,
    }
}
