//! What a command, a code run and a skill's script show: what ran, how it ended, the output.

use hearth_protocol::ToolView;
use serde_json::json;

use super::*;

fn run(exit_code: Value, stdout: &str, stderr: &str) -> Value {
    json!({"exit_code": exit_code, "stdout": stdout, "stderr": stderr,
           "timed_out": false, "duration_ms": 42})
}

/// The one view of a call.
fn only(mut views: Vec<ToolView>) -> ToolView {
    assert_eq!(views.len(), 1, "{views:?}");
    views.remove(0)
}

#[test]
fn a_command_shows_its_line_exit_code_and_both_streams() {
    let shown = views(
        "exec",
        json!({"command": "ls -l | wc -l"}),
        run(json!(2), "3\n", "ls: 无法访问 'x'\n"),
    );
    assert_eq!(
        shown,
        [ToolView::CommandRun {
            command: "ls -l | wc -l".into(),
            skill: None,
            exit_code: Some(2),
            signal: None,
            timed_out: false,
            duration_ms: 42,
            stdout: "3\n".into(),
            stderr: "ls: 无法访问 'x'\n".into(),
            truncated: false,
        }]
    );
}

#[test]
fn a_code_run_is_named_by_its_language_and_a_skill_script_by_script_and_arguments() {
    let mut code = run(json!(0), "hi\n", "");
    code["language"] = json!("python");
    let ToolView::CommandRun { command, skill, .. } = only(views(
        "execute_code",
        json!({"language": "python", "code": "print('hi')"}),
        code,
    )) else {
        panic!("not a run")
    };
    assert_eq!((command.as_str(), skill), ("python", None));

    let mut script = run(json!(0), "", "");
    script["script"] = json!("scripts/convert.py");
    script["skill"] = json!("pdf-tools");
    let args = json!({"name": "pdf-tools", "script": "scripts/convert.py",
                      "args": ["--out", "a b.txt", "it's", ""]});
    let ToolView::CommandRun { command, skill, .. } = only(views("skill_run", args, script)) else {
        panic!("not a run")
    };
    assert_eq!(command, r"scripts/convert.py --out 'a b.txt' 'it'\''s' ''");
    assert_eq!(skill.as_deref(), Some("pdf-tools"));
}

#[test]
fn a_timed_out_killed_or_cut_run_says_so() {
    let mut ended = run(Value::Null, "partial", "");
    ended["timed_out"] = json!(true);
    ended["signal"] = json!(9);
    ended["truncated"] = json!(true);
    let ToolView::CommandRun {
        exit_code,
        signal,
        timed_out,
        truncated,
        ..
    } = only(views("exec", json!({"command": "sleep 99"}), ended))
    else {
        panic!("not a run")
    };
    assert_eq!(
        (exit_code, signal, timed_out, truncated),
        (None, Some(9), true, true)
    );
}

#[test]
fn a_result_that_is_not_a_finished_run_gets_no_run_view() {
    // A process started in the background answers with its id, not an exit code.
    assert!(views("exec", json!({"command": "x"}), json!({"session_id": "p1"})).is_empty());
    // An exit code out of range is no code at all, not a wrong one.
    let ToolView::CommandRun { exit_code, .. } =
        only(views("exec", json!({}), run(json!(1_u64 << 40), "", "")))
    else {
        panic!("not a run")
    };
    assert_eq!(exit_code, None);
}
