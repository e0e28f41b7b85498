//! The browser actions on a session's tab: checking each action's arguments before the browser
//! is touched, then acting, waiting for the page to settle, and reporting.

mod element;
mod keys;
mod navigate;
mod output;
mod page;

pub use output::DEFAULT_MAX_CHARS;
pub use page::{png_size, screenshot};

use crate::error;
use crate::tab::{DialogAnswer, Tab};
use crate::tool::args::{Action, BrowserArgs, Direction};
use hearth_tools::fs::workspace_file;
use hearth_tools::ToolError;
use serde_json::{json, Value};
use std::path::Path;

/// Where a call may read and write.
pub struct Env<'a> {
    pub workspace: &'a Path,
    pub data_dir: &'a Path,
}

fn required<'a, T>(value: &'a Option<T>, field: &str, action: Action) -> Result<&'a T, ToolError> {
    value.as_ref().ok_or_else(|| {
        ToolError::invalid(field, format!("action {} needs `{field}`", action.as_str()))
    })
}

/// Checks that `args` has what its action needs (before any browser starts).
pub fn validate(args: &BrowserArgs) -> Result<(), ToolError> {
    let action = args.action;
    let needs_ref = matches!(
        action,
        Action::Click
            | Action::Hover
            | Action::Focus
            | Action::Select
            | Action::Upload
            | Action::Fill
    );
    if needs_ref {
        element::check(required(&args.reference, "ref", action)?)?;
    } else if let Some(reference) = &args.reference {
        element::check(reference)?;
    }
    match action {
        Action::Open | Action::Navigate => {
            navigate::web_url(required(&args.url, "url", action)?)?;
        }
        Action::ClickAt => {
            required(&args.x, "x", action)?;
            required(&args.y, "y", action)?;
        }
        Action::Type | Action::Fill => {
            required(&args.text, "text", action)?;
        }
        Action::Press => keys::check(required(&args.key, "key", action)?)?,
        Action::Select => {
            required(&args.values, "values", action)?;
        }
        Action::Upload => {
            required(&args.paths, "paths", action)?;
        }
        Action::Wait if args.state.is_none() && args.text.is_none() => {
            return Err(ToolError::invalid(
                "state",
                "action wait needs `state` (load, domcontentloaded, networkidle) or `text`",
            ));
        }
        Action::Evaluate => {
            required(&args.expression, "expression", action)?;
        }
        _ => {}
    }
    Ok(())
}

/// Runs one action on `tab` (not `close` or `screenshot`, which the tool handles).
pub async fn act(tab: &mut Tab, args: &BrowserArgs, env: &Env<'_>) -> Result<Value, ToolError> {
    let max_chars = args.max_chars.map_or(DEFAULT_MAX_CHARS, |m| m as usize);
    {
        let mut state = tab.events.lock();
        state.dialogs.clear();
        state.answer = DialogAnswer {
            accept: args.accept.unwrap_or(false),
            prompt_text: args.prompt_text.clone(),
        };
    }
    let action = args.action;
    let reference = args.reference.as_deref().unwrap_or("");
    let mark = tab.mark();
    match action {
        Action::Open | Action::Navigate => {
            let url = navigate::web_url(required(&args.url, "url", action)?)?;
            navigate::go(tab, &url).await?;
            return output::outline(tab, None, max_chars, env.data_dir).await;
        }
        Action::Back | Action::Forward => {
            navigate::history(tab, action == Action::Forward).await?;
            tab.settle(mark).await;
            return output::outline(tab, None, max_chars, env.data_dir).await;
        }
        Action::Reload => {
            tab.wire
                .call::<Value>("Page.reload", json!({}))
                .await
                .map_err(error::cdp)?;
            tab.settle(mark).await;
            return output::outline(tab, None, max_chars, env.data_dir).await;
        }
        Action::Snapshot => {
            return output::outline(tab, args.find.as_deref(), max_chars, env.data_dir).await;
        }
        Action::Click => {
            let target = element::resolve(tab, reference).await?;
            let (x, y) = element::center(tab, target, reference).await?;
            element::click(&tab.page, x, y).await?;
        }
        Action::ClickAt => {
            let (x, y) = (args.x.unwrap_or(0.0), args.y.unwrap_or(0.0));
            element::click(&tab.page, x, y).await?;
        }
        Action::Hover => {
            let target = element::resolve(tab, reference).await?;
            let (x, y) = element::center(tab, target, reference).await?;
            element::mouse_move(&tab.page, x, y).await?;
        }
        Action::Focus => {
            let target = element::resolve(tab, reference).await?;
            element::focus(tab, target, reference).await?;
        }
        Action::Type | Action::Fill => {
            let text = required(&args.text, "text", action)?;
            if !reference.is_empty() {
                let target = element::resolve(tab, reference).await?;
                element::focus(tab, target, reference).await?;
                if action == Action::Fill {
                    element::call_on(tab, target, reference, page::SELECT_CONTENT, vec![]).await?;
                }
            }
            if text.is_empty() && action == Action::Fill {
                keys::press(&tab.page, "Delete").await?;
            } else if !text.is_empty() {
                keys::insert_text(&tab.page, text).await?;
            }
            if args.press_enter.unwrap_or(false) {
                keys::press(&tab.page, "Enter").await?;
            }
        }
        Action::Press => keys::press(&tab.page, required(&args.key, "key", action)?).await?,
        Action::Scroll => {
            let amount = f64::from(args.amount.unwrap_or(600));
            let (dx, dy) = match args.direction.unwrap_or(Direction::Down) {
                Direction::Down => (0.0, amount),
                Direction::Up => (0.0, -amount),
                Direction::Right => (amount, 0.0),
                Direction::Left => (-amount, 0.0),
            };
            let (x, y) = if reference.is_empty() {
                (
                    f64::from(crate::launch::WINDOW.0) / 2.0,
                    f64::from(crate::launch::WINDOW.1) / 3.0,
                )
            } else {
                let target = element::resolve(tab, reference).await?;
                element::center(tab, target, reference).await?
            };
            element::wheel(&tab.page, x, y, dx, dy).await?;
        }
        Action::Select => {
            let values = required(&args.values, "values", action)?;
            let target = element::resolve(tab, reference).await?;
            let chosen = element::call_on(
                tab,
                target,
                reference,
                page::SELECT_OPTIONS,
                vec![json!(values)],
            )
            .await?;
            if let Some(problem) = chosen["error"].as_str() {
                return Err(ToolError::invalid("values", problem.to_string()));
            }
        }
        Action::Upload => {
            let paths = required(&args.paths, "paths", action)?;
            let files = paths
                .iter()
                .map(|p| workspace_file(env.workspace, "paths", p).map(|f| f.display().to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            let target = element::resolve(tab, reference).await?;
            let object = element::object(tab, target, reference).await?;
            element::on_element(
                tab,
                &object,
                "DOM.setFileInputFiles",
                json!({"files": files}),
            )
            .await
            .map_err(|e| {
                ToolError::invalid("ref", format!("{reference} is not a file input ({e})"))
            })?;
        }
        Action::Wait => return page::wait(tab, args).await,
        Action::Evaluate => {
            return page::evaluate(tab, required(&args.expression, "expression", action)?).await
        }
        Action::Console => return Ok(page::console(tab)),
        Action::GetText => return page::text(tab, args, max_chars, env.data_dir).await,
        Action::GetTitle | Action::GetUrl => {
            let (url, title) = output::location(tab).await?;
            return Ok(json!({"url": url, "title": title}));
        }
        Action::GetImages => return page::images(tab).await,
        Action::Screenshot | Action::Close => {
            return Err(ToolError::internal("handled by the tool"));
        }
    }
    tab.settle(mark).await;
    let mut result = output::changes(tab, max_chars, env.data_dir).await?;
    result["action"] = json!(action.as_str());
    Ok(result)
}
