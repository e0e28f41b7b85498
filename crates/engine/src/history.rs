//! Turns stored messages into the conversation sent to the model: the latest summary stands in
//! for the messages it covers, and every tool call is paired with a result.

use std::collections::HashSet;

use hearth_llm::ChatMessage;
use hearth_protocol::{ContentPart, Message, MessageKind, Role};

/// Result text sent for a call whose result was never stored (the process died mid-call).
const MISSING_RESULT: &str = r#"{"error":{"kind":"interrupted","message":"the tool call was interrupted before it finished"}}"#;

/// Rough token count: each text by [`hearth_protocol::estimate_tokens`] (as the UI counts it),
/// plus per-part and per-message overhead; images count 1,000.
pub fn estimate_tokens(messages: &[ChatMessage]) -> u64 {
    let tokens = |text: &str| hearth_protocol::estimate_tokens(text) as u64;
    messages
        .iter()
        .map(|m| {
            let parts: u64 = m
                .content
                .iter()
                .map(|p| match p {
                    ContentPart::Text { text } | ContentPart::Attached { text, .. } => tokens(text),
                    ContentPart::Image { .. } => 1_000,
                    // About 10 tokens a second; a second of MP3 is ~20 KB of base64.
                    ContentPart::Audio { data, .. } => data.len() as u64 / 2_000 + 10,
                    ContentPart::File { path, .. } => tokens(path) + 8,
                    ContentPart::Artifact { id, name, .. } => tokens(id) + tokens(name) + 4,
                    ContentPart::Skill { instructions, .. } => tokens(instructions) + 40,
                })
                .sum();
            let calls: u64 = m.tool_calls.iter().map(|c| tokens(&c.arguments) + 8).sum();
            parts + calls + 4
        })
        .sum()
}

/// The messages the model should see: everything after the latest summary, led by it.
pub fn visible_messages(stored: &[Message]) -> Vec<&Message> {
    let summary = stored.iter().rev().find(|m| m.kind == MessageKind::Summary);
    let covered = summary.and_then(|s| s.summary_through).unwrap_or(0);
    let mut out: Vec<&Message> = Vec::new();
    if let Some(s) = summary {
        out.push(s);
    }
    out.extend(
        stored
            .iter()
            .filter(|m| m.kind == MessageKind::Normal && m.id > covered),
    );
    out
}

/// Converts stored messages to provider messages.
pub fn to_chat_messages(messages: &[&Message]) -> Vec<ChatMessage> {
    let answered: HashSet<&str> = messages
        .iter()
        .filter_map(|m| m.tool_result.as_ref().map(|r| r.call_id.as_str()))
        .collect();
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        match (m.kind, m.role) {
            (MessageKind::Summary, _) => out.push(ChatMessage::user(format!(
                "Summary of the earlier part of this conversation:\n{}",
                m.text()
            ))),
            (_, Role::Assistant) => {
                let text = m.text();
                if text.is_empty() && m.tool_calls.is_empty() {
                    continue;
                }
                out.push(ChatMessage::assistant(text, m.tool_calls.clone()));
                for call in m
                    .tool_calls
                    .iter()
                    .filter(|c| !answered.contains(c.id.as_str()))
                {
                    out.push(ChatMessage::tool_result(
                        &call.id,
                        &call.name,
                        MISSING_RESULT,
                    ));
                }
            }
            (_, Role::Tool) => {
                if let Some(result) = &m.tool_result {
                    let mut message = ChatMessage::tool_result(
                        &result.call_id,
                        &result.name,
                        result.content.clone(),
                    );
                    message.content.extend(result.images.iter().cloned());
                    out.push(message);
                }
            }
            (_, Role::User) => out.push(ChatMessage {
                role: Role::User,
                content: m.content.clone(),
                tool_calls: Vec::new(),
                tool_call_id: None,
                tool_name: None,
            }),
            (_, Role::System) => {}
        }
    }
    out
}

/// Where to cut the visible history for compaction: the id of the last message to fold into a
/// summary, keeping at least `keep_recent` messages and never separating a tool call from its
/// result (the cut falls just before a user message).
pub fn compaction_cut(visible: &[&Message], keep_recent: usize) -> Option<i64> {
    let normal: Vec<&&Message> = visible
        .iter()
        .filter(|m| m.kind == MessageKind::Normal)
        .collect();
    if normal.len() <= keep_recent {
        return None;
    }
    let limit = normal.len() - keep_recent;
    (1..=limit)
        .rev()
        .find(|&i| normal[i].role == Role::User)
        .map(|i| normal[i - 1].id)
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
