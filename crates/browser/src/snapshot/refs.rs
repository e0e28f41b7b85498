//! Refs: `e<n>` (or `f<k>e<n>` inside frame k) per element, kept while the element's role and
//! name stay the same, minted afresh otherwise, and forgotten on a cross-document navigation.

use super::Target;
use std::collections::HashMap;

/// What a ref was issued for: enough to find the element again in a fresh tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued {
    pub target: Target,
    pub role: String,
    pub name: String,
    /// Its index among the elements of the same frame, role and name, in document order.
    pub nth: usize,
}

/// A tab's refs across snapshots of one document.
#[derive(Debug, Default)]
pub struct RefTable {
    /// The ref number of each element, with the role and name it had.
    numbers: HashMap<Target, (u32, String, String)>,
    next: HashMap<u32, u32>,
    issued: HashMap<String, Issued>,
    /// Whether a snapshot of this document was taken (then new elements are marked).
    seen: bool,
}

/// The text of a ref.
pub fn ref_name(frame: u32, number: u32) -> String {
    if frame == 0 {
        format!("e{number}")
    } else {
        format!("f{frame}e{number}")
    }
}

impl RefTable {
    /// Forgets every ref (a cross-document navigation): numbering starts again at 1.
    pub fn reset(&mut self) {
        *self = RefTable::default();
    }

    /// Whether any snapshot of this document was rendered.
    pub fn seen(&self) -> bool {
        self.seen
    }

    /// The ref of `target` with `role` and `name`, and whether it is new since the previous
    /// snapshot.
    pub(super) fn assign(&mut self, target: Target, role: &str, name: &str) -> (String, bool) {
        if let Some((number, old_role, old_name)) = self.numbers.get(&target) {
            if old_role == role && old_name == name {
                return (ref_name(target.frame, *number), false);
            }
        }
        let next = self.next.entry(target.frame).or_insert(1);
        let number = *next;
        *next += 1;
        self.numbers
            .insert(target, (number, role.to_string(), name.to_string()));
        (ref_name(target.frame, number), self.seen)
    }

    /// Records what the refs of a finished snapshot point at (older refs stay, so they can be
    /// relocated).
    pub(super) fn issue(&mut self, issued: Vec<(String, Issued)>) {
        self.issued.extend(issued);
        self.seen = true;
    }

    /// What `reference` was issued for, if it ever was in this document.
    pub fn lookup(&self, reference: &str) -> Option<&Issued> {
        self.issued.get(reference)
    }

    /// Points `reference` at `target` (after it was relocated).
    pub fn relocate(&mut self, reference: &str, target: Target) {
        if let Some(issued) = self.issued.get_mut(reference) {
            issued.target = target;
        }
    }
}
