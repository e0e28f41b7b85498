//! From the CDP accessibility tree of one frame (`Accessibility.getFullAXTree` nodes) and facts
//! from the DOM snapshot to the pruned outline tree: ignored nodes and nameless wrappers
//! spliced, text merged, names that repeat their text kept once, refs only where they can act.

use super::ax::AxNode;
use super::{Node, Target};
use serde_json::Value;
use std::collections::HashMap;

/// What the DOM snapshot says about one element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DomFact {
    /// Laid out with a non-empty box and not `visibility: hidden`.
    pub visible: bool,
    /// Not `pointer-events: none`.
    pub pointer: bool,
    /// Made clickable by script or style: a click listener, `cursor: pointer`, `tabindex`,
    /// `contenteditable`.
    pub clickable: bool,
    /// For an `<iframe>`: the number of the frame it shows.
    pub child_frame: Option<u32>,
}

/// The outline trees of child frames, by frame number, waiting to be stitched under their
/// `iframe` element.
pub type FrameTrees = HashMap<u32, Node>;

/// Roles that are acted on, so they carry a ref when visible.
const INTERACTIVE: &[&str] = &[
    "button",
    "checkbox",
    "combobox",
    "link",
    "listbox",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "searchbox",
    "slider",
    "spinbutton",
    "switch",
    "tab",
    "textbox",
    "treeitem",
];

/// Roles that only wrap their children.
const WRAPPERS: &[&str] = &[
    "generic",
    "none",
    "presentation",
    "LabelText",
    "Section",
    "Div",
    "Pre",
    "Ruby",
    "MenuListPopup",
    "Abbr",
];

/// Roles whose value is their text.
const VALUED: &[&str] = &["textbox", "searchbox", "combobox", "spinbutton", "slider"];

struct Builder<'a> {
    by_id: HashMap<&'a str, &'a AxNode<'a>>,
    frame: u32,
    facts: &'a HashMap<i64, DomFact>,
    frames: &'a mut FrameTrees,
    page_url: Option<url::Url>,
}

/// The outline of frame `frame` from its accessibility nodes; `frames` holds the child frames'
/// trees already built (taken out as they are stitched in); links of `page_url`'s origin are
/// printed as paths.
pub fn build_frame(
    nodes: &[AxNode<'_>],
    frame: u32,
    facts: &HashMap<i64, DomFact>,
    frames: &mut FrameTrees,
    page_url: &str,
) -> Node {
    let by_id: HashMap<&str, &AxNode> = nodes.iter().map(|n| (n.node_id.as_ref(), n)).collect();
    let root_id = nodes
        .iter()
        .find(|n| n.parent_id.is_none())
        .map(|n| n.node_id.as_ref());
    let mut builder = Builder {
        by_id,
        frame,
        facts,
        frames,
        page_url: url::Url::parse(page_url).ok(),
    };
    let children = root_id.map_or_else(Vec::new, |id| builder.convert(id, false, 0));
    Node {
        role: "root".into(),
        children,
        ..Node::default()
    }
}

/// Whitespace runs as single spaces, trimmed.
fn clean(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Builder<'_> {
    fn convert(&mut self, id: &str, inside_target: bool, depth: usize) -> Vec<Node> {
        let Some(node) = self.by_id.get(id).copied() else {
            return Vec::new();
        };
        if depth > 400 {
            return Vec::new();
        }
        let role = node.role();
        let ignored = node.ignored;
        match role {
            "InlineTextBox" | "ListMarker" | "LineBreak" => return Vec::new(),
            "StaticText" if !ignored => {
                let text = clean(node.name());
                return if text.is_empty() {
                    Vec::new()
                } else {
                    vec![Node::text(text)]
                };
            }
            _ => {}
        }
        let backend = node.backend_dom_node_id;
        let fact = backend.and_then(|b| self.facts.get(&b)).copied();
        if role == "Iframe" && !ignored {
            return vec![self.iframe(fact, backend)];
        }
        let child_ids: Vec<&str> = node.child_ids.iter().map(|id| id.0.as_ref()).collect();
        if ignored || matches!(role, "RootWebArea" | "WebArea") {
            return self.children(&child_ids, inside_target, depth);
        }
        let role = normalize_role(role);
        let name = clean(node.name());
        let target = match (backend, fact) {
            (Some(backend_id), Some(fact)) if fact.visible && fact.pointer => {
                let interactive = INTERACTIVE.contains(&role.as_str());
                (interactive || (fact.clickable && !inside_target)).then_some(Target {
                    frame: self.frame,
                    backend_id,
                })
            }
            _ => None,
        };
        let mut target = target;
        let mut children = self.children(&child_ids, inside_target || target.is_some(), depth);
        // A clickable wrapper (a label, a card) around a control: the control carries the ref.
        if target.is_some()
            && !INTERACTIVE.contains(&role.as_str())
            && children.iter().any(has_target)
        {
            target = None;
        }
        let (states, url) = self.properties(node);
        let mut value = VALUED
            .contains(&role.as_str())
            .then(|| clean(&node.value_text()))
            .filter(|v| !v.is_empty());
        if VALUED.contains(&role.as_str()) {
            if children.iter().any(|c| c.role == "option") {
                value = None;
                children.retain(|c| !c.is_text());
            } else {
                children.clear();
            }
        }
        if !name.is_empty() {
            children.retain(|child| !(child.is_text() && child.name == name));
        }
        let bare = name.is_empty() && target.is_none() && states.is_empty() && value.is_none();
        if bare && WRAPPERS.contains(&role.as_str()) {
            return children;
        }
        if target.is_none() && role == "img" && name.is_empty() {
            return Vec::new();
        }
        if bare && children.is_empty() && url.is_none() {
            return Vec::new();
        }
        vec![Node {
            role: if WRAPPERS.contains(&role.as_str()) {
                "generic".into()
            } else {
                role
            },
            name,
            value,
            states,
            url,
            target,
            children,
        }]
    }

    fn children(&mut self, ids: &[&str], inside_target: bool, depth: usize) -> Vec<Node> {
        let mut out: Vec<Node> = Vec::new();
        for id in ids {
            for child in self.convert(id, inside_target, depth + 1) {
                match out.last_mut() {
                    Some(last) if last.is_text() && child.is_text() => {
                        let glue = child.name.starts_with([',', '.', ';', ':', '!', '?', ')']);
                        if !glue {
                            last.name.push(' ');
                        }
                        last.name.push_str(&child.name);
                    }
                    _ => out.push(child),
                }
            }
        }
        drop_label_texts(&mut out);
        out
    }

    fn iframe(&mut self, fact: Option<DomFact>, backend: Option<i64>) -> Node {
        let children = fact
            .and_then(|f| f.child_frame)
            .and_then(|k| self.frames.remove(&k))
            .map(|tree| tree.children)
            .unwrap_or_default();
        let target = match (backend, fact) {
            (Some(backend_id), Some(f)) if f.visible && children.is_empty() => Some(Target {
                frame: self.frame,
                backend_id,
            }),
            _ => None,
        };
        Node {
            role: "iframe".into(),
            target,
            children,
            ..Node::default()
        }
    }

    /// The printed states and the link target.
    fn properties(&self, node: &AxNode) -> (Vec<String>, Option<String>) {
        let found: HashMap<&str, &Value> = node
            .properties
            .iter()
            .filter_map(|p| Some((p.name.as_ref(), p.value.value.as_ref()?)))
            .collect();
        let text = |key: &str| {
            found.get(key).map(|v| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
        };
        let yes = |key: &str| text(key).is_some_and(|v| v == "true");
        let mut states = Vec::new();
        match text("checked").as_deref() {
            Some("true") => states.push("checked".to_string()),
            Some("mixed") => states.push("checked=mixed".to_string()),
            _ => {}
        }
        if yes("disabled") {
            states.push("disabled".into());
        }
        if yes("expanded") {
            states.push("expanded".into());
        }
        if yes("focused") {
            states.push("active".into());
        }
        if let Some(level) = text("level") {
            states.push(format!("level={level}"));
        }
        match text("pressed").as_deref() {
            Some("true") => states.push("pressed".to_string()),
            Some("mixed") => states.push("pressed=mixed".to_string()),
            _ => {}
        }
        if yes("selected") {
            states.push("selected".into());
        }
        if yes("invalid") {
            states.push("invalid".into());
        }
        let url = text("url")
            .filter(|u| !u.is_empty())
            .map(|u| self.short_url(&u));
        (states, url)
    }

    /// `url` as a path when it has the page's origin.
    fn short_url(&self, url: &str) -> String {
        match (&self.page_url, url::Url::parse(url)) {
            (Some(page), Ok(link)) if page.origin() == link.origin() => {
                let mut short = link.path().to_string();
                if let Some(query) = link.query() {
                    short.push('?');
                    short.push_str(query);
                }
                if let Some(fragment) = link.fragment() {
                    short.push('#');
                    short.push_str(fragment);
                }
                short
            }
            _ => url.to_string(),
        }
    }
}

fn has_target(node: &Node) -> bool {
    node.target.is_some() || node.children.iter().any(has_target)
}

/// Drops text runs that only repeat the name of the element next to them (a label's text
/// before its field).
fn drop_label_texts(nodes: &mut Vec<Node>) {
    let names: Vec<Option<String>> = nodes
        .iter()
        .map(|n| (!n.is_text() && !n.name.is_empty()).then(|| n.name.clone()))
        .collect();
    let mut index: usize = 0;
    nodes.retain(|node| {
        let i = index;
        index += 1;
        if !node.is_text() {
            return true;
        }
        let beside = |j: Option<usize>| {
            j.and_then(|j| names.get(j)).and_then(Option::as_deref) == Some(node.name.as_str())
        };
        !(beside(i.checked_sub(1)) || beside(Some(i + 1)))
    });
}

/// Chrome's role names as ARIA's (`image` → `img`, internal roles lower-cased).
fn normalize_role(role: &str) -> String {
    match role {
        "image" => "img".into(),
        r if WRAPPERS.contains(&r) => r.into(),
        r => {
            let mut chars = r.chars();
            match chars.next() {
                Some(first) if first.is_uppercase() => first.to_lowercase().chain(chars).collect(),
                _ => r.into(),
            }
        }
    }
}
