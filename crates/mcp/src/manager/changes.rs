//! A watch on the manager: woken when servers are added, removed or replaced, and when any
//! server's state or tools change.

use std::sync::Weak;

use tokio::sync::watch;

use super::McpManager;

/// Changes of the servers since the watch was made or last woke.
pub struct Changes {
    manager: Weak<McpManager>,
    roster: watch::Receiver<u64>,
    servers: Vec<watch::Receiver<u64>>,
}

impl Changes {
    pub(super) fn new(manager: Weak<McpManager>, mut roster: watch::Receiver<u64>) -> Changes {
        roster.mark_unchanged();
        let mut changes = Changes {
            manager,
            roster,
            servers: Vec::new(),
        };
        changes.follow();
        changes
    }

    /// Watches the manager's current servers.
    fn follow(&mut self) {
        self.servers = self
            .manager
            .upgrade()
            .map(|m| m.servers().iter().map(|(s, _)| s.changes()).collect())
            .unwrap_or_default();
    }

    /// Waits for the next change; false once the manager is gone.
    pub async fn next(&mut self) -> bool {
        let server = async {
            if self.servers.is_empty() {
                return std::future::pending().await;
            }
            let changes = self.servers.iter_mut().map(|r| Box::pin(r.changed()));
            futures::future::select_all(changes).await.0.is_ok()
        };
        let roster_changed = tokio::select! {
            changed = self.roster.changed() => {
                if changed.is_err() {
                    return false;
                }
                true
            }
            alive = server => !alive,
        };
        if roster_changed {
            self.follow();
        }
        self.manager.strong_count() > 0
    }
}
