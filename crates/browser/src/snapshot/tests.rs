//! The snapshot builder without a browser: pruning, refs kept and minted, `[new]` marks, find,
//! changed lines and cutting.

use super::*;
use serde_json::{json, Value};

/// A page as the walk returns it; `extra` adds a filled textbox, `hidden` leaves the button
/// without an id (not visible), `card` makes the wrapper clickable.
fn page(button_name: &str, extra: bool, hidden: bool, card: bool) -> Value {
    let mut button = json!({"r": "button", "n": button_name, "t": 5});
    if hidden {
        button.as_object_mut().unwrap().remove("t");
    }
    let mut wrapper = json!({"r": "generic", "c": [button]});
    if card {
        wrapper["t"] = json!(3);
        wrapper["k"] = json!(1);
    }
    let mut nodes = vec![
        json!({"r": "heading", "n": "Sign in", "s": ["level=1"]}),
        wrapper,
        json!({"r": "img", "t": 4}),
        json!({"r": "link", "n": "Docs", "u": "http://shop.test/docs", "t": 6, "c": ["Docs"]}),
    ];
    if extra {
        nodes.push(json!({"r": "textbox", "n": "Email", "v": "ada@example.com", "t": 9}));
    }
    Value::Array(nodes)
}

fn raw(nodes: &Value) -> Vec<Raw> {
    serde_json::from_value(nodes.clone()).unwrap()
}

fn outline(nodes: &Value, table: &mut RefTable) -> Vec<String> {
    let tree = build_frame(
        raw(nodes),
        0,
        &mut FrameTrees::default(),
        "http://shop.test/",
    );
    render(&tree, table).lines
}

#[test]
fn the_outline_is_pruned_and_in_the_ai_grammar() {
    let lines = outline(
        &page("Continue", false, false, false),
        &mut RefTable::default(),
    );
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
    outline(&page("Continue", false, false, false), &mut table);
    let lines = outline(&page("Continue", true, false, false), &mut table);
    assert!(
        lines.contains(&"- button \"Continue\" [ref=e1]".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"- textbox \"Email\" [ref=e3] [new]: ada@example.com".to_string()),
        "{lines:?}"
    );
    let renamed = page("Pay now", true, false, false);
    let lines = outline(&renamed, &mut table);
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
    let lines = outline(&renamed, &mut table);
    assert!(
        lines.contains(&"- button \"Pay now\" [ref=e1]".to_string()),
        "{lines:?}"
    );
}

#[test]
fn hidden_elements_carry_no_ref_and_script_clickables_do() {
    let lines = outline(
        &page("Continue", false, true, true),
        &mut RefTable::default(),
    );
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
fn a_clickable_wrapper_around_a_control_leaves_the_ref_to_the_control() {
    let lines = outline(
        &page("Continue", false, false, true),
        &mut RefTable::default(),
    );
    assert!(
        lines.contains(&"- button \"Continue\" [ref=e1]".to_string()),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("- generic")),
        "{lines:?}"
    );
}

#[test]
fn names_spelled_out_by_children_and_label_text_are_kept_once() {
    let nodes = json!([
        {"r": "link", "n": "str.split()", "u": "http://shop.test/a#x", "t": 1,
         "c": [{"r": "code", "c": ["str.", "split", "()"]}]},
        "Name",
        {"r": "textbox", "n": "Name", "t": 2},
        {"r": "paragraph", "c": ["One", {"r": "strong", "c": ["two"]}, ", three."]},
    ]);
    let lines = outline(&nodes, &mut RefTable::default());
    assert_eq!(
        lines,
        vec![
            "- link \"str.split()\" [ref=e1]:",
            "  - /url: /a#x",
            "- textbox \"Name\" [ref=e2]",
            "- paragraph:",
            "  - text: One",
            "  - strong: two",
            "  - text: , three.",
        ]
    );
}

#[test]
fn frames_are_stitched_under_their_iframe_with_frame_refs() {
    let mut frames = FrameTrees::default();
    let child = json!([{"r": "button", "n": "Accept", "t": 1}]);
    let tree = build_frame(
        raw(&child),
        1,
        &mut FrameTrees::default(),
        "http://other.test/",
    );
    frames.trees.insert(1, tree);
    frames.owners.insert((0, 7), 1);
    let main = json!([{"r": "iframe", "f": 7, "t": 7}, {"r": "iframe", "f": 8, "t": 8}]);
    let tree = build_frame(raw(&main), 0, &mut frames, "http://shop.test/");
    let lines = render(&tree, &mut RefTable::default()).lines;
    assert_eq!(
        lines,
        vec![
            "- iframe:",
            "  - button \"Accept\" [ref=f1e1]",
            "- iframe [ref=e1]"
        ]
    );
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
