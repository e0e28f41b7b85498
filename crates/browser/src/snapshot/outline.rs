//! Text operations on a rendered outline: the lines matching a text with their ancestors, the
//! lines that changed since the previous outline, and cutting at a line boundary.

use similar::{ChangeTag, TextDiff};
use std::collections::BTreeSet;

/// How deep a line is (two spaces per level).
fn depth(line: &str) -> usize {
    (line.len() - line.trim_start_matches(' ').len()) / 2
}

/// The lines at `picked` indexes with each one's ancestors, in outline order.
fn with_ancestors(lines: &[String], picked: &[usize]) -> Vec<String> {
    let mut keep = BTreeSet::new();
    for &index in picked {
        keep.insert(index);
        let mut level = depth(&lines[index]);
        for above in (0..index).rev() {
            if level == 0 {
                break;
            }
            let d = depth(&lines[above]);
            if d < level {
                keep.insert(above);
                level = d;
            }
        }
    }
    keep.into_iter().map(|i| lines[i].clone()).collect()
}

/// The lines containing `needle` (case-insensitive) with their ancestors.
pub fn find_lines(lines: &[String], needle: &str) -> Vec<String> {
    let needle = needle.to_lowercase();
    let picked: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.to_lowercase().contains(&needle))
        .map(|(i, _)| i)
        .collect();
    with_ancestors(lines, &picked)
}

/// The lines of `after` that are not in `before` (with their ancestors, for context) and how
/// many lines of `before` are gone.
pub fn changed_lines(before: &[String], after: &[String]) -> (Vec<String>, usize) {
    let old = before.join("\n");
    let new = after.join("\n");
    let diff = TextDiff::from_lines(&old, &new);
    let mut added = Vec::new();
    let mut removed = 0;
    let mut new_index = 0;
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Equal => new_index += 1,
            ChangeTag::Insert => {
                added.push(new_index);
                new_index += 1;
            }
            ChangeTag::Delete => removed += 1,
        }
    }
    added.retain(|&i| i < after.len());
    (with_ancestors(after, &added), removed)
}

/// `text` cut at the last line boundary within `max_chars` characters; `None` when it fits.
pub fn cut(text: &str, max_chars: usize) -> Option<&str> {
    if text.chars().count() <= max_chars {
        return None;
    }
    let end = text
        .char_indices()
        .nth(max_chars)
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    Some(head.rfind('\n').map_or(head, |i| &head[..i]))
}
