//! A parent turn as its children see it: the model, tools and options they inherit, the relay
//! that carries their progress and approvals into the parent's event stream, the count of
//! children it started, their token usage, and background reports held until it ends (a
//! message stored mid-turn would land between a tool call and its result).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use hearth_llm::SharedModelClient;
use hearth_policy::ToolProfile;
use hearth_protocol::{EngineEvent, Session, Usage};
use hearth_store::NewMessage;
use tokio::sync::mpsc::UnboundedSender;

use super::Agents;
use crate::engine::EngineOptions;
use crate::tool_calls::ToolRunner;

/// What a parent turn lends its children.
pub(crate) struct ParentTurn {
    pub(crate) session: Session,
    pub(crate) model: SharedModelClient,
    pub(crate) model_name: String,
    pub(crate) tools: Arc<ToolRunner>,
    pub(crate) options: EngineOptions,
    pub(crate) profile: ToolProfile,
    relay: UnboundedSender<EngineEvent>,
    started: AtomicUsize,
    usage: Mutex<Usage>,
    reports: Mutex<Vec<NewMessage>>,
}

impl ParentTurn {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        session: Session,
        model: SharedModelClient,
        model_name: String,
        tools: Arc<ToolRunner>,
        options: EngineOptions,
        profile: ToolProfile,
        relay: UnboundedSender<EngineEvent>,
    ) -> ParentTurn {
        ParentTurn {
            session,
            model,
            model_name,
            tools,
            options,
            profile,
            relay,
            started: AtomicUsize::new(0),
            usage: Mutex::new(Usage::default()),
            reports: Mutex::new(Vec::new()),
        }
    }

    /// Passes an event to the parent turn's stream; false once that turn has ended.
    pub(crate) fn relay(&self, event: EngineEvent) -> bool {
        self.relay.send(event).is_ok()
    }

    /// Whether the parent turn still runs (and can show an approval request).
    pub(crate) fn is_live(&self) -> bool {
        !self.relay.is_closed()
    }

    /// Resolves once the parent turn has ended.
    pub(crate) async fn ended(&self) {
        self.relay.closed().await;
    }

    pub(crate) fn started(&self) -> usize {
        self.started.load(Ordering::SeqCst)
    }

    pub(crate) fn add_started(&self, n: usize) {
        self.started.fetch_add(n, Ordering::SeqCst);
    }

    /// Adds a child's token usage to this turn's.
    pub(crate) fn add_usage(&self, usage: Usage) {
        self.usage
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .add(usage);
    }

    /// The token usage of the children this turn waited for or that ended during it.
    pub(crate) fn child_usage(&self) -> Usage {
        *self.usage.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Registers a parent turn while it runs; dropping it ends the registration and stores the
/// background reports that arrived meanwhile.
pub(crate) struct ParentGuard {
    agents: Arc<Agents>,
    turn: Arc<ParentTurn>,
}

impl ParentGuard {
    pub(crate) fn turn(&self) -> &Arc<ParentTurn> {
        &self.turn
    }
}

impl Agents {
    /// Registers `turn` as the running turn of its session.
    pub(crate) fn enter(self: &Arc<Self>, turn: ParentTurn) -> ParentGuard {
        let turn = Arc::new(turn);
        self.lock_parents()
            .insert(turn.session.id.clone(), Arc::clone(&turn));
        ParentGuard {
            agents: Arc::clone(self),
            turn,
        }
    }

    /// Stores a background child's report in its parent chat now, or when the turn running
    /// there ends.
    pub(crate) fn deliver(&self, report: NewMessage) {
        {
            let parents = self.lock_parents();
            if let Some(turn) = parents.get(&report.session_id) {
                turn.reports
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(report);
                return;
            }
        }
        self.store_report(&report);
    }

    /// In the calling thread: a blocking one ([`Agents::finish`] runs there) or a drop.
    fn store_report(&self, report: &NewMessage) {
        if let Err(error) = self.db().blocking().insert_message(report) {
            tracing::error!(%error, session = %report.session_id, "sub-agent report not stored");
        }
    }
}

impl Drop for ParentGuard {
    fn drop(&mut self) {
        let reports = {
            let mut parents = self.agents.lock_parents();
            if parents
                .get(&self.turn.session.id)
                .is_some_and(|t| Arc::ptr_eq(t, &self.turn))
            {
                parents.remove(&self.turn.session.id);
            }
            std::mem::take(
                &mut *self
                    .turn
                    .reports
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner),
            )
        };
        for report in &reports {
            self.agents.store_report(report);
        }
    }
}
