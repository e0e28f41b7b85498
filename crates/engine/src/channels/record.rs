//! The copy of an outgoing message kept in Hearth: written into the chat's session before the
//! channel is asked, marked failed (with the reason) when the channel refuses it.

use hearth_core::ChannelError;
use hearth_protocol::{AppError, ContentPart, MessageStatus, Role, ToolProfile};
use hearth_store::{Db, DbError, NewMessage, NewSession, Store};
use hearth_tools::channels::{FileOrigin, Outbound};

/// The parts stored for `message`: its text, its workspace files by path and its artifacts
/// by id.
pub(super) fn parts(message: &Outbound) -> Vec<ContentPart> {
    let text = (!message.text.is_empty()).then(|| ContentPart::text(message.text.clone()));
    let files = message.files.iter().map(|file| {
        let (name, size) = (file.name.clone(), file.bytes.len() as u64);
        match &file.origin {
            FileOrigin::Workspace(path) => ContentPart::File {
                name,
                path: path.clone(),
                size,
                mime_type: Some(file.mime_type.clone()),
            },
            FileOrigin::Artifact(id) => ContentPart::Artifact {
                id: id.clone(),
                name,
                size,
            },
        }
    });
    text.into_iter().chain(files).collect()
}

/// Writes `message` into its target session of channel `channel` (created, titled with the
/// channel and chat, when new); returns the stored message id.
pub(super) async fn write(db: &Db, message: &Outbound, channel: &str) -> Result<i64, ChannelError> {
    let session_id = message.target.to_string();
    let title = format!("{channel} · {}", message.target.chat_id);
    let mut new = NewMessage::new(&session_id, Role::Assistant, parts(message));
    new.model = message.model.clone();
    let written = db
        .write(move |store| {
            let written = ensure_session(store, &session_id, &title).and_then(|()| {
                store
                    .insert_message(&new)
                    .map(|stored| stored.id)
                    .map_err(|e| format!("the message could not be written into {session_id}: {e}"))
            });
            Ok::<_, DbError>(written)
        })
        .await
        .map_err(|e| ChannelError::Local(format!("writing the message failed: {e}")))?;
    written.map_err(ChannelError::Local)
}

/// Creates the session `id` when it does not exist.
pub(super) fn ensure_session(store: &Store, id: &str, title: &str) -> Result<(), String> {
    match store.get_session(id) {
        Ok(Some(_)) => Ok(()),
        Ok(None) => store
            .create_session(&NewSession {
                id: id.to_string(),
                title: title.to_string(),
                model: None,
                workspace: None,
                tool_profile: ToolProfile::Full.as_str().to_string(),
            })
            .map(|_| ())
            .map_err(|e| format!("the session {id} could not be created: {e}")),
        Err(e) => Err(format!("the session {id} could not be read: {e}")),
    }
}

/// Marks the stored message to `target` failed with `failure`, if there is one.
pub(super) async fn settle(db: &Db, message_id: i64, target: &str, failure: Option<&ChannelError>) {
    let Some(reason) = failure.map(ToString::to_string) else {
        return;
    };
    let target = target.to_string();
    let marked = db
        .write(move |store| {
            store.finish_message(
                message_id,
                MessageStatus::Failed,
                None,
                Some(&AppError::DeliveryFailed { target, reason }),
            )
        })
        .await;
    if let Err(error) = marked {
        tracing::warn!(%error, "cannot mark the undelivered message");
    }
}
