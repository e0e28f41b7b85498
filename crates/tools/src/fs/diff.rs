//! The unified diff a mutating file tool reports of what it changed: 3 lines of context, a
//! time limit on the line matching and a size cap, so one result never floods the model or the
//! desktop's diff card.

use serde_json::{Map, Value};
use similar::TextDiff;
use std::time::Duration;

/// The most characters of diff one result carries; the rest is cut at a line boundary.
pub(crate) const DIFF_MAX_CHARS: usize = 20_000;

/// The largest file (before or after) write_file diffs; bigger writes report no diff.
pub(crate) const DIFF_MAX_INPUT: usize = 1024 * 1024;

/// How long line matching may take before it settles for a coarser (still correct) diff.
const DIFF_TIMEOUT: Duration = Duration::from_millis(500);

/// Adds `diff` (and `diff_truncated: true` when it was cut) to a tool result: the change from
/// `before` to `after` of `path`, with `/dev/null` as the old name when the file was created.
pub(crate) fn add_diff(
    result: &mut Map<String, Value>,
    path: &str,
    created: bool,
    before: &str,
    after: &str,
) {
    let old_name = if created {
        "/dev/null".to_string()
    } else {
        format!("a/{path}")
    };
    let text = TextDiff::configure()
        .timeout(DIFF_TIMEOUT)
        .diff_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&old_name, &format!("b/{path}"))
        .to_string();
    let (text, cut) = bounded(text);
    result.insert("diff".to_string(), Value::String(text));
    if cut {
        result.insert("diff_truncated".to_string(), Value::Bool(true));
    }
}

/// `text` cut after the last whole line within [`DIFF_MAX_CHARS`], with a closing note saying
/// how many lines were left out; whether it was cut.
fn bounded(text: String) -> (String, bool) {
    if text.len() <= DIFF_MAX_CHARS {
        return (text, false);
    }
    let mut end = DIFF_MAX_CHARS;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end].rfind('\n').map_or(0, |i| i + 1);
    let left_out = text[end..].lines().count();
    let mut kept = text[..end].to_string();
    kept.push_str(&format!(
        "\\ diff cut here: {left_out} more lines not shown (read_file shows the file)\n"
    ));
    (kept, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff_of(created: bool, before: &str, after: &str) -> Map<String, Value> {
        let mut result = Map::new();
        add_diff(&mut result, "x.txt", created, before, after);
        result
    }

    #[test]
    fn small_changes_are_whole() {
        let result = diff_of(false, "a\nb\n", "a\nc\n");
        assert_eq!(
            result["diff"],
            "--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
        );
        assert!(!result.contains_key("diff_truncated"));
    }

    #[test]
    fn created_files_diff_against_dev_null() {
        let result = diff_of(true, "", "new\n");
        assert_eq!(
            result["diff"],
            "--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+new\n"
        );
    }

    #[test]
    fn long_diffs_are_cut_at_a_line_with_a_note() {
        let after: String = (0..5000).map(|i| format!("line {i} 汉字\n")).collect();
        let result = diff_of(true, "", &after);
        let diff = result["diff"].as_str().unwrap_or_default();
        assert!(diff.len() <= DIFF_MAX_CHARS + 100, "{}", diff.len());
        let (kept, note) = diff.trim_end().rsplit_once('\n').unwrap_or_default();
        assert!(kept.ends_with("汉字"), "cut mid-line: {kept:?}");
        let shown = kept.lines().filter(|l| l.starts_with('+')).count() - 1;
        assert_eq!(
            note,
            format!(
                "\\ diff cut here: {} more lines not shown (read_file shows the file)",
                5000 - shown
            )
        );
        assert_eq!(result["diff_truncated"], true);
    }
}
