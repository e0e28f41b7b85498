//! PicoBot's `browser`: its own action names (a subset) and parameters, converted into the
//! canonical arguments.

use super::args::{Action, BrowserArgs, Direction, LoadState};
use hearth_tools::{DialectArgs, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;

pub const DESCRIPTION: &str = "Controls a real browser. `open` a url, `snapshot` to see the \
page with element refs (e.g. e12), then `click`/`fill`/`type`/`focus`/`hover` with `ref`, \
`click_at` x/y, `press` a key, `scroll`, `wait` for a state or text, `get_text`/`get_title`/\
`get_url`, `screenshot`, `close`.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PicobotAction {
    Open,
    Snapshot,
    Click,
    ClickAt,
    Fill,
    Type,
    Press,
    GetText,
    GetTitle,
    GetUrl,
    Screenshot,
    Focus,
    Hover,
    Scroll,
    Wait,
    Close,
}

/// Arguments of PicoBot's `browser`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PicobotBrowserArgs {
    pub action: PicobotAction,
    /// A tab of its own for this name.
    #[schemars(length(min = 1, max = 100))]
    pub session_id: Option<String>,
    /// `open`: the page.
    #[schemars(length(min = 1, max = 8192))]
    pub url: Option<String>,
    /// An element ref from the snapshot (e.g. `e12`).
    #[serde(rename = "ref")]
    #[schemars(length(min = 2, max = 32))]
    pub reference: Option<String>,
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub x: Option<f64>,
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub y: Option<f64>,
    /// `fill`/`type`: the text; `wait`: text to wait for.
    #[schemars(length(max = 100000))]
    pub text: Option<String>,
    /// `press`: the key, e.g. `Enter`.
    #[schemars(length(min = 1, max = 64))]
    pub key: Option<String>,
    /// `fill`/`type`: press Enter afterwards.
    pub press_enter: Option<bool>,
    pub direction: Option<Direction>,
    /// `scroll`: pixels.
    #[schemars(range(min = 1, max = 100000))]
    pub amount: Option<u32>,
    /// `wait`: load state.
    pub state: Option<LoadState>,
    /// `screenshot`: the whole page.
    pub full_page: Option<bool>,
    #[schemars(range(min = 1, max = 120))]
    pub timeout_sec: Option<u32>,
}

impl DialectArgs for PicobotBrowserArgs {
    type Canonical = BrowserArgs;

    fn into_canonical(self) -> Result<BrowserArgs, ToolError> {
        let action = match self.action {
            PicobotAction::Open => Action::Open,
            PicobotAction::Snapshot => Action::Snapshot,
            PicobotAction::Click => Action::Click,
            PicobotAction::ClickAt => Action::ClickAt,
            PicobotAction::Fill => Action::Fill,
            PicobotAction::Type => Action::Type,
            PicobotAction::Press => Action::Press,
            PicobotAction::GetText => Action::GetText,
            PicobotAction::GetTitle => Action::GetTitle,
            PicobotAction::GetUrl => Action::GetUrl,
            PicobotAction::Screenshot => Action::Screenshot,
            PicobotAction::Focus => Action::Focus,
            PicobotAction::Hover => Action::Hover,
            PicobotAction::Scroll => Action::Scroll,
            PicobotAction::Wait => Action::Wait,
            PicobotAction::Close => Action::Close,
        };
        Ok(BrowserArgs {
            action,
            session_id: self.session_id,
            url: self.url,
            reference: self.reference,
            x: self.x,
            y: self.y,
            text: self.text,
            key: self.key,
            press_enter: self.press_enter,
            direction: self.direction,
            amount: self.amount,
            state: self.state,
            full_page: self.full_page,
            timeout_sec: self.timeout_sec,
            ..BrowserArgs::default()
        })
    }
}
