//! The app's one managed browser: started on first use with the persistent profile, one tab per
//! session, its traffic through its own egress proxy and its downloads into a folder of
//! Hearth's own, closed after the idle timeout or at exit, and restarted (with an error saying
//! so) when it crashed or was killed.

use crate::downloads::Downloads;
use crate::launch::{launch, LaunchOptions};
use crate::tab::Tab;
use chromiumoxide::browser::Browser;
use futures::StreamExt;
use hearth_egress::EgressProxy;
use hearth_tools::{ErrorKind, ToolError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

/// How long a running browser has to answer before it counts as gone.
const PROBE: Duration = Duration::from_secs(3);

/// A shared tab, locked for the length of one action.
pub type SharedTab = Arc<Mutex<Tab>>;

struct Running {
    browser: Browser,
    /// The proxy every connection of this browser goes through (stopped with it); none for the
    /// user's own Chrome, which is attached to and never closed or killed.
    egress: Option<Arc<EgressProxy>>,
    /// Where its downloads go and how they stand (none for the user's own Chrome, whose
    /// downloads are left as the user set them).
    downloads: Option<Arc<Downloads>>,
    options: LaunchOptions,
    alive: Arc<AtomicBool>,
    handler: JoinHandle<()>,
    tabs: HashMap<String, SharedTab>,
    last_used: Instant,
    idle: Duration,
    /// Which start this is (an idle watch only closes the browser it was started with).
    generation: u64,
}

impl Running {
    /// Whether the process is still there and answers on its connection.
    async fn is_alive(&mut self) -> bool {
        if !self.alive.load(Ordering::SeqCst) || !matches!(self.browser.try_wait(), Ok(None)) {
            return false;
        }
        let probe = tokio::time::timeout(PROBE, self.browser.version()).await;
        matches!(probe, Ok(Ok(_)))
    }

    /// Whether this browser can serve calls that would start one with `options`: the same
    /// one, or the same one with its window shown (opened from Settings to log in or watch).
    fn serves(&self, options: &LaunchOptions) -> bool {
        self.options == *options
            || (self.options.visible
                && LaunchOptions {
                    visible: true,
                    ..options.clone()
                } == self.options)
    }

    async fn stop(mut self) {
        if self.egress.is_none() {
            for tab in std::mem::take(&mut self.tabs).into_values() {
                let page = tab.lock().await.page.clone();
                let _ = page.close().await;
            }
            self.handler.abort();
            return;
        }
        self.tabs.clear();
        if self.is_alive().await {
            let _ = tokio::time::timeout(Duration::from_secs(5), self.browser.close()).await;
        }
        let _ = self.browser.kill().await;
        let _ = self.browser.wait().await;
        self.handler.abort();
    }
}

struct Inner {
    data_dir: PathBuf,
    running: Mutex<Option<Running>>,
    starts: AtomicU64,
}

/// The managed browser of one app (clones share it).
#[derive(Clone)]
pub struct Browsers {
    inner: Arc<Inner>,
}

impl Browsers {
    /// A manager whose profile lives in `<data_dir>/browser/profile`; nothing starts yet.
    pub fn new(data_dir: &Path) -> Browsers {
        Browsers {
            inner: Arc::new(Inner {
                data_dir: data_dir.to_path_buf(),
                running: Mutex::new(None),
                starts: AtomicU64::new(0),
            }),
        }
    }

    /// The persistent profile folder.
    pub fn profile(&self) -> PathBuf {
        self.inner.data_dir.join("browser").join("profile")
    }

    /// Whether a browser is running now.
    pub async fn is_running(&self) -> bool {
        let mut running = self.inner.running.lock().await;
        match running.as_mut() {
            Some(running) => running.is_alive().await,
            None => false,
        }
    }

    /// The process id of the running browser.
    pub async fn pid(&self) -> Option<u32> {
        let mut running = self.inner.running.lock().await;
        running
            .as_mut()
            .and_then(|r| r.browser.get_mut_child().and_then(|c| c.inner.id()))
    }

    /// The egress proxy of the running browser.
    pub async fn egress(&self) -> Option<Arc<EgressProxy>> {
        let running = self.inner.running.lock().await;
        running.as_ref().and_then(|r| r.egress.clone())
    }

    /// The downloads of the running managed browser.
    pub async fn downloads(&self) -> Option<Arc<Downloads>> {
        let running = self.inner.running.lock().await;
        running.as_ref().and_then(|r| r.downloads.clone())
    }

    /// Closes the browser (app exit, "Clear browser data", a settings change).
    pub async fn shutdown(&self) {
        let running = self.inner.running.lock().await.take();
        if let Some(running) = running {
            running.stop().await;
        }
    }

    /// Closes the browser and deletes its profile (cookies, logins, cache). Chromium's helper
    /// processes (GPU, utility) can still be writing into the profile for a moment after the
    /// browser process has exited, so a folder that refills while it is removed is removed again,
    /// for up to five seconds.
    pub async fn clear_data(&self) -> std::io::Result<()> {
        self.shutdown().await;
        let dir = self.inner.data_dir.join("browser");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            match tokio::fs::remove_dir_all(&dir).await {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
                Err(e)
                    if e.kind() == std::io::ErrorKind::DirectoryNotEmpty
                        && tokio::time::Instant::now() < deadline =>
                {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                other => return other,
            }
        }
    }

    /// Closes `session`'s tab; whether there was one.
    pub async fn close_tab(&self, session: &str) -> bool {
        let tab = {
            let mut running = self.inner.running.lock().await;
            running.as_mut().and_then(|r| r.tabs.remove(session))
        };
        match tab {
            Some(tab) => {
                let tab = tab.lock().await;
                let _ = tab.page.clone().close().await;
                true
            }
            None => false,
        }
    }

    /// `session`'s tab, if it has one (no browser is started).
    pub async fn existing_tab(&self, session: &str) -> Result<Option<SharedTab>, ToolError> {
        let mut guard = self.inner.running.lock().await;
        let crashed = match guard.as_mut() {
            Some(running) => !running.is_alive().await,
            None => false,
        };
        if crashed {
            return Err(self.restart(&mut guard).await);
        }
        Ok(guard.as_mut().and_then(|r| {
            r.last_used = Instant::now();
            r.tabs.get(session).cloned()
        }))
    }

    /// `session`'s tab, starting the browser and opening the tab when needed.
    pub async fn tab(
        &self,
        session: &str,
        options: &LaunchOptions,
        idle: Duration,
    ) -> Result<SharedTab, ToolError> {
        let mut guard = self.inner.running.lock().await;
        if let Some(running) = guard.as_mut() {
            if !running.is_alive().await {
                return Err(self.restart(&mut guard).await);
            }
            if !running.serves(options) {
                if let Some(old) = guard.take() {
                    old.stop().await;
                }
            }
        }
        if guard.is_none() {
            *guard = Some(self.start(options, idle).await?);
        }
        let running = guard
            .as_mut()
            .ok_or_else(|| ToolError::internal("the browser is not running"))?;
        running.last_used = Instant::now();
        if let Some(tab) = running.tabs.get(session) {
            return Ok(tab.clone());
        }
        let page = running.browser.new_page("about:blank").await.map_err(|e| {
            ToolError::new(
                ErrorKind::Failed,
                format!("a browser tab could not be opened: {e}"),
            )
        })?;
        let tab = Tab::new(page, running.browser.websocket_address())
            .await
            .map_err(|message| ToolError::new(ErrorKind::Failed, message))?;
        let tab = Arc::new(Mutex::new(tab));
        running.tabs.insert(session.to_string(), tab.clone());
        Ok(tab)
    }

    async fn start(&self, options: &LaunchOptions, idle: Duration) -> Result<Running, ToolError> {
        let (browser, mut handler, egress, downloads) = match &options.attach {
            Some(url) => {
                let (browser, handler) = Browser::connect(url.as_str()).await.map_err(|e| {
                    ToolError::new(
                        ErrorKind::Unavailable,
                        format!("your Chrome at {url} (browser.cdp_url) did not answer: {e}"),
                    )
                })?;
                (browser, handler, None, None)
            }
            None => {
                let egress = EgressProxy::start(&options.allow_local)
                    .await
                    .map_err(|e| ToolError::new(ErrorKind::Unavailable, e.to_string()))?;
                let (browser, handler) = launch(options, egress.port())
                    .await
                    .map_err(|message| ToolError::new(ErrorKind::Unavailable, message))?;
                let staging = self.inner.data_dir.join("browser").join("downloads");
                let downloads = Downloads::follow(browser.websocket_address(), &staging)
                    .await
                    .map_err(|message| ToolError::new(ErrorKind::Unavailable, message))?;
                (
                    browser,
                    handler,
                    Some(Arc::new(egress)),
                    Some(Arc::new(downloads)),
                )
            }
        };
        let alive = Arc::new(AtomicBool::new(true));
        let flag = alive.clone();
        let handler = tokio::spawn(async move {
            while handler.next().await.is_some() {}
            flag.store(false, Ordering::SeqCst);
        });
        let generation = self.inner.starts.fetch_add(1, Ordering::SeqCst) + 1;
        spawn_idle_watch(Arc::downgrade(&self.inner), idle, generation);
        Ok(Running {
            idle,
            generation,
            browser,
            egress,
            downloads,
            options: options.clone(),
            alive,
            handler,
            tabs: HashMap::new(),
            last_used: Instant::now(),
        })
    }

    /// Starts the crashed browser again; the error tells the model what happened.
    async fn restart(&self, guard: &mut Option<Running>) -> ToolError {
        let Some(old) = guard.take() else {
            return ToolError::internal("no browser to restart");
        };
        let (options, idle) = (old.options.clone(), old.idle);
        old.stop().await;
        match self.start(&options, idle).await {
            Ok(running) => {
                *guard = Some(running);
                ToolError::new(
                    ErrorKind::Failed,
                    "the browser had stopped (it crashed or was killed), so its tabs were lost; \
                     it has been started again: open the page again",
                )
            }
            Err(error) => ToolError::new(
                ErrorKind::Unavailable,
                format!(
                    "the browser had stopped (it crashed or was killed) and could not be started \
                     again: {}",
                    error.message
                ),
            ),
        }
    }
}

/// Closes the browser once it has not been used for `idle`.
fn spawn_idle_watch(inner: Weak<Inner>, idle: Duration, generation: u64) {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(
                idle.min(Duration::from_secs(60))
                    .max(Duration::from_millis(200)),
            )
            .await;
            let Some(inner) = inner.upgrade() else {
                return;
            };
            let mut guard = inner.running.lock().await;
            let Some(running) = guard.as_mut().filter(|r| r.generation == generation) else {
                return;
            };
            if running.last_used.elapsed() >= idle {
                if let Some(running) = guard.take() {
                    running.stop().await;
                }
                return;
            }
        }
    });
}
