//! The long-lived registry of running turns, shared by every engine a front end builds: at most
//! one turn per session (claimed in the store as well, so the app and `hearth-cli` cannot run
//! one session at once), each entry owning its turn's cancel token and released when its guard
//! drops — also when the turn panics or its future is dropped. A turn begins by storing the
//! user's message, before a provider or model is looked at, so nothing typed is lost; the first
//! message of an untitled chat titles it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use hearth_protocol::{
    parts_text, typed_text, ContentPart, Language, Message, Role, Session, Text,
};
use hearth_store::{Db, NewMessage};
use tokio_util::sync::CancellationToken;

use crate::EngineError;

/// Running turns by session id.
pub struct Turns {
    db: Db,
    running: Mutex<HashMap<String, CancellationToken>>,
}

/// A turn whose user message is stored, holding its session's claim until it is answered.
pub struct BegunTurn {
    pub(crate) session: Session,
    pub(crate) user: Message,
    pub(crate) _running: TurnGuard,
}

impl BegunTurn {
    pub fn session_id(&self) -> &str {
        &self.session.id
    }

    pub fn user_message_id(&self) -> i64 {
        self.user.id
    }
}

/// A claimed session; dropping it ends the claim.
#[must_use = "the session is released when the guard drops"]
pub struct TurnGuard {
    turns: Arc<Turns>,
    session_id: String,
}

impl Turns {
    /// A registry claiming sessions in `db` (an `Arc<Store>` becomes a [`Db`] of its own).
    pub fn new(db: impl Into<Db>) -> Arc<Turns> {
        Arc::new(Turns {
            db: db.into(),
            running: Mutex::new(HashMap::new()),
        })
    }

    /// Claims `session_id` for a turn cancelled by `cancel`, or says who already runs one.
    /// The session is entered here first (a second turn here is refused at once), then claimed
    /// in the store; the guard leaves it again when the claim is refused or the caller gives up.
    pub async fn begin(
        self: &Arc<Self>,
        session_id: &str,
        cancel: CancellationToken,
    ) -> Result<TurnGuard, EngineError> {
        {
            let mut running = self.lock();
            if running.contains_key(session_id) {
                return Err(EngineError::Busy(session_id.to_string()));
            }
            running.insert(session_id.to_string(), cancel);
        }
        let guard = TurnGuard {
            turns: Arc::clone(self),
            session_id: session_id.to_string(),
        };
        let id = session_id.to_string();
        if !self.db.write(move |store| store.claim_turn(&id)).await? {
            return Err(EngineError::BusyElsewhere(session_id.to_string()));
        }
        Ok(guard)
    }

    /// Claims `session_id` and stores the user's `content` in it: the first step of every turn,
    /// done before anything that can fail for want of a provider, key or server.
    pub async fn commit(
        self: &Arc<Self>,
        session_id: &str,
        content: Vec<ContentPart>,
        cancel: CancellationToken,
    ) -> Result<BegunTurn, EngineError> {
        let id = session_id.to_string();
        let session = self
            .db
            .read(move |store| store.get_session(&id))
            .await?
            .ok_or_else(|| EngineError::UnknownSession(session_id.to_string()))?;
        let running = self.begin(session_id, cancel).await?;
        let untitled = session.message_count == 0
            && Language::ALL
                .iter()
                .any(|l| Text::NewChat.in_language(*l) == session.title);
        let title = untitled.then(|| title_from(&asked(&content))).flatten();
        let new = NewMessage::new(session_id, Role::User, content);
        let user = self
            .db
            .write(move |store| {
                let user = store.insert_message(&new)?;
                if let Some(title) = title {
                    store.rename_session(&new.session_id, &title)?;
                }
                Ok::<_, hearth_store::StoreError>(user)
            })
            .await?;
        Ok(BegunTurn {
            session,
            user,
            _running: running,
        })
    }

    /// Cancels the running turn of `session_id`; false when none runs here.
    pub fn cancel(&self, session_id: &str) -> bool {
        self.lock()
            .get(session_id)
            .map(CancellationToken::cancel)
            .is_some()
    }

    /// How many turns run now.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    /// Whether a turn runs in `session_id` here.
    pub fn is_running(&self, session_id: &str) -> bool {
        self.lock().contains_key(session_id)
    }

    /// A panic while the map was held cannot leave it half-changed (each change is one call).
    fn lock(&self) -> MutexGuard<'_, HashMap<String, CancellationToken>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What a message asks, for its chat's title: the text the user typed, else (attachments or a
/// skill alone) the text the model reads.
pub(crate) fn asked(content: &[ContentPart]) -> String {
    let typed = typed_text(content);
    if typed.trim().is_empty() {
        parts_text(content)
    } else {
        typed
    }
}

/// A chat title from the first words of a message: its first line, at most 60 characters;
/// none for a message without text.
pub fn title_from(message: &str) -> Option<String> {
    let line = message.lines().find(|l| !l.trim().is_empty())?.trim();
    let mut title: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        title.push('…');
    }
    Some(title)
}

impl Drop for TurnGuard {
    /// Releases the claim at once, in the dropping thread (one short UPDATE): a drop cannot wait,
    /// and a claim released later would refuse the next turn of the session for a moment.
    fn drop(&mut self) {
        self.turns.lock().remove(&self.session_id);
        if let Err(error) = self.turns.db.blocking().release_turn(&self.session_id) {
            tracing::warn!(%error, session = %self.session_id, "turn claim not released");
        }
    }
}
