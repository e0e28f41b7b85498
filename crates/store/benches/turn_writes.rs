//! Benchmark: the store work of one two-iteration agent turn (user message, two streamed replies,
//! an audit row and a tool result, plus the reads the engine makes), on a database file in
//! `TMPDIR` that already holds `HISTORY` messages. Prints p50/p95/max per turn and per operation.
// A benchmark is test code: it reports on stdout and fails loudly on any error.
#![allow(clippy::print_stdout, clippy::unwrap_used)]

#[path = "support/timings.rs"]
mod timings;

use std::time::{Duration, Instant};

use hearth_protocol::{ContentPart, MessageStatus, Role, ToolCall, ToolResult, Usage};
use hearth_store::{AuditDecision, AuditEntry, MessageEnd, NewMessage, NewSession, Store};
use timings::summary;

const TURNS: usize = 400;
const HISTORY: usize = 20_000;

const ANSWER: &str = "The answer is 42. To work it out I multiplied six by seven, which is the \
    same as adding six to itself seven times; 计算结果是四十二。";

fn session(store: &Store, id: &str) {
    store
        .create_session(&NewSession {
            id: id.into(),
            title: "Bench".into(),
            model: None,
            workspace: None,
            tool_profile: "coding".into(),
        })
        .unwrap();
}

/// Earlier chats, so the indexes have the size of a store in use.
fn fill_history(store: &Store) {
    session(store, "bench:history");
    for n in 0..HISTORY {
        let text = format!("{ANSWER} message {n} about topic {}", n % 97);
        store
            .insert_message(&NewMessage::new(
                "bench:history",
                Role::User,
                vec![ContentPart::text(text)],
            ))
            .unwrap();
    }
}

fn streamed(store: &Store, session_id: &str) -> i64 {
    store
        .insert_message(&NewMessage {
            status: MessageStatus::Streaming,
            model: Some("bench".into()),
            ..NewMessage::new(session_id, Role::Assistant, Vec::new())
        })
        .unwrap()
        .id
}

fn ended() -> MessageEnd<'static> {
    MessageEnd {
        status: MessageStatus::Complete,
        usage: Some(Usage::default()),
        error: None,
    }
}

/// The writes and reads of one turn, timed as a whole and per operation.
fn turn(store: &Store, session_id: &str, ops: &mut [Vec<Duration>; 6]) -> Duration {
    let call = ToolCall {
        id: "c1".into(),
        name: "calculator".into(),
        arguments: r#"{"action":"evaluate","expression":"6*7"}"#.into(),
        signature: None,
    };
    let started = Instant::now();
    let mut step = Instant::now();
    let mut lap = |n: usize| {
        ops[n].push(step.elapsed());
        step = Instant::now();
    };
    store
        .insert_message(&NewMessage::new(
            session_id,
            Role::User,
            vec![ContentPart::text("what is 6*7?")],
        ))
        .unwrap();
    lap(0);
    store.list_messages(session_id).unwrap();
    store.pinned_and_relevant("what is 6*7?", 2000).unwrap();
    lap(1);
    let first = streamed(store, session_id);
    lap(2);
    store
        .finish_streaming(first, &[], std::slice::from_ref(&call), ended())
        .unwrap();
    lap(3);
    store
        .record_audit(&AuditEntry {
            session_id: Some(session_id.into()),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            decision: AuditDecision::Allow,
            reason: None,
            actor: "policy".into(),
            reason_code: None,
        })
        .unwrap();
    store
        .insert_message(&NewMessage {
            tool_result: Some(ToolResult {
                call_id: "c1".into(),
                name: "calculator".into(),
                content: "42".into(),
                is_error: false,
                duration_ms: 0,
                images: Vec::new(),
                views: Vec::new(),
            }),
            ..NewMessage::new(session_id, Role::Tool, Vec::new())
        })
        .unwrap();
    lap(4);
    store.list_messages(session_id).unwrap();
    let second = streamed(store, session_id);
    store
        .finish_streaming(second, &[ContentPart::text(ANSWER)], &[], ended())
        .unwrap();
    lap(5);
    started.elapsed()
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("hearth.db")).unwrap();
    fill_history(&store);
    let names = [
        "user message",
        "reads (history, memories)",
        "streaming placeholder",
        "finish reply with tool call",
        "audit row + tool result",
        "history + second reply",
    ];
    let mut ops: [Vec<Duration>; 6] = Default::default();
    let mut turns = Vec::with_capacity(TURNS);
    for n in 0..TURNS {
        let id = format!("bench:{n}");
        session(&store, &id);
        turns.push(turn(&store, &id, &mut ops));
    }
    println!(
        "store work per turn ({HISTORY} stored messages)  {}",
        summary(&mut turns)
    );
    for (name, mut samples) in names.iter().zip(ops) {
        println!("  {name:<30} {}", summary(&mut samples));
    }
}
