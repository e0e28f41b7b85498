//! The views the runner gives the window: an approval says whether the call starts programs and
//! what an edit would change, a result is viewed as its canonical tool in the dialect that ran it.

use hearth_protocol::ToolView;

use super::*;

#[tokio::test]
async fn a_picobot_write_is_viewed_as_a_diff_its_shell_as_a_run_and_the_shell_asks_as_a_program() {
    let rig = Rig::new(
        Dialect::Picobot,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    );
    let write = r#"{"path":"notes.md","content":"one\ntwo\n"}"#;
    let (results, events) = rig
        .run_recorded(&[("file_write", write), ("bash", r#"{"command":"true"}"#)])
        .await;
    assert!(
        matches!(&results[0].views[..], [ToolView::Diff { path, added: 2, .. }] if path == "notes.md"),
        "{:?}",
        results[0]
    );
    // PicoBot's `bash` is `exec`: its run is viewed as one, with the command the model gave.
    assert!(
        matches!(&results[1].views[..],
            [ToolView::CommandRun { command, exit_code: Some(0), .. }] if command == "true"),
        "{:?}",
        results[1].views
    );
    let asked: Vec<_> = events
        .iter()
        .filter_map(|event| match event {
            EngineEvent::ApprovalRequested {
                call,
                view,
                starts_programs,
                ..
            } => Some((call.name.as_str(), view.is_some(), *starts_programs)),
            _ => None,
        })
        .collect();
    assert!(asked.contains(&("bash", false, true)), "{asked:?}");
    assert!(
        asked
            .iter()
            .all(|(name, _, programs)| *name == "bash" || !programs),
        "{asked:?}"
    );
    for (name, has_view, _) in &asked {
        assert_eq!(*has_view, *name == "file_write", "{asked:?}");
    }
}

#[tokio::test]
async fn a_call_of_a_tool_without_a_running_view_starts_with_none() {
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    );
    let (_, events) = rig
        .run_recorded(&[("calculator", r#"{"expression":"1+1"}"#)])
        .await;
    let started: Vec<_> = events
        .iter()
        .filter_map(|event| match event {
            EngineEvent::ToolCallStarted { views, .. } => Some(views.len()),
            _ => None,
        })
        .collect();
    assert_eq!(started, [0]);
}
