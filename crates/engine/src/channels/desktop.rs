//! `desktop`: Hearth's own chats. Delivering is writing the message into the session, which must
//! exist (`desktop:<id>`, and the other local sessions such as `cli:<id>`); pictures are stored
//! as images so the chat shows them.

use async_trait::async_trait;
use base64::Engine as _;
use hearth_protocol::{ContentPart, Role};
use hearth_store::{Db, DbError, NewMessage};
use hearth_tools::channels::{Delivered, Outbound};

use hearth_core::{Channel, ChannelError, Receipt};

/// The built-in channel's name.
pub const DESKTOP: &str = "desktop";

/// The `desktop` channel.
pub(super) struct Desktop {
    db: Db,
}

impl Desktop {
    pub(super) fn new(db: Db) -> Desktop {
        Desktop { db }
    }

    /// Writes `message` into its session.
    pub(super) async fn deliver(&self, message: &Outbound) -> Result<Delivered, ChannelError> {
        let receipt = self.send(message).await?;
        Ok(Delivered {
            session_id: message.target.to_string(),
            kind: DESKTOP.to_string(),
            message_ids: receipt.message_ids,
        })
    }
}

/// The stored parts: the text, pictures as images, other files by workspace path, artifacts
/// by id.
fn parts(message: &Outbound) -> Vec<ContentPart> {
    let mut parts = super::record::parts(message);
    for (slot, file) in parts
        .iter_mut()
        .filter(|p| matches!(p, ContentPart::File { .. } | ContentPart::Artifact { .. }))
        .zip(message.files.iter())
    {
        if file.as_image {
            *slot = ContentPart::Image {
                mime_type: file.mime_type.clone(),
                data: base64::engine::general_purpose::STANDARD.encode(&file.bytes),
                name: Some(file.name.clone()),
            };
        }
    }
    parts
}

#[async_trait]
impl Channel for Desktop {
    fn name(&self) -> &str {
        DESKTOP
    }

    fn kind(&self) -> &'static str {
        DESKTOP
    }

    fn supports_files(&self) -> bool {
        true
    }

    async fn send(&self, message: &Outbound) -> Result<Receipt, ChannelError> {
        let session_id = message.target.to_string();
        let mut new = NewMessage::new(&session_id, Role::Assistant, parts(message));
        new.model = message.model.clone();
        let written = self.db.write(move |store| {
            let written = match store.get_session(&session_id) {
                Ok(Some(_)) => store
                    .insert_message(&new)
                    .map(|stored| Receipt {
                        message_ids: vec![stored.id.to_string()],
                    })
                    .map_err(|e| {
                        ChannelError::Local(format!(
                            "the message could not be written into {session_id}: {e}"
                        ))
                    }),
                Ok(None) => Err(ChannelError::NoTarget(missing_session(&session_id))),
                Err(e) => Err(ChannelError::Local(format!(
                    "the session {session_id} could not be read: {e}"
                ))),
            };
            Ok::<_, DbError>(written)
        });
        written
            .await
            .map_err(|e| ChannelError::Local(format!("writing the message failed: {e}")))?
    }
}

/// Why a target naming no stored session cannot be written to: the session is gone, and its
/// prefix names no configured channel either (unless it is one of Hearth's own session kinds).
fn missing_session(session_id: &str) -> String {
    let prefix = session_id.split(':').next().unwrap_or_default();
    if hearth_protocol::LOCAL_SESSION_KINDS.contains(&prefix) {
        format!("the session {session_id} does not exist")
    } else {
        format!("the session {session_id} does not exist and no channel `{prefix}` is configured")
    }
}
