//! A turn's entry points (send, answer, regenerate) and the start and end events around its loop.

use std::sync::Arc;

use hearth_policy::ToolProfile;
use hearth_protocol::{ContentPart, EngineEvent, MessageKind, Role, Session};
use tokio_util::sync::CancellationToken;

use super::{Engine, EventSink, TurnSummary};
use crate::agents::ParentTurn;
use crate::turns::BegunTurn;
use crate::EngineError;

impl Engine {
    /// Runs one user turn: the user message is committed before the model is called.
    pub async fn send(
        &self,
        session_id: &str,
        content: Vec<ContentPart>,
        sink: &EventSink,
        cancel: CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        let begun = self
            .turns
            .commit(session_id, content, cancel.clone())
            .await?;
        self.answer(begun, sink, cancel).await
    }

    /// Runs the turn of a user message already committed with [`Turns::commit`] (the app
    /// commits it before building the engine, so a missing provider keeps the message).
    pub async fn answer(
        &self,
        begun: BegunTurn,
        sink: &EventSink,
        cancel: CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        self.drive(&begun.session, begun.user.id, sink, &cancel)
            .await
    }

    /// Replaces the last reply: removes everything after the last user message and runs the
    /// turn again from there.
    pub async fn regenerate(
        &self,
        session_id: &str,
        sink: &EventSink,
        cancel: CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        let session = self.session(session_id).await?;
        let _running = self.turns.begin(session_id, cancel.clone()).await?;
        let id = session_id.to_string();
        let messages = self.db.read(move |store| store.list_messages(&id)).await?;
        let last_user = messages
            .into_iter()
            .rev()
            .find(|m| m.role == Role::User && m.kind == MessageKind::Normal)
            .ok_or(EngineError::NothingToRegenerate)?;
        let (id, after) = (session_id.to_string(), last_user.id);
        self.db
            .write(move |store| store.delete_messages_after(&id, after))
            .await?;
        self.drive(&session, last_user.id, sink, &cancel).await
    }

    /// Runs the loop for a committed user message, reporting start and end as events.
    async fn drive(
        &self,
        session: &Session,
        user_message_id: i64,
        sink: &EventSink,
        cancel: &CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        sink(EngineEvent::TurnStarted {
            session_id: session.id.clone(),
            user_message_id,
        });
        let outcome = match &self.agents {
            None => self.run_loop(session, user_message_id, sink, cancel).await,
            Some(agents) => {
                let (relay, relayed) = tokio::sync::mpsc::unbounded_channel();
                let parent = agents.enter(self.parent_turn(session, relay)?);
                let work = self.run_loop(session, user_message_id, sink, cancel);
                let mut outcome = crate::agents::pump(relayed, sink, work).await;
                if let Ok(summary) = &mut outcome {
                    summary.usage.add(parent.turn().child_usage());
                }
                outcome
            }
        };
        match &outcome {
            Ok(summary) => sink(EngineEvent::TurnFinished {
                session_id: session.id.clone(),
                iterations: summary.iterations,
                usage: summary.usage,
                reason: summary.end,
            }),
            Err(e) => sink(EngineEvent::TurnFailed {
                session_id: session.id.clone(),
                error: e.into(),
            }),
        }
        outcome
    }

    /// What this turn in `session` lends the sub-agents it starts.
    fn parent_turn(
        &self,
        session: &Session,
        relay: tokio::sync::mpsc::UnboundedSender<EngineEvent>,
    ) -> Result<ParentTurn, EngineError> {
        Ok(ParentTurn::new(
            session.clone(),
            self.model.clone(),
            self.session_model(session),
            Arc::clone(&self.tools),
            self.options.clone(),
            self.session_profile(session)?,
            relay,
        ))
    }

    pub(super) fn session_model(&self, session: &Session) -> String {
        session
            .model
            .clone()
            .unwrap_or_else(|| self.options.default_model.clone())
    }

    /// Sessions store the profile they were created with; a value Hearth did not write is
    /// refused rather than read as some other profile.
    pub(super) fn session_profile(&self, session: &Session) -> Result<ToolProfile, EngineError> {
        session
            .tool_profile
            .parse()
            .map_err(|error| EngineError::Config(format!("session '{}': {error}", session.id)))
    }
}
