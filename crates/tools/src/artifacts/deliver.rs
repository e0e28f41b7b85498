//! `artifact_deliver` (artifact_id, caption, fallback_to_text): sends a final artifact to the
//! current session's chat — as a file where the channel takes files (the desktop shows it as an
//! artifact card), else, with `fallback_to_text`, as numbered text segments — and says which.

use std::sync::Arc;

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_store::{Artifact, ArtifactState};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::Book;
use crate::channels::send::{checked_text, no_files};
use crate::channels::{ChannelSink, FileOrigin, OutFile, Outbound, Sender, Target};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};

/// Characters per text segment (below Telegram's 4,096 per message, with room for the marker).
pub const SEGMENT_CHARS: usize = 3500;

pub(super) struct Deliver {
    pub(super) book: Book,
    pub(super) sink: Arc<dyn ChannelSink>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactDeliverArgs {
    /// The id of a finalized artifact.
    #[schemars(length(min = 1, max = 100))]
    pub artifact_id: String,
    /// A short note sent with it.
    #[schemars(length(max = 4000))]
    pub caption: Option<String>,
    /// Where the channel takes no files, send the text as numbered segments (default true).
    pub fallback_to_text: Option<bool>,
}

#[async_trait]
impl Tool for Deliver {
    type Args = ArtifactDeliverArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::ARTIFACT_DELIVER
    }

    fn description(&self) -> &str {
        "Send a finalized artifact to the current chat (only there): as a file where the channel \
         takes files, otherwise as numbered text segments unless fallback_to_text is false. The \
         result's `mode` says which (`file` or `text_segments`)."
    }

    async fn run(&self, ctx: &ToolContext, args: ArtifactDeliverArgs) -> Result<Value, ToolError> {
        let artifact = self
            .book
            .of_session(&ctx.session_id, &args.artifact_id)
            .await?;
        if artifact.state != ArtifactState::Final {
            return Err(ToolError::invalid(
                "artifact_id",
                format!(
                    "artifact {} is still open ({} chunks, {} bytes): call artifact_finalize \
                     before artifact_deliver",
                    artifact.id, artifact.chunks, artifact.bytes
                ),
            ));
        }
        let caption = match args.caption.as_deref().map(str::trim) {
            Some(caption) if !caption.is_empty() => checked_text("caption", caption)?,
            _ => String::new(),
        };
        let target = Target::parse("session", &ctx.session_id).map_err(|_| {
            ToolError::new(
                ErrorKind::DeliveryFailed,
                format!("the current session `{}` is not a chat", ctx.session_id),
            )
        })?;
        let content = self.book.content(&ctx.data_dir, &artifact).await?;
        let sender = Sender::new(self.sink.clone());
        // A Hearth session (`desktop:…`, `cli:…`) is no configured channel and shows files.
        let takes_files = self.sink.supports_files(&target.channel).unwrap_or(true);
        let outbound = |text: String, files: Vec<OutFile>| Outbound {
            target: target.clone(),
            text,
            files,
            origin: ctx.session_id.clone(),
            model: None,
        };
        if takes_files {
            let file = OutFile {
                name: artifact.filename.clone(),
                origin: FileOrigin::Artifact(artifact.id.clone()),
                mime_type: mime_type(&artifact.filename).to_string(),
                bytes: content.into_bytes(),
                as_image: false,
            };
            let mut out = sender.deliver(outbound(caption, vec![file])).await?;
            out["mode"] = "file".into();
            out["artifact_id"] = artifact.id.into();
            return Ok(out);
        }
        if args.fallback_to_text == Some(false) {
            return Err(no_files(&target.channel));
        }
        let segments = segments(&content, SEGMENT_CHARS);
        let limit = self.book.settings.max_text_segments as usize;
        if segments.len() > limit {
            return Err(ToolError::new(
                ErrorKind::TooLarge,
                format!(
                    "channel `{}` takes no files and the artifact needs {} text segments of \
                     {SEGMENT_CHARS} characters; at most {limit} are sent \
                     (artifacts.max_text_segments)",
                    target.channel,
                    segments.len()
                ),
            ));
        }
        deliver_segments(&sender, &artifact, &caption, segments, |text| {
            outbound(text, Vec::new())
        })
        .await
    }
}

/// Sends each segment as `[i/n]` plus its text (the caption before the first), in order,
/// stopping at the first the channel refuses.
async fn deliver_segments(
    sender: &Sender,
    artifact: &Artifact,
    caption: &str,
    segments: Vec<String>,
    outbound: impl Fn(String) -> Outbound,
) -> Result<Value, ToolError> {
    let count = segments.len();
    let mut message_ids = Vec::new();
    let mut last = json!({});
    for (index, segment) in segments.into_iter().enumerate() {
        let mut text = String::new();
        if index == 0 && !caption.is_empty() {
            text.push_str(caption);
            text.push_str("\n\n");
        }
        text.push_str(&format!(
            "[{}/{count}] {}\n{segment}",
            index + 1,
            artifact.filename
        ));
        last = sender.deliver(outbound(text)).await.map_err(|error| {
            ToolError::new(
                error.kind,
                format!("segment {} of {count}: {}", index + 1, error.message),
            )
        })?;
        if let Some(ids) = last["message_ids"].as_array() {
            message_ids.extend(ids.iter().cloned());
        }
    }
    last["message_ids"] = Value::Array(message_ids);
    last["mode"] = "text_segments".into();
    last["segments"] = count.into();
    last["artifact_id"] = artifact.id.clone().into();
    Ok(last)
}

/// `text` in pieces of at most `max` characters, cut after a line where one fits.
fn segments(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut current_chars = 0;
    for line in text.split_inclusive('\n') {
        let mut rest = line;
        loop {
            let chars = rest.chars().count();
            if current_chars + chars <= max {
                current.push_str(rest);
                current_chars += chars;
                break;
            }
            if current_chars > 0 {
                out.push(std::mem::take(&mut current));
                current_chars = 0;
                continue;
            }
            let cut = rest.char_indices().nth(max).map_or(rest.len(), |(i, _)| i);
            out.push(rest[..cut].to_string());
            rest = &rest[cut..];
        }
    }
    if !current.is_empty() || out.is_empty() {
        out.push(current);
    }
    out
}

/// The media type of an artifact's file name. An artifact is text, so a type its extension
/// names that is not text (`.ts` is an MPEG stream to `mime_guess`) gives `text/plain`, as does
/// an unknown extension.
fn mime_type(filename: &str) -> &'static str {
    mime_guess::from_path(filename)
        .iter_raw()
        .find(|mime| mime.starts_with("text/") || *mime == "application/json")
        .unwrap_or("text/plain")
}

#[cfg(test)]
mod tests {
    use super::{mime_type, segments};

    #[test]
    fn an_artifact_is_sent_as_the_text_type_its_extension_names_else_plain_text() {
        for (name, expected) in [
            ("report.md", "text/markdown"),
            ("report.markdown", "text/markdown"),
            ("data.csv", "text/csv"),
            ("data.tsv", "text/tab-separated-values"),
            ("data.json", "application/json"),
            ("page.html", "text/html"),
            ("feed.xml", "text/xml"),
            ("config.yaml", "text/x-yaml"),
            ("main.rs", "text/x-rust"),
            ("app.js", "text/javascript"),
            ("notes.txt", "text/plain"),
            ("index.ts", "text/plain"),
            ("picture.svg", "text/plain"),
            ("notes", "text/plain"),
        ] {
            assert_eq!(mime_type(name), expected, "{name}");
        }
    }

    #[test]
    fn segments_cut_after_lines_and_split_long_lines() {
        assert_eq!(segments("ab\ncd\nef\n", 6), ["ab\ncd\n", "ef\n"]);
        assert_eq!(segments("今天天气很好", 4), ["今天天气", "很好"]);
        assert_eq!(segments("", 4), [""]);
    }
}
