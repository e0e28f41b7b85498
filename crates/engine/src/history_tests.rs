//! Tests for history building and the compaction cut.

use super::*;
use hearth_protocol::{MessageStatus, ToolCall, ToolResult};

fn msg(id: i64, role: Role, text: &str) -> Message {
    Message {
        id,
        session_id: "s".into(),
        role,
        kind: MessageKind::Normal,
        content: vec![ContentPart::text(text)],
        tool_calls: vec![],
        tool_result: None,
        status: MessageStatus::Complete,
        model: None,
        usage: None,
        error: None,
        error_code: None,
        summary_through: None,
        created_at: 0,
        updated_at: 0,
    }
}

fn call(id: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: "calculator".into(),
        arguments: "{}".into(),
        signature: None,
    }
}

#[test]
fn unanswered_tool_calls_get_an_interrupted_result() {
    let mut a = msg(2, Role::Assistant, "");
    a.tool_calls = vec![call("c1"), call("c2")];
    let mut r = msg(3, Role::Tool, "");
    r.tool_result = Some(ToolResult {
        call_id: "c1".into(),
        name: "calculator".into(),
        content: "{\"result\":2}".into(),
        is_error: false,
        duration_ms: 1,
        images: Vec::new(),
        views: Vec::new(),
    });
    let stored = [msg(1, Role::User, "hi"), a, r];
    let visible = visible_messages(&stored);
    let chat = to_chat_messages(&visible);
    let ids: Vec<_> = chat.iter().filter_map(|m| m.tool_call_id.clone()).collect();
    assert_eq!(ids, vec!["c2".to_string(), "c1".to_string()]);
    assert!(chat[2].content[0] == ContentPart::text(MISSING_RESULT));
}

#[test]
fn summary_replaces_the_messages_it_covers() {
    let mut s = msg(10, Role::System, "they said hi");
    s.kind = MessageKind::Summary;
    s.summary_through = Some(2);
    let stored = [
        msg(1, Role::User, "hi"),
        msg(2, Role::Assistant, "hello"),
        msg(3, Role::User, "next"),
        s,
    ];
    let visible = visible_messages(&stored);
    let ids: Vec<i64> = visible.iter().map(|m| m.id).collect();
    assert_eq!(ids, vec![10, 3]);
    let chat = to_chat_messages(&visible);
    assert!(
        matches!(&chat[0].content[0], ContentPart::Text { text } if text.contains("they said hi"))
    );
}

#[test]
fn compaction_cut_falls_before_a_user_message() {
    let stored = [
        msg(1, Role::User, "a"),
        msg(2, Role::Assistant, "b"),
        msg(3, Role::Tool, "c"),
        msg(4, Role::User, "d"),
        msg(5, Role::Assistant, "e"),
        msg(6, Role::User, "f"),
        msg(7, Role::Assistant, "g"),
    ];
    let visible = visible_messages(&stored);
    assert_eq!(compaction_cut(&visible, 2), Some(5));
    assert_eq!(compaction_cut(&visible, 4), Some(3));
    assert_eq!(compaction_cut(&visible, 7), None);
}

#[test]
fn token_estimate_grows_with_text() {
    let short = to_chat_messages(&visible_messages(&[msg(1, Role::User, "hi")]));
    let long = to_chat_messages(&visible_messages(&[msg(1, Role::User, &"x".repeat(4000))]));
    assert!(estimate_tokens(&long) > estimate_tokens(&short) + 900);
}

#[test]
fn token_estimate_counts_text_as_the_ui_does() {
    // A Chinese character is a token (not three bytes of a quarter each); a message adds 4.
    let chinese = to_chat_messages(&visible_messages(&[msg(1, Role::User, &"好".repeat(1000))]));
    assert_eq!(estimate_tokens(&chinese), 1_004);
    let english = to_chat_messages(&visible_messages(&[msg(1, Role::User, "abcde")]));
    assert_eq!(estimate_tokens(&english), 2 + 4);
}
