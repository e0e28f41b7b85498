//! Renders an outline tree in Playwright's "ai" grammar: `- role "name" [states] [ref=eN]`,
//! `: text` for a lone text child, `- /url:` for links, children indented by two spaces.

use super::refs::{Issued, RefTable};
use super::{Node, Target};
use std::collections::HashMap;

/// A rendered outline and the refs it issued.
#[derive(Debug, Default)]
pub struct Rendered {
    /// One line per node, no trailing newline.
    pub lines: Vec<String>,
    /// How many refs the outline carries.
    pub refs: usize,
}

impl Rendered {
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// Renders `root` (its children, for a document), numbering refs through `table`.
pub fn render(root: &Node, table: &mut RefTable) -> Rendered {
    let mut state = State {
        table,
        lines: Vec::new(),
        issued: Vec::new(),
        counts: HashMap::new(),
    };
    for child in &root.children {
        state.node(child, 0);
    }
    let refs = state.issued.len();
    let State {
        table,
        lines,
        issued,
        ..
    } = state;
    table.issue(issued);
    Rendered { lines, refs }
}

/// The target of the `nth` element (0-based) with `role` and `name` in `frame`, in document
/// order: how a stale ref is found again in a fresh tree.
pub fn find_target(root: &Node, frame: u32, role: &str, name: &str, nth: usize) -> Option<Target> {
    let mut seen = 0;
    let mut found = None;
    walk(root, &mut |node| {
        if found.is_some() {
            return;
        }
        if let Some(target) = node.target {
            if target.frame == frame && node.role == role && node.name == name {
                if seen == nth {
                    found = Some(target);
                }
                seen += 1;
            }
        }
    });
    found
}

fn walk(node: &Node, visit: &mut dyn FnMut(&Node)) {
    visit(node);
    for child in &node.children {
        walk(child, visit);
    }
}

struct State<'a> {
    table: &'a mut RefTable,
    lines: Vec<String>,
    issued: Vec<(String, Issued)>,
    counts: HashMap<(u32, String, String), usize>,
}

impl State<'_> {
    fn node(&mut self, node: &Node, depth: usize) {
        let indent = "  ".repeat(depth);
        if node.is_text() {
            self.lines.push(format!("{indent}- text: {}", node.name));
            return;
        }
        let mut line = format!("{indent}- {}", node.role);
        if !node.name.is_empty() {
            line.push(' ');
            line.push_str(&quote(&node.name));
        }
        for state in &node.states {
            line.push_str(&format!(" [{state}]"));
        }
        if let Some(target) = node.target {
            let (reference, new) = self.table.assign(target, &node.role, &node.name);
            line.push_str(&format!(" [ref={reference}]"));
            if new {
                line.push_str(" [new]");
            }
            let key = (target.frame, node.role.clone(), node.name.clone());
            let nth = self.counts.entry(key).or_insert(0);
            self.issued.push((
                reference,
                Issued {
                    target,
                    role: node.role.clone(),
                    name: node.name.clone(),
                    nth: *nth,
                },
            ));
            *nth += 1;
        }
        let lone_text = match (&node.value, node.children.as_slice(), &node.url) {
            (Some(value), [], None) if !value.is_empty() => Some(value.clone()),
            (None, [only], None) if only.is_text() => Some(only.name.clone()),
            _ => None,
        };
        if let Some(text) = lone_text {
            self.lines.push(format!("{line}: {text}"));
            return;
        }
        let has_value = node.value.as_ref().is_some_and(|v| !v.is_empty());
        let has_children = !node.children.is_empty() || node.url.is_some() || has_value;
        if !has_children {
            self.lines.push(line);
            return;
        }
        self.lines.push(format!("{line}:"));
        let inner = "  ".repeat(depth + 1);
        if let Some(value) = node.value.as_ref().filter(|v| !v.is_empty()) {
            self.lines.push(format!("{inner}- text: {value}"));
        }
        if let Some(url) = &node.url {
            self.lines.push(format!("{inner}- /url: {url}"));
        }
        for child in &node.children {
            self.node(child, depth + 1);
        }
    }
}

/// A name in double quotes, with quotes, backslashes and control characters escaped.
fn quote(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    out.push('"');
    for c in name.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
