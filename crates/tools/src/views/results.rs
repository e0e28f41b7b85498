//! The views of a finished call: its failure, and the view of its canonical tool (a diff, search
//! hits, media, the browser's page, citations, a terminal, a command's run), in the order the
//! card shows them.

use hearth_policy::catalogue::{
    BROWSER, EDIT_FILE, EXEC, EXECUTE_CODE, IMAGE_GENERATE, KNOWLEDGE_SEARCH, PATCH, PTY,
    SEARCH_FILES, SKILL_RUN, TEXT_TO_SPEECH, WRITE_FILE,
};
use hearth_protocol::{Citation, MediaKind, ToolResult, ToolView};
use serde::Deserialize as _;
use serde_json::{Map, Value};

use super::command::command_view;
use super::diff::{diff_view, parse_unified};
use super::failure::failure_view;
use super::read::{arguments, flag, non_empty, object, string, text_view};
use super::search::search_view;

/// The views of `result`, a call of the canonical tool `canonical` (`None`: a tool without a
/// catalogue entry, such as an MCP server's) with `arguments`. Never fails: a result that is not
/// what its tool returns gets a text view, or none when it is merely missing fields.
pub fn result_views(
    canonical: Option<&str>,
    arguments_json: &str,
    result: &ToolResult,
) -> Vec<ToolView> {
    let canonical = canonical.unwrap_or_default();
    let args = arguments(arguments_json);
    let mut views = Vec::new();
    if result.is_error {
        views.extend(failure_view(&result.content));
        if canonical == BROWSER.name {
            views.push(browser_view(&Map::new(), &args));
        }
        return views;
    }
    let Some(viewer) = viewer(canonical) else {
        return views;
    };
    match object(&result.content) {
        Some(fields) => views.extend(viewer(&fields, &args)),
        None => views.push(text_view(&result.content)),
    }
    views
}

/// The views of a call of `canonical` with `arguments` while it runs: the browser's action and
/// the page asked for.
pub fn call_views(canonical: Option<&str>, arguments_json: &str) -> Vec<ToolView> {
    if canonical != Some(BROWSER.name) {
        return Vec::new();
    }
    vec![browser_view(&Map::new(), &arguments(arguments_json))]
}

/// Builds a view from a result's fields and the call's arguments.
type Viewer = fn(&Map<String, Value>, &Map<String, Value>) -> Option<ToolView>;

/// The canonical tools whose successful results have a view of their own, each with its viewer.
const VIEWERS: [(&str, Viewer); 12] = [
    (WRITE_FILE.name, changed_file_view),
    (EDIT_FILE.name, changed_file_view),
    (PATCH.name, changed_file_view),
    (SEARCH_FILES.name, search_view),
    (IMAGE_GENERATE.name, |result, _| media_view(result)),
    (TEXT_TO_SPEECH.name, |result, _| media_view(result)),
    (BROWSER.name, |result, args| {
        Some(browser_view(result, args))
    }),
    (KNOWLEDGE_SEARCH.name, |result, _| citations_view(result)),
    (PTY.name, |result, _| terminal_view(result)),
    (EXEC.name, command_view),
    (EXECUTE_CODE.name, command_view),
    (SKILL_RUN.name, command_view),
];

fn viewer(canonical: &str) -> Option<Viewer> {
    VIEWERS
        .iter()
        .find(|(name, _)| *name == canonical)
        .map(|(_, viewer)| *viewer)
}

/// The diff a file tool reports (`diff`, `diff_truncated`), for the path it names.
fn changed_file_view(result: &Map<String, Value>, args: &Map<String, Value>) -> Option<ToolView> {
    let diff = string(result, "diff")?;
    let path = ["path", "file_path"]
        .iter()
        .find_map(|key| string(result, key).or_else(|| string(args, key)))
        .unwrap_or_default();
    Some(diff_view(
        path.to_string(),
        parse_unified(diff),
        flag(result, "diff_truncated"),
    ))
}

/// A generated image or audio file (`path`, `mime_type`).
fn media_view(result: &Map<String, Value>) -> Option<ToolView> {
    let path = string(result, "path")?;
    let mime_type = string(result, "mime_type")?;
    let media = if mime_type.starts_with("image/") {
        MediaKind::Image
    } else if mime_type.starts_with("audio/") {
        MediaKind::Audio
    } else {
        return None;
    };
    Some(ToolView::Media {
        media,
        path: path.to_string(),
        mime_type: mime_type.to_string(),
    })
}

/// The browser's action (from the arguments) and its page (from the result, the URL asked for
/// when the result has none).
fn browser_view(result: &Map<String, Value>, args: &Map<String, Value>) -> ToolView {
    ToolView::BrowserPage {
        action: non_empty(args, "action").unwrap_or_else(|| "?".to_string()),
        url: non_empty(result, "url").or_else(|| non_empty(args, "url")),
        title: non_empty(result, "title"),
        snapshot: non_empty(result, "snapshot"),
    }
}

/// The cited snippets of a knowledge search (`results`); none when it found nothing.
fn citations_view(result: &Map<String, Value>) -> Option<ToolView> {
    let hits: Vec<Citation> = result
        .get("results")?
        .as_array()?
        .iter()
        .filter_map(|hit| Citation::deserialize(hit).ok())
        .collect();
    (!hits.is_empty()).then_some(ToolView::Citations { hits })
}

/// The terminal a `pty` call started (its result names the session and the terminal size), so a
/// session gets one terminal however often it is read.
fn terminal_view(result: &Map<String, Value>) -> Option<ToolView> {
    result.get("rows")?;
    let session_id = non_empty(result, "session_id")?;
    Some(ToolView::Terminal { session_id })
}
