//! The snapshot builder without a browser: pruning, refs kept and minted, `[new]` marks, find,
//! changed lines and cutting.

use super::ax::AxNode;
use super::*;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;

fn ax(id: &str, role: &str, name: &str, backend: i64, children: &[&str]) -> Value {
    json!({
        "nodeId": id, "ignored": false,
        "role": {"type": "role", "value": role},
        "name": {"type": "computedString", "value": name},
        "backendDOMNodeId": backend,
        "childIds": children,
    })
}

fn with_parent(mut node: Value, parent: &str) -> Value {
    node["parentId"] = json!(parent);
    node
}

fn visible() -> DomFact {
    DomFact {
        visible: true,
        pointer: true,
        ..DomFact::default()
    }
}

fn page(button_name: &str, extra: bool) -> (Vec<Value>, HashMap<i64, DomFact>) {
    let mut children = vec!["2", "3", "4", "6"];
    if extra {
        children.push("9");
    }
    let mut nodes = vec![
        ax("1", "RootWebArea", "Shop", 1, &children),
        with_parent(ax("2", "heading", "Sign in", 2, &["21"]), "1"),
        with_parent(ax("21", "StaticText", "Sign in", 21, &[]), "2"),
        with_parent(ax("3", "generic", "", 3, &["5"]), "1"),
        with_parent(ax("5", "button", button_name, 5, &["51"]), "3"),
        with_parent(ax("51", "StaticText", button_name, 51, &[]), "5"),
        with_parent(ax("4", "image", "", 4, &[]), "1"),
        with_parent(ax("6", "link", "Docs", 6, &["61"]), "1"),
        with_parent(ax("61", "StaticText", "Docs", 61, &[]), "6"),
    ];
    nodes[1]["properties"] = json!([{"name": "level", "value": {"type": "integer", "value": 1}}]);
    nodes[7]["properties"] =
        json!([{"name": "url", "value": {"type": "string", "value": "http://shop.test/docs"}}]);
    if extra {
        nodes.push(with_parent(ax("9", "textbox", "Email", 9, &[]), "1"));
        nodes.last_mut().unwrap()["value"] = json!({"type": "string", "value": "ada@example.com"});
    }
    let facts: HashMap<i64, DomFact> = [2, 3, 4, 5, 6, 9]
        .into_iter()
        .map(|b| (b, visible()))
        .collect();
    (nodes, facts)
}

/// The nodes as the typed decoder reads them from Chrome's reply.
fn typed(nodes: &[Value]) -> Vec<AxNode<'_>> {
    nodes
        .iter()
        .map(|n| AxNode::deserialize(n).unwrap())
        .collect()
}

fn outline(nodes: &[Value], facts: &HashMap<i64, DomFact>, table: &mut RefTable) -> Vec<String> {
    let tree = build_frame(
        &typed(nodes),
        0,
        facts,
        &mut FrameTrees::new(),
        "http://shop.test/",
    );
    render(&tree, table).lines
}

#[test]
fn the_outline_is_pruned_and_in_the_ai_grammar() {
    let (nodes, facts) = page("Continue", false);
    let lines = outline(&nodes, &facts, &mut RefTable::default());
    assert_eq!(
        lines,
        vec![
            "- heading \"Sign in\" [level=1]",
            "- button \"Continue\" [ref=e1]",
            "- link \"Docs\" [ref=e2]:",
            "  - /url: /docs",
        ]
    );
}

#[test]
fn refs_stay_while_role_and_name_do_and_new_elements_are_marked() {
    let mut table = RefTable::default();
    let (nodes, facts) = page("Continue", false);
    outline(&nodes, &facts, &mut table);
    let (nodes, facts) = page("Continue", true);
    let lines = outline(&nodes, &facts, &mut table);
    assert!(
        lines.contains(&"- button \"Continue\" [ref=e1]".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"- textbox \"Email\" [ref=e3] [new]: ada@example.com".to_string()),
        "{lines:?}"
    );
    let (nodes, facts) = page("Pay now", true);
    let lines = outline(&nodes, &facts, &mut table);
    assert!(
        lines.contains(&"- button \"Pay now\" [ref=e4] [new]".to_string()),
        "{lines:?}"
    );
    let issued = table.lookup("e1").unwrap();
    assert_eq!(
        (issued.role.as_str(), issued.name.as_str()),
        ("button", "Continue")
    );
    table.reset();
    let lines = outline(&nodes, &facts, &mut table);
    assert!(
        lines.contains(&"- button \"Pay now\" [ref=e1]".to_string()),
        "{lines:?}"
    );
}

#[test]
fn hidden_elements_carry_no_ref_and_script_clickables_do() {
    let (nodes, mut facts) = page("Continue", false);
    facts.insert(5, DomFact::default());
    facts.insert(
        3,
        DomFact {
            clickable: true,
            ..visible()
        },
    );
    let lines = outline(&nodes, &facts, &mut RefTable::default());
    assert!(
        lines.contains(&"- generic [ref=e1]:".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"  - button \"Continue\"".to_string()),
        "{lines:?}"
    );
}

#[test]
fn frames_are_stitched_under_their_iframe_with_frame_refs() {
    let child = vec![
        ax("1", "RootWebArea", "", 100, &["2"]),
        with_parent(ax("2", "button", "Accept", 101, &[]), "1"),
    ];
    let mut facts: HashMap<i64, DomFact> = [(101, visible())].into_iter().collect();
    facts.insert(
        7,
        DomFact {
            child_frame: Some(1),
            ..visible()
        },
    );
    let mut frames = FrameTrees::new();
    frames.insert(
        1,
        build_frame(
            &typed(&child),
            1,
            &facts,
            &mut FrameTrees::new(),
            "http://other.test/",
        ),
    );
    let main = vec![
        ax("1", "RootWebArea", "", 1, &["2"]),
        with_parent(ax("2", "Iframe", "", 7, &[]), "1"),
    ];
    let tree = build_frame(&typed(&main), 0, &facts, &mut frames, "http://shop.test/");
    let lines = render(&tree, &mut RefTable::default()).lines;
    assert_eq!(lines, vec!["- iframe:", "  - button \"Accept\" [ref=f1e1]"]);
}

#[test]
fn find_keeps_ancestors_and_changes_list_only_new_lines() {
    let lines: Vec<String> = [
        "- navigation \"Main\":",
        "  - link \"Docs\" [ref=e1]",
        "  - link \"Blog\" [ref=e2]",
        "- button \"Go\" [ref=e3]",
    ]
    .map(String::from)
    .to_vec();
    assert_eq!(
        find_lines(&lines, "blog"),
        vec!["- navigation \"Main\":", "  - link \"Blog\" [ref=e2]"]
    );
    let mut after = lines.clone();
    after[3] = "- button \"Going\" [ref=e4] [new]".into();
    let (changed, removed) = changed_lines(&lines, &after);
    assert_eq!(
        (changed, removed),
        (vec!["- button \"Going\" [ref=e4] [new]".to_string()], 1)
    );
    assert_eq!(cut("ab\ncd\nef", 6), Some("ab\ncd"));
    assert_eq!(cut("ab", 6), None);
}
