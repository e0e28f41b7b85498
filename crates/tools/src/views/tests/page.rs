//! A loaded page's results viewed with their calls, in each turn's dialect.

use hearth_protocol::{ContentPart, Message, Role, SkillDialect, ToolCall, ToolResult, ToolView};
use serde_json::json;

use super::*;

fn message(id: i64, role: Role, content: Vec<ContentPart>) -> Message {
    let row = json!({"id": id, "session_id": "s", "role": role, "kind": "normal",
        "content": content, "status": "complete", "created_at": 0, "updated_at": 0});
    serde_json::from_value(row).expect("a message row")
}

fn turn(
    first_id: i64,
    user: Vec<ContentPart>,
    call: (&str, &str, Value),
    content: Value,
) -> Vec<Message> {
    let (id, name, args) = call;
    let mut assistant = message(first_id + 1, Role::Assistant, Vec::new());
    assistant.tool_calls = vec![ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args.to_string(),
        signature: None,
    }];
    let mut answer = message(first_id + 2, Role::Tool, Vec::new());
    answer.tool_result = Some(ToolResult {
        call_id: id.into(),
        views: vec![ToolView::Text {
            text: "stale".into(),
            truncated: false,
        }],
        ..result(name, content)
    });
    vec![message(first_id, Role::User, user), assistant, answer]
}

#[test]
fn a_loaded_page_views_each_result_with_its_call_in_its_turns_dialect() {
    let skill = ContentPart::Skill {
        name: "notes".into(),
        dialect: SkillDialect::Picobot,
        folder: "/skills/notes".into(),
        instructions_file: "prompt.md".into(),
        instructions: "Write notes.".into(),
    };
    let diff = json!({"diff": "@@ -1 +1 @@\n-a\n+b\n"});
    let mut page = turn(
        1,
        vec![skill],
        ("c1", "file_write", json!({"path": "n.md"})),
        diff.clone(),
    );
    page.extend(turn(
        4,
        vec![ContentPart::Text {
            text: "again".into(),
        }],
        ("c2", "file_write", json!({})),
        diff,
    ));
    page.extend(turn(
        7,
        Vec::new(),
        ("c3", "browser", json!({"action": "snapshot"})),
        json!({}),
    ));
    attach_views(&mut page);
    let viewed: Vec<_> = page
        .iter()
        .filter_map(|m| m.tool_result.as_ref())
        .map(|r| &r.views)
        .collect();
    assert!(matches!(&viewed[0][..], [ToolView::Diff { path, .. }] if path == "n.md"));
    assert!(
        viewed[1].is_empty(),
        "file_write is no Hearth tool: {:?}",
        viewed[1]
    );
    assert!(
        matches!(&viewed[2][..], [ToolView::BrowserPage { action, .. }] if action == "snapshot")
    );
}

#[test]
fn a_result_whose_call_is_not_in_the_page_is_viewed_without_arguments() {
    let mut page = turn(
        1,
        Vec::new(),
        ("c1", "browser", json!({"action": "click"})),
        json!({"title": "T"}),
    );
    page.remove(1);
    attach_views(&mut page);
    let views = &page[1]
        .tool_result
        .as_ref()
        .map(|r| r.views.clone())
        .unwrap_or_default();
    assert!(
        matches!(&views[..], [ToolView::BrowserPage { action, title: Some(t), .. }] if action == "?" && t == "T")
    );
}

#[test]
fn a_running_browser_call_shows_its_action_and_other_calls_show_nothing() {
    let args = json!({"action": "navigate", "url": "https://a.example"}).to_string();
    assert_eq!(
        call_views(Some("browser"), &args),
        [ToolView::BrowserPage {
            action: "navigate".into(),
            url: Some("https://a.example".into()),
            title: None,
            snapshot: None,
        }]
    );
    assert!(call_views(Some("write_file"), &args).is_empty());
    assert!(call_views(None, "{").is_empty());
}
