//! `search_files` and PicoBot `file_search` (names) / `content_search` (text):
//! regex over file contents or a glob over names, honouring .gitignore, ripgrep-class speed.

mod engine;

use super::blocking;
use super::sandbox::{PathArg, Sandbox};
use crate::dialect::DialectArgs;
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use globset::GlobBuilder;
use grep_regex::RegexMatcherBuilder;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;

/// The default and the largest `max_results`.
pub const SEARCH_DEFAULT_RESULTS: u64 = 50;
pub const SEARCH_MAX_RESULTS: u64 = 1000;

/// The `search_files` tool.
pub struct SearchFiles;

/// `content`: `pattern` is a regular expression searched in file contents; `glob`: a glob
/// matched against file and folder names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SearchMode {
    #[default]
    Content,
    Glob,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchFilesArgs {
    /// In `content` mode a regular expression (Rust regex syntax, one line at a time; `(?i)`
    /// ignores case) searched in file contents. In `glob` mode a glob matched against names
    /// (`*.rs`) or, when it contains `/`, against paths relative to the workspace
    /// (`src/**/*.rs`).
    #[schemars(length(min = 1, max = 10000))]
    pub pattern: String,
    /// `content` (default) searches text in files; `glob` finds files and folders by name.
    pub mode: Option<SearchMode>,
    /// The folder (or single file) to search, relative to the workspace (default: all of it).
    #[schemars(length(min = 1, max = 4096))]
    pub path: Option<String>,
    /// Most results to return (default 50, at most 1000).
    #[schemars(range(min = 1))]
    pub max_results: Option<u64>,
}

#[async_trait]
impl Tool for SearchFiles {
    type Args = SearchFilesArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SEARCH_FILES
    }

    fn description(&self) -> &str {
        "Search the workspace: mode `content` (default) finds lines matching a regular \
         expression, giving {path, line_number, line}; mode `glob` finds files and folders by \
         name (`*.md`, `src/**/*.rs`). Honours .gitignore, skips hidden and binary files. \
         `max_results` 50 by default, at most 1000."
    }

    async fn run(&self, ctx: &ToolContext, args: SearchFilesArgs) -> Result<Value, ToolError> {
        let workspace = ctx.workspace.clone();
        blocking(move || search(&workspace, &args)).await
    }
}

fn search(workspace: &Path, args: &SearchFilesArgs) -> Result<Value, ToolError> {
    let mode = args.mode.unwrap_or_default();
    let max = args
        .max_results
        .unwrap_or(SEARCH_DEFAULT_RESULTS)
        .min(SEARCH_MAX_RESULTS) as usize;
    let sandbox = Sandbox::workspace(workspace)?;
    let base = match &args.path {
        Some(path) => sandbox
            .locate(PathArg::new("path", path))?
            .existing_relative()?,
        None => ".".to_string(),
    };
    let mut out = json!({"pattern": args.pattern, "mode": mode_name(mode)});
    let (count, truncated) = match mode {
        SearchMode::Content => {
            let matcher = RegexMatcherBuilder::new()
                .line_terminator(Some(b'\n'))
                .build(&args.pattern)
                .map_err(|e| invalid_pattern("regular expression", &e.to_string()))?;
            let found = engine::content(&sandbox, &base, &matcher, max);
            let hits: Vec<Value> = found
                .hits
                .iter()
                .map(|h| json!({"path": h.path, "line_number": h.line_number, "line": h.line}))
                .collect();
            out["matches"] = Value::Array(hits);
            (found.hits.len(), found.truncated)
        }
        SearchMode::Glob => {
            let glob = GlobBuilder::new(&args.pattern)
                .literal_separator(true)
                .build()
                .map_err(|e| invalid_pattern("glob", &e.to_string()))?
                .compile_matcher();
            let whole_path = args.pattern.contains('/');
            let found = engine::names(&sandbox, &base, &glob, whole_path, max);
            let hits: Vec<Value> = found
                .hits
                .iter()
                .map(|h| json!({"path": h.path, "kind": h.kind}))
                .collect();
            out["files"] = Value::Array(hits);
            (found.hits.len(), found.truncated)
        }
    };
    out["count"] = json!(count);
    out["truncated"] = json!(truncated);
    if truncated {
        out["note"] = json!(format!(
            "stopped at max_results ({max}); more results exist: narrow the pattern or path, or \
             raise max_results (at most {SEARCH_MAX_RESULTS})"
        ));
    }
    Ok(out)
}

fn mode_name(mode: SearchMode) -> &'static str {
    match mode {
        SearchMode::Content => "content",
        SearchMode::Glob => "glob",
    }
}

fn invalid_pattern(what: &str, error: &str) -> ToolError {
    let error: String = error.chars().take(600).collect();
    ToolError::invalid("pattern", format!("is not a valid {what}: {error}"))
}

/// PicoBot `file_search`: files and folders by name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileSearchArgs {
    /// A glob matched against names (`*.rs`), or against relative paths when it contains `/`
    /// (`src/**/*.rs`).
    #[schemars(length(min = 1, max = 10000))]
    pub pattern: String,
    /// The folder to search (default: the workspace).
    #[schemars(length(min = 1, max = 4096))]
    pub path: Option<String>,
    /// Most results (default 50, at most 1000).
    #[schemars(range(min = 1))]
    pub max_results: Option<u64>,
}

impl DialectArgs for FileSearchArgs {
    type Canonical = SearchFilesArgs;

    fn into_canonical(self) -> Result<SearchFilesArgs, ToolError> {
        Ok(SearchFilesArgs {
            pattern: self.pattern,
            mode: Some(SearchMode::Glob),
            path: self.path,
            max_results: self.max_results,
        })
    }
}

/// PicoBot `content_search`: text in files.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentSearchArgs {
    /// A regular expression searched in file contents, one line at a time.
    #[schemars(length(min = 1, max = 10000))]
    pub pattern: String,
    /// The folder or file to search (default: the workspace).
    #[schemars(length(min = 1, max = 4096))]
    pub path: Option<String>,
    /// Most matching lines (default 50, at most 1000).
    #[schemars(range(min = 1))]
    pub max_results: Option<u64>,
}

impl DialectArgs for ContentSearchArgs {
    type Canonical = SearchFilesArgs;

    fn into_canonical(self) -> Result<SearchFilesArgs, ToolError> {
        Ok(SearchFilesArgs {
            pattern: self.pattern,
            mode: Some(SearchMode::Content),
            path: self.path,
            max_results: self.max_results,
        })
    }
}

pub(crate) const FILE_SEARCH_DESCRIPTION: &str =
    "Find files and folders by name with a glob (`*.md`, `src/**/*.rs`); honours .gitignore. \
     Returns {files: [{path, kind}], count, truncated}.";

pub(crate) const CONTENT_SEARCH_DESCRIPTION: &str =
    "Search file contents with a regular expression; honours .gitignore, skips binary files. \
     Returns {matches: [{path, line_number, line}], count, truncated}.";
