//! The history tools over the store: `session_search` (keywords or a regex over
//! every message), `chat_manager` (paging over sessions, channels and messages) and
//! `timeline_recall` (search of session summaries).

mod chat_manager;
mod scan;
mod session_search;
mod timeline;

use crate::dialect::Dialect;
use crate::registry::{Registry, RegistryError};
use chat_manager::ChatManager;
use hearth_store::Store;
use session_search::SessionSearch;
use std::sync::Arc;
use timeline::TimelineRecall;

/// Registers the history tools of `registry`'s dialect: `session_search` (hearth, echo),
/// `chat_manager` and `timeline_recall` (hearth, echo, picobot).
pub fn register_history(registry: &mut Registry, store: Arc<Store>) -> Result<(), RegistryError> {
    use Dialect::{Echo, Hearth, Picobot};
    registry.register_for(
        &[Hearth, Echo],
        SessionSearch {
            store: Arc::clone(&store),
        },
    )?;
    registry.register_for(
        &[Hearth, Echo, Picobot],
        ChatManager {
            store: Arc::clone(&store),
        },
    )?;
    registry.register_for(&[Hearth, Echo, Picobot], TimelineRecall { store })?;
    Ok(())
}
