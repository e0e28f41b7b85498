//! Running one child: its own engine over its session, its progress and approvals relayed to
//! the parent, the wall-clock timeout, and its end stored with the status the runtime saw and
//! what it had produced — also when its task panics or is dropped.

mod approver;
mod end;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use hearth_protocol::{ContentPart, EngineEvent, SubAgentRun, SubAgentStatus, Text, TurnEnd};
use hearth_store::AgentRunEnd;
use tokio_util::sync::CancellationToken;

use super::plan::Prepared;
use super::{Agents, ParentTurn};
use crate::engine::{Engine, TurnSummary};
use crate::EngineError;
use approver::ChildApprover;
use end::Unfinished;
pub(super) use end::{produced, report};

/// How often a child checks whether another process asked to cancel it.
const CANCEL_POLL: Duration = Duration::from_millis(500);

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
    /// stored (`end::store_end`).
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
}
