//! Generated media read back for the chat to show: an image or audio file inside the workspace
//! (through the file sandbox, so never a link out of it), by extension, within a size cap.
//! Anything else — SVG, HTML, other files — is refused, so nothing that runs script is served.

use crate::error::{ErrorKind, ToolError};
use crate::fs::sandbox::{PathArg, Sandbox};
use std::io::Read;
use std::path::Path;

/// The largest file served.
pub const MEDIA_SERVE_CAP: u64 = 64 * 1024 * 1024;

const MEDIA_TYPES: [(&str, &str); 12] = [
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("wav", "audio/wav"),
    ("mp3", "audio/mpeg"),
    ("ogg", "audio/ogg"),
    ("opus", "audio/ogg"),
    ("flac", "audio/flac"),
    ("aac", "audio/aac"),
    ("m4a", "audio/mp4"),
];

/// The media type and bytes of the image or audio file `path` in `workspace`; blocking.
pub fn read_media(workspace: &Path, path: &str) -> Result<(&'static str, Vec<u8>), ToolError> {
    let extension = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let mime_type = MEDIA_TYPES
        .iter()
        .find(|(ext, _)| *ext == extension)
        .map(|(_, mime)| *mime)
        .ok_or_else(|| {
            ToolError::invalid("path", "is not an image or audio file the chat shows")
        })?;
    let sandbox = Sandbox::workspace(workspace)?;
    let (file, meta) = sandbox.locate(PathArg::new("path", path))?.open_file()?;
    if meta.len() > MEDIA_SERVE_CAP {
        return Err(ToolError::new(
            ErrorKind::TooLarge,
            format!("`{path}` is larger than the {MEDIA_SERVE_CAP} bytes a chat shows"),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MEDIA_SERVE_CAP)
        .read_to_end(&mut bytes)
        .map_err(|e| ToolError::internal(format!("`{path}` could not be read: {e}")))?;
    Ok((mime_type, bytes))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_media_inside_the_workspace_is_served() {
        let home = tempfile::tempdir().unwrap();
        let workspace = home.path().join("ws");
        std::fs::create_dir_all(workspace.join("generated")).unwrap();
        std::fs::write(workspace.join("generated/a.png"), b"png bytes").unwrap();
        std::fs::write(workspace.join("page.svg"), b"<svg onload=alert(1)>").unwrap();
        std::fs::write(home.path().join("secret.png"), b"outside").unwrap();
        assert_eq!(
            read_media(&workspace, "generated/a.png").unwrap(),
            ("image/png", b"png bytes".to_vec())
        );
        let refused = |path: &str| read_media(&workspace, path).unwrap_err().kind;
        assert_eq!(refused("page.svg"), ErrorKind::InvalidArguments);
        assert_eq!(refused("../secret.png"), ErrorKind::NotPermitted);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(home.path().join("secret.png"), workspace.join("l.png"))
                .unwrap();
            assert_eq!(refused("l.png"), ErrorKind::NotPermitted);
        }
        assert_eq!(refused("missing.wav"), ErrorKind::NotFound);
    }
}
