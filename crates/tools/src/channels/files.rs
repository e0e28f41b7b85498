//! Files a channel tool sends: read from the workspace sandbox only (no `..`, no path or link
//! outside it), at most [`MAX_FILES`] of at most [`MAX_FILE_BYTES`] each, typed by extension.

use std::io::Read;
use std::path::Path;

use crate::error::{ErrorKind, ToolError};
use crate::fs::{PathArg, Sandbox};
use crate::images::image_type;

use super::{FileOrigin, OutFile};

/// The largest file a channel tool sends (Telegram bots may upload 50 MB, photos 10 MB).
pub const MAX_FILE_BYTES: u64 = 20 * 1024 * 1024;
/// The most files one message carries.
pub const MAX_FILES: usize = 10;

/// The media type of `name` and whether it is a picture ([`image_type`]: one a model takes).
fn media_type(name: &str) -> (&'static str, bool) {
    match image_type(name) {
        Some(mime) => (mime, true),
        None => (
            mime_guess::from_path(name)
                .first_raw()
                .unwrap_or("application/octet-stream"),
            false,
        ),
    }
}

/// Reads `paths` (argument `field`) from `workspace`; `as_image` asks for pictures, which
/// only image files can be.
pub(super) async fn read_files(
    workspace: &Path,
    field: &'static str,
    paths: Vec<String>,
    as_image: Option<bool>,
) -> Result<Vec<OutFile>, ToolError> {
    if paths.len() > MAX_FILES {
        return Err(ToolError::invalid(
            field,
            format!(
                "{} files given; one message carries at most {MAX_FILES}",
                paths.len()
            ),
        ));
    }
    let workspace = workspace.to_path_buf();
    tokio::task::spawn_blocking(move || {
        paths
            .iter()
            .map(|path| read_one(&workspace, field, path, as_image))
            .collect()
    })
    .await
    .map_err(|e| ToolError::internal(format!("reading the files failed: {e}")))?
}

fn read_one(
    workspace: &Path,
    field: &'static str,
    path: &str,
    as_image: Option<bool>,
) -> Result<OutFile, ToolError> {
    let sandbox = Sandbox::workspace(workspace)?;
    let arg = PathArg::new(field, path);
    let located = sandbox.locate(arg)?;
    let relative = located.existing_relative()?;
    let (file, meta) = located.open_file()?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(ToolError::new(
            ErrorKind::TooLarge,
            format!(
                "`{path}` is {} bytes; a channel file may be at most {MAX_FILE_BYTES} bytes",
                meta.len()
            ),
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ToolError::internal(format!("`{path}` could not be read: {e}")))?;
    let name = relative.rsplit('/').next().unwrap_or(&relative).to_string();
    let (mime_type, is_image) = media_type(&name);
    if as_image == Some(true) && !is_image {
        return Err(ToolError::invalid(
            "as_image",
            format!("`{path}` is not a picture (png, jpg, gif, webp); send it without as_image"),
        ));
    }
    Ok(OutFile {
        name,
        origin: FileOrigin::Workspace(relative),
        mime_type: mime_type.to_string(),
        bytes,
        as_image: as_image.unwrap_or(is_image),
    })
}

#[cfg(test)]
mod tests {
    use super::media_type;

    #[test]
    fn pictures_are_the_image_types_models_take_and_other_files_get_their_type() {
        assert_eq!(media_type("a.PNG"), ("image/png", true));
        assert_eq!(media_type("b.jpg"), ("image/jpeg", true));
        assert_eq!(media_type("c.webp"), ("image/webp", true));
        assert_eq!(media_type("d.bmp"), ("image/bmp", false));
        assert_eq!(media_type("e.pdf"), ("application/pdf", false));
        assert_eq!(media_type("f.md"), ("text/markdown", false));
        assert_eq!(media_type("g.mp3"), ("audio/mpeg", false));
        assert_eq!(
            media_type("h.docx").0,
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        );
        assert_eq!(media_type("i.unknown"), ("application/octet-stream", false));
        assert_eq!(media_type("Makefile"), ("application/octet-stream", false));
    }
}
