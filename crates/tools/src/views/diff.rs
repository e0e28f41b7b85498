//! Diff lines: a unified diff read into numbered lines, and the diff view of a list of lines.

use hearth_protocol::{DiffLine, DiffLineKind, ToolView};

/// The diff view of `lines` for the file at `path`.
pub(super) fn diff_view(path: String, lines: Vec<DiffLine>, truncated: bool) -> ToolView {
    let count = |kind| lines.iter().filter(|l| l.kind == kind).count();
    let added = u32::try_from(count(DiffLineKind::Add)).unwrap_or(u32::MAX);
    let removed = u32::try_from(count(DiffLineKind::Del)).unwrap_or(u32::MAX);
    ToolView::Diff {
        path,
        lines,
        added,
        removed,
        truncated,
    }
}

/// A line without line numbers.
pub(super) fn unnumbered(kind: DiffLineKind, text: &str) -> DiffLine {
    DiffLine {
        kind,
        text: text.to_string(),
        old_no: None,
        new_no: None,
    }
}

/// The lines of `text` (one trailing newline ignored; none for empty text).
pub(super) fn text_lines(text: &str) -> impl Iterator<Item = &str> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n').filter(move |_| !text.is_empty())
}

/// The old and new start lines of a `@@ -a[,b] +c[,d] @@` header.
fn hunk_starts(line: &str) -> Option<(u32, u32)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let start = |range: &str| range.split(',').next()?.parse::<u32>().ok();
    Some((start(old)?, start(new)?))
}

/// Reads a unified diff into numbered lines; text outside hunks and unknown lines are notes.
pub(super) fn parse_unified(diff: &str) -> Vec<DiffLine> {
    let mut lines = Vec::new();
    let (mut old_no, mut new_no) = (0u32, 0u32);
    let mut in_hunk = false;
    for line in text_lines(diff) {
        if let Some((old, new)) = hunk_starts(line) {
            (old_no, new_no, in_hunk) = (old, new, true);
            lines.push(unnumbered(DiffLineKind::Hunk, line));
        } else if !in_hunk && (line.starts_with("--- ") || line.starts_with("+++ ")) {
            lines.push(unnumbered(DiffLineKind::File, line));
        } else if let (true, Some(text)) = (in_hunk, line.strip_prefix('+')) {
            lines.push(DiffLine {
                new_no: Some(new_no),
                ..unnumbered(DiffLineKind::Add, text)
            });
            new_no = new_no.saturating_add(1);
        } else if let (true, Some(text)) = (in_hunk, line.strip_prefix('-')) {
            lines.push(DiffLine {
                old_no: Some(old_no),
                ..unnumbered(DiffLineKind::Del, text)
            });
            old_no = old_no.saturating_add(1);
        } else if let (true, Some(text)) = (in_hunk, line.strip_prefix(' ')) {
            lines.push(DiffLine {
                old_no: Some(old_no),
                new_no: Some(new_no),
                ..unnumbered(DiffLineKind::Context, text)
            });
            old_no = old_no.saturating_add(1);
            new_no = new_no.saturating_add(1);
        } else {
            lines.push(unnumbered(DiffLineKind::Note, line));
        }
    }
    lines
}
