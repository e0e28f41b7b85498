//! Views for stored messages as a window loads them: each tool result is viewed with the call it
//! answers (found in the same page: a page never starts with the result of a call in an older
//! one) and the dialect of its turn (the skill the turn's user message runs, else `hearth`).

use std::collections::HashMap;

use hearth_protocol::{ContentPart, Message, Role, ToolView};

use super::canonical::canonical_name;
use super::results::result_views;
use crate::Dialect;

/// The dialect of a turn started by a user message with `content`.
fn turn_dialect(content: &[ContentPart]) -> Dialect {
    content
        .iter()
        .find_map(|part| match part {
            ContentPart::Skill { dialect, .. } => Some(Dialect::from(*dialect)),
            _ => None,
        })
        .unwrap_or(Dialect::Hearth)
}

/// Sets the views of every tool result in `messages` (oldest first), replacing any it had.
/// A result whose call is not among them is viewed without its arguments.
pub fn attach_views(messages: &mut [Message]) {
    let mut dialect = Dialect::Hearth;
    let mut calls: HashMap<&str, (Dialect, &str)> = HashMap::new();
    let mut viewed: Vec<(usize, Vec<ToolView>)> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        match message.role {
            Role::User => dialect = turn_dialect(&message.content),
            Role::Assistant => {
                for call in &message.tool_calls {
                    calls.insert(&call.id, (dialect, &call.arguments));
                }
            }
            _ => {}
        }
        if let Some(result) = &message.tool_result {
            let (call_dialect, arguments) = calls
                .get(result.call_id.as_str())
                .copied()
                .unwrap_or((dialect, ""));
            let canonical = canonical_name(call_dialect, &result.name);
            viewed.push((index, result_views(canonical.as_deref(), arguments, result)));
        }
    }
    for (index, views) in viewed {
        if let Some(result) = messages.get_mut(index).and_then(|m| m.tool_result.as_mut()) {
            result.views = views;
        }
    }
}
