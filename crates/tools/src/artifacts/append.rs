//! `artifact_append` (artifact_id, sequence, content, expected_bytes): the next chunk, written at
//! the artifact's end. Sequences run from 0 without gaps; a retry of a chunk already appended
//! (same sequence, same content) succeeds without writing, anything else out of turn is refused
//! with the values expected.

use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_store::{Artifact, ArtifactChunk, ArtifactState};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{artifact_file, describe, finalized, hex, Book, MAX_ARTIFACT_BYTES, MAX_CHUNK_BYTES};
use crate::db;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};

pub(super) struct Append(pub(super) Book);

/// One append at a time in this process: the check, the write and the ledger entry go together.
static APPENDS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactAppendArgs {
    /// The id `artifact_create` returned.
    #[schemars(length(min = 1, max = 100))]
    pub artifact_id: String,
    /// The chunk's number: 0 for the first, then 1, 2… without gaps.
    pub sequence: u64,
    /// The chunk's text (UTF-8).
    pub content: String,
    /// Optimistic check: the byte offset this chunk must start at (the artifact's size so far).
    pub expected_bytes: Option<u64>,
}

#[async_trait]
impl Tool for Append {
    type Args = ArtifactAppendArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::ARTIFACT_APPEND
    }

    fn description(&self) -> &str {
        "Append the next chunk to an artifact. Call once per turn and wait for the result before \
         writing the next chunk. sequence starts at 0 and has no gaps; retrying the same sequence \
         with the same content is safe. expected_bytes, if given, must equal the artifact's size \
         so far."
    }

    async fn run(&self, ctx: &ToolContext, args: ArtifactAppendArgs) -> Result<Value, ToolError> {
        if args.content.is_empty() {
            return Err(ToolError::invalid("content", "`content` must not be empty"));
        }
        if args.content.len() > MAX_CHUNK_BYTES {
            return Err(ToolError::new(
                ErrorKind::TooLarge,
                format!(
                    "the chunk has {} bytes; one chunk may have at most {MAX_CHUNK_BYTES}: split \
                     it over several sequences",
                    args.content.len()
                ),
            ));
        }
        let _turn = APPENDS.lock().await;
        let sequence = args.sequence;
        let (artifact, earlier) = self
            .0
            .of_session_with(&ctx.session_id, &args.artifact_id, move |s, artifact| {
                s.artifact_chunk(&artifact.id, sequence)
            })
            .await?;
        if artifact.state == ArtifactState::Final {
            return Err(finalized(&artifact));
        }
        let sha256 = hex(&Sha256::digest(args.content.as_bytes()));
        let bytes = args.content.len() as u64;
        if let Some(earlier) = earlier {
            if earlier.sha256 == sha256 && earlier.bytes == bytes {
                let mut out = describe(&artifact);
                out["status"] = "already_appended".into();
                out["sequence"] = sequence.into();
                return Ok(out);
            }
            return Err(ToolError::invalid(
                "sequence",
                format!(
                    "sequence {sequence} already holds other content ({} bytes, sha256 {}); \
                     expected sequence {} at byte {} — a retry must repeat the same content",
                    earlier.bytes,
                    &earlier.sha256[..12],
                    artifact.chunks,
                    artifact.bytes
                ),
            ));
        }
        refuse_out_of_turn(&artifact, sequence, args.expected_bytes)?;
        if artifact.bytes + bytes > MAX_ARTIFACT_BYTES {
            return Err(ToolError::new(
                ErrorKind::TooLarge,
                format!(
                    "the artifact would have {} bytes; an artifact may have at most \
                     {MAX_ARTIFACT_BYTES}",
                    artifact.bytes + bytes
                ),
            ));
        }
        let chunk = ArtifactChunk {
            sequence,
            start: artifact.bytes,
            bytes,
            sha256,
        };
        write_at(
            artifact_file(&ctx.data_dir, &artifact),
            chunk.start,
            args.content,
        )
        .await?;
        let id = artifact.id.clone();
        let after = db::write(&self.0.db, move |s| s.record_artifact_chunk(&id, &chunk)).await?;
        let mut out = describe(&after);
        out["status"] = "appended".into();
        out["sequence"] = sequence.into();
        out["chunk_bytes"] = bytes.into();
        Ok(out)
    }
}

/// Refuses a sequence other than the next one, and an `expected_bytes` other than the size.
fn refuse_out_of_turn(
    artifact: &Artifact,
    sequence: u64,
    expected_bytes: Option<u64>,
) -> Result<(), ToolError> {
    if sequence != artifact.chunks {
        let why = if sequence > artifact.chunks {
            "would leave a gap"
        } else {
            "is out of order"
        };
        return Err(ToolError::invalid(
            "sequence",
            format!(
                "sequence {sequence} {why}: expected sequence {} (the artifact has {} chunks, \
                 {} bytes)",
                artifact.chunks, artifact.chunks, artifact.bytes
            ),
        ));
    }
    match expected_bytes {
        Some(expected) if expected != artifact.bytes => Err(ToolError::invalid(
            "expected_bytes",
            format!(
                "expected_bytes is {expected}, but the artifact has {} bytes (expected_bytes {}, \
                 next sequence {})",
                artifact.bytes, artifact.bytes, artifact.chunks
            ),
        )),
        _ => Ok(()),
    }
}

/// Writes `content` at byte `start` of `path`, dropping anything past `start` first (bytes of
/// a write the ledger never recorded), and flushes it to disk.
async fn write_at(path: PathBuf, start: u64, content: String) -> Result<(), ToolError> {
    tokio::task::spawn_blocking(move || -> std::io::Result<()> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        file.set_len(start)?;
        file.seek(SeekFrom::Start(start))?;
        file.write_all(content.as_bytes())?;
        file.sync_data()
    })
    .await
    .map_err(|e| ToolError::internal(format!("the write task failed: {e}")))?
    .map_err(|e| ToolError::internal(format!("the chunk cannot be written: {e}")))
}
