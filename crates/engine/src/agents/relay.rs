//! Carries children's events into their parent turn's sink while the turn runs: the sink is
//! borrowed by the turn, so the turn's own task passes on what its children send.

use std::future::Future;

use hearth_protocol::EngineEvent;
use tokio::sync::mpsc::UnboundedReceiver;

use crate::engine::EventSink;

/// Runs `work`, passing every event from `events` to `sink` meanwhile; what is still queued
/// when `work` ends is passed on before its output is returned.
pub(crate) async fn pump<T>(
    mut events: UnboundedReceiver<EngineEvent>,
    sink: &EventSink,
    work: impl Future<Output = T>,
) -> T {
    tokio::pin!(work);
    loop {
        tokio::select! {
            biased;
            out = &mut work => {
                while let Ok(event) = events.try_recv() {
                    sink(event);
                }
                return out;
            }
            Some(event) = events.recv() => sink(event),
        }
    }
}
