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
use hearth_store::Db;
use session_search::SessionSearch;
use timeline::TimelineRecall;

/// Registers the history tools of `registry`'s dialect: `session_search` (hearth, echo),
/// `chat_manager` and `timeline_recall` (hearth, echo, picobot), reading through `db`.
pub fn register_history(registry: &mut Registry, db: impl Into<Db>) -> Result<(), RegistryError> {
    use Dialect::{Echo, Hearth, Picobot};
    let db = db.into();
    registry.register_for(&[Hearth, Echo], SessionSearch { db: db.clone() })?;
    registry.register_for(&[Hearth, Echo, Picobot], ChatManager { db: db.clone() })?;
    registry.register_for(&[Hearth, Echo, Picobot], TimelineRecall { db })?;
    Ok(())
}
