//! The `browser` tool's arguments (hearth and echo dialects).

use schemars::JsonSchema;
use serde::Deserialize;

/// What the browser does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Opens `url` in this session's tab (made when needed); returns the page's outline.
    Open,
    /// Goes to `url` in this session's tab; returns the page's outline.
    Navigate,
    /// The page's accessibility outline with refs (`max_chars`, `find`).
    #[default]
    Snapshot,
    /// Clicks the element `ref`.
    Click,
    /// Clicks the point `x`, `y` (CSS pixels from the viewport's top left).
    ClickAt,
    /// Types `text` into the element `ref` (or the focused one) after what it holds.
    Type,
    /// Replaces the content of the field `ref` with `text`.
    Fill,
    /// Presses `key` (e.g. `Enter`, `Tab`, `Escape`, `ArrowDown`, `Control+A`).
    Press,
    /// Scrolls the page (or the element `ref`) by `amount` pixels in `direction`.
    Scroll,
    Back,
    Forward,
    Reload,
    /// Moves the mouse over the element `ref`.
    Hover,
    /// Focuses the element `ref`.
    Focus,
    /// Selects the options `values` (value or label) of the `<select>` `ref`.
    Select,
    /// Sets the files `paths` (inside the workspace) on the file input `ref`.
    Upload,
    /// Waits for `state` or for `text` to appear (at most `timeout_sec`).
    Wait,
    /// Runs the JavaScript `expression` in the page and returns its value.
    Evaluate,
    /// Console messages and exceptions since the last `console`.
    Console,
    /// A PNG of the viewport (or the whole page with `full_page`), saved at `path` if given.
    Screenshot,
    /// The visible text of the page (or of the element `ref`).
    GetText,
    GetTitle,
    GetUrl,
    /// The page's images: src, alt, size.
    GetImages,
    /// Closes this session's tab.
    Close,
}

impl Action {
    /// Actions that only read the page.
    pub fn reads_only(self) -> bool {
        matches!(
            self,
            Action::Snapshot
                | Action::Wait
                | Action::Console
                | Action::Screenshot
                | Action::GetText
                | Action::GetTitle
                | Action::GetUrl
                | Action::GetImages
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Action::Open => "open",
            Action::Navigate => "navigate",
            Action::Snapshot => "snapshot",
            Action::Click => "click",
            Action::ClickAt => "click_at",
            Action::Type => "type",
            Action::Fill => "fill",
            Action::Press => "press",
            Action::Scroll => "scroll",
            Action::Back => "back",
            Action::Forward => "forward",
            Action::Reload => "reload",
            Action::Hover => "hover",
            Action::Focus => "focus",
            Action::Select => "select",
            Action::Upload => "upload",
            Action::Wait => "wait",
            Action::Evaluate => "evaluate",
            Action::Console => "console",
            Action::Screenshot => "screenshot",
            Action::GetText => "get_text",
            Action::GetTitle => "get_title",
            Action::GetUrl => "get_url",
            Action::GetImages => "get_images",
            Action::Close => "close",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// A load state `wait` waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LoadState {
    Load,
    Domcontentloaded,
    Networkidle,
}

/// Arguments of `browser`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BrowserArgs {
    /// What to do.
    pub action: Action,
    /// A tab of its own for this name (default: the chat's tab).
    #[schemars(length(min = 1, max = 100))]
    pub session_id: Option<String>,
    /// The page to open (`open`, `navigate`); http or https only.
    #[schemars(length(min = 1, max = 8192))]
    pub url: Option<String>,
    /// An element's ref from the last snapshot, e.g. `e12` or `f1e3` (inside a frame).
    #[serde(rename = "ref")]
    #[schemars(length(min = 2, max = 32))]
    pub reference: Option<String>,
    /// `click_at`: CSS pixels from the viewport's left.
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub x: Option<f64>,
    /// `click_at`: CSS pixels from the viewport's top.
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub y: Option<f64>,
    /// `type`/`fill`: the text; `wait`: text to wait for.
    #[schemars(length(max = 100000))]
    pub text: Option<String>,
    /// `press`: a key name (`Enter`, `Tab`, `Escape`, `Backspace`, `ArrowDown`, `a` …), with
    /// modifiers as `Control+A`, `Shift+Tab`.
    #[schemars(length(min = 1, max = 64))]
    pub key: Option<String>,
    /// `type`/`fill`: press Enter afterwards (submits a form).
    pub press_enter: Option<bool>,
    /// `scroll`: the direction (default down).
    pub direction: Option<Direction>,
    /// `scroll`: pixels (default 600).
    #[schemars(range(min = 1, max = 100000))]
    pub amount: Option<u32>,
    /// `select`: option values or labels.
    #[schemars(length(min = 1, max = 100))]
    pub values: Option<Vec<String>>,
    /// `upload`: files inside the workspace.
    #[schemars(length(min = 1, max = 20))]
    pub paths: Option<Vec<String>>,
    /// `evaluate`: a JavaScript expression (a promise is awaited).
    #[schemars(length(min = 1, max = 100000))]
    pub expression: Option<String>,
    /// `wait`: the load state to wait for.
    pub state: Option<LoadState>,
    /// `screenshot`: the whole page, not only the viewport.
    pub full_page: Option<bool>,
    /// The longest the action may take, in seconds (default 30).
    #[schemars(range(min = 1, max = 120))]
    pub timeout_sec: Option<u32>,
    /// `snapshot` and page outlines: the most characters returned (default 12,000; the whole
    /// text is saved for `read_spill`).
    #[schemars(range(min = 200, max = 200000))]
    pub max_chars: Option<u32>,
    /// `snapshot`: only the lines containing this text, with their ancestors.
    #[schemars(length(min = 1, max = 200))]
    pub find: Option<String>,
    /// `screenshot`: where to save the PNG in the workspace.
    #[schemars(length(min = 1, max = 4096))]
    pub path: Option<String>,
    /// Answers the next confirm/prompt dialog: accept (true) or dismiss (default).
    pub accept: Option<bool>,
    /// The text a prompt dialog is answered with (with `accept`).
    #[schemars(length(max = 10000))]
    pub prompt_text: Option<String>,
}
