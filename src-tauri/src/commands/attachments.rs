//! Attachment commands: a dropped or picked file, or pasted bytes, become a content part.

use std::path::PathBuf;

use base64::Engine as _;
use hearth_engine::{image_part, prepare_attachment as prepare, IMAGE_ATTACHMENT_CAP};
use hearth_protocol::{AppError, ContentPart};
use tauri::State;

use crate::state::{to_error, AppState, CommandResult};

fn workspace(state: &AppState, session_id: &str) -> CommandResult<PathBuf> {
    let session = state
        .store
        .get_session(session_id)
        .map_err(to_error)?
        .ok_or_else(|| AppError::UnknownSession {
            session_id: session_id.to_string(),
        })?;
    Ok(session
        .workspace
        .map(PathBuf::from)
        .unwrap_or_else(|| state.dir.workspace()))
}

#[tauri::command]
pub fn prepare_attachment(
    state: State<'_, AppState>,
    session_id: String,
    path: String,
) -> CommandResult<ContentPart> {
    let workspace = workspace(&state, &session_id)?;
    prepare(std::path::Path::new(&path), &workspace).map_err(to_error)
}

/// Pasted images arrive as base64 bytes.
#[tauri::command]
pub fn attach_bytes(
    state: State<'_, AppState>,
    session_id: String,
    name: String,
    mime_type: String,
    data_base64: String,
) -> CommandResult<ContentPart> {
    workspace(&state, &session_id)?;
    if !mime_type.starts_with("image/") {
        return Err(AppError::NotAnImage { mime_type });
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data_base64.as_bytes())
        .map_err(|_| AppError::BadBase64)?;
    if bytes.len() as u64 > IMAGE_ATTACHMENT_CAP {
        return Err(AppError::ImageTooLarge {
            megabytes: IMAGE_ATTACHMENT_CAP / (1024 * 1024),
        });
    }
    Ok(image_part(&name, &mime_type, &bytes))
}
