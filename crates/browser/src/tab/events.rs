//! What a tab hears from the page while no action runs: requests in flight, navigations and
//! lifecycle events of the main frame, console messages and exceptions, and dialogs (answered
//! at once as the current action asked, so none is left blocking).

use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent, EventResponseReceived,
};
use chromiumoxide::cdp::browser_protocol::page::{
    EventFrameNavigated, EventFrameStartedLoading, EventFrameStoppedLoading,
    EventJavascriptDialogOpening, EventLifecycleEvent, HandleJavaScriptDialogParams,
};
use chromiumoxide::cdp::js_protocol::runtime::{
    EventConsoleApiCalled, EventExceptionThrown, RemoteObject,
};
use chromiumoxide::Page;
use futures::StreamExt;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// How the next dialog is answered.
#[derive(Debug, Clone, Default)]
pub struct DialogAnswer {
    pub accept: bool,
    pub prompt_text: Option<String>,
}

/// The page's state as the events tell it.
#[derive(Debug, Default)]
pub struct PageState {
    pub main_frame: Option<String>,
    /// The main frame's current document.
    pub loader: Option<String>,
    /// Main-frame loads started (a cross-document navigation began).
    pub loads_started: u64,
    /// Whether the main frame is loading.
    pub loading: bool,
    /// Lifecycle events (`load`, `DOMContentLoaded`, `networkIdle` …) of the current document.
    pub lifecycle: HashSet<String>,
    /// Requests in flight by id (see [`Request`]).
    pub requests: HashMap<String, Request>,
    /// Requests started so far (numbering them).
    pub requests_started: u64,
    /// The HTTP status of the current document.
    pub status: Option<i64>,
    /// Console messages and exceptions not yet returned by `console`.
    pub console: Vec<String>,
    /// Errors and warnings of the current document.
    pub errors: usize,
    pub warnings: usize,
    /// Dialogs answered since the current action began.
    pub dialogs: Vec<String>,
    pub answer: DialogAnswer,
}

/// A request's count of starts minus ends and the number of its start. Each kind of event comes
/// on its own stream, so a request's end can be seen before its start: counting makes the order
/// not matter (the entry goes when the count is back to 0).
#[derive(Debug, Default)]
pub struct Request {
    count: i32,
    pub started: u64,
}

impl PageState {
    fn request(&mut self, id: &str, change: i32) {
        let entry = self.requests.entry(id.to_string()).or_default();
        entry.count += change;
        if change > 0 {
            self.requests_started += 1;
            entry.started = self.requests_started;
        }
        if entry.count == 0 {
            self.requests.remove(id);
        }
    }

    /// Whether a request started after the `after`-th is still in flight.
    pub fn pending_since(&self, after: u64) -> bool {
        self.requests
            .values()
            .any(|r| r.count > 0 && r.started > after)
    }
}

/// The shared state and a signal on every change.
#[derive(Debug, Default)]
pub struct Events {
    state: Mutex<PageState>,
    pub changed: Notify,
}

impl Events {
    pub fn lock(&self) -> MutexGuard<'_, PageState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn update(&self, change: impl FnOnce(&mut PageState)) {
        change(&mut self.lock());
        self.changed.notify_waiters();
    }
}

fn describe(object: &RemoteObject) -> String {
    match &object.value {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(value) => value.to_string(),
        None => object.description.clone().unwrap_or_default(),
    }
}

macro_rules! listen {
    ($tasks:ident, $page:expr, $event:ty, |$ev:ident| $body:expr) => {{
        let mut stream = $page
            .event_listener::<$event>()
            .await
            .map_err(|e| format!("the page's events could not be followed: {e}"))?;
        $tasks.push(tokio::spawn(async move {
            while let Some($ev) = stream.next().await {
                $body;
            }
        }));
    }};
}

/// Follows `page`'s events into `events`; the tasks end when the page goes away.
pub async fn follow(page: &Page, events: &Arc<Events>) -> Result<Vec<JoinHandle<()>>, String> {
    let mut tasks = Vec::new();
    let e = events.clone();
    listen!(tasks, page, EventRequestWillBeSent, |ev| e.update(|s| {
        // A redirect hop is the same request going on, not a new one.
        if ev.redirect_response.is_none() {
            s.request(ev.request_id.inner(), 1);
        }
    }));
    let e = events.clone();
    listen!(tasks, page, EventLoadingFinished, |ev| e.update(|s| {
        s.request(ev.request_id.inner(), -1);
    }));
    let e = events.clone();
    listen!(tasks, page, EventLoadingFailed, |ev| e.update(|s| {
        s.request(ev.request_id.inner(), -1);
    }));
    let e = events.clone();
    listen!(tasks, page, EventResponseReceived, |ev| e.update(|s| {
        let main = s.main_frame.as_deref();
        if ev.frame_id.as_ref().map(|f| f.inner().as_str()) == main
            && ev.request_id.inner() == ev.loader_id.inner()
        {
            s.status = Some(ev.response.status);
        }
    }));
    let e = events.clone();
    listen!(tasks, page, EventFrameNavigated, |ev| e.update(|s| {
        if ev.frame.parent_id.is_none() {
            let loader = ev.frame.loader_id.inner().clone();
            if s.loader.as_deref() != Some(loader.as_str()) {
                s.lifecycle.clear();
                s.errors = 0;
                s.warnings = 0;
            }
            s.main_frame = Some(ev.frame.id.inner().clone());
            s.loader = Some(loader);
        }
    }));
    let e = events.clone();
    listen!(tasks, page, EventFrameStartedLoading, |ev| e.update(|s| {
        if s.main_frame.as_deref() == Some(ev.frame_id.inner().as_str()) {
            s.loads_started += 1;
            s.loading = true;
        }
    }));
    let e = events.clone();
    listen!(tasks, page, EventFrameStoppedLoading, |ev| e.update(|s| {
        if s.main_frame.as_deref() == Some(ev.frame_id.inner().as_str()) {
            s.loading = false;
        }
    }));
    let e = events.clone();
    listen!(tasks, page, EventLifecycleEvent, |ev| e.update(|s| {
        if s.main_frame.as_deref() == Some(ev.frame_id.inner().as_str()) {
            if ev.name == "init" {
                s.lifecycle.clear();
            }
            s.lifecycle.insert(ev.name.clone());
        }
    }));
    let e = events.clone();
    listen!(tasks, page, EventConsoleApiCalled, |ev| e.update(|s| {
        let kind = ev.r#type.as_ref().to_string();
        let text: Vec<String> = ev.args.iter().map(describe).collect();
        match kind.as_str() {
            "error" | "assert" => s.errors += 1,
            "warning" => s.warnings += 1,
            _ => {}
        }
        s.console.push(format!("[{kind}] {}", text.join(" ")));
    }));
    let e = events.clone();
    listen!(tasks, page, EventExceptionThrown, |ev| e.update(|s| {
        let details = &ev.exception_details;
        let text = details
            .exception
            .as_ref()
            .and_then(|x| x.description.clone())
            .unwrap_or_else(|| details.text.clone());
        s.errors += 1;
        s.console.push(format!("[exception] {text}"));
    }));
    let e = events.clone();
    let dialog_page = page.clone();
    listen!(tasks, page, EventJavascriptDialogOpening, |ev| {
        let kind = ev.r#type.as_ref().to_string();
        let answer = e.lock().answer.clone();
        let accept = answer.accept || matches!(kind.as_str(), "alert" | "beforeunload");
        let mut params = HandleJavaScriptDialogParams::new(accept);
        if kind == "prompt" && accept {
            params.prompt_text = answer.prompt_text.clone().or(ev.default_prompt.clone());
        }
        let how = if accept { "accepted" } else { "dismissed" };
        e.update(|s| s.dialogs.push(format!("{kind} \"{}\" ({how})", ev.message)));
        if let Err(error) = dialog_page.execute(params).await {
            tracing::warn!(%error, "a dialog could not be answered");
        }
    });
    Ok(tasks)
}
