//! A child's end: stored with the status the runtime saw and what it had produced, added to its
//! parent turn, and reported in the parent chat for a background child — also when its task
//! panics or is dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use hearth_protocol::{
    ContentPart, Language, MessageKind, Role, SubAgentMode, SubAgentRun, SubAgentStatus, Text,
};
use hearth_store::{AgentRunEnd, DbError, NewMessage, Store};

use crate::agents::{Agents, ParentTurn};

/// What a child's result may hold, in characters (the rest stays in its transcript).
const RESULT_CHARS: usize = 20_000;

/// Ends a run as failed if its task stops before storing an end (a panic, an abort): in the
/// dropping thread, as a drop cannot wait. Whoever takes `ending` first ends the run: this
/// guard, or [`Agents::finish`]'s work on the blocking pool (which goes on when the task is
/// dropped while it waits for it).
pub(super) struct Unfinished<'a> {
    pub(super) agents: &'a Agents,
    pub(super) parent: &'a ParentTurn,
    pub(super) run: &'a SubAgentRun,
    pub(super) ending: Arc<AtomicBool>,
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
    /// Stores the end, adds the child's usage to its parent turn, delivers a background
    /// child's report into the parent chat, and forgets the child: on the blocking pool, as one piece that
    /// runs to its end even when this task is dropped meanwhile.
    pub(super) async fn finish(
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
        // Delivered before the child is forgotten: whoever waits for no child to run (the
        // CLI before it exits, a quitting app) finds every report in place.
        if stored.mode == SubAgentMode::Background {
            self.deliver(report(&stored, parent.options.language));
        }
        self.forget(&stored, parent);
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
pub(in crate::agents) fn report(run: &SubAgentRun, language: Language) -> NewMessage {
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
pub(in crate::agents) fn produced(store: &Store, session_id: &str, final_only: bool) -> String {
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
