//! One tab per session: its page, the events it follows, its refs and the outline of its last
//! snapshot (to report what an action changed).

mod events;
mod settle;

pub use events::{DialogAnswer, Events};

use crate::cdp::{call, CdpFailure};
use crate::snapshot::{RefTable, Target};
use crate::wire::Wire;
use chromiumoxide::Page;
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::task::JoinHandle;

/// Runs in every document before its scripts: records when the DOM last changed (to know when
/// a page has settled) and removes WebRTC, which could reach the network around the proxy.
const INIT_SCRIPT: &str = r#"(() => {
  try {
    window.__hearthChanged = performance.now();
    new MutationObserver(() => { window.__hearthChanged = performance.now(); })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  } catch (e) {}
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel']) {
    try { delete window[name]; Object.defineProperty(window, name, { value: undefined }); } catch (e) {}
  }
})();"#;

/// Where a frame's elements are reached: the session (`None`: the tab's own; an out-of-process
/// iframe has its own), Hearth's world in it, and the iframe element that shows the frame.
#[derive(Debug, Clone)]
pub struct Site {
    pub session: Option<String>,
    pub context: i64,
    pub owner: Option<Target>,
}

/// A session's tab.
pub struct Tab {
    pub page: Page,
    /// The tab's session on the raw connection (snapshots).
    pub wire: Wire,
    pub events: Arc<Events>,
    pub refs: RefTable,
    /// Frame numbers by CDP frame id (the page is 0).
    pub frames: HashMap<String, u32>,
    /// Where each frame is reached, by frame number, as of the last snapshot.
    pub sites: HashMap<u32, Site>,
    /// The document the refs and `last_lines` belong to.
    pub document: Option<String>,
    /// The outline of the last snapshot, to diff against.
    pub last_lines: Vec<String>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for Tab {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Tab {
    /// Sets up a new page of the browser at `ws_url`: lifecycle events, the init script, event
    /// following, its session on a raw connection.
    pub async fn new(page: Page, ws_url: &str) -> Result<Tab, String> {
        let wire = Wire::attach(ws_url, page.target_id().as_ref(), INIT_SCRIPT)
            .await
            .map_err(|e| format!("the tab could not be set up: {e}"))?;
        let events = Arc::new(Events::default());
        let tasks = events::follow(&page, &events).await?;
        let setup = async {
            call(
                &page,
                "Page.setLifecycleEventsEnabled",
                json!({"enabled": true}),
            )
            .await?;
            call(
                &page,
                "Page.addScriptToEvaluateOnNewDocument",
                json!({"source": INIT_SCRIPT}),
            )
            .await?;
            call(
                &page,
                "Runtime.evaluate",
                json!({"expression": INIT_SCRIPT}),
            )
            .await?;
            let tree = call(&page, "Page.getFrameTree", json!({})).await?;
            Ok::<_, CdpFailure>(tree)
        };
        let tree = setup
            .await
            .map_err(|e| format!("the tab could not be set up: {e}"))?;
        {
            let mut state = events.lock();
            state.main_frame = tree["frameTree"]["frame"]["id"]
                .as_str()
                .map(str::to_string);
            state.loader = tree["frameTree"]["frame"]["loaderId"]
                .as_str()
                .map(str::to_string);
        }
        Ok(Tab {
            page,
            wire,
            events,
            refs: RefTable::default(),
            frames: HashMap::new(),
            sites: HashMap::new(),
            document: None,
            last_lines: Vec::new(),
            tasks,
        })
    }

    /// The number of frame `id` (0 for the page's own frame), numbering new ones.
    pub fn frame_number(&mut self, id: &str, main: bool) -> u32 {
        if main {
            return 0;
        }
        let next = self.frames.len() as u32 + 1;
        *self.frames.entry(id.to_string()).or_insert(next)
    }

    /// Forgets refs, frames and the last outline when the main document changed.
    pub fn sync_document(&mut self) {
        let loader = self.events.lock().loader.clone();
        if loader != self.document {
            self.refs.reset();
            self.frames.clear();
            self.sites.clear();
            self.last_lines.clear();
            self.document = loader;
        }
    }
}
