#![allow(clippy::unwrap_used)]

use hearth_protocol::{SubAgentMode, SubAgentStatus, Usage};

use super::{AgentRunEnd, NewAgentRun};
use crate::test_support::{new_session, TempStore};

fn new_run(id: &str, parent: &str) -> NewAgentRun {
    NewAgentRun {
        id: id.to_string(),
        parent_session_id: parent.to_string(),
        session: new_session(&format!("task:{id}")),
        goal: format!("goal {id}"),
        mode: SubAgentMode::Background,
        agent: None,
        model: "m".to_string(),
        tools: vec!["read_file".to_string()],
        max_iterations: 12,
        timeout_secs: 600,
    }
}

fn end(status: SubAgentStatus, result: &str) -> AgentRunEnd {
    AgentRunEnd {
        status,
        result: result.to_string(),
        error: None,
        iterations: 2,
        usage: Usage {
            input_tokens: 7,
            output_tokens: 3,
        },
    }
}

#[test]
fn a_run_begins_with_its_session_and_keeps_its_first_end() {
    let t = TempStore::new();
    t.session("desktop:p");
    let run = t.store.begin_agent_run(&new_run("a", "desktop:p")).unwrap();
    assert_eq!(run.status, SubAgentStatus::Running);
    assert_eq!(run.session_id, "task:a");
    assert!(t.store.get_session("task:a").unwrap().is_some());
    let ended = t
        .store
        .finish_agent_run("a", &end(SubAgentStatus::Completed, "done"))
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            ended.status,
            ended.result.as_str(),
            ended.usage.input_tokens
        ),
        (SubAgentStatus::Completed, "done", 7)
    );
    assert!(ended.finished_at.is_some());
    assert!(t
        .store
        .finish_agent_run("a", &end(SubAgentStatus::Cancelled, ""))
        .unwrap()
        .is_none());
    assert!(
        !t.store.request_agent_run_cancel("a").unwrap(),
        "already ended"
    );
    t.store.begin_agent_run(&new_run("b", "desktop:p")).unwrap();
    assert!(!t.store.agent_run_cancel_requested("b").unwrap());
    assert!(t.store.request_agent_run_cancel("b").unwrap());
    assert!(t.store.agent_run_cancel_requested("b").unwrap());
    assert_eq!(
        t.store.agent_run("a").unwrap().unwrap().status,
        SubAgentStatus::Completed
    );
}

#[test]
fn a_run_needs_its_parent_and_lists_newest_first_per_parent() {
    let t = TempStore::new();
    assert!(t
        .store
        .begin_agent_run(&new_run("x", "desktop:none"))
        .is_err());
    assert!(
        t.store.get_session("task:x").unwrap().is_none(),
        "the session is rolled back with the row"
    );
    t.session("desktop:p");
    t.session("desktop:q");
    t.store.begin_agent_run(&new_run("a", "desktop:p")).unwrap();
    t.tick();
    t.store.begin_agent_run(&new_run("b", "desktop:p")).unwrap();
    t.store.begin_agent_run(&new_run("c", "desktop:q")).unwrap();
    let ids = |parent| -> Vec<String> {
        t.store
            .agent_runs(parent, 10)
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect()
    };
    assert_eq!(ids(Some("desktop:p")), ["b", "a"]);
    assert_eq!(ids(None).len(), 3);
}

#[test]
fn runs_left_running_by_this_or_a_dead_process_become_interrupted() {
    let t = TempStore::new();
    t.session("desktop:p");
    t.store.begin_agent_run(&new_run("a", "desktop:p")).unwrap();
    t.store.begin_agent_run(&new_run("b", "desktop:p")).unwrap();
    t.store
        .finish_agent_run("b", &end(SubAgentStatus::Failed, "half"))
        .unwrap();
    let mut child = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let live = crate::owner::identity(child.id()).unwrap();
    t.store.begin_agent_run(&new_run("c", "desktop:p")).unwrap();
    t.store
        .conn()
        .execute("UPDATE agent_runs SET owner = ?1 WHERE id = 'c'", [&live])
        .unwrap();
    let t = t.reopen();
    let swept = t.store.mark_agent_runs_interrupted().unwrap();
    assert_eq!(swept.len(), 1);
    assert_eq!(
        (swept[0].id.as_str(), swept[0].status),
        ("a", SubAgentStatus::Interrupted)
    );
    assert_eq!(
        t.store.agent_run("c").unwrap().unwrap().status,
        SubAgentStatus::Running,
        "a live process keeps its run"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(t.store.mark_agent_runs_interrupted().unwrap().len(), 1);
    t.store.set_agent_run_result("a", "partial").unwrap();
    assert_eq!(t.store.agent_run("a").unwrap().unwrap().result, "partial");
}
