//! Context compaction: when the history would overflow the model's window, older turns are
//! folded into a stored summary message (the originals stay in the store). The summary call is
//! cancelled with the turn and stalls like a reply; an empty summary is never stored, and a
//! summary request that overflows is retried once without its oldest half.

use std::sync::Arc;

use futures::StreamExt;
use hearth_llm::{ChatMessage, ChatRequest, LlmError, StreamEvent, ToolSpec};
use hearth_protocol::{ContentPart, EngineEvent, Message, MessageKind, Role, Session, Usage};
use hearth_store::{NewMessage, StoreError};
use tokio_util::sync::CancellationToken;

use crate::engine::{Engine, EventSink};
use crate::history::{compaction_cut, estimate_tokens, to_chat_messages, visible_messages};
use crate::EngineError;

/// Messages always kept verbatim after a compaction.
const KEEP_RECENT: usize = 6;

const SUMMARY_PROMPT: &str = "You summarize conversations for an assistant that will continue \
them. Keep every fact, decision, file path, number, open question and user preference; drop \
pleasantries. Write a compact Markdown summary.";

/// Roughly how many tokens the tool definitions take in a request.
pub fn tools_tokens(tools: &[ToolSpec]) -> u64 {
    tools
        .iter()
        .map(|t| {
            let schema = t.parameters.to_string();
            (hearth_protocol::estimate_tokens(&t.description)
                + hearth_protocol::estimate_tokens(&schema)) as u64
        })
        .sum()
}

/// A request's room: the model's context window and the tokens the system prompt and the tool
/// definitions take of it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Room {
    pub window: u64,
    pub overhead: u64,
}

/// What the model is to see after [`Engine::compact_if_needed`].
pub(crate) enum Compacted {
    /// The stored messages and the history to send (compacted, or as they were).
    Ready(Vec<Message>, Vec<ChatMessage>),
    /// The turn was cancelled while the summary was being written; nothing was stored.
    Cancelled,
}

/// A summary the model wrote, with the id of the first message it covers.
struct Summary {
    text: String,
    usage: Usage,
    first: i64,
}

impl Engine {
    /// Returns the stored messages and the history to send, compacting first when it would not
    /// fit the window. `room` is the model's window and what the system prompt and tool
    /// definitions take of it.
    pub(crate) async fn compact_if_needed(
        &self,
        session: &Session,
        model: &str,
        room: Room,
        stored: Vec<Message>,
        sink: &EventSink,
        cancel: &CancellationToken,
    ) -> Result<Compacted, EngineError> {
        let budget = room.window * 3 / 4;
        let visible = visible_messages(&stored);
        let history = to_chat_messages(&visible);
        let used = estimate_tokens(&history) + room.overhead;
        if used <= budget {
            return Ok(Compacted::Ready(stored, history));
        }
        let Some(cut) = compaction_cut(&visible, KEEP_RECENT) else {
            return Ok(Compacted::Ready(stored, history));
        };
        let older: Vec<&Message> = visible
            .iter()
            .copied()
            .filter(|m| m.kind == MessageKind::Summary || m.id <= cut)
            .collect();
        let Some(summary) = self.summarize_fitting(model, &older, cancel).await? else {
            return Ok(Compacted::Cancelled);
        };
        if summary.text.trim().is_empty() {
            // Storing it would hide the older messages behind nothing.
            tracing::warn!(session = %session.id, "the model wrote an empty summary: the history goes out uncompacted");
            return Ok(Compacted::Ready(stored, history));
        }
        // The timeline (`timeline_recall`) keeps every compaction's summary.
        let (session_id, first) = (session.id.clone(), summary.first);
        let summary_text = summary.text.clone();
        let new = NewMessage {
            kind: MessageKind::Summary,
            model: Some(model.to_string()),
            usage: Some(summary.usage),
            summary_through: Some(cut),
            ..NewMessage::new(
                &session.id,
                Role::System,
                vec![ContentPart::text(summary.text)],
            )
        };
        let (stored_summary, stored) = self
            .db
            .write(move |store| {
                store.add_session_summary(&session_id, &summary_text, first, cut)?;
                let stored_summary = store.insert_message(&new)?;
                Ok::<_, StoreError>((stored_summary, store.list_messages(&session_id)?))
            })
            .await?;
        sink(EngineEvent::Compacted {
            summary_message_id: stored_summary.id,
            summarized_through: cut,
        });
        let history = to_chat_messages(&visible_messages(&stored));
        Ok(Compacted::Ready(stored, history))
    }

    /// Summarizes `older`; when the request is too long for the model, once more without its
    /// oldest half. `None` when the turn was cancelled.
    async fn summarize_fitting(
        &self,
        model: &str,
        older: &[&Message],
        cancel: &CancellationToken,
    ) -> Result<Option<Summary>, EngineError> {
        let overflow = match self.summarize(model, older, cancel).await {
            Err(EngineError::Model(overflow @ LlmError::ContextTooLong { .. })) => overflow,
            other => return other,
        };
        let Some(trimmed) = without_oldest_half(older) else {
            return Err(overflow.into());
        };
        tracing::warn!(
            dropped = older.len() - trimmed.len(),
            "the summary request was too long for the model: retrying without its oldest messages"
        );
        self.summarize(model, &trimmed, cancel).await
    }

    /// One summary request, streamed under the turn's cancel token and idle timeout.
    async fn summarize(
        &self,
        model: &str,
        messages: &[&Message],
        cancel: &CancellationToken,
    ) -> Result<Option<Summary>, EngineError> {
        let first = messages
            .iter()
            .find(|m| m.kind == MessageKind::Normal)
            .map_or(0, |m| m.id);
        let mut input = to_chat_messages(messages);
        input.push(ChatMessage::user(
            "Summarize the conversation so far, following your instructions.",
        ));
        let request = ChatRequest {
            model: model.to_string(),
            system: SUMMARY_PROMPT.to_string(),
            messages: input,
            tools: Arc::from([]),
            max_tokens: Some(2_000),
            temperature: None,
            tool_choice: hearth_llm::ToolChoice::Auto,
        };
        let mut stream = match self.start_stream(&request, cancel).await {
            None => return Ok(None),
            Some(started) => started?,
        };
        let idle = self.options.stream_idle_timeout;
        let mut summary = Summary {
            text: String::new(),
            usage: Usage::default(),
            first,
        };
        loop {
            let next = tokio::select! {
                biased;
                _ = cancel.cancelled() => return Ok(None),
                next = tokio::time::timeout(idle, stream.next()) => next,
            };
            match next.map_err(|_| EngineError::Stalled(idle))? {
                None => return Ok(Some(summary)),
                Some(Ok(StreamEvent::TextDelta(text))) => summary.text.push_str(&text),
                Some(Ok(StreamEvent::Usage(usage))) => summary.usage = usage,
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }
}

/// `older` without its oldest half of conversation: earlier summaries stay, and what is kept
/// starts at a user message, so no tool result loses its call. `None` when nothing can go.
fn without_oldest_half<'a>(older: &[&'a Message]) -> Option<Vec<&'a Message>> {
    let normal: Vec<&Message> = older
        .iter()
        .copied()
        .filter(|m| m.kind == MessageKind::Normal)
        .collect();
    let half = (normal.len() / 2).max(1);
    let start = (half..normal.len())
        .chain((1..half).rev())
        .find(|&i| normal[i].role == Role::User)?;
    let from = normal[start].id;
    Some(
        older
            .iter()
            .copied()
            .filter(|m| m.kind == MessageKind::Summary || m.id >= from)
            .collect(),
    )
}
