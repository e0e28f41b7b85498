//! From the tree the in-page walk returns for one frame (`walk.js`) to the pruned outline tree:
//! text merged, names that repeat their text kept once, label text beside its field dropped,
//! refs only where they can act, and child frames stitched under their `iframe`.

use super::{Node, Target};
use serde::Deserialize;
use std::collections::HashMap;

/// One node of the walk's tree: a text run or an element.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Raw {
    Text(String),
    Element(RawElement),
}

/// An element as the walk describes it (short keys keep the reply small).
#[derive(Debug, Deserialize)]
pub struct RawElement {
    /// The ARIA role.
    r: String,
    /// The accessible name.
    #[serde(default)]
    n: String,
    /// A form control's value.
    #[serde(default)]
    v: Option<String>,
    #[serde(default)]
    s: Vec<String>,
    /// A link's address.
    #[serde(default)]
    u: Option<String>,
    /// The element's id when it is visible and takes pointer events (it may carry a ref).
    #[serde(default)]
    t: Option<i64>,
    /// Made clickable by script or style (`cursor: pointer`, `onclick`, `tabindex`,
    /// `contenteditable`).
    #[serde(default)]
    k: u8,
    /// An iframe's id, by which its frame's tree is found.
    #[serde(default)]
    f: Option<i64>,
    #[serde(default)]
    c: Vec<Raw>,
}

/// The outline trees of child frames, by frame number, waiting to be stitched under their
/// `iframe` element; `owners` maps an iframe (its frame and id) to the frame it shows.
#[derive(Debug, Default)]
pub struct FrameTrees {
    pub trees: HashMap<u32, Node>,
    pub owners: HashMap<(u32, i64), u32>,
}

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
const WRAPPERS: &[&str] = &["generic", "none", "presentation"];

/// Roles whose value is their text.
const VALUED: &[&str] = &["textbox", "searchbox", "combobox", "spinbutton", "slider"];

struct Builder<'a> {
    frame: u32,
    frames: &'a mut FrameTrees,
    page_url: Option<url::Url>,
}

/// The outline of frame `frame` from the walk's nodes; `frames` holds the child frames' trees
/// already built (taken out as they are stitched in); links of `page_url`'s origin are printed
/// as paths.
pub fn build_frame(nodes: Vec<Raw>, frame: u32, frames: &mut FrameTrees, page_url: &str) -> Node {
    let mut builder = Builder {
        frame,
        frames,
        page_url: url::Url::parse(page_url).ok(),
    };
    Node {
        role: "root".into(),
        children: builder.children(nodes, false),
        ..Node::default()
    }
}

impl Builder<'_> {
    fn convert(&mut self, raw: Raw, inside_target: bool) -> Vec<Node> {
        let element = match raw {
            Raw::Text(text) => return vec![Node::text(text)],
            Raw::Element(element) => element,
        };
        if element.r == "iframe" {
            return vec![self.iframe(&element)];
        }
        let role = element.r;
        let interactive = INTERACTIVE.contains(&role.as_str());
        let mut target = element
            .t
            .filter(|_| interactive || (element.k != 0 && !inside_target))
            .map(|id| Target {
                frame: self.frame,
                id,
            });
        let mut children = self.children(element.c, inside_target || target.is_some());
        // A clickable wrapper (a label, a card) around a control: the control carries the ref.
        if target.is_some() && !interactive && children.iter().any(has_target) {
            target = None;
        }
        let name = element.n;
        let mut value = element
            .v
            .filter(|v| VALUED.contains(&role.as_str()) && !v.is_empty());
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
            if children.iter().all(|c| !has_target(c)) && same_text(&flat_text(&children), &name) {
                children.clear();
            }
        }
        let states = element.s;
        let url = element
            .u
            .filter(|u| !u.is_empty())
            .map(|u| self.short_url(&u));
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

    fn children(&mut self, raws: Vec<Raw>, inside_target: bool) -> Vec<Node> {
        let mut out: Vec<Node> = Vec::new();
        for raw in raws {
            for child in self.convert(raw, inside_target) {
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

    fn iframe(&mut self, element: &RawElement) -> Node {
        let children = element
            .f
            .and_then(|id| self.frames.owners.get(&(self.frame, id)))
            .and_then(|k| self.frames.trees.remove(k))
            .map(|tree| tree.children)
            .unwrap_or_default();
        let target = element.t.filter(|_| children.is_empty()).map(|id| Target {
            frame: self.frame,
            id,
        });
        Node {
            role: "iframe".into(),
            target,
            children,
            ..Node::default()
        }
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

/// The text of `nodes` and their descendants (names of named ones) run together as a name
/// would be: to drop children that only spell out their parent's name.
fn flat_text(nodes: &[Node]) -> String {
    fn push(node: &Node, out: &mut Vec<String>) {
        if node.is_text() || !node.name.is_empty() {
            out.push(node.name.clone());
        } else {
            for child in &node.children {
                push(child, out);
            }
        }
    }
    let mut parts = Vec::new();
    for node in nodes {
        push(node, &mut parts);
    }
    let mut text = String::new();
    for part in parts {
        let glue = part.starts_with([',', '.', ';', ':', '!', '?', ')']);
        if !text.is_empty() && !glue {
            text.push(' ');
        }
        text.push_str(&part);
    }
    text
}

/// Whether two texts are the same but for spaces.
fn same_text(a: &str, b: &str) -> bool {
    a.chars()
        .filter(|c| !c.is_whitespace())
        .eq(b.chars().filter(|c| !c.is_whitespace()))
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
