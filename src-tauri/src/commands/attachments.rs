//! Attachment commands: a dropped or picked file, pasted bytes, or the image on the OS
//! clipboard (WebKitGTK gives a page's paste event no image data) become a content part.

use hearth_ipc_macros::command;
use std::path::PathBuf;

use base64::Engine as _;
use hearth_engine::{image_part, prepare_attachment as prepare, IMAGE_ATTACHMENT_CAP};
use hearth_protocol::{AppError, ContentPart};
use tauri::State;

use crate::state::{AppState, CommandResult};

/// The workspace of `session_id` (its own folder, else the default one).
pub(crate) async fn workspace(state: &AppState, session_id: &str) -> CommandResult<PathBuf> {
    let id = session_id.to_string();
    let session = state
        .db
        .read(move |store| store.get_session(&id))
        .await?
        .ok_or_else(|| AppError::UnknownSession {
            session_id: session_id.to_string(),
        })?;
    Ok(session
        .workspace
        .map(PathBuf::from)
        .unwrap_or_else(|| state.dir.workspace()))
}

/// Async, and the copy and the document parse on a blocking thread: a slow parse (up to its
/// time limit) never holds the main thread.
#[command]
pub async fn prepare_attachment(
    state: State<'_, AppState>,
    session_id: String,
    path: String,
) -> CommandResult<ContentPart> {
    let workspace = workspace(&state, &session_id).await?;
    tokio::task::spawn_blocking(move || prepare(std::path::Path::new(&path), &workspace))
        .await
        .map_err(AppError::internal)?
        .map_err(AppError::from)
}

/// Pasted images arrive as base64 bytes.
#[command]
pub async fn attach_bytes(
    state: State<'_, AppState>,
    session_id: String,
    name: String,
    mime_type: String,
    data_base64: String,
) -> CommandResult<ContentPart> {
    workspace(&state, &session_id).await?;
    if !mime_type.starts_with("image/") {
        return Err(AppError::NotAnImage { mime_type });
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data_base64.as_bytes())
        .map_err(|_| AppError::BadBase64)?;
    image(&name, &mime_type, &bytes)
}

fn image(name: &str, mime_type: &str, bytes: &[u8]) -> CommandResult<ContentPart> {
    if bytes.len() as u64 > IMAGE_ATTACHMENT_CAP {
        return Err(AppError::ImageTooLarge {
            megabytes: IMAGE_ATTACHMENT_CAP / (1024 * 1024),
        });
    }
    Ok(image_part(name, mime_type, bytes))
}

/// The image on the OS clipboard as a PNG part, or nothing when it holds none (the page asks
/// when its paste event carried neither an image nor text).
#[command]
pub async fn paste_clipboard_image(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    session_id: String,
    name: String,
) -> CommandResult<Option<ContentPart>> {
    workspace(&state, &session_id).await?;
    let (sent, received) = tokio::sync::oneshot::channel();
    // GTK's clipboard lives on the main thread.
    app.run_on_main_thread(move || {
        let _ = sent.send(clipboard_png());
    })
    .map_err(AppError::internal)?;
    match received.await.map_err(AppError::internal)? {
        Some(bytes) => image(&name, "image/png", &bytes).map(Some),
        None => Ok(None),
    }
}

#[cfg(target_os = "linux")]
fn clipboard_png() -> Option<Vec<u8>> {
    let clipboard = gtk::Clipboard::get(&gdk::SELECTION_CLIPBOARD);
    let pixbuf = clipboard.wait_for_image()?;
    match pixbuf.save_to_bufferv("png", &[]) {
        Ok(bytes) => Some(bytes),
        Err(error) => {
            tracing::warn!(%error, "the clipboard's image could not be encoded as PNG");
            None
        }
    }
}

/// Elsewhere the webview's paste event carries the image itself.
#[cfg(not(target_os = "linux"))]
fn clipboard_png() -> Option<Vec<u8>> {
    None
}
