//! Files the user attaches to a message: images become image parts, text-like files become
//! attached text naming the file (up to [`TEXT_ATTACHMENT_CAP`]), PDF and Office documents are copied into the workspace
//! and attached as their text, anything else is copied into the workspace and the model is told
//! its path.

mod document;

pub use document::{DOCUMENT_ATTACHMENT_CHARS, DOCUMENT_EXTENSIONS};

use std::path::{Path, PathBuf};

use base64::Engine as _;
use hearth_protocol::{AttachedSource, ContentPart};

use crate::EngineError;

/// Largest text file attached inline; larger ones are copied into the workspace instead.
pub const TEXT_ATTACHMENT_CAP: u64 = 200 * 1024;
/// Largest image sent to the model.
pub const IMAGE_ATTACHMENT_CAP: u64 = 20 * 1024 * 1024;
/// Sub-folder of the workspace attachments are copied into.
pub const ATTACHMENTS_DIR: &str = "attachments";

const TEXT_EXTENSIONS: &[&str] = &[
    "txt",
    "md",
    "markdown",
    "csv",
    "tsv",
    "json",
    "jsonl",
    "yaml",
    "yml",
    "toml",
    "xml",
    "html",
    "css",
    "js",
    "mjs",
    "ts",
    "tsx",
    "jsx",
    "svelte",
    "vue",
    "py",
    "rs",
    "go",
    "java",
    "kt",
    "c",
    "h",
    "cc",
    "cpp",
    "hpp",
    "cs",
    "rb",
    "php",
    "swift",
    "sh",
    "bash",
    "zsh",
    "ps1",
    "sql",
    "ini",
    "cfg",
    "conf",
    "log",
    "tex",
    "r",
    "lua",
    "pl",
    "dart",
    "scala",
    "env",
    "gitignore",
];

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase()
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into())
}

/// Turns a file on disk into a content part, copying it into `workspace` when it is neither an
/// image nor small text.
pub fn prepare_attachment(path: &Path, workspace: &Path) -> Result<ContentPart, EngineError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| EngineError::Config(format!("cannot attach {}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(EngineError::Config(format!(
            "cannot attach {}: not a file",
            path.display()
        )));
    }
    let name = file_name(path);
    let ext = extension(path);
    if let Some(mime) = hearth_tools::image_type(&name) {
        if meta.len() <= IMAGE_ATTACHMENT_CAP {
            let bytes = std::fs::read(path)?;
            return Ok(image_part(&name, mime, &bytes));
        }
    }
    if TEXT_EXTENSIONS.contains(&ext.as_str()) && meta.len() <= TEXT_ATTACHMENT_CAP {
        let bytes = std::fs::read(path)?;
        if let Ok(text) = String::from_utf8(bytes) {
            return Ok(ContentPart::Attached {
                text: format!("Attached file `{name}`:\n```{ext}\n{text}\n```"),
                source: AttachedSource::File { name },
            });
        }
    }
    let copied = copy_into_workspace(path, &name, meta.len(), workspace)?;
    if DOCUMENT_EXTENSIONS.contains(&ext.as_str()) {
        if let ContentPart::File { path: relative, .. } = &copied {
            if let Some(part) = document::document_part(path, &name, relative) {
                return Ok(part);
            }
        }
    }
    Ok(copied)
}

/// An image part from raw bytes (pasted images).
pub fn image_part(name: &str, mime_type: &str, bytes: &[u8]) -> ContentPart {
    ContentPart::Image {
        mime_type: mime_type.to_string(),
        data: base64::engine::general_purpose::STANDARD.encode(bytes),
        name: Some(name.to_string()),
    }
}

fn copy_into_workspace(
    source: &Path,
    name: &str,
    size: u64,
    workspace: &Path,
) -> Result<ContentPart, EngineError> {
    let folder = workspace.join(ATTACHMENTS_DIR);
    std::fs::create_dir_all(&folder)?;
    let target = unique_target(&folder, name);
    std::fs::copy(source, &target)?;
    let relative = target
        .strip_prefix(workspace)
        .unwrap_or(&target)
        .to_string_lossy()
        .into_owned();
    Ok(ContentPart::File {
        name: name.to_string(),
        path: relative,
        size,
        mime_type: None,
    })
}

/// `name`, or `name (2)`, `name (3)`… when taken.
fn unique_target(folder: &Path, name: &str) -> PathBuf {
    let candidate = folder.join(name);
    if !candidate.exists() {
        return candidate;
    }
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem.to_string(), format!(".{ext}")),
        _ => (name.to_string(), String::new()),
    };
    (2..)
        .map(|n| folder.join(format!("{stem} ({n}){ext}")))
        .find(|p| !p.exists())
        .unwrap_or(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_text_and_other_files_each_take_their_path() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(&ws).unwrap();
        let png = dir.path().join("a.png");
        std::fs::write(&png, [0x89, b'P', b'N', b'G']).unwrap();
        assert!(
            matches!(prepare_attachment(&png, &ws).unwrap(), ContentPart::Image { mime_type, .. } if mime_type == "image/png")
        );

        let csv = dir.path().join("t.csv");
        std::fs::write(&csv, "a,b\n1,2\n").unwrap();
        let ContentPart::Attached { text, source } = prepare_attachment(&csv, &ws).unwrap() else {
            panic!()
        };
        assert!(text.contains("`t.csv`") && text.contains("1,2"));
        assert_eq!(
            source,
            hearth_protocol::AttachedSource::File {
                name: "t.csv".into()
            }
        );

        let big = dir.path().join("big.txt");
        std::fs::write(&big, "x".repeat(TEXT_ATTACHMENT_CAP as usize + 1)).unwrap();
        let zip = dir.path().join("data.zip");
        std::fs::write(&zip, [0u8, 1, 2]).unwrap();
        for (source, expected) in [
            (&big, "attachments/big.txt"),
            (&zip, "attachments/data.zip"),
        ] {
            let ContentPart::File { path, .. } = prepare_attachment(source, &ws).unwrap() else {
                panic!()
            };
            assert_eq!(path, expected);
            assert!(ws.join(expected).exists());
        }
        let ContentPart::File { path, .. } = prepare_attachment(&zip, &ws).unwrap() else {
            panic!()
        };
        assert_eq!(path, "attachments/data (2).zip");
    }

    #[test]
    fn folders_and_missing_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(prepare_attachment(dir.path(), dir.path()).is_err());
        assert!(prepare_attachment(&dir.path().join("nope"), dir.path()).is_err());
    }
}
