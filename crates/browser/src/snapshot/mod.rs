//! Page snapshots: the outline tree (built from an in-page walk of each frame, pruned), its rendering
//! in Playwright's "ai" grammar with refs, and the text operations on rendered outlines.

mod convert;
mod outline;
mod refs;
pub(crate) mod render;

#[cfg(test)]
mod tests;

pub use convert::{build_frame, FrameTrees, Raw};
pub use outline::{changed_lines, cut, find_lines};
pub use refs::{Issued, RefTable};
pub use render::{render, Rendered};

/// Where an element lives: its frame (0 is the page, others numbered as first seen) and its id
/// in that frame's walk (the same for the element's whole life in its document).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    pub frame: u32,
    pub id: i64,
}

/// One node of the outline: an element (ARIA role, accessible name, states) or a text run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    /// The ARIA role (`button`, `link`, `img` …), `text` for a text run, `generic` for a
    /// wrapper, `root` for a document.
    pub role: String,
    pub name: String,
    /// A form control's current value, printed as its text.
    pub value: Option<String>,
    /// States printed in brackets, in order: `checked`, `disabled`, `level=2` …
    pub states: Vec<String>,
    /// A link's target.
    pub url: Option<String>,
    /// Set on elements that can be acted on (visible, taking pointer events, interactive or
    /// made clickable by script): these carry a ref.
    pub target: Option<Target>,
    pub children: Vec<Node>,
}

impl Node {
    pub fn text(text: impl Into<String>) -> Node {
        Node {
            role: "text".into(),
            name: text.into(),
            ..Node::default()
        }
    }

    pub fn element(role: &str, name: &str) -> Node {
        Node {
            role: role.into(),
            name: name.into(),
            ..Node::default()
        }
    }

    pub fn is_text(&self) -> bool {
        self.role == "text"
    }
}
