//! The `browser` tool: its arguments in the hearth/echo and picobot dialects, what each call
//! does (reads, changes, or runs script), and running an action on the session's tab within
//! `timeout_sec`.

pub mod args;
mod blocked;
mod downloaded;
mod picobot;

pub use args::BrowserArgs;
pub use picobot::PicobotBrowserArgs;

use crate::actions::{self, act, png_size, validate, Env};
use crate::find::find_browser;
use crate::launch::LaunchOptions;
use crate::manager::Browsers;
use args::Action;
use async_trait::async_trait;
use hearth_policy::{catalogue, CanonicalTool};
use hearth_protocol::Confirmation;
use hearth_tools::fs::write_workspace_file;
use hearth_tools::{
    CallFacts, Dialect, DialectTool, ErrorKind, Registry, RegistryError, Tool, ToolContext,
    ToolError,
};
use serde_json::{json, Value};
use std::time::Duration;

const DESCRIPTION: &str = "Drives a real Chrome/Chromium. `open` a URL, then `snapshot` for an \
outline of the page in which actionable elements carry refs (`[ref=e12]`, `f1e3` inside \
frames); act with `click`/`fill`/`type`/`select`/`hover`/`focus`/`upload` and that `ref`, \
`press` keys, `scroll`, `back`/`forward`/`reload`, `wait` for a state or a text, read with \
`get_text`/`get_title`/`get_url`/`get_images`/`console`, `screenshot` (saved at `path` in the \
workspace). Actions that change the page return the lines of the outline that changed. A ref \
from an older snapshot is found again when the element is still there. Dialogs are answered \
with `accept`/`prompt_text`. Each chat has its own tab; `session_id` opens another. A \
navigation of the tab to an address the egress guard refuses fails `blocked_address`; other \
requests of the page it refused (trackers, a `fetch()`, a WebSocket) are listed in `blocked` \
(`host`, `port`, `reason`; `blocked_more` counts hosts beyond ten) and the action succeeds. \
Files the page downloads are saved in the workspace's `downloads/` folder (at most 100 MiB \
each; a larger one is cancelled) and listed in `downloads` (`path` and `bytes`, or `refused`, \
`failed`, `running`).";

/// The tab Settings → "Open the agent's browser" opens.
const WINDOW_SESSION: &str = "settings-window";

/// The settings the tool starts the browser with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserConfig {
    /// `browser.executable` (empty: find one).
    pub executable: String,
    pub visible: bool,
    pub idle: Duration,
    /// What the browser may reach on this computer and its network (`allow_local_hosts`); the
    /// egress proxy refuses every other private or loopback address.
    pub allow_local: Vec<String>,
    /// `browser.cdp_url`: the user's own Chrome to attach to (empty: the managed browser).
    pub cdp_url: String,
    /// Whether attaching to it is allowed here (not in unattended runs).
    pub attach_allowed: bool,
}

impl BrowserConfig {
    /// The tool's configuration from `[browser]`; `attach_allowed` is false where nobody is
    /// there to answer (the `daemon` and `public_gateway` profiles).
    pub fn from_settings(
        settings: &hearth_protocol::BrowserSettings,
        allow_local: &[String],
        attach_allowed: bool,
    ) -> BrowserConfig {
        BrowserConfig {
            executable: settings.executable.clone(),
            visible: settings.visible,
            idle: Duration::from_secs(u64::from(settings.idle_minutes.max(1)) * 60),
            allow_local: allow_local.to_vec(),
            cdp_url: settings.cdp_url.trim().to_string(),
            attach_allowed,
        }
    }
}

/// `cdp_url` when it points at this computer (`127.0.0.1`, `::1`, `localhost`) over http or
/// ws; the reason otherwise.
pub fn loopback_cdp_url(cdp_url: &str) -> Result<String, String> {
    let parsed = url::Url::parse(cdp_url)
        .map_err(|e| format!("browser.cdp_url {cdp_url:?} is not a URL: {e}"))?;
    let loopback = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    if !matches!(parsed.scheme(), "http" | "ws") || !loopback {
        return Err(format!(
            "browser.cdp_url {cdp_url:?} must be an http:// or ws:// address on this computer \
             (127.0.0.1, ::1 or localhost)"
        ));
    }
    Ok(cdp_url.to_string())
}

/// A screenshot a call took: the PNG and where it was saved.
#[derive(Debug, Clone)]
pub struct Screenshot {
    pub png: Vec<u8>,
    pub saved: Option<String>,
}

/// The model-facing result of a screenshot (the image itself goes with it as an image part).
pub fn screenshot_result(shot: &Screenshot) -> Value {
    let (width, height) = png_size(&shot.png).unwrap_or((0, 0));
    let note = match &shot.saved {
        Some(path) => format!("a {width}×{height} PNG, saved in the workspace at {path}"),
        None => format!("a {width}×{height} PNG (give `path` to save it in the workspace)"),
    };
    json!({
        "action": "screenshot",
        "width": width,
        "height": height,
        "bytes": shot.png.len(),
        "path": shot.saved,
        "note": note,
    })
}

/// The `browser` tool over the app's managed browser.
#[derive(Clone)]
pub struct BrowserTool {
    browsers: Browsers,
    config: BrowserConfig,
}

impl BrowserTool {
    pub fn new(browsers: Browsers, config: BrowserConfig) -> BrowserTool {
        BrowserTool { browsers, config }
    }

    fn launch_options(&self) -> Result<LaunchOptions, ToolError> {
        if !self.config.cdp_url.is_empty() {
            if !self.config.attach_allowed {
                return Err(ToolError::new(
                    ErrorKind::Unavailable,
                    "browser.cdp_url attaches to your own Chrome, whose traffic Hearth's egress \
                     guard cannot cover, so unattended runs (security profiles daemon and \
                     public_gateway) refuse it",
                ));
            }
            let url = loopback_cdp_url(&self.config.cdp_url)
                .map_err(|message| ToolError::new(ErrorKind::Unavailable, message))?;
            return Ok(LaunchOptions {
                executable: std::path::PathBuf::new(),
                profile: self.browsers.profile(),
                visible: true,
                allow_local: Vec::new(),
                attach: Some(url),
            });
        }
        let found = find_browser(&self.config.executable)
            .map_err(|message| ToolError::new(ErrorKind::Unavailable, message))?;
        Ok(LaunchOptions {
            executable: found.path,
            profile: self.browsers.profile(),
            visible: self.config.visible,
            allow_local: self.config.allow_local.clone(),
            attach: None,
        })
    }

    /// Opens the agent's browser with its window shown and one tab (Settings → "Open the
    /// agent's browser", to log in to a site or watch); it serves the agent's calls until it
    /// is closed or idle.
    pub async fn open_window(&self) -> Result<(), ToolError> {
        let options = LaunchOptions {
            visible: true,
            ..self.launch_options()?
        };
        self.browsers
            .tab(WINDOW_SESSION, &options, self.config.idle)
            .await
            .map(drop)
    }

    /// Takes a screenshot on `session`'s tab, saving it at `path` in `workspace` when given.
    pub async fn screenshot(
        &self,
        ctx: &ToolContext,
        session: &str,
        full_page: bool,
        path: Option<&str>,
    ) -> Result<Screenshot, ToolError> {
        let tab = self.open_tab(session).await?;
        let tab = tab.lock().await;
        let png = actions::screenshot(&tab, full_page).await?;
        if let Some(path) = path {
            let workspace = ctx.workspace.clone();
            let (owned, bytes) = (path.to_string(), png.clone());
            tokio::task::spawn_blocking(move || {
                write_workspace_file(&workspace, "path", &owned, &bytes)
            })
            .await
            .map_err(|e| ToolError::internal(format!("saving the screenshot failed: {e}")))??;
        }
        Ok(Screenshot {
            png,
            saved: path.map(str::to_string),
        })
    }

    async fn open_tab(&self, session: &str) -> Result<crate::manager::SharedTab, ToolError> {
        let options = self.launch_options()?;
        self.browsers.tab(session, &options, self.config.idle).await
    }

    async fn run_action(&self, ctx: &ToolContext, args: BrowserArgs) -> Result<Value, ToolError> {
        let session = args
            .session_id
            .clone()
            .unwrap_or_else(|| ctx.session_id.clone());
        match args.action {
            Action::Close => {
                let closed = self.browsers.close_tab(&session).await;
                return Ok(json!({"action": "close", "closed": closed}));
            }
            Action::Screenshot => {
                let shot = self
                    .screenshot(
                        ctx,
                        &session,
                        args.full_page.unwrap_or(false),
                        args.path.as_deref(),
                    )
                    .await?;
                let mut result = screenshot_result(&shot);
                let name = shot.saved.as_deref().unwrap_or("screenshot.png");
                if let Err(refused) = ctx.attach_image("image/png", &shot.png, name) {
                    let note = result["note"].as_str().unwrap_or_default();
                    result["note"] = json!(format!(
                        "{note}; not shown to the model: {}",
                        refused.message
                    ));
                }
                return Ok(result);
            }
            _ => {}
        }
        let needs_page = !matches!(args.action, Action::Open | Action::Navigate);
        let tab = if needs_page {
            self.browsers.existing_tab(&session).await?.ok_or_else(|| {
                ToolError::invalid(
                    "action",
                    format!(
                        "action {} needs an open page: use action open with a url first",
                        args.action.as_str()
                    ),
                )
            })?
        } else {
            self.open_tab(&session).await?
        };
        let mut tab = tab.lock().await;
        let env = Env {
            workspace: &ctx.workspace,
            data_dir: &ctx.data_dir,
        };
        let egress = self.browsers.egress().await;
        let since = blocked::Since {
            refusals: egress.as_ref().map_or(0, |e| e.refusal_count()),
            hops: tab.wire.journal().lock().hop_count(),
        };
        let result = act(&mut tab, &args, &env).await;
        let mut result = match egress.filter(|e| e.refusal_count() > since.refusals) {
            Some(egress) => {
                let refused = blocked::sort(&tab, &egress, since).await;
                if let Some(navigation) = refused.navigation {
                    return Err(blocked::navigation_error(&navigation));
                }
                let mut result = result?;
                blocked::report(&mut result, &refused.others);
                result
            }
            None => result?,
        };
        if let Some(downloads) = self.browsers.downloads().await {
            downloaded::report(&mut result, &tab, &downloads, &ctx.workspace).await;
        }
        Ok(result)
    }
}

#[async_trait]
impl Tool for BrowserTool {
    type Args = BrowserArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::BROWSER
    }

    fn description(&self) -> &str {
        DESCRIPTION
    }

    async fn call_facts(&self, args: &BrowserArgs) -> CallFacts {
        let entry = self.entry();
        if !self.config.cdp_url.is_empty() {
            return CallFacts {
                high_risk: true,
                confirmation: Some(Confirmation::OwnBrowser {
                    action: args.action.as_str().to_string(),
                    cdp_url: self.config.cdp_url.clone(),
                }),
                ..CallFacts::of(entry)
            };
        }
        match args.action {
            Action::Evaluate => CallFacts {
                high_risk: true,
                ..CallFacts::of(entry)
            },
            Action::Screenshot if args.path.is_some() => CallFacts::of(entry),
            action if action.reads_only() => CallFacts::read_only(),
            _ => CallFacts::of(entry),
        }
    }

    async fn run(&self, ctx: &ToolContext, args: BrowserArgs) -> Result<Value, ToolError> {
        validate(&args)?;
        let seconds = args.timeout_sec.unwrap_or(30).clamp(1, 120);
        let action = args.action;
        tokio::time::timeout(
            Duration::from_secs(u64::from(seconds)),
            self.run_action(ctx, args),
        )
        .await
        .map_err(|_| {
            ToolError::new(
                ErrorKind::Timeout,
                format!(
                    "browser action {} took longer than {seconds} s",
                    action.as_str()
                ),
            )
        })?
    }
}

/// Registers `browser` for the hearth, echo and picobot dialects over `browsers`.
pub fn register_browser(
    registry: &mut Registry,
    browsers: &Browsers,
    config: BrowserConfig,
) -> Result<(), RegistryError> {
    let tool = BrowserTool::new(browsers.clone(), config);
    registry.register_for(&[Dialect::Hearth, Dialect::Echo], tool.clone())?;
    let picobot: DialectTool<BrowserTool, PicobotBrowserArgs> =
        DialectTool::new("browser", picobot::DESCRIPTION, tool);
    registry.register_for(&[Dialect::Picobot], picobot)
}
