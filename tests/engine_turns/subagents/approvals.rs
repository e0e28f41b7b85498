//! A child's approvals: while its parent turn runs they reach the parent's approver labelled
//! with the child; a background child asking after that turn ended is denied at once with the
//! reason (the approver is never asked, nothing runs).

use std::sync::atomic::{AtomicUsize, Ordering};

use hearth_engine::{ApprovalRequest, Approver};

use super::*;

/// Allows every request and keeps what it was asked.
#[derive(Default)]
struct Allower {
    asked: Mutex<Vec<ApprovalRequest>>,
    count: AtomicUsize,
}

#[async_trait::async_trait]
impl Approver for Allower {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.asked.lock().unwrap().push(request.clone());
        Some(ApprovalDecision::AllowOnce)
    }
}

/// A rig whose approvals go to an [`Allower`].
fn allowing_rig(server: &ScriptedServer) -> (AgentRig, Arc<Allower>) {
    let approver = Arc::new(Allower::default());
    let rig = agent_rig_with(
        server,
        Dialect::Hearth,
        Settings::default(),
        approver.clone(),
    );
    (rig, approver)
}

#[tokio::test]
async fn an_inline_childs_approval_reaches_the_parent_labelled_with_the_child() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "delegate_task",
        json!({"goal": "Write the marker", "tasks": ["ask-inline: write it"], "tools": ["exec"]}),
    ));
    server.push(Reply::text("the child wrote it"));
    server.push_for(
        "ask-inline",
        Reply::tool_call("exec", json!({"command": "echo inline > inline.txt"})),
    );
    server.push_for("ask-inline", Reply::text("written"));
    let (rig, approver) = allowing_rig(&server);
    let session = rig.session();
    let turn = rig.send(&session, "go", CancellationToken::new()).await;

    let asked = approver.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].call.name, "exec");
    let relayed = turn
        .events
        .iter()
        .find_map(|e| match e {
            EngineEvent::ApprovalRequested {
                session_id, reason, ..
            } => Some((session_id.clone(), reason.clone())),
            _ => None,
        })
        .expect("the parent's stream shows the child's request");
    assert_eq!(relayed.0, session, "shown in the parent chat");
    assert!(relayed.1.starts_with("Sub-agent \""), "{}", relayed.1);
    assert!(relayed.1.contains("ask-inline"), "{}", relayed.1);
    let written = std::fs::read_to_string(rig.dir.workspace().join("inline.txt")).unwrap();
    assert_eq!(written, "inline\n");
}

#[tokio::test]
async fn a_background_childs_request_after_its_parent_turn_ended_is_denied_with_the_reason() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "spawn_task",
        json!({"task": "late-ask: write the marker"}),
    ));
    server.push(Reply::text("started it"));
    // The child's first answer comes once the parent's two quick replies are long done.
    server.push_for(
        "late-ask",
        Reply::tool_call("exec", json!({"command": "echo late > late.txt"})).after(2_000),
    );
    server.push_for("late-ask", Reply::text("I could not run it"));
    let (rig, approver) = allowing_rig(&server);
    let session = rig.session();
    rig.send(&session, "start it", CancellationToken::new())
        .await;
    rig.agents.wait_idle().await;

    assert_eq!(approver.count.load(Ordering::SeqCst), 0, "nobody was asked");
    assert!(!rig.dir.workspace().join("late.txt").exists(), "exec ran");
    let child = requests_of(&server, "late-ask");
    assert_eq!(child.len(), 2);
    let denial = child[1].to_string();
    assert!(denial.contains("denied_by_user"), "{denial}");
    assert!(
        denial.contains("the parent's turn runs, and that turn has ended"),
        "{denial}"
    );
    let runs = rig.store.agent_runs(None, 10).unwrap();
    assert_eq!(runs[0].status, SubAgentStatus::Completed);
    assert!(
        runs[0].result.contains("I could not run it"),
        "{:?}",
        runs[0]
    );
    let texts = rig.texts(&session);
    assert!(
        texts.iter().any(|t| t.contains("I could not run it")),
        "the report reached the parent chat: {texts:?}"
    );
}
