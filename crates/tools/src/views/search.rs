//! The view of a `search_files` result: matched lines grouped by file with what the pattern
//! matched marked (by the same regex syntax the search used), or the files a glob found.

use hearth_protocol::{FoundFile, LineSegment, SearchGroup, SearchLine, ToolView};
use regex::Regex;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::read::{flag, string};

/// Longest line that gets marks (longer lines are shown plain).
const HIGHLIGHT_MAX_LINE: usize = 2000;
/// Compiled-pattern size limit for marking (the search itself has its own).
const HIGHLIGHT_REGEX_BYTES: usize = 1 << 20;

#[derive(Deserialize)]
struct Match {
    path: String,
    line_number: u32,
    line: String,
}

#[derive(Deserialize)]
struct Found {
    path: String,
    #[serde(default)]
    kind: Option<String>,
}

/// The entries of the array field `key` that read as `T` (others are left out).
fn entries<T: for<'de> Deserialize<'de>>(result: &Map<String, Value>, key: &str) -> Option<Vec<T>> {
    let items = result.get(key)?.as_array()?;
    Some(
        items
            .iter()
            .filter_map(|item| T::deserialize(item).ok())
            .collect(),
    )
}

/// `line` in plain and matched pieces; empty matches are skipped.
fn segments(line: &str, pattern: Option<&Regex>) -> Vec<LineSegment> {
    let plain = |text: &str| LineSegment {
        text: text.to_string(),
        hit: false,
    };
    let Some(pattern) = pattern.filter(|_| line.len() <= HIGHLIGHT_MAX_LINE) else {
        return vec![plain(line)];
    };
    let mut pieces = Vec::new();
    let mut at = 0;
    for found in pattern.find_iter(line).filter(|m| !m.is_empty()) {
        if found.start() > at {
            pieces.push(plain(&line[at..found.start()]));
        }
        pieces.push(LineSegment {
            text: found.as_str().to_string(),
            hit: true,
        });
        at = found.end();
    }
    if at < line.len() || pieces.is_empty() {
        pieces.push(plain(&line[at..]));
    }
    pieces
}

fn groups(matches: Vec<Match>, pattern: &str) -> Vec<SearchGroup> {
    let marker = regex::RegexBuilder::new(pattern)
        .size_limit(HIGHLIGHT_REGEX_BYTES)
        .build()
        .ok();
    let mut groups: Vec<SearchGroup> = Vec::new();
    for found in matches {
        let hit = SearchLine {
            line_number: found.line_number,
            segments: segments(&found.line, marker.as_ref()),
        };
        match groups.iter_mut().find(|g| g.path == found.path) {
            Some(group) => group.hits.push(hit),
            None => groups.push(SearchGroup {
                path: found.path,
                hits: vec![hit],
            }),
        }
    }
    groups
}

/// The view of a search result, `None` when it has neither matches nor files; `pattern` from
/// the result, else from the arguments.
pub(super) fn search_view(
    result: &Map<String, Value>,
    args: &Map<String, Value>,
) -> Option<ToolView> {
    let pattern = string(result, "pattern")
        .or_else(|| string(args, "pattern"))
        .unwrap_or_default()
        .to_string();
    let truncated = flag(result, "truncated");
    if let Some(matches) = entries::<Match>(result, "matches") {
        let groups = groups(matches, &pattern);
        let shown: usize = groups.iter().map(|g| g.hits.len()).sum();
        let count = result
            .get("count")
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or_else(|| u32::try_from(shown).unwrap_or(u32::MAX));
        return Some(ToolView::SearchHits {
            pattern,
            groups,
            count,
            truncated,
        });
    }
    let files = entries::<Found>(result, "files")?
        .into_iter()
        .map(|f| FoundFile {
            path: f.path,
            kind: f.kind.unwrap_or_else(|| "file".to_string()),
        })
        .collect();
    Some(ToolView::FileList {
        pattern,
        files,
        truncated,
    })
}
