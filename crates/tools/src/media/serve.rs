//! Generated media read back for the chat to show: an image or audio file inside the workspace
//! (through the file sandbox, so never a link out of it), by extension, within a size cap.
//! Anything else — SVG, HTML, other files — is refused, so nothing that runs script is served:
//! images of the types a model takes ([`image_type`]) and audio the chat plays (`AUDIO_TYPES`).

use crate::error::{ErrorKind, ToolError};
use crate::fs::sandbox::{PathArg, Sandbox};
use crate::images::image_type;
use std::io::Read;
use std::path::Path;

/// The largest file served.
pub const MEDIA_SERVE_CAP: u64 = 64 * 1024 * 1024;

/// The audio the chat plays, by extension, with the media type its player (WebKit's GStreamer or
/// AVFoundation engine) knows it by. Closed on purpose, with its own types: `mime_guess` names
/// `.m4a` `audio/m4a`, which neither engine lists (`audio/mp4` is the registered type).
const AUDIO_TYPES: [(&str, &str); 7] = [
    ("wav", "audio/wav"),
    ("mp3", "audio/mpeg"),
    ("ogg", "audio/ogg"),
    ("opus", "audio/ogg"),
    ("flac", "audio/flac"),
    ("aac", "audio/aac"),
    ("m4a", "audio/mp4"),
];

/// The media type of the file `path` names when it is one the chat shows.
fn media_type(path: &str) -> Option<&'static str> {
    image_type(path).or_else(|| {
        let extension = Path::new(path)
            .extension()
            .and_then(|e| e.to_str())?
            .to_ascii_lowercase();
        AUDIO_TYPES
            .iter()
            .find(|(ext, _)| *ext == extension)
            .map(|(_, mime)| *mime)
    })
}

/// The media type and bytes of the image or audio file `path` in `workspace`; blocking.
pub fn read_media(workspace: &Path, path: &str) -> Result<(&'static str, Vec<u8>), ToolError> {
    let mime_type = media_type(path).ok_or_else(|| {
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
    fn images_models_take_and_audio_are_shown_and_nothing_else() {
        for (path, expected) in [
            ("a.png", "image/png"),
            ("a.JPG", "image/jpeg"),
            ("a.gif", "image/gif"),
            ("a.webp", "image/webp"),
            ("a.wav", "audio/wav"),
            ("a.mp3", "audio/mpeg"),
            ("a.ogg", "audio/ogg"),
            ("a.opus", "audio/ogg"),
            ("a.flac", "audio/flac"),
            ("a.aac", "audio/aac"),
            ("a.M4A", "audio/mp4"),
        ] {
            assert_eq!(media_type(path), Some(expected), "{path}");
        }
        for path in ["a.svg", "a.html", "a.bmp", "a.mp4", "a.mid", "a.pcm", "a"] {
            assert_eq!(media_type(path), None, "{path}");
        }
    }

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
