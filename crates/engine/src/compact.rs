//! Context compaction: when the history would overflow the model's window, older turns are
//! folded into a stored summary message (the originals stay in the store).

use std::sync::Arc;

use hearth_llm::{collect, ChatMessage, ChatRequest, ToolSpec};
use hearth_protocol::{ContentPart, EngineEvent, Message, MessageKind, Role, Session};
use hearth_store::NewMessage;

use crate::engine::{Engine, EventSink};
use crate::history::{compaction_cut, estimate_tokens, to_chat_messages, visible_messages};
use crate::EngineError;

/// Messages always kept verbatim after a compaction.
const KEEP_RECENT: usize = 6;

const SUMMARY_PROMPT: &str = "You summarize conversations for an assistant that will continue \
them. Keep every fact, decision, file path, number, open question and user preference; drop \
pleasantries. Write a compact Markdown summary.";

/// Roughly how many tokens the tool definitions take in a request.
pub(crate) fn tools_tokens(tools: &[ToolSpec]) -> u64 {
    tools
        .iter()
        .map(|t| (t.description.len() + t.parameters.to_string().len()) as u64 / 4)
        .sum()
}

impl Engine {
    /// Returns the stored messages and the history to send, compacting first when it would not
    /// fit the window.
    pub(crate) async fn compact_if_needed(
        &self,
        session: &Session,
        model: &str,
        stored: Vec<Message>,
        system: &str,
        tools_tokens: u64,
        sink: &EventSink,
    ) -> Result<(Vec<Message>, Vec<ChatMessage>), EngineError> {
        let budget = self.options.context_window * 3 / 4;
        let visible = visible_messages(&stored);
        let history = to_chat_messages(&visible);
        let used = estimate_tokens(&history) + system.len() as u64 / 4 + tools_tokens;
        if used <= budget {
            return Ok((stored, history));
        }
        let Some(cut) = compaction_cut(&visible, KEEP_RECENT) else {
            return Ok((stored, history));
        };
        let older: Vec<&Message> = visible
            .iter()
            .copied()
            .filter(|m| m.kind == MessageKind::Summary || m.id <= cut)
            .collect();
        let mut messages = to_chat_messages(&older);
        messages.push(ChatMessage::user(
            "Summarize the conversation so far, following your instructions.",
        ));
        let request = ChatRequest {
            model: model.to_string(),
            system: SUMMARY_PROMPT.to_string(),
            messages,
            tools: Arc::from([]),
            max_tokens: Some(2_000),
            temperature: None,
        };
        let summary = collect(self.model.stream(&request).await?).await?;
        let first = older
            .iter()
            .find(|m| m.kind == MessageKind::Normal)
            .map_or(cut, |m| m.id);
        // The timeline (`timeline_recall`) keeps every compaction's summary.
        if !summary.text.trim().is_empty() {
            self.store
                .add_session_summary(&session.id, &summary.text, first, cut)?;
        }
        let stored_summary = self.store.insert_message(&NewMessage {
            kind: MessageKind::Summary,
            model: Some(model.to_string()),
            usage: Some(summary.usage),
            summary_through: Some(cut),
            ..NewMessage::new(
                &session.id,
                Role::System,
                vec![ContentPart::text(summary.text)],
            )
        })?;
        sink(EngineEvent::Compacted {
            summary_message_id: stored_summary.id,
            summarized_through: cut,
        });
        let stored = self.store.list_messages(&session.id)?;
        let history = to_chat_messages(&visible_messages(&stored));
        Ok((stored, history))
    }
}
